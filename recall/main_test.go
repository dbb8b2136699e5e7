package recall

import (
	"os"
	"testing"
)

var sharedDir string

// tempDir returns a directory shared by the tests of the package and
// removed when they finish (t.TempDir belongs to one test; the labelled
// history is loaded once for all of them).
func tempDir() (string, error) {
	if sharedDir == "" {
		d, err := os.MkdirTemp("", "credence-recall-*")
		if err != nil {
			return "", err
		}
		sharedDir = d
	}
	return sharedDir, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range fixtures {
		f.db.Close()
	}
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}
