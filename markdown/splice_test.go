package markdown

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

var (
	secA = RenderSection(Section{Beliefs: []Entry{{ID: "bl_a", Statement: "User prefers Bun over Node.js", Confidence: 0.85, Evidence: 7}}})
	secB = RenderSection(Section{
		Beliefs: []Entry{{ID: "bl_b", Statement: "The API uses Postgres", Confidence: 0.9, Evidence: 4}},
		Former:  []FormerEntry{{ID: "bl_a", Statement: "User prefers Bun over Node.js", Was: 0.85, Now: 0.45, Date: demoted}},
	})
)

// oldSection is a section as an earlier run wrote it.
const oldSection = BeginMarker + "\n## Beliefs\n\n- Old belief (confidence: 0.75, evidence: 3)\n\n" + EndMarker + "\n"

func TestSpliceRepairs(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty file", "", secA},
		{"no markers", "# Notes\n\n- a note\n", secA + "\n# Notes\n\n- a note\n"},
		{"no markers, starts blank", "\n# Notes\n", secA + "\n# Notes\n"},
		{"intact section at top", oldSection + "\n# Notes\n", secA + "\n# Notes\n"},
		{"intact section, no newline after END", strings.TrimSuffix(oldSection, "\n"), secA},
		{"intact section, text right after END", oldSection + "tail", secA + "tail"},
		{"front matter stays first", "---\nname: memory\n---\n# Notes\n", "---\nname: memory\n---\n" + secA + "\n# Notes\n"},
		{"front matter with a section below", "---\nname: m\n---\n" + oldSection + "x\n", "---\nname: m\n---\n" + secA + "x\n"},
		{"unclosed front matter is text", "---\nname: m\n", secA + "\n---\nname: m\n"},
		{"byte-order mark stays first", "\xEF\xBB\xBF# Notes\n", "\xEF\xBB\xBF" + secA + "\n# Notes\n"},
		{"markers in a fenced block do not count", "```\n" + oldSection + "```\n", secA + "\n```\n" + oldSection + "```\n"},
		{"markers in an indented block do not count", "    " + BeginMarker + "\n", secA + "\n    " + BeginMarker + "\n"},
		{"markers in a list item do not count", "- item\n  " + BeginMarker + "\n", secA + "\n- item\n  " + BeginMarker + "\n"},
		{"marker with other text on its line does not count", BeginMarker + " x\n", secA + "\n" + BeginMarker + " x\n"},
		{"section moved down", "# Notes\n\nintro\n\n" + oldSection + "\n## 2026-02-20\n- x\n", secA + "\n# Notes\n\nintro\n\n\n## 2026-02-20\n- x\n"},
		{"two sections", oldSection + "\nmiddle\n\n" + oldSection + "end\n", secA + "\nmiddle\n\nend\n"},
		{"END deleted", BeginMarker + "\n## Beliefs\n\n- Old belief (confidence: 0.75, evidence: 3)\n\n# Notes\n", secA + "\n# Notes\n"},
		{"END deleted, person's lines kept", BeginMarker + "\n## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n- I typed this\n\nand this\n\n# Notes\n",
			secA + "\n- I typed this\n\nand this\n\n# Notes\n"},
		{"BEGIN deleted", "## Beliefs\n\n- Old belief (confidence: 0.75, evidence: 3)\n\n" + EndMarker + "\n\n# Notes\n", secA + "\n# Notes\n"},
		{"BEGIN deleted below the person's text", "# Mine\n\nkeep me\n## Beliefs\n- Old (confidence: 0.75, evidence: 3)\n" + EndMarker + "\n",
			secA + "\n# Mine\n\nkeep me\n"},
		{"both markers deleted", "## Beliefs\n\n- Old belief (confidence: 0.75, evidence: 3)\n\n## Former Beliefs\n\n- [NO LONGER TRUE] x (was: 0.80, now: 0.40, demoted: 2026-01-02)\n\n# Notes\n",
			secA + "\n# Notes\n"},
		{"a person's own ## Beliefs list is not generated", "## Beliefs\n\n- I believe in tests\n", secA + "\n## Beliefs\n\n- I believe in tests\n"},
		{"text typed inside the section moves below it", BeginMarker + "\n## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n\nA note I wrote here.\n\n## My list\n- mine\n\n" + EndMarker + "\nrest\n",
			secA + "A note I wrote here.\n\n## My list\n- mine\nrest\n"},
		{"bullets typed inside the section go to the caller", BeginMarker + "\n## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n- Added by hand\n  over two lines\n\n" + EndMarker + "\n",
			secA},
		{"person's lines in a duplicate section are kept", oldSection + "\n" + BeginMarker + "\n## Beliefs\n- Old (confidence: 0.75, evidence: 3)\n- typed in the copy\n" + EndMarker + "\n",
			secA + "\n- typed in the copy\n"},
		{"stray END then a section", EndMarker + "\n# Notes\n" + oldSection, secA + "\n# Notes\n"},
		{"CRLF lines survive", "# Notes\r\n\r\n" + strings.ReplaceAll(oldSection, "\n", "\r\n") + "tail\r\n", secA + "\n# Notes\r\n\r\ntail\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Splice([]byte(tt.doc), secA)
			if err != nil {
				t.Fatalf("Splice(): %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Splice(%q)\n got %q\nwant %q", tt.doc, got, tt.want)
			}
			again, err := Splice(got, secA)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("Splice() is not idempotent: %q, %v", again, err)
			}
			if p, ok := ParseSection(got); !ok || p.Damaged {
				t.Errorf("ParseSection(result) ok=%v damaged=%v, want a sound section", ok, p.Damaged)
			}
		})
	}
}

// TestSpliceKeepsBytesOutsideMarkers replaces the section of settled
// documents and checks that only the section's bytes changed.
func TestSpliceKeepsBytesOutsideMarkers(t *testing.T) {
	tails := map[string]string{
		"nothing":              "",
		"notes":                "\n# Notes\n\n- [Bun](bun.md) — runtime notes\n",
		"no final newline":     "\nlast line",
		"CRLF":                 "\r\n# Notes\r\nx\r\n",
		"markers in code":      "\n```\n" + secB + "```\n",
		"trailing white space": "\n  \n\t\n",
		"unicode":              "\n## 2026-02-20 — Größe 文档 😀\n",
	}
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			for _, front := range []string{"", "---\na: 1\n---\n"} {
				doc := front + secA + tail
				got, err := Splice([]byte(doc), secB)
				if err != nil {
					t.Fatalf("Splice(): %v", err)
				}
				if want := front + secB + tail; string(got) != want {
					t.Errorf("Splice(%q)\n got %q\nwant %q", doc, got, want)
				}
			}
		})
	}
}

func TestSpliceRejectsBadSections(t *testing.T) {
	tests := []struct {
		name, section string
	}{
		{"empty", ""},
		{"no markers", "## Beliefs\n"},
		{"no END", BeginMarker + "\n## Beliefs\n"},
		{"text before BEGIN", "x\n" + BeginMarker + "\n" + EndMarker + "\n"},
		{"text after END", BeginMarker + "\n" + EndMarker + "\nx\n"},
		{"END hidden in a fence", BeginMarker + "\n```\n" + EndMarker + "\n"},
		{"a third marker", BeginMarker + "\n" + BeginMarker + "\n" + EndMarker + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Splice([]byte("# Notes\n"), tt.section); !errors.Is(err, ErrBadSection) {
				t.Errorf("Splice(section %q) error = %v, want ErrBadSection", tt.section, err)
			}
		})
	}
	t.Run("missing final newline is added", func(t *testing.T) {
		got, err := Splice(nil, strings.TrimSuffix(secA, "\n"))
		if err != nil || string(got) != secA {
			t.Errorf("Splice() = %q, %v; want %q", got, err, secA)
		}
	})
}
