package syncer

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/store"
	_ "github.com/tursodatabase/go-libsql" // registers the "libsql" driver
)

// Remote is the database every machine pushes to and pulls from. The real
// one is a libSQL database reached through go-libsql; tests wrap it to
// inject faults.
type Remote interface {
	// Survey reads in one statement, so from one snapshot, the remote's
	// identity and schema version and, for each table, how many rows past
	// the cursor are not from skip and the highest sequence. A remote
	// without credence's tables gives a zero Survey.
	Survey(ctx context.Context, after store.SyncCursor, skip string) (Survey, error)
	// Prepare creates the log tables when they are missing and returns the
	// remote's identity, which changes when the remote is replaced.
	Prepare(ctx context.Context) (string, error)
	// Push stores a batch in one transaction, idempotently by ID, blanks the
	// text of anything a tombstone (pushed now or before) names, and
	// returns how many rows were new.
	Push(ctx context.Context, b store.SyncBatch) (int, error)
	// Pull returns up to limit rows of each table in want past the cursor,
	// in the remote's order, leaving out rows whose origin is skip. Row Seq
	// fields hold the remote's sequence.
	Pull(ctx context.Context, after store.SyncCursor, skip string, limit int, want Tables) (store.SyncBatch, error)
	// Close releases the connection.
	Close() error
}

// Tables is a set of the replicated tables.
type Tables uint8

// The replicated tables.
const (
	TableEpisodes Tables = 1 << iota
	TableEvidence
	TableEvents
	TableTombstones
	AllTables = TableEpisodes | TableEvidence | TableEvents | TableTombstones
)

// Survey is what one statement tells of the remote.
type Survey struct {
	ID     string // "" when the remote holds no credence tables yet
	Schema string // the sync schema version it was created with
	// Waiting counts, per table, the rows past the cursor not from skip:
	// what Pull would return. Head is each table's highest sequence.
	Waiting, Head store.SyncCursor
}

// Total is how many rows are waiting in all tables.
func (s Survey) Total() int {
	w := s.Waiting
	return int(w.Episodes + w.Evidence + w.Events + w.Tombstones)
}

// Dialer opens a connection to the remote.
type Dialer func(ctx context.Context) (Remote, error)

// remoteSchema is created on a remote that lacks it. rseq is the remote's
// sequence: SQLite commits writers one at a time and AUTOINCREMENT never
// reuses a value, so a reader that has seen rseq n will never later find a
// committed row below n, and a cursor over rseq misses nothing.
var remoteSchema = []string{
	`CREATE TABLE IF NOT EXISTS credence_sync (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS episodes (
		rseq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL DEFAULT '',
		project_path TEXT NOT NULL DEFAULT '', scope TEXT NOT NULL, kind TEXT NOT NULL, content TEXT NOT NULL,
		summary TEXT NOT NULL DEFAULT '', turn INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
		hlc INTEGER NOT NULL, origin TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS evidence (
		rseq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, belief_id TEXT NOT NULL, episode_id TEXT,
		source TEXT NOT NULL DEFAULT '', label TEXT NOT NULL, support REAL NOT NULL, reliability REAL NOT NULL,
		note TEXT NOT NULL DEFAULT '', turn INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
		hlc INTEGER NOT NULL, origin TEXT NOT NULL)`,
	`CREATE INDEX IF NOT EXISTS evidence_belief ON evidence(belief_id)`,
	`CREATE TABLE IF NOT EXISTS belief_events (
		rseq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, belief_id TEXT NOT NULL, kind TEXT NOT NULL,
		evidence_id TEXT, payload TEXT NOT NULL DEFAULT '{}', turn INTEGER NOT NULL DEFAULT 0,
		created_at INTEGER NOT NULL, hlc INTEGER NOT NULL, origin TEXT NOT NULL)`,
	`CREATE INDEX IF NOT EXISTS belief_events_belief ON belief_events(belief_id, kind)`,
	`CREATE TABLE IF NOT EXISTS tombstones (
		rseq INTEGER PRIMARY KEY AUTOINCREMENT, target_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
		created_at INTEGER NOT NULL, hlc INTEGER NOT NULL, origin TEXT NOT NULL)`,
}

// RemoteSchemaVersion is the layout of the remote's tables this credence
// writes, recorded in credence_sync; a remote with another is refused
// rather than written with the wrong layout.
const RemoteSchemaVersion = remoteSchemaVersion

const remoteSchemaVersion = "1"

// errDropped, returned by a test's fault hook, makes inTx drop the
// connection with its transaction still open, as a crashed process or a cut
// network would; the database rolls the transaction back when the
// connection goes.
var errDropped = errors.New("connection dropped")

// Dial returns a Dialer for the remote at rawURL with token. Nothing is
// opened until the Dialer is called.
func Dial(rawURL, token string) Dialer { return dialTimeout(rawURL, token, 0) }

// dialTimeout is Dial with a bound on each HTTP request (0 means
// DefaultRequestTimeout).
func dialTimeout(rawURL, token string, timeout time.Duration) Dialer {
	return func(ctx context.Context) (Remote, error) { return openRemote(ctx, rawURL, token, timeout) }
}

// sqlRemote is a Remote over database/sql and go-libsql.
type sqlRemote struct {
	db    *sql.DB
	scrub scrubber
	name  string
	// relay carries the requests of an HTTP remote; nil for a file.
	relay *relay
	// lastUse is when the pooled connection last finished an operation;
	// reuse is how long after that its stream is trusted to live.
	lastUse time.Time
	reuse   time.Duration
	// budget bounds the text of one statement of a push; it shrinks when
	// the remote refuses a request as too large.
	budget int
	// fault, when set by a test, runs at each step of a push; an error
	// stops the push there, before its transaction commits.
	fault func(step string) error
}

func openRemote(ctx context.Context, rawURL, token string, timeout time.Duration) (*sqlRemote, error) {
	scrub := newScrubber(rawURL, token)
	name := RedactURL(rawURL)
	dsn, err := driverDSN(rawURL, token)
	if err != nil {
		return nil, err
	}
	file := strings.HasPrefix(dsn, "file:")
	var rl *relay
	if file {
		if err := createPrivate(dsn); err != nil {
			return nil, fmt.Errorf("open remote %s: %w", name, err)
		}
	} else {
		base, err := remoteBase(rawURL)
		if err != nil {
			return nil, err
		}
		if rl, err = startRelay(base, timeout); err != nil {
			return nil, err
		}
		if dsn, err = driverDSN(rl.URL(), token); err != nil {
			rl.close()
			return nil, err
		}
	}
	conn, err := newRemoteConnector(dsn, file)
	if err != nil {
		if rl != nil {
			rl.close()
		}
		return nil, fmt.Errorf("open remote %s: %w", name, scrub.err(err))
	}
	db := sql.OpenDB(conn)
	// One connection: a remote connection is an HTTP stream, and a file
	// remote gains nothing from more.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	return &sqlRemote{db: db, scrub: scrub, name: name, relay: rl, reuse: streamReuse,
		budget: maxStatementBytes}, nil
}

// fail names the operation and scrubs the driver's message. When the
// request failed on the wire, the relay knows better than the driver
// (which only echoes the status and body): an unreachable remote, a
// refused token, a rate limit.
func (r *sqlRemote) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if r.relay != nil {
		if w := r.relay.take(); w != nil {
			err = w
		}
	}
	return fmt.Errorf("%s on remote %s: %w", op, r.name, r.scrub.err(err))
}

// begin binds the relay's requests to ctx and forgets a failure left by an
// earlier request, so fail reports the current operation's.
func (r *sqlRemote) begin(ctx context.Context) {
	if r.relay != nil {
		r.relay.bind(ctx)
		r.relay.take()
	}
}

// keepable reports whether the remote is worth keeping open between
// rounds: an HTTP one, whose client and relay cost milliseconds to set up.
func (r *sqlRemote) keepable() bool { return r.relay != nil }

// Requests counts the HTTP requests sent to the remote (0 for a file).
func (r *sqlRemote) Requests() int {
	if r.relay == nil {
		return 0
	}
	return r.relay.count()
}

// Close closes the connection, then the relay.
func (r *sqlRemote) Close() error {
	err := r.db.Close()
	if r.relay != nil {
		err = errors.Join(err, r.relay.close())
	}
	return r.fail("close", err)
}

// Prepare creates the remote's tables on first use and returns its ID.
func (r *sqlRemote) Prepare(ctx context.Context) (string, error) {
	r.begin(ctx)
	id, version, err := r.identity(ctx)
	if err == nil && id != "" {
		if version != remoteSchemaVersion {
			return "", fmt.Errorf("remote %s has sync schema %s; this credence writes %s: upgrade credence",
				r.name, version, remoteSchemaVersion)
		}
		return id, nil
	}
	var n int
	err = r.use(ctx, func(conn *sql.Conn) error {
		return conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'
			AND name IN ('episodes', 'evidence', 'belief_events', 'tombstones')`).Scan(&n)
	})
	if err != nil {
		return "", r.fail("read schema", err)
	}
	if n > 0 {
		return "", fmt.Errorf("remote %s has credence-like tables but no credence_sync table: "+
			"point sync.url at an empty database (is it a local credence.db?)", r.name)
	}
	err = r.inTx(ctx, func(conn *sql.Conn) error {
		for _, stmt := range remoteSchema {
			if _, err := conn.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
		_, err := conn.ExecContext(ctx, `INSERT INTO credence_sync(key, value) VALUES ('remote_id', ?), ('schema', ?)
			ON CONFLICT DO NOTHING`, ids.New("rm_"), remoteSchemaVersion)
		return err
	})
	if err != nil {
		return "", r.fail("create sync tables", err)
	}
	id, _, err = r.identity(ctx)
	return id, r.fail("read remote id", err)
}

func (r *sqlRemote) identity(ctx context.Context) (id, version string, err error) {
	err = r.use(ctx, func(conn *sql.Conn) error {
		return queryEach(ctx, conn, `SELECT `+store.SyncColumns("#key", "#value")+` FROM credence_sync
			WHERE key IN ('remote_id', 'schema')`, nil, func(rows *sql.Rows) error {
			var k, v string
			if err := rows.Scan(raw(&k), raw(&v)); err != nil {
				return err
			}
			if k == "remote_id" {
				id = v
			} else {
				version = v
			}
			return nil
		})
	})
	return id, version, err
}

// streamReuse is how long after its last operation a connection to an
// HTTP remote is used again. go-libsql keeps the stream of a connection's
// last query open and sends the next statement on it; a server expires an
// idle stream after some seconds (sqld after 10), and the statement then
// fails. Within this window the stream is alive and reusing it saves the
// requests of a new one; past it the connection is dropped and a fresh one
// starts a fresh stream.
const streamReuse = 2 * time.Second

// use runs one operation on the remote's connection. Over HTTP a
// connection idle for longer than the reuse window, or one an operation
// failed on (its stream's state is unknown), is dropped instead of used
// again; dropping it closes its stream on the server.
func (r *sqlRemote) use(ctx context.Context, fn func(*sql.Conn) error) error {
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return err
	}
	if r.relay != nil && !r.lastUse.IsZero() && time.Since(r.lastUse) > r.reuse {
		drop(conn)
		if conn, err = r.db.Conn(ctx); err != nil {
			return err
		}
	}
	err = fn(conn)
	if r.relay != nil && err != nil {
		drop(conn)
		r.lastUse = time.Time{}
		return err
	}
	r.lastUse = time.Now()
	if cerr := conn.Close(); !errors.Is(cerr, sql.ErrConnDone) {
		err = errors.Join(err, cerr) // ErrConnDone: tx dropped it already
	}
	return err
}

// drop closes a connection instead of returning it to the pool.
func drop(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
}

// inTx runs fn between BEGIN IMMEDIATE and COMMIT on one connection: the
// write lock is taken up front, so two machines pushing at once wait for
// each other instead of failing half way. fn's error rolls back.
func (r *sqlRemote) inTx(ctx context.Context, fn func(*sql.Conn) error) error {
	return r.use(ctx, func(conn *sql.Conn) error { return r.tx(ctx, conn, fn) })
}

func (r *sqlRemote) tx(ctx context.Context, conn *sql.Conn, fn func(*sql.Conn) error) error {
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := fn(conn); err != nil {
		if errors.Is(err, errDropped) {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			return err
		}
		if _, rbErr := conn.ExecContext(context.Background(), "ROLLBACK"); rbErr != nil {
			// The connection is unusable; drop it so the pool does not hand
			// out a connection stuck inside a transaction.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
		}
		return err
	}
	if err := r.step("commit"); err != nil {
		if errors.Is(err, errDropped) {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		} else {
			conn.ExecContext(context.Background(), "ROLLBACK")
		}
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(context.Background(), "ROLLBACK")
		return err
	}
	return nil
}

func (r *sqlRemote) step(name string) error {
	if r.fault == nil {
		return nil
	}
	return r.fault(name)
}

// remoteConnector sets a busy timeout on every connection to a file remote,
// which another machine's process (or another test machine) may hold.
type remoteConnector struct {
	driver.Connector
	file bool
}

func newRemoteConnector(dsn string, file bool) (*remoteConnector, error) {
	probe, err := sql.Open("libsql", "file::memory:")
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
	return &remoteConnector{Connector: c, file: file}, nil
}

func (c *remoteConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil || !c.file {
		return conn, err
	}
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("libsql connection cannot query")
	}
	rows, err := q.QueryContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", (30*time.Second).Milliseconds()), nil)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("set busy timeout: %w", err)
	}
	rows.Close()
	return conn, nil
}

// createPrivate creates a file remote with mode 0600 when it does not exist
// yet, as the local database is: it holds the same text.
func createPrivate(dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return err
	}
	path := u.Path
	if path == "" {
		path = u.Opaque
	}
	if path == "" || strings.HasPrefix(path, ":memory:") {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}
