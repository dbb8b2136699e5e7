package markdown

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dated returns a "## <date> — title" section with n bullet lines.
func dated(date string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s — session notes\n\n", date)
	for i := range n {
		fmt.Fprintf(&b, "- %s note %d\n", date, i)
	}
	b.WriteString("\n")
	return b.String()
}

func TestEnforceBudget(t *testing.T) {
	intro := "# Project memory\n\nUndated intro line.\n\n"
	tests := []struct {
		name       string
		doc        string
		maxLines   int
		maxBytes   int
		wantMoved  []string // dates moved, oldest first
		wantRemain []string
	}{
		{"within budget moves nothing", secA + intro + dated("2026-01-01", 3), 200, 0, nil, []string{"2026-01-01"}},
		{"oldest by date moves first, wherever it is", secA + intro + dated("2026-03-01", 30) + dated("2026-01-15", 30) + dated("2026-02-01", 30), 60,
			0, []string{"2026-01-15", "2026-02-01"}, []string{"2026-03-01"}},
		{"byte budget", secA + intro + dated("2026-01-01", 20) + dated("2026-01-02", 20), 0, 900, []string{"2026-01-01"}, []string{"2026-01-02"}},
		{"undated sections stay even over budget", secA + "## Ideas\n\n" + strings.Repeat("- idea\n", 60) + dated("2026-01-01", 5), 40, 0,
			[]string{"2026-01-01"}, nil},
		{"headings in code blocks are not sections", secA + "```\n## 2026-01-01\n" + strings.Repeat("x\n", 50) + "```\n", 20, 0, nil, nil},
		{"section inside markers is never moved", BeginMarker + "\n## 2026-01-01 looks dated\n" + strings.Repeat("- x (confidence: 0.90, evidence: 3)\n", 5) + EndMarker + "\n" + dated("2026-02-01", 40), 20, 0,
			[]string{"2026-02-01"}, []string{"2026-01-01"}},
		{"a level-3 heading stays inside its section", secA + dated("2026-01-01", 10) + "### detail\nmore\n" + dated("2026-01-02", 40), 60, 0,
			[]string{"2026-01-01"}, []string{"2026-01-02"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "MEMORY.md")
			writeFile(t, path, tt.doc, 0o644)
			moved, err := EnforceBudget(context.Background(), path, tt.maxLines, tt.maxBytes, Root{})
			if err != nil {
				t.Fatalf("EnforceBudget(): %v", err)
			}
			if moved != len(tt.wantMoved) {
				t.Errorf("EnforceBudget() moved %d, want %d", moved, len(tt.wantMoved))
			}
			got := readFile(t, path)
			archive, err := os.ReadFile(ArchivePath(path))
			if len(tt.wantMoved) == 0 && err == nil {
				t.Errorf("archive written though nothing moved:\n%s", archive)
			}
			last := -1
			for _, d := range tt.wantMoved {
				if strings.Contains(got, "## "+d) {
					t.Errorf("section %s still in MEMORY.md", d)
				}
				at := strings.Index(string(archive), "## "+d)
				if at < 0 {
					t.Errorf("section %s not in the archive:\n%s", d, archive)
				}
				if at < last {
					t.Errorf("archive out of order: %s before an older section", d)
				}
				last = at
				if !strings.Contains(string(archive), d+" note 0\n") && !strings.Contains(tt.doc, "### detail") {
					t.Errorf("section %s archived without its lines", d)
				}
			}
			for _, d := range tt.wantRemain {
				if !strings.Contains(got, "## "+d) {
					t.Errorf("section %s was moved", d)
				}
			}
			// Everything not moved is byte for byte where it was.
			rest := tt.doc
			for _, d := range tt.wantMoved {
				start := strings.Index(rest, "## "+d)
				end := start + len("## "+d)
				if next := nextSectionEnd(rest[end:]); next >= 0 {
					end += next
				} else {
					end = len(rest)
				}
				rest = rest[:start] + rest[end:]
			}
			if got != rest {
				t.Errorf("MEMORY.md after =\n%q\nwant\n%q", got, rest)
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
				t.Errorf("mode after = %v, %v; want 0644 kept", info, err)
			}
		})
	}
}

// nextSectionEnd returns the offset of the next level-1 or level-2 heading
// line in s, or -1.
func nextSectionEnd(s string) int {
	off := strings.Index(s, "\n") + 1
	for off > 0 && off < len(s) {
		line := s[off:]
		if strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ") || strings.HasPrefix(line, BeginMarker) || strings.HasPrefix(line, EndMarker) {
			return off
		}
		next := strings.Index(line, "\n")
		if next < 0 {
			return -1
		}
		off += next + 1
	}
	return -1
}

func TestEnforceBudgetAppendsToArchive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	writeFile(t, ArchivePath(path), "# Archive\n\nolder stuff", 0o600)
	writeFile(t, path, secA+dated("2026-01-01", 10)+dated("2026-01-02", 10), 0o600)
	if _, err := EnforceBudget(context.Background(), path, 20, 0, Root{}); err != nil {
		t.Fatal(err)
	}
	archive := readFile(t, ArchivePath(path))
	if !strings.HasPrefix(archive, "# Archive\n\nolder stuff\n\n## 2026-01-01") {
		t.Errorf("archive =\n%q\nwant the old text kept and the section appended after a blank line", archive)
	}
	if n, err := EnforceBudget(context.Background(), filepath.Join(dir, "absent.md"), 1, 1, Root{}); n != 0 || err != nil {
		t.Errorf("EnforceBudget(missing file) = %d, %v; want 0, nil", n, err)
	}
}
