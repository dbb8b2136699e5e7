package consolidate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// LockFile is the name of the cycle lock beside the database.
const LockFile = "consolidate.lock"

// ErrBusy means another consolidation cycle holds the lock.
var ErrBusy = errors.New("another consolidation cycle is running")

// TryLock takes the cycle lock at path without waiting. It returns ErrBusy
// when another process (or another handle in this one) holds it. The lock
// is released by the returned function or when the process exits.
func TryLock(path string) (unlock func() error, err error) {
	fl, err := open(path)
	if err != nil {
		return nil, err
	}
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, ErrBusy
	}
	return fl.Unlock, nil
}

// Lock takes the cycle lock at path, waiting (polling every retry) until it
// is free or ctx ends.
func Lock(ctx context.Context, path string, retry time.Duration) (unlock func() error, err error) {
	fl, err := open(path)
	if err != nil {
		return nil, err
	}
	ok, err := fl.TryLockContext(ctx, retry)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, ErrBusy
	}
	return fl.Unlock, nil
}

func open(path string) (*flock.Flock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return flock.New(path, flock.SetPermissions(0o600)), nil
}
