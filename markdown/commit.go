package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/natefinch/atomic"
)

// errConflict reports that the file changed between our read and our
// replace; the caller re-reads and tries again. No data was lost.
var errConflict = errors.New("file changed underneath")

// maxRestores bounds how often replaceFile puts a lock-free writer's version
// back when writes keep landing while it does so.
const maxRestores = 64

// replaceFile atomically replaces path with data provided path still holds
// expected (or, when existed is false, still does not exist), and returns
// errConflict when it does not. The data is written to a temp file in the
// same directory with the name natefinch/atomic gives its temp files (the
// target's name followed by random digits, which SweepTemps knows), chmodded
// to mode, fsynced and closed; then the temp file takes path's place and
// the directory is fsynced.
//
// How it takes path's place decides what a writer that ignores our lock
// (Claude Code) can lose; see swapIn.
func replaceFile(path string, expected []byte, existed bool, data []byte, mode os.FileMode) (err error) {
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp) // best effort; SweepTemps catches what remains
		}
	}()
	if err := swapIn(tmp, path, expected, data, existed); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeTemp writes data to a new temp file beside path and returns its name.
func writeTemp(path string, data []byte, mode os.FileMode) (name string, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base) // same naming as atomic.WriteFile
	if err != nil {
		return "", fmt.Errorf("create temp for %s: %w", path, err)
	}
	name = f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(name)
		}
	}()
	// Mode before data, so the bytes are never readable more widely than
	// the target's.
	if err := f.Chmod(mode); err != nil {
		return "", fmt.Errorf("chmod temp %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		return "", fmt.Errorf("write temp %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("sync temp %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("close temp %s: %w", name, err)
	}
	return name, nil
}

// renameChecked is the portable swapIn: check, then rename with
// natefinch/atomic. A lock-free writer whose own rename lands between the
// check and the rename loses that write; the window is a few microseconds.
func renameChecked(tmp, path string, expected []byte, existed bool) error {
	current, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if existed {
			return errConflict
		}
	case err != nil:
		return fmt.Errorf("re-read %s: %w", path, err)
	case !existed || !bytes.Equal(current, expected):
		return errConflict
	}
	if err := atomic.ReplaceFile(tmp, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// syncDir fsyncs a directory so a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open dir %s: %w", dir, err)
	}
	if err := d.Sync(); err != nil {
		_ = d.Close()
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	if err := d.Close(); err != nil {
		return fmt.Errorf("close dir %s: %w", dir, err)
	}
	return nil
}
