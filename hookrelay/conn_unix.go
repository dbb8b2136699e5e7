//go:build unix

package hookrelay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// fdConn is the front's end of the agent's socket, driven by plain
// syscalls: a non-blocking descriptor, with poll(2) waiting for it up to
// the deadline. An os.File would do the same through the runtime's network
// poller, whose set-up (epoll, an eventfd, registering and unregistering
// the descriptor) cost the front about a tenth of a millisecond of the few
// it has (docs/BENCHMARKS.md, Hooks).
type fdConn struct {
	fd       int
	deadline time.Time // zero: none
}

// dial connects to the agent's Unix socket. It does without package net,
// whose resolver would link C into credence-hook. A connect that would
// block means the agent's backlog is full, which is reported like no agent
// at all.
func dial(path string) (agentConn, error) {
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
	return &fdConn{fd: fd}, nil
}

// SetDeadline bounds every later Read and Write; a zero t removes the
// bound.
func (c *fdConn) SetDeadline(t time.Time) error {
	c.deadline = t
	return nil
}

func (c *fdConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(c.fd, p)
		switch {
		case err == nil && n == 0:
			return 0, io.EOF
		case err == nil:
			return n, nil
		case errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.EAGAIN):
			if err := waitFD(c.fd, unix.POLLIN, c.deadline); err != nil {
				return 0, err
			}
		default:
			return 0, err
		}
	}
}

func (c *fdConn) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := unix.Write(c.fd, p[done:])
		switch {
		case err == nil:
			done += n
		case errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.EAGAIN):
			if err := waitFD(c.fd, unix.POLLOUT, c.deadline); err != nil {
				return done, err
			}
		default:
			return done, err
		}
	}
	return done, nil
}

func (c *fdConn) Close() error { return unix.Close(c.fd) }

// waitFD waits until fd is ready for events or deadline (zero: none)
// passes, when it returns os.ErrDeadlineExceeded. A hang-up or error on fd
// counts as ready: the read or write that follows reports it.
func waitFD(fd int, events int16, deadline time.Time) error {
	for {
		timeout := -1
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return os.ErrDeadlineExceeded
			}
			timeout = int((left + time.Millisecond - 1) / time.Millisecond)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: events}}
		n, err := unix.Poll(fds, timeout)
		switch {
		case errors.Is(err, unix.EINTR):
		case err != nil:
			return err
		case n > 0:
			return nil
		}
	}
}
