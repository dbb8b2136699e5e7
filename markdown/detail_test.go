package markdown

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseMemoryNote(t *testing.T) {
	tests := []struct {
		name, in string
		want     MemoryNote
	}{
		{"current layout", "---\nname: Prefers pnpm\ndescription: \"User wants pnpm, not npm\"\nmetadata:\n  type: feedback\n---\n\nUse pnpm for installs.\n",
			MemoryNote{Name: "Prefers pnpm", Description: "User wants pnpm, not npm", Type: "feedback", Body: "Use pnpm for installs."}},
		{"top-level type, CRLF", "---\r\nname: 'It''s Ana'\r\ntype: User\r\n---\r\nAna is a data scientist.\r\n",
			MemoryNote{Name: "It's Ana", Type: "user", Body: "Ana is a data scientist."}},
		{"no frontmatter", "Just a note.\n", MemoryNote{Body: "Just a note."}},
		{"unterminated frontmatter is body", "---\nname: x\nbody", MemoryNote{Body: "---\nname: x\nbody"}},
		{"other metadata keys ignored", "---\nname: n\nmetadata:\n  source: x\n  type: project\nother:\n  type: user\n---\nb",
			MemoryNote{Name: "n", Type: "project", Body: "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseMemoryNote([]byte(tt.in)); got != tt.want {
				t.Errorf("ParseMemoryNote = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDetailName(t *testing.T) {
	got := DetailName("bl_01JABCDEFGHJKMNPQRSTVWXYZ", "User prefers Bun over Node.js — always!")
	if !validDetailName(got) {
		t.Fatalf("DetailName = %q, not a valid name", got)
	}
	if !strings.HasPrefix(got, "credence-user-prefers-bun-over-node-js-") || !strings.HasSuffix(got, "vwxyz.md") {
		t.Errorf("DetailName = %q", got)
	}
	if n := DetailName("bl_x", "日本語"); !validDetailName(n) {
		t.Errorf("DetailName of non-ASCII = %q, not valid", n)
	}
	long := DetailName("bl_01JABCDEFGHJKMNPQRSTVWXYZ", strings.Repeat("word ", 100))
	if len(long) > 100 || !validDetailName(long) {
		t.Errorf("long DetailName = %q", long)
	}
}

func TestWriteDetailsKeepsOthersFiles(t *testing.T) {
	dir := t.TempDir()
	root := Root{Dir: dir}
	mine := Detail{ID: "bl_01JAAAAAAAAAAAAAAAAAAAAAA1", Statement: "User prefers Bun", Type: TypeUser, Confidence: 0.8, Evidence: 4,
		Sources: map[string]int{"conversations": 3, "Claude's memory files": 1}, Replaced: "User prefers npm", Updated: time.Unix(0, 0)}
	mine.File = DetailName(mine.ID, mine.Statement)
	// A file a person named like ours, without credence's mark.
	theirs := filepath.Join(dir, "credence-notes-abc.md")
	claude := filepath.Join(dir, "user_role.md")
	for p, c := range map[string]string{theirs: "my own notes\n", claude: "---\nname: role\n---\nx\n"} {
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := WriteDetails(dir, root, []Detail{mine})
	if err != nil || st.Written != 1 {
		t.Fatalf("WriteDetails = %+v, %v", st, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, mine.File))
	if err != nil {
		t.Fatal(err)
	}
	note := ParseMemoryNote(b)
	if note.Name != "User prefers Bun" || note.Type != TypeUser || !OwnDetail(b) {
		t.Errorf("detail file reads as %+v (own %v):\n%s", note, OwnDetail(b), b)
	}
	for _, w := range []string{"Confidence: 0.80 from 4 pieces of evidence", "Sources: 3 conversations, 1 Claude's memory files", "How to apply:", "Replaced: User prefers npm"} {
		if !strings.Contains(note.Body, w) {
			t.Errorf("detail body lacks %q:\n%s", w, note.Body)
		}
	}
	// Unchanged: no write. Then the belief leaves: its file goes, the others stay.
	if st, err := WriteDetails(dir, root, []Detail{mine}); err != nil || st.Written != 0 {
		t.Errorf("second WriteDetails = %+v, %v", st, err)
	}
	if st, err := WriteDetails(dir, root, nil); err != nil || st.Removed != 1 {
		t.Errorf("WriteDetails(nil) = %+v, %v", st, err)
	}
	for _, p := range []string{theirs, claude} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v (credence removed a file it did not write)", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, mine.File)); !os.IsNotExist(err) {
		t.Errorf("detail file still there: %v", err)
	}
	if !HasClaudeMemoryFiles(dir) {
		t.Error("HasClaudeMemoryFiles = false with user_role.md there")
	}
	if err := os.Remove(claude); err != nil {
		t.Fatal(err)
	}
	if HasClaudeMemoryFiles(dir) {
		t.Error("HasClaudeMemoryFiles = true with only credence-notes-abc.md (no frontmatter)")
	}
}
