// Package atomicfile is the one way credence writes a file atomically:
// a temp file in the same directory, its mode set before the data, write,
// fsync, close, rename over the target, fsync of the directory; the temp
// file removed on any error. Every file credence replaces goes through it
// (MEMORY.md and its archive, Claude Code's settings, CLAUDE.md, service
// definitions, install state), so a failed or full-disk write never leaves
// a temp file behind and a crash never leaves a torn file.
//
// Temp files are named as natefinch/atomic names them, the target's name
// followed by random digits (os.CreateTemp(dir, base)), which
// markdown.SweepTemps recognises when a killed writer left one.
//
// It imports only the standard library.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path with data: the file keeps its
// permission bits if it exists (following a symbolic link to read them),
// and is created with mode otherwise. The name path itself is replaced: a
// symbolic link there becomes a regular file, so callers that mean to
// write through a link resolve it first. Readers see the old file or the
// new one, never a mix, and after a crash the file is one or the other.
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	tmp, err := WriteTemp(path, data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return errors.Join(fmt.Errorf("replace %s: %w", path, err), remove(tmp))
	}
	return SyncDir(filepath.Dir(path))
}

// WriteTemp writes data to a new file beside path and returns its name,
// for callers that put it in place themselves (markdown swaps it in with
// renameat2). The file is named path's base name followed by random
// digits, has mode (set before any data is written, so the bytes are never
// readable more widely), and is fsynced and closed. On any error it is
// removed and the name is "".
func WriteTemp(path string, data []byte, mode fs.FileMode) (string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base)
	if err != nil {
		return "", fmt.Errorf("create temp for %s: %w", path, err)
	}
	// The temp file's name lives in its own variable: the deferred removal
	// must not depend on the results, which error returns blank.
	tmp := f.Name()
	if err := fill(f, data, mode); err != nil {
		_ = f.Close() // already failing; the write error is the one to report
		return "", errors.Join(err, remove(tmp))
	}
	if err := f.Close(); err != nil {
		return "", errors.Join(fmt.Errorf("close temp %s: %w", tmp, err), remove(tmp))
	}
	return tmp, nil
}

// fill sets the temp file's mode, writes data and fsyncs it.
func fill(f *os.File, data []byte, mode fs.FileMode) error {
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("chmod temp %s: %w", f.Name(), err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write temp %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync temp %s: %w", f.Name(), err)
	}
	return nil
}

// remove deletes a temp file that will not be used, reporting a failure
// (the file then waits for markdown.SweepTemps or a person).
func remove(tmp string) error {
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove temp %s: %w", tmp, err)
	}
	return nil
}

// SyncDir fsyncs a directory so that a rename or a new file in it survives
// a crash.
func SyncDir(dir string) error {
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
