//go:build unix

package hookrelay

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocalBinaryIn: the front execs credence-hook-local when it is
// installed beside it (it starts faster), else credence; a file that is
// not executable is neither.
func TestLocalBinaryIn(t *testing.T) {
	dir := t.TempDir()
	put := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if p, ok := localBinaryIn(dir); ok {
		t.Errorf("empty directory: %q", p)
	}
	put(leanName, 0o644)
	if p, ok := localBinaryIn(dir); ok {
		t.Errorf("only a non-executable %s: %q", leanName, p)
	}
	put(localName, 0o755)
	if p, ok := localBinaryIn(dir); !ok || filepath.Base(p) != localName {
		t.Errorf("credence only: %q, %v", p, ok)
	}
	os.Chmod(filepath.Join(dir, leanName), 0o755)
	if p, ok := localBinaryIn(dir); !ok || filepath.Base(p) != leanName {
		t.Errorf("both: %q, %v; want %s", p, ok, leanName)
	}
}
