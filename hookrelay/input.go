package hookrelay

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Errors of reading stdin.
var (
	ErrInputTooLarge = errors.New("input larger than hook.stdin_max_bytes")
	ErrInputTimeout  = errors.New("stdin not closed within hook.stdin_timeout")
)

// ReadInput reads all of r, at most max bytes, waiting at most timeout.
// The read runs in its own goroutine so a writer that never closes stdin
// cannot hold the hook; that goroutine touches nothing but r and the
// buffer it hands back.
func ReadInput(r io.Reader, max int64, timeout time.Duration) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, max+1))
		ch <- result{b, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-ch:
		if res.err != nil {
			return nil, fmt.Errorf("read stdin: %w", res.err)
		}
		if int64(len(res.b)) > max {
			return nil, fmt.Errorf("read stdin: %w (%d bytes)", ErrInputTooLarge, max)
		}
		return res.b, nil
	case <-t.C:
		return nil, fmt.Errorf("read stdin: %w (%v)", ErrInputTimeout, timeout)
	}
}
