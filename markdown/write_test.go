package markdown

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// constant renders the same section whatever the file holds.
func constant(section string) RenderFunc {
	return func(ParsedSection, bool) (string, error) { return section, nil }
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // umask
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteSection(t *testing.T) {
	tests := []struct {
		name     string
		existing *string // nil: no file
		mode     os.FileMode
		want     string
		wantMode os.FileMode
	}{
		{"new file is 0600", nil, 0, secA, 0o600},
		{"existing mode is kept", ptr("# Notes\n"), 0o644, secA + "\n# Notes\n", 0o644},
		{"old section replaced, notes untouched", ptr(oldSection + "\n# Notes\n- [a](a.md)\n"), 0o640, secA + "\n# Notes\n- [a](a.md)\n", 0o640},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "MEMORY.md")
			if tt.existing != nil {
				writeFile(t, path, *tt.existing, tt.mode)
			}
			res, err := WriteSection(context.Background(), path, constant(secA), WriteOptions{})
			if err != nil {
				t.Fatalf("WriteSection(): %v", err)
			}
			got := readFile(t, path)
			if got != tt.want {
				t.Errorf("file =\n%q\nwant\n%q", got, tt.want)
			}
			if !res.Changed || res.Attempts != 1 || res.Hash != ContentHash([]byte(got)) {
				t.Errorf("WriteSection() = %+v, want Changed, 1 attempt, hash of the file", res)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != tt.wantMode {
				t.Errorf("mode = %v, want %v", info.Mode().Perm(), tt.wantMode)
			}
			assertOnlyFiles(t, filepath.Dir(path), "MEMORY.md", "MEMORY.md.lock")
		})
	}
}

func TestWriteSectionSkipsUnchanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	writeFile(t, path, secA+"\n# Notes\n", 0o600)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := WriteSection(context.Background(), path, constant(secA), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed || !os.SameFile(before, after) || res.Hash != ContentHash([]byte(secA+"\n# Notes\n")) {
		t.Errorf("WriteSection() = %+v and replaced=%v; want no write and the file's hash", res, !os.SameFile(before, after))
	}
}

func TestWriteSectionRenderSeesCurrentSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	writeFile(t, path, BeginMarker+"\n## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n- Typed by a person\n\n"+EndMarker+"\n", 0o600)
	var seen []Bullet
	_, err := WriteSection(context.Background(), path, func(p ParsedSection, ok bool) (string, error) {
		if !ok {
			t.Error("render got ok=false for a file with a section")
		}
		seen = p.Bullets(HeadingBeliefs)
		s := Section{}
		for _, b := range seen { // carry the person's bullet forward, as the agent does
			s.Beliefs = append(s.Beliefs, Entry{Statement: b.Statement, Confidence: 1, Evidence: 1})
		}
		return RenderSection(s), nil
	}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[1].Statement != "Typed by a person" || seen[1].Generated() {
		t.Fatalf("render saw %+v, want the generated and the typed bullet", seen)
	}
	if got := readFile(t, path); !strings.Contains(got, "- Typed by a person (confidence: 1.00, evidence: 1)") {
		t.Errorf("file lacks the carried-forward bullet:\n%s", got)
	}
}

func TestWriteSectionDirectories(t *testing.T) {
	t.Run("missing directory is skipped", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "projects", "-gone", "memory")
		_, err := WriteSection(context.Background(), filepath.Join(dir, "MEMORY.md"), constant(secA), WriteOptions{})
		if !errors.Is(err, ErrNoDirectory) {
			t.Errorf("WriteSection() error = %v, want ErrNoDirectory", err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("directory %s was created", dir)
		}
	})
	t.Run("created when asked", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), ".claude-memory")
		if _, err := WriteSection(context.Background(), filepath.Join(dir, "MEMORY.md"), constant(secA), WriteOptions{CreateDir: true}); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(dir)
		if err != nil || info.Mode().Perm() != 0o700 {
			t.Errorf("directory = %v, %v; want mode 0700", info, err)
		}
	})
}

func TestWriteSectionFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "synced", "MEMORY.md")
	if err := os.Mkdir(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, real, "# Notes\n", 0o600)
	link := filepath.Join(dir, "MEMORY.md")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSection(context.Background(), link, constant(secA), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced by a file: %v, %v", info, err)
	}
	if got := readFile(t, real); got != secA+"\n# Notes\n" {
		t.Errorf("target = %q", got)
	}
}

func TestWriteSectionLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	held := flock.New(LockPath(path))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	_, err := WriteSection(context.Background(), path, constant(secA), WriteOptions{LockTimeout: 30 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Errorf("WriteSection() under a held lock: error = %v, want ErrLocked", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file written without the lock")
	}
}

func TestWriteSectionRenderError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	writeFile(t, path, "# Notes\n", 0o600)
	boom := errors.New("store unavailable")
	_, err := WriteSection(context.Background(), path, func(ParsedSection, bool) (string, error) { return "", boom }, WriteOptions{})
	if !errors.Is(err, boom) {
		t.Errorf("error = %v, want the render's error", err)
	}
	if got := readFile(t, path); got != "# Notes\n" {
		t.Errorf("file changed to %q", got)
	}
}

func TestWriteSectionRejectsBadRender(t *testing.T) {
	path := filepath.Join(t.TempDir(), "MEMORY.md")
	writeFile(t, path, "# Notes\n", 0o600)
	_, err := WriteSection(context.Background(), path, constant("## Beliefs\n"), WriteOptions{})
	if !errors.Is(err, ErrBadSection) {
		t.Errorf("error = %v, want ErrBadSection", err)
	}
	if got := readFile(t, path); got != "# Notes\n" {
		t.Errorf("file changed to %q", got)
	}
}

func assertOnlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}

func ptr(s string) *string { return &s }
