package testkit

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// FilesContaining lists the files under dir whose bytes contain text,
// skipping the paths in except: the check behind "the secret is nowhere on
// disk" and "a forget leaves no byte behind".
func FilesContaining(t *testing.T, dir, text string, except ...string) []string {
	t.Helper()
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	var hits []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || skip[path] {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(text)) {
			hits = append(hits, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}
