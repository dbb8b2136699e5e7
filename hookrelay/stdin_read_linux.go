package hookrelay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// readStdin reads the hook's stdin with ReadStdin when it is a file
// descriptor, else with ReadInput.
func readStdin(stdin io.Reader, max int64, timeout time.Duration) ([]byte, error) {
	if f, ok := stdin.(*os.File); ok {
		return ReadStdin(int(f.Fd()), max, timeout)
	}
	return ReadInput(stdin, max, timeout)
}

// ReadStdin reads all of the descriptor fd (the hook's stdin), at most max
// bytes, waiting at most timeout for it to reach end of file. Like
// ReadInput, but with poll(2) in place of a goroutine and a timer, which a
// process that lives a few milliseconds notices.
func ReadStdin(fd int, max int64, timeout time.Duration) ([]byte, error) {
	deadline := time.Now().Add(timeout)
	buf := make([]byte, 0, 4<<10)
	for {
		if int64(len(buf)) > max {
			return nil, fmt.Errorf("read stdin: %w (%d bytes)", ErrInputTooLarge, max)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := cap(buf) // never ask for more than one byte past the cap
		if int64(end) > max+1 {
			end = int(max + 1)
		}
		room := buf[len(buf):end]
		if err := waitFD(fd, unix.POLLIN, deadline); errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("read stdin: %w (%v)", ErrInputTimeout, timeout)
		} else if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		n, err := unix.Read(fd, room)
		switch {
		case err == nil && n == 0:
			return buf, nil
		case err == nil:
			buf = buf[:len(buf)+n]
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.EAGAIN):
		default:
			return nil, fmt.Errorf("read stdin: %w", err)
		}
	}
}
