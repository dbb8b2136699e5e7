//go:build unix

package hookrelay

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkOwner requires fi (of path) to belong to this process's user.
func checkOwner(path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: unknown owner: %w", path, ErrNotPrivate)
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s: owned by uid %d: %w", path, st.Uid, ErrNotPrivate)
	}
	return nil
}
