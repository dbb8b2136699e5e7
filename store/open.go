package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	_ "github.com/tursodatabase/go-libsql" // registers the "libsql" driver
)

// ErrLocked reports that the database stayed locked by another writer for
// longer than the busy timeout.
var ErrLocked = errors.New("database is locked")

// ErrNotFound reports that a row does not exist.
var ErrNotFound = errors.New("not found")

// Options tune how a database is opened.
type Options struct {
	// BusyTimeout is how long a statement waits for another writer's lock.
	// Hooks use a short one so they never block a prompt.
	BusyTimeout time.Duration
	// Params are the belief constants used when folding evidence.
	Params belief.Params
	// Now is the clock; nil means time.Now. Tests and the demo set it.
	Now func() time.Time
	// ReadOnly skips migrations; the database must already be current.
	ReadOnly bool
	// MmapBytes, when positive, lets every connection read up to that much
	// of the file through a shared memory map instead of copying pages into
	// its own cache. A long-lived reader of a large database (the agent
	// answering hooks) then finds index and row pages without a read call;
	// the mapped pages are the kernel's file cache, shared and reclaimable,
	// not the process's own memory.
	MmapBytes int64
	// CacheKiB, when positive, is each connection's page cache in KiB
	// (SQLite's default is 2,000 KiB).
	CacheKiB int

	// stopAt, when positive, applies the migrations only up to that
	// version (OpenAtVersion), whatever ReadOnly says.
	stopAt int
}

// DB is an open credence database.
type DB struct {
	sql       *sql.DB
	path      string
	params    belief.Params
	now       func() time.Time
	machineID string
	busy      time.Duration
	gate      writeGate
}

// Open opens (creating if needed) the database file at path, applies pending
// migrations and returns it. The file and its directory are created with
// modes 0600 and 0700.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.Params.LearningRate == 0 {
		opts.Params = belief.DefaultParams()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := createFile(path); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	conn, err := newConnector(fileURL(abs), opts.BusyTimeout, opts.MmapBytes, opts.CacheKiB)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sdb := sqlOpen(conn)
	db := &DB{sql: sdb, path: path, params: opts.Params, now: opts.Now, busy: opts.BusyTimeout, gate: gateFor(abs)}
	if err := db.init(ctx, opts.ReadOnly, opts.stopAt); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// createMu serializes createFile within the process.
var createMu sync.Mutex

// createFile creates the database file, mode 0600, when it does not exist,
// so SQLite (and its -wal and -shm files, which copy the main file's mode)
// never widen it past that. An existing file is left alone and never
// opened: closing any descriptor of a file drops every POSIX lock this
// process holds on it, including the SHARED lock another open DB's
// connection keeps on a WAL database, and a process that thinks it is the
// last one out then checkpoints and truncates the WAL under it, which
// corrupts the database. The mutex makes sure no connection of this process
// opens a new file before it is closed here.
func createFile(path string) error {
	createMu.Lock()
	defer createMu.Unlock()
	if _, err := os.Lstat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil // another process created it meanwhile
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// fileURL escapes a path into a file: URL. A raw "file:" DSN is cut at '#'
// or '?', which silently opens another file.
func fileURL(abs string) string { return (&url.URL{Scheme: "file", Path: abs}).String() }

// sqlOpen wraps the connector in a pool. One writer at a time is SQLite's
// rule anyway; a small pool keeps readers concurrent without piling up
// native connections.
func sqlOpen(c driver.Connector) *sql.DB {
	sdb := sql.OpenDB(c)
	sdb.SetMaxOpenConns(4)
	sdb.SetMaxIdleConns(4)
	return sdb
}

func (db *DB) init(ctx context.Context, readOnly bool, stopAt int) error {
	// Switching a new database to WAL takes an exclusive lock, and SQLite
	// answers "database is locked" at once rather than through the busy
	// handler when another process is opening the same new file (the hook
	// and the agent at first start). Retry within the busy timeout.
	deadline := time.Now().Add(db.busy)
	for {
		var mode string
		err := db.sql.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil {
			break
		}
		if err := wrap("set journal mode", err); !errors.Is(err, ErrLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	switch {
	case stopAt > 0:
		unlock, err := db.lockMigrations(ctx)
		if err != nil {
			return err
		}
		defer unlock()
		if err := db.migrateTo(ctx, stopAt); err != nil {
			return err
		}
		readOnly = false // a new database gets its machine ID
	case !readOnly && !db.current(ctx):
		unlock, err := db.lockMigrations(ctx)
		if err != nil {
			return err
		}
		defer unlock()
		if err := db.migrate(ctx); err != nil {
			return err
		}
	}
	id, err := db.ensureMachineID(ctx, readOnly)
	if err != nil {
		return err
	}
	db.machineID = id
	return nil
}

// Close checkpoints and closes the database. libSQL does not checkpoint when
// the last connection closes, so without this the WAL only grows, and every
// process that later opens the file alone (each hook run, when no agent
// holds it open) first rebuilds the WAL index by reading the whole WAL.
// The checkpoint runs with a zero busy timeout: when another process has
// the database open it fails at once, and that process keeps the WAL index
// valid, so nothing is lost by skipping it.
func (db *DB) Close() error {
	if conn, err := db.sql.Conn(context.Background()); err == nil {
		ctx := context.Background()
		if rows, err := conn.QueryContext(ctx, "PRAGMA busy_timeout = 0"); err == nil {
			rows.Close()
			if rows, err := conn.QueryContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err == nil {
				rows.Close()
			}
		}
		// This connection's busy timeout is now zero: close it rather
		// than return it to the pool.
		conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
	}
	return db.sql.Close()
}

// SQL returns the underlying handle for packages that run their own queries
// (sync, tests). Writes through it bypass the belief fold.
func (db *DB) SQL() *sql.DB { return db.sql }

// Path returns the database file path.
func (db *DB) Path() string { return db.path }

// MachineID returns this database's origin ID, written once at creation.
func (db *DB) MachineID() string { return db.machineID }

// Params returns the belief constants this handle folds evidence with.
func (db *DB) Params() belief.Params { return db.params }

// Now returns the handle's current time.
func (db *DB) Now() time.Time { return db.now() }

func (db *DB) ensureMachineID(ctx context.Context, readOnly bool) (string, error) {
	id, err := db.Meta(ctx, MetaMachineID)
	if err == nil && id != "" {
		return id, nil
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", err
	}
	if readOnly {
		return "", fmt.Errorf("read machine id: database not initialized")
	}
	id = ids.New(ids.Machine)
	if _, err := db.sql.ExecContext(ctx, `INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)`, MetaMachineID, id); err != nil {
		return "", wrap("write machine id", err)
	}
	return db.Meta(ctx, MetaMachineID)
}

// connector wraps the libSQL connector so every pooled connection gets the
// per-connection pragmas; without them concurrent writers see "database is
// locked" at once and deleted text survives in free pages.
type connector struct {
	driver.Connector
	pragmas []string
}

func newConnector(dsn string, busy time.Duration, mmap int64, cacheKiB int) (*connector, error) {
	probe, err := sql.Open("libsql", dsn)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	probe.Close()
	dc, ok := drv.(driver.DriverContext)
	if !ok {
		return nil, fmt.Errorf("libsql driver cannot open connectors")
	}
	c, err := dc.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	pragmas := []string{
		fmt.Sprintf("PRAGMA busy_timeout = %d", busy.Milliseconds()),
		"PRAGMA foreign_keys = ON",
		"PRAGMA secure_delete = ON",
		"PRAGMA synchronous = NORMAL",
	}
	if mmap > 0 {
		pragmas = append(pragmas, fmt.Sprintf("PRAGMA mmap_size = %d", mmap))
	}
	if cacheKiB > 0 {
		pragmas = append(pragmas, fmt.Sprintf("PRAGMA cache_size = %d", -cacheKiB))
	}
	return &connector{Connector: c, pragmas: pragmas}, nil
}

// Close closes the native database. database/sql calls it from DB.Close
// only when the connector implements io.Closer, which the embedded
// interface hides; without it libSQL never closes the database, the last
// connection never checkpoints, and every later process opening the file
// rebuilds its WAL index from an ever longer WAL.
func (c *connector) Close() error {
	if cl, ok := c.Connector.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("libsql connection cannot query")
	}
	for _, p := range c.pragmas {
		// PRAGMAs that echo a row fail through Exec, so run them as queries.
		rows, err := q.QueryContext(ctx, p, nil)
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		rows.Close()
	}
	return conn, nil
}

// wrap names the operation and maps SQLite's busy errors to ErrLocked.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is busy") {
		return fmt.Errorf("%s: %w (%v)", op, ErrLocked, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
