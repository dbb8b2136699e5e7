package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// swapIn puts tmp in path's place. On Linux it uses renameat2: with
// RENAME_NOREPLACE for a new file, so a file someone created meanwhile is a
// conflict rather than overwritten, and with RENAME_EXCHANGE for an existing
// one, which swaps the two names in one step. After the swap tmp's name holds
// exactly what path held at that instant, so a version a lock-free writer
// renamed into place after our read is never unlinked unseen: when the
// displaced file is not what we read, it is swapped back and the caller
// starts again from it.
//
// What remains: a writer that reads the file during the microseconds our
// version is in place before being swapped back writes from our version and
// loses its own previous change; a writer that rewrites the file in place
// (open, truncate, write) rather than renaming can land its bytes in the
// displaced file after we compared it. Filesystems without renameat2 flags
// fall back to renameChecked.
func swapIn(tmp, path string, expected, data []byte, existed bool) error {
	if !existed {
		err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_NOREPLACE)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EEXIST):
			return errConflict
		case unsupportedFlags(err):
			return renameChecked(tmp, path, expected, existed)
		}
		return fmt.Errorf("rename %s: %w", path, err)
	}

	current, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errConflict
	case err != nil:
		return fmt.Errorf("re-read %s: %w", path, err)
	case !bytes.Equal(current, expected):
		return errConflict // cheap early check; the exchange below is the real one
	}
	if err := exchange(tmp, path); err != nil {
		if unsupportedFlags(err) {
			return renameChecked(tmp, path, expected, existed)
		}
		return err
	}
	displaced, err := os.ReadFile(tmp)
	if err != nil {
		return fmt.Errorf("read displaced %s: %w", tmp, err)
	}
	if bytes.Equal(displaced, expected) {
		if err := os.Remove(tmp); err != nil {
			return fmt.Errorf("remove displaced %s: %w", tmp, err)
		}
		return nil
	}
	return restore(tmp, path, data)
}

// restore runs after an exchange displaced a version someone else wrote: tmp
// holds theirs, path ours. It swaps theirs back; if what comes out is not
// ours, yet another write landed on top of ours meanwhile, and that newer
// version is swapped in instead, until what comes out is what we expected to
// find. It then returns errConflict so the caller re-reads.
func restore(tmp, path string, ours []byte) error {
	atPath := ours
	for range maxRestores {
		wanted, err := os.ReadFile(tmp)
		if err != nil {
			return fmt.Errorf("read displaced %s: %w", tmp, err)
		}
		if err := exchange(tmp, path); err != nil {
			return err
		}
		out, err := os.ReadFile(tmp)
		if err != nil {
			return fmt.Errorf("read displaced %s: %w", tmp, err)
		}
		if bytes.Equal(out, atPath) {
			if err := os.Remove(tmp); err != nil {
				return fmt.Errorf("remove displaced %s: %w", tmp, err)
			}
			return errConflict
		}
		atPath = wanted
	}
	// Never delete a version someone wrote: park it where a person finds it.
	kept := fmt.Sprintf("%s.conflict-%d", path, time.Now().UnixNano())
	if err := os.Rename(tmp, kept); err != nil {
		return fmt.Errorf("keep displaced version of %s: %w", path, err)
	}
	return fmt.Errorf("restore %s: writes kept landing during %d swaps; a displaced version is in %s", path, maxRestores, kept)
}

func exchange(tmp, path string) error {
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return errConflict // path was removed since we read it
		}
		return fmt.Errorf("exchange %s: %w", path, err)
	}
	return nil
}

// unsupportedFlags reports a kernel or filesystem without renameat2 flags.
func unsupportedFlags(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP)
}
