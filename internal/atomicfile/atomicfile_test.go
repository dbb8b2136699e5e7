package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// names lists dir's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		existing os.FileMode // 0: no file yet
		mode     os.FileMode
		wantMode os.FileMode
	}{
		{"new file gets the mode", 0, 0o600, 0o600},
		{"new file with a wider mode", 0, 0o644, 0o644},
		{"existing file keeps its mode", 0o640, 0o600, 0o640},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			if tt.existing != 0 {
				if err := os.WriteFile(path, []byte("old"), tt.existing); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, []byte("new"), tt.mode); err != nil {
				t.Fatalf("WriteFile: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != "new" {
				t.Errorf("file holds %q, %v; want %q", got, err, "new")
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != tt.wantMode {
				t.Errorf("mode %v, want %v", info.Mode().Perm(), tt.wantMode)
			}
			if n := names(t, dir); !slices.Equal(n, []string{"settings.json"}) {
				t.Errorf("directory holds %q, want only the file", n)
			}
		})
	}
}

// TestWriteFileFailedRenameLeavesNoTemp fails the step after the temp file
// is written, the rename (the target is a non-empty directory), on every
// system: the temp file must go.
func TestWriteFileFailedRenameLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "MEMORY.md")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("data"), 0o600); err == nil {
		t.Fatal("WriteFile over a non-empty directory succeeded")
	}
	if n := names(t, dir); !slices.Equal(n, []string{"MEMORY.md"}) {
		t.Errorf("directory holds %q after the failed write, want only the directory that was there", n)
	}
}

func TestWriteTempNaming(t *testing.T) {
	dir := t.TempDir()
	tmp, err := WriteTemp(filepath.Join(dir, "MEMORY.md"), []byte("x"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(tmp)
	if len(base) <= len("MEMORY.md") || base[:len("MEMORY.md")] != "MEMORY.md" {
		t.Fatalf("temp name %q, want MEMORY.md followed by digits", base)
	}
	for _, c := range base[len("MEMORY.md"):] {
		if c < '0' || c > '9' {
			t.Fatalf("temp name %q, want MEMORY.md followed by digits", base)
		}
	}
}
