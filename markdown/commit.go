package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/credence-mem/credence/internal/atomicfile"
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
// same directory by atomicfile.WriteTemp (the target's name followed by
// random digits, which SweepTemps knows; mode set before the data; fsynced
// and closed); then the temp file takes path's place and the directory is
// fsynced.
//
// How it takes path's place decides what a writer that ignores our lock
// (Claude Code) can lose; see swapIn.
func replaceFile(path string, expected []byte, existed bool, data []byte, mode os.FileMode) error {
	tmp, err := atomicfile.WriteTemp(path, data, mode)
	if err != nil {
		return err // WriteTemp removed its temp file
	}
	if err := swapIn(tmp, path, expected, data, existed); err != nil {
		return errors.Join(err, discardTemp(tmp, path, data))
	}
	return atomicfile.SyncDir(filepath.Dir(path))
}

// renameChecked is the portable swapIn: check, then rename. A lock-free
// writer whose own rename lands between the check and the rename loses that
// write; the window is a few microseconds.
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
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// discardTemp removes the temp file of a replace that did not go through.
// It normally holds our bytes (or is gone); if an exchange failed half way
// and it holds what a lock-free writer wrote, that version is parked beside
// the file, as restore parks one, rather than deleted.
func discardTemp(tmp, path string, ours []byte) error {
	held, err := os.ReadFile(tmp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err == nil && !bytes.Equal(held, ours):
		kept := fmt.Sprintf("%s.conflict-%d", path, time.Now().UnixNano())
		if err := os.Rename(tmp, kept); err != nil {
			return fmt.Errorf("keep displaced version of %s: %w", path, err)
		}
		return nil
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove temp %s: %w", tmp, err)
	}
	return nil
}
