package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// LockFile is the instance lock in the data directory.
const LockFile = "agent.lock"

// ErrRunning means another agent holds the data directory.
var ErrRunning = errors.New("another credence agent is running for this data directory")

// instanceLock is the held agent.lock.
type instanceLock struct {
	fl   *flock.Flock
	path string
}

// lockInstance takes <dataDir>/agent.lock without waiting and writes this
// process's ID into it, so a second agent can say which one runs. The
// operating system releases the lock if the process dies.
func lockInstance(dataDir string) (*instanceLock, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("lock agent: %w", err)
	}
	path := filepath.Join(dataDir, LockFile)
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock agent: %w", err)
	}
	if !ok {
		if pid := readPID(path); pid > 0 {
			return nil, fmt.Errorf("%w (pid %d, lock %s)", ErrRunning, pid, path)
		}
		return nil, fmt.Errorf("%w (lock %s)", ErrRunning, path)
	}
	// The pid is a courtesy for the message above; failing to write it does
	// not matter.
	_ = os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
	return &instanceLock{fl: fl, path: path}, nil
}

func (l *instanceLock) release() error {
	if err := l.fl.Unlock(); err != nil {
		return fmt.Errorf("unlock agent: %w", err)
	}
	return nil
}

func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}
