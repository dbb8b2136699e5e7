//go:build unix

package transcript

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without waiting for a writer, which
// opening a FIFO would; Open then refuses it.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
