package markdown

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempNameRe matches the temp files our writers leave: atomicfile names them
// with os.CreateTemp(dir, base), which appends a random uint32 in decimal
// to the target's name ("MEMORY.md2718281828"), as natefinch/atomic did.
var tempNameRe = lazyRegexp(`^(.+\.md)([0-9]{1,10})$`)

// SweepTemps removes the temp files a killed credence writer left in dir and
// returns how many it removed. A file counts as ours when its name is a
// memory file's name followed only by digits, and that memory file is
// MEMORY.md or MEMORY.archive.md or has a MEMORY.md.lock-style lock beside it
// (or is the archive of one that has). Each is removed only while holding
// its memory file's lock, so a live writer's temp file is never touched;
// when another writer holds the lock the file is left for the next sweep.
// Claude Code's own temp files (MEMORY.md.tmp.<pid>.<ms>) do not match and
// are never touched. Call it at agent start for every target directory,
// with the target's memory root (the zero Root is dir itself): a directory
// or lock reached through a link that leads out of it is left alone, and
// the error wraps ErrOutsideRoot.
func SweepTemps(dir string, root Root) (int, error) {
	if root.Dir == "" {
		root.Dir = dir
	}
	realRoot, err := root.resolved(filepath.Join(dir, MemoryFileName))
	if err != nil {
		return 0, fmt.Errorf("sweep %s: %w", dir, err)
	}
	if _, err := checkInside(realRoot, dir); err != nil {
		return 0, fmt.Errorf("sweep %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sweep %s: %w", dir, err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		m := tempNameRe().FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		owner, ok := memoryFileFor(m[1], names)
		if !ok {
			continue
		}
		if _, err := checkInside(realRoot, LockPath(filepath.Join(dir, owner))); err != nil {
			errs = append(errs, err) // taking that lock would create a file outside
			continue
		}
		done, err := removeUnderLock(filepath.Join(dir, owner), filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
		}
		if done {
			removed++
		}
	}
	return removed, errors.Join(errs...)
}

// memoryFileFor returns the memory file whose lock guards temp files of the
// file named target.
func memoryFileFor(target string, names map[string]bool) (string, bool) {
	switch {
	case target == MemoryFileName || names[LockPath(target)]:
		return target, true
	case target == ArchivePath(MemoryFileName):
		return MemoryFileName, true
	}
	for name := range names {
		if owner, found := strings.CutSuffix(name, ".lock"); found && owner != "" && ArchivePath(owner) == target {
			return owner, true
		}
	}
	return "", false
}

// removeUnderLock removes temp if the lock of memoryFile is free.
func removeUnderLock(memoryFile, temp string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	unlock, err := lockMemory(ctx, memoryFile, 50*time.Millisecond)
	if errors.Is(err, ErrLocked) {
		return false, nil // a writer is live; its temp file is not stale
	}
	if err != nil {
		return false, err
	}
	defer unlock()
	if err := os.Remove(temp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("remove stale temp %s: %w", temp, err)
	}
	return true, nil
}
