//go:build !linux

package hookrelay

import (
	"io"
	"time"
)

// readStdin reads the hook's stdin with ReadInput: poll(2), which
// ReadStdin uses, does not work on every kind of descriptor outside Linux
// (on macOS, not on terminals and other devices).
func readStdin(stdin io.Reader, max int64, timeout time.Duration) ([]byte, error) {
	return ReadInput(stdin, max, timeout)
}
