package hookrelay

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// socketName is the socket's name in the data directory.
const socketName = "agent.sock"

// maxSocketPath is the longest socket path used as is: sun_path holds 108
// bytes on Linux and 104 on macOS, including the terminating NUL.
const maxSocketPath = 100

// SocketPath returns where the agent listens for hooks: agent.sock in the
// data directory, or, when that path is too long for a Unix socket address,
// /tmp/credence-<uid>/<hash of the data directory>.sock (FNV-1a: the
// directory is private, so the hash needs no strength, and crypto's package
// set-up would cost the front). Not $TMPDIR: the
// agent, started by systemd or launchd, and the hooks, started by Claude
// Code, need not agree on it.
func SocketPath(dataDir string) string {
	p := filepath.Join(dataDir, socketName)
	if len(p) <= maxSocketPath {
		return p
	}
	h := fnv.New64a()
	h.Write([]byte(filepath.Clean(dataDir)))
	dir := filepath.Join("/tmp", "credence-"+strconv.Itoa(os.Getuid()))
	return filepath.Join(dir, strconv.FormatUint(h.Sum64(), 16)+".sock")
}

// ErrNotPrivate reports a socket or directory another user could have
// placed or could replace; the front will not hand a prompt to it.
var ErrNotPrivate = errors.New("not private to this user")

// CheckPrivateDir requires dir to be a real directory (not a symlink)
// owned by this user that neither group nor others can write: the only kind
// of directory the agent's socket may live in.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory: %w", dir, ErrNotPrivate)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s: writable by group or others: %w", dir, ErrNotPrivate)
	}
	return checkOwner(dir, fi)
}

// checkSocket requires path to be a socket owned by this user in a private
// directory.
func checkSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%s: not a socket: %w", path, ErrNotPrivate)
	}
	if err := checkOwner(path, fi); err != nil {
		return err
	}
	return CheckPrivateDir(filepath.Dir(path))
}
