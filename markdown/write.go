package markdown

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// Sentinel errors callers branch on.
var (
	// ErrLocked means another credence process held MEMORY.md.lock past
	// the timeout.
	ErrLocked = errors.New("memory file is locked by another credence writer")
	// ErrNoDirectory means the file's directory does not exist and
	// CreateDir was not set; for a project target the project is gone or
	// Claude Code never ran there, and the caller skips it.
	ErrNoDirectory = errors.New("memory file directory does not exist")
	// ErrContention means lock-free writers changed the file on every
	// attempt; nothing was lost, and the next cycle tries again.
	ErrContention = errors.New("memory file kept changing while being written")
)

// RenderFunc returns the section to write given the section the file holds
// now (ParseSection of the freshly read file; zero and not ok when it has
// none). It runs under the lock and may run more than once per WriteSection
// when the file changes underneath, so it must not have side effects that
// cannot be repeated. Bullets under the section's own headings are replaced
// by what it returns: one a person added must be carried into the result by
// the caller or it is gone from the file (DiffSection finds them). An error
// aborts the write and is returned as is.
type RenderFunc func(current ParsedSection, ok bool) (string, error)

// WriteOptions tunes WriteSection. The zero value is ready to use.
type WriteOptions struct {
	// CreateDir creates a missing parent directory (mode 0700) instead of
	// returning ErrNoDirectory.
	CreateDir bool
	// LockTimeout bounds the wait for MEMORY.md.lock; default 5 s. The
	// context's deadline also applies.
	LockTimeout time.Duration
	// MaxAttempts bounds re-reads after the file changed underneath;
	// default 20.
	MaxAttempts int
	// Root is the memory root the file, its lock and its temp files must
	// stay inside (see Root); the zero value is the file's own directory.
	Root Root
}

// WriteResult says what WriteSection did.
type WriteResult struct {
	// Changed is false when the file already held the section.
	Changed bool
	// Hash is the hex SHA-256 of the file as WriteSection left it (written
	// or found unchanged). The watcher ignores events whose file content has
	// this hash: they are our own write.
	Hash string
	// Attempts counts reads of the file, 1 when nothing interfered.
	Attempts int
}

// WriteSection makes the file at path hold the section render returns, at
// the top, with every byte outside the markers as the file had them. Under
// the lock (LockPath(path), gofrs/flock) it reads the file, renders, splices
// and, when anything changed, replaces the file atomically (temp file in the
// same directory, fsync, rename, fsync of the directory; mode 0600 for a new
// file, the existing mode otherwise). Claude Code writes MEMORY.md without
// our lock, so the replace only goes through if the file still holds what
// was read (see swapIn for how close that check is), and afterwards the file
// is read back: if a late writer put back an old section it starts again,
// and if it changed only text outside the markers that is their newer edit
// and stays. A symbolic link at path (or in its directory's path below
// opts.Root.Trusted) is followed when it leads to a place inside opts.Root:
// the file it points to is replaced and the link kept. One that leads out
// is not followed, and nothing is read, created or written: the error wraps
// ErrOutsideRoot.
func WriteSection(ctx context.Context, path string, render RenderFunc, opts WriteOptions) (WriteResult, error) {
	target, _, err := confine(path, opts.Root)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write %s: %w", path, err)
	}
	if err := ensureDir(filepath.Dir(path), opts.CreateDir); err != nil {
		return WriteResult{}, err
	}
	unlock, err := lockMemory(ctx, path, opts.LockTimeout)
	if err != nil {
		return WriteResult{}, err
	}
	defer unlock()

	attempts := opts.MaxAttempts
	if attempts <= 0 {
		attempts = 20
	}
	var res WriteResult
	for res.Attempts < attempts {
		res.Attempts++
		current, mode, existed, err := readMemory(target)
		if err != nil {
			return res, err
		}
		l := scan(current)
		section, err := render(l.parseSection())
		if err != nil {
			return res, err
		}
		sec, err := checkSection(section)
		if err != nil {
			return res, fmt.Errorf("render section for %s: %w", path, err)
		}
		out, err := spliceLayout(l, sec)
		if err != nil {
			return res, fmt.Errorf("splice %s: %w", path, err)
		}
		if existed && bytes.Equal(out, current) {
			res.Hash = contentHash(out)
			return res, nil
		}
		err = replaceFile(target, current, existed, out, mode)
		if errors.Is(err, errConflict) {
			if err := backoff(ctx, res.Attempts); err != nil {
				return res, fmt.Errorf("write %s: %w", path, err)
			}
			continue
		}
		if err != nil {
			return res, fmt.Errorf("write %s: %w", path, err)
		}
		res.Changed = true

		after, err := os.ReadFile(target)
		if err != nil {
			return res, fmt.Errorf("verify %s: %w", path, err)
		}
		if bytes.Equal(after, out) || scan(after).settled(sec) {
			res.Hash = contentHash(after)
			return res, nil
		}
		// A lock-free writer replaced the file with an older section since
		// the rename; go again from what it wrote.
		if err := backoff(ctx, res.Attempts); err != nil {
			return res, fmt.Errorf("write %s: %w", path, err)
		}
	}
	return res, fmt.Errorf("write %s after %d attempts: %w", path, res.Attempts, ErrContention)
}

// backoff waits before attempt n+1: Claude Code edits in bursts, and a
// retry inside the burst only collides again. The wait doubles from 1 ms to
// at most 100 ms, with jitter so two writers do not stay in step.
func backoff(ctx context.Context, n int) error {
	limit := min(time.Millisecond<<min(n-1, 7), 100*time.Millisecond)
	t := time.NewTimer(limit/2 + rand.N(limit/2+1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// ensureDir checks that dir exists, creating it when asked.
func ensureDir(dir string, create bool) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("memory directory %s: not a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("stat memory directory %s: %w", dir, err)
	case !create:
		return fmt.Errorf("%s: %w", dir, ErrNoDirectory)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create memory directory %s: %w", dir, err)
	}
	return nil
}

// lockMemory takes the lock every credence writer of path shares and returns
// its release.
func lockMemory(ctx context.Context, path string, timeout time.Duration) (func(), error) {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	lock := flock.New(LockPath(path), flock.SetPermissions(0o600))
	ok, err := lock.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("lock %s: %w", LockPath(path), err)
	}
	if !ok {
		if err := context.Cause(ctx); errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("lock %s: %w", LockPath(path), err)
		}
		return nil, fmt.Errorf("lock %s after %v: %w", LockPath(path), timeout, ErrLocked)
	}
	return func() { _ = lock.Unlock() }, nil
}

// readMemory reads the file, reporting its mode (0600 when it does not exist
// yet) and whether it exists.
func readMemory(path string) ([]byte, os.FileMode, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o600, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, false, fmt.Errorf("stat %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("read %s: not a regular file", path)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, 0, false, fmt.Errorf("read %s: %w", path, err)
	}
	return buf.Bytes(), info.Mode().Perm(), true, nil
}

// contentHash is the hash WriteResult.Hash reports.
func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ContentHash returns the hex SHA-256 of a file's bytes, comparable with
// WriteResult.Hash.
func ContentHash(b []byte) string { return contentHash(b) }
