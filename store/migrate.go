package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
	// fn, when set, is a migration SQL alone cannot write (one that must
	// read the schema first); it runs in the migration's transaction.
	fn func(context.Context, *Tx) error
}

// goMigrations are the migrations written in Go, numbered with the SQL
// files.
var goMigrations = []migration{
	{version: 9, name: "drop_vector_indexes", fn: dropVectorIndexes},
}

// dropVectorIndexes drops the libSQL vector (DiskANN) index of every
// embedder's vector tables. Recall never used it (it scans sign
// sketches), and each insert into it cost 5–50 ms, growing with the
// table, under the write lock the hooks wait on.
func dropVectorIndexes(ctx context.Context, tx *Tx) error {
	rows, err := tx.Query(ctx, `SELECT name FROM vector_spaces`)
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, n)
	}
	rows.Close()
	for _, n := range names {
		for _, kind := range []string{"episodes", "beliefs"} {
			if _, err := tx.Exec(ctx, `DROP INDEX IF EXISTS vec_`+n+`_`+kind+`_idx`); err != nil {
				return err
			}
		}
	}
	return nil
}

func loadMigrations() ([]migration, error) {
	files, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, f := range files {
		base := path.Base(f)
		num, name, ok := strings.Cut(strings.TrimSuffix(base, ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", base)
		}
		b, err := migrationFS.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	out = append(out, goMigrations...)
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migration %04d is defined twice", out[i].version)
		}
	}
	return out, nil
}

// migrate applies every migration not yet recorded, each in its own
// transaction, in version order.
func (db *DB) migrate(ctx context.Context) error { return db.migrateTo(ctx, -1) }

// migrateTo applies migrations up to and including version max (-1: all).
func (db *DB) migrateTo(ctx context.Context, max int) error {
	ms, err := loadMigrations()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	// Every hook run opens the database: when the schema is already
	// current, one read settles it instead of a write transaction per
	// migration.
	if max < 0 && db.applied(ctx) >= ms[len(ms)-1].version {
		return nil
	}
	if _, err := db.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		return wrap("create schema_migrations", err)
	}
	for _, m := range ms {
		if max >= 0 && m.version > max {
			break
		}
		err := db.Write(ctx, func(tx *Tx) error {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if m.fn != nil {
				if err := m.fn(ctx, tx); err != nil {
					return err
				}
			}
			for i, stmt := range splitStatements(m.sql) {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("statement %d: %w", i+1, err)
				}
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, db.now().UnixMilli())
			return err
		})
		if err != nil {
			return wrap(fmt.Sprintf("apply migration %04d_%s", m.version, m.name), err)
		}
	}
	return nil
}

// OpenAtVersion opens (creating if needed) the database at path with the
// migrations applied only up to version max, as an older credence left
// it: upgrade tests build one, fill it and hand it to the current code.
// Nothing but the migration pass differs from Open.
func OpenAtVersion(ctx context.Context, path string, max int) (*DB, error) {
	if max < 1 {
		return nil, fmt.Errorf("open database at version %d: no such version", max)
	}
	return Open(ctx, path, Options{stopAt: max})
}

// migrateWait bounds how long Open waits for another process's migration
// when ctx sets no deadline of its own.
const migrateWait = 30 * time.Second

// current reports whether every embedded migration is applied: one read,
// so opening a current database takes no lock.
func (db *DB) current(ctx context.Context) bool {
	latest, err := LatestSchemaVersion()
	return err == nil && db.applied(ctx) >= latest
}

// lockMigrations takes the file lock that lets one process at a time
// migrate the database (<path>.migrate.lock, gofrs/flock), waiting until
// ctx's deadline or migrateWait. Without it the first hooks of a new
// database (eight sessions starting at once) each ran the migrations,
// queued behind one another's write transactions for longer than a
// hook's short busy timeout, and failed with "database is locked"; with
// it the others wait for the first, then find the schema current.
func (db *DB) lockMigrations(ctx context.Context) (unlock func(), err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, migrateWait)
		defer cancel()
	}
	fl := flock.New(db.path+".migrate.lock", flock.SetPermissions(0o600))
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	switch {
	case err != nil:
		return nil, fmt.Errorf("wait for another process's migration: %w (%w)", ErrLocked, err)
	case !ok:
		return nil, fmt.Errorf("wait for another process's migration: %w", ErrLocked)
	}
	return func() { fl.Unlock() }, nil
}

// applied returns the highest applied migration, or 0 when it cannot tell
// (a new database has no schema_migrations table yet).
func (db *DB) applied(ctx context.Context) int {
	var v int
	if err := db.sql.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0
	}
	return v
}

// SchemaVersion returns the highest applied migration.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := db.sql.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	return v, wrap("read schema version", err)
}

// splitStatements splits a migration into statements. The driver runs one
// statement per call. A statement ends at a line ending in ';', except inside
// CREATE TRIGGER, which ends at a line "END;".
func splitStatements(src string) []string {
	var out []string
	var cur strings.Builder
	inTrigger := false
	for _, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "--")) {
			continue
		}
		if cur.Len() == 0 && strings.HasPrefix(strings.ToUpper(trimmed), "CREATE TRIGGER") {
			inTrigger = true
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		end := strings.HasSuffix(trimmed, ";")
		if inTrigger {
			end = strings.EqualFold(trimmed, "END;")
		}
		if end {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
			inTrigger = false
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}
