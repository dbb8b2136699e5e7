package markdown

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gofrs/flock"

	"github.com/credence-mem/credence/internal/atomicfile"
)

func TestSweepTemps(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name: should survive
		"MEMORY.md":                     true,
		"MEMORY.md.lock":                true,
		"MEMORY.md123456789":            false, // ours
		"MEMORY.md4294967295":           false, // ours, largest uint32
		"MEMORY.archive.md77":           false, // the archive's, ours
		"NOTES.md.lock":                 true,
		"NOTES.md31":                    false, // a configured target with a lock
		"NOTES.archive.md5":             false, // its archive
		"OTHER.md42":                    true,  // no lock: not ours
		"MEMORY.md.tmp.4242.1767225600": true,  // Claude Code's temp file
		"MEMORY.mdx1":                   true,
		"debugging.md":                  true,
		"MEMORY.md12345678901":          true, // 11 digits: not os.CreateTemp's
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "MEMORY.md999"), 0o700); err != nil { // not a file
		t.Fatal(err)
	}
	files["MEMORY.md999"] = true

	n, err := SweepTemps(dir, Root{})
	if err != nil {
		t.Fatalf("SweepTemps(): %v", err)
	}
	var want []string
	removed := 0
	for name, keep := range files {
		if keep {
			want = append(want, name)
		} else {
			removed++
		}
	}
	sort.Strings(want)
	if n != removed {
		t.Errorf("SweepTemps() = %d, want %d", n, removed)
	}
	assertOnlyFiles(t, dir, want...)
}

func TestSweepTempsSparesLiveWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	temp := path + "2024"
	if err := os.WriteFile(temp, []byte("half written"), 0o600); err != nil {
		t.Fatal(err)
	}
	held := flock.New(LockPath(path))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	n, err := SweepTemps(dir, Root{})
	if err != nil || n != 0 {
		t.Errorf("SweepTemps() under a held lock = %d, %v; want 0, nil", n, err)
	}
	if _, err := os.Stat(temp); err != nil {
		t.Errorf("a live writer's temp file was removed: %v", err)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if n, err := SweepTemps(dir, Root{}); err != nil || n != 1 {
		t.Errorf("SweepTemps() after release = %d, %v; want 1, nil", n, err)
	}
}

// TestSweepTempsKnowsAtomicNaming checks the temp names SweepTemps relies on
// against atomicfile, which writes every memory file and archive.
func TestSweepTempsKnowsAtomicNaming(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"MEMORY.md", "MEMORY.archive.md"} {
		tmp, err := atomicfile.WriteTemp(filepath.Join(dir, name), []byte("x"), 0o600)
		if err != nil {
			t.Fatal(err)
		}
		m := tempNameRe().FindStringSubmatch(filepath.Base(tmp))
		if m == nil || m[1] != name {
			t.Errorf("temp file %q does not match the sweep pattern for %s", filepath.Base(tmp), name)
		}
	}
}
