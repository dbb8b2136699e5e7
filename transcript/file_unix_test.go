//go:build unix

package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesNonRegular checks that a transcript path naming something
// that could block a reader or never end is refused before any read, and
// that a FIFO with no writer does not block the open.
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", "/dev/null", fifo, link, dir} {
		t.Run(path, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, _, err := ReadFile(t.Context(), path, 0)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) {
					t.Errorf("ReadFile(%s) error=%v, want ErrNotRegular", path, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadFile(%s) blocked", path)
			}
		})
	}
}
