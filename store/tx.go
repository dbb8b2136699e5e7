package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/credence-mem/credence/ids"
)

// Tx is a write transaction. It hands out clock values: every row written in
// it gets a hybrid-logical-clock value later than everything this database
// has written or received before.
type Tx struct {
	db   *DB
	conn *sql.Conn
	hlc  ids.HLC
	turn int64
	read bool // clock state loaded
}

// Exec runs a statement inside the transaction.
func (tx *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return tx.conn.ExecContext(ctx, query, args...)
}

// Query runs a query inside the transaction.
func (tx *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.conn.QueryContext(ctx, query, args...)
}

// QueryRow runs a single-row query inside the transaction.
func (tx *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return tx.conn.QueryRowContext(ctx, query, args...)
}

// DB returns the database the transaction belongs to.
func (tx *Tx) DB() *DB { return tx.db }

// Write runs fn in a write transaction started with BEGIN IMMEDIATE, so the
// write lock is taken up front (waiting at most the busy timeout) instead of
// failing half way when a read turns into a write. Writers of this process
// first queue at the database's gate (writeGate), so only one of them at a
// time asks SQLite for the lock. fn's error rolls back.
func (db *DB) Write(ctx context.Context, fn func(*Tx) error) (err error) {
	release, err := db.gate.enter(ctx, db.busy)
	if err != nil {
		return err
	}
	defer release()
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return wrap("begin", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return wrap("begin", err)
	}
	tx := &Tx{db: db, conn: conn}
	defer func() {
		if p := recover(); p != nil {
			conn.ExecContext(context.Background(), "ROLLBACK")
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if _, rbErr := conn.ExecContext(context.Background(), "ROLLBACK"); rbErr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rbErr)
		}
		return err
	}
	if err := tx.flushClock(ctx); err != nil {
		conn.ExecContext(context.Background(), "ROLLBACK")
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(context.Background(), "ROLLBACK")
		return wrap("commit", err)
	}
	return nil
}

func (tx *Tx) loadClock(ctx context.Context) error {
	if tx.read {
		return nil
	}
	rows, err := tx.conn.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN (?, ?)`, MetaHLC, MetaTurn)
	if err != nil {
		return wrap("read clock", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return wrap("read clock", err)
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		switch k {
		case MetaHLC:
			tx.hlc = ids.HLC(n)
		case MetaTurn:
			tx.turn = n
		}
	}
	tx.read = true
	return wrap("read clock", rows.Err())
}

// Tick returns a new clock value for a row written in this transaction.
func (tx *Tx) Tick(ctx context.Context) (ids.HLC, error) {
	if err := tx.loadClock(ctx); err != nil {
		return 0, err
	}
	tx.hlc = ids.Tick(tx.hlc, tx.db.now())
	return tx.hlc, nil
}

// Observe advances the clock past a value received from another machine.
func (tx *Tx) Observe(ctx context.Context, remote ids.HLC) error {
	if err := tx.loadClock(ctx); err != nil {
		return err
	}
	if remote > tx.hlc {
		tx.hlc = remote
	}
	return nil
}

// Turn returns the turn counter as of this transaction.
func (tx *Tx) Turn(ctx context.Context) (int64, error) {
	if err := tx.loadClock(ctx); err != nil {
		return 0, err
	}
	return tx.turn, nil
}

// NextTurn advances the turn counter by one (one UserPromptSubmit is a turn)
// and returns the new value.
func (tx *Tx) NextTurn(ctx context.Context) (int64, error) {
	if err := tx.loadClock(ctx); err != nil {
		return 0, err
	}
	tx.turn++
	return tx.turn, nil
}

// AdvanceTurns moves the turn counter forward by n; the demo uses it to let
// time pass on the turn clock.
func (tx *Tx) AdvanceTurns(ctx context.Context, n int64) error {
	if err := tx.loadClock(ctx); err != nil {
		return err
	}
	tx.turn += n
	return nil
}

func (tx *Tx) flushClock(ctx context.Context) error {
	if !tx.read {
		return nil
	}
	_, err := tx.conn.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?), (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
		MetaHLC, strconv.FormatInt(int64(tx.hlc), 10), MetaTurn, strconv.FormatInt(tx.turn, 10))
	return wrap("write clock", err)
}
