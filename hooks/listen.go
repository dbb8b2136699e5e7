package hooks

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/hookrelay"
)

// Listen opens the agent's hook socket at path (hookrelay.SocketPath): the
// directory is created private when missing (and must be private when
// present), a socket file left by an agent that died is removed, and the
// new socket is readable and writable by this user only. The caller must
// hold the agent's instance lock, which is what makes removing an existing
// socket safe.
func Listen(path string) (net.Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("listen for hooks: %w", err)
	}
	if err := hookrelay.CheckPrivateDir(dir); err != nil {
		return nil, fmt.Errorf("listen for hooks: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("listen for hooks: %s exists and is not a socket", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("listen for hooks: remove stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen for hooks: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("listen for hooks: %w", err)
	}
	return ln, nil
}
