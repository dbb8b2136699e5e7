//go:build unix

package hookrelay

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dial connects to the agent's Unix socket. It does without package net,
// whose resolver would link C into credence-hook (and cost its start-up):
// a non-blocking socket wrapped in an os.File has deadlines all the same.
// A connect that would block means the agent's backlog is full, which is
// reported like no agent at all.
func dial(path string) (*os.File, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return nil, fmt.Errorf("dial agent: %w", err)
	}
	unix.CloseOnExec(fd)
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("dial agent: %w", err)
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("dial agent: %w", err)
	}
	return os.NewFile(uintptr(fd), path), nil
}
