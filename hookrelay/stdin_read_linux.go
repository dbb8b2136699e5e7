package hookrelay

import (
	"io"
	"os"
	"time"
)

// readStdin reads the hook's stdin with ReadStdin when it is a file
// descriptor, else with ReadInput.
func readStdin(stdin io.Reader, max int64, timeout time.Duration) ([]byte, error) {
	if f, ok := stdin.(*os.File); ok {
		return ReadStdin(int(f.Fd()), max, timeout)
	}
	return ReadInput(stdin, max, timeout)
}
