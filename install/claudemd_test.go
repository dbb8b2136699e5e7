package install

import (
	"os"
	"path/filepath"
	"testing"
)

const importLine = "@~/.claude-memory/MEMORY.md"

func TestEnsureImportLine(t *testing.T) {
	tests := []struct {
		name    string
		content *string // nil: no file
		want    string
		changed bool
	}{
		{name: "missing file", want: importLine + "\n", changed: true},
		{name: "empty file", content: new(""), want: importLine + "\n", changed: true},
		{name: "appends after a final newline", content: new("# Me\n\nUse tabs.\n"), want: "# Me\n\nUse tabs.\n" + importLine + "\n", changed: true},
		{name: "adds the missing newline first", content: new("# Me"), want: "# Me\n" + importLine + "\n", changed: true},
		{name: "already there", content: new("# Me\n" + importLine + "\nmore\n"), want: "# Me\n" + importLine + "\nmore\n"},
		{name: "already there with blanks", content: new("  " + importLine + "  \r\n"), want: "  " + importLine + "  \r\n"},
		{name: "a longer path is not the line", content: new(importLine + ".bak\n"), want: importLine + ".bak\n" + importLine + "\n", changed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude", "CLAUDE.md")
			if tt.content != nil {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(*tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			changed, err := EnsureImportLine(path, importLine)
			if err != nil || changed != tt.changed {
				t.Fatalf("EnsureImportLine = %v, %v; want %v", changed, err, tt.changed)
			}
			if got, _ := os.ReadFile(path); string(got) != tt.want {
				t.Errorf("CLAUDE.md = %q, want %q", got, tt.want)
			}
			if changed, err := EnsureImportLine(path, importLine); err != nil || changed {
				t.Errorf("second EnsureImportLine = %v, %v; want no change", changed, err)
			}
		})
	}
}

func TestRemoveImportLineRestoresOriginal(t *testing.T) {
	tests := []string{"# Me\n\nUse tabs.\n", "", "  indented\n\n"}
	for _, original := range tests {
		t.Run(original, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "CLAUDE.md")
			if err := os.WriteFile(path, []byte(original), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := EnsureImportLine(path, importLine); err != nil {
				t.Fatal(err)
			}
			changed, err := RemoveImportLine(path, importLine)
			if err != nil || !changed {
				t.Fatalf("RemoveImportLine = %v, %v; want changed", changed, err)
			}
			if got, _ := os.ReadFile(path); string(got) != original {
				t.Errorf("CLAUDE.md = %q, want the original %q", got, original)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
				t.Errorf("mode = %o, want the original 644", info.Mode().Perm())
			}
			if changed, err := RemoveImportLine(path, importLine); err != nil || changed {
				t.Errorf("second RemoveImportLine = %v, %v; want no change", changed, err)
			}
		})
	}
}

func TestRemoveImportLineMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "CLAUDE.md")
	if changed, err := RemoveImportLine(path, importLine); err != nil || changed {
		t.Errorf("RemoveImportLine = %v, %v; want nothing", changed, err)
	}
}
