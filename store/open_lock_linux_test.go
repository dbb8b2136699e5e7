package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// SQLite's lock bytes on the database file (os_unix.c): a connection to a
// WAL database holds a read lock on one of the SHARED_SIZE bytes after
// sharedFirst for as long as it is open.
const (
	sharedFirst = 0x40000000 + 2
	sharedSize  = 510
)

// sharedLocked reports whether some POSIX read lock covers the SHARED range
// of the file: an open file description (OFD) lock conflicts with POSIX
// locks even of this very process, so F_OFD_GETLK sees our own.
func sharedLocked(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Closing this descriptor would drop the process's POSIX locks on the
	// file, which is the very bug under test; keep it open for the test.
	t.Cleanup(func() { f.Close() })
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: sharedFirst, Len: sharedSize}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		t.Fatal(err)
	}
	return lk.Type != unix.F_UNLCK
}

// TestOpenKeepsOtherConnectionsLocks opens a database twice in one process,
// as the agent does (its own DB and the hook server's). Opening must not
// drop the SHARED lock the first DB's connection holds: without it another
// process closing its last connection checkpoints and truncates the WAL
// under this one, and the database ends up malformed.
func TestOpenKeepsOtherConnectionsLocks(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "credence.db")
	first, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	conn, err := first.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM episodes`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if !sharedLocked(t, path) {
		t.Fatal("an open WAL connection holds no SHARED lock; the test's premise is wrong")
	}
	second, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if !sharedLocked(t, path) {
		t.Error("opening the database a second time dropped the first connection's SHARED lock")
	}
}
