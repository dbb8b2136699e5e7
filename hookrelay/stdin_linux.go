package hookrelay

import (
	"os"

	"golang.org/x/sys/unix"
)

// stdinFile returns a file positioned at the start of data: an anonymous
// memory file, so the prompt never touches a disk.
func stdinFile(data []byte, _ string) (*os.File, error) {
	fd, err := unix.MemfdCreate("credence-hook-stdin", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "credence-hook-stdin")
	return rewound(f, data)
}
