package store

import (
	"context"
	"database/sql"
	"errors"
)

// Well-known meta keys.
const (
	MetaMachineID               = "machine_id"
	MetaHLC                     = "hlc"
	MetaTurn                    = "turn"
	MetaConsolidationCheckpoint = "belief_consolidation_checkpoint"
	MetaAgentHeartbeat          = "agent_heartbeat"
)

// Meta returns the value stored under key, or ErrNotFound.
func (db *DB) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := db.sql.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return v, wrap("read meta "+key, err)
}

// SetMeta stores value under key.
func (db *DB) SetMeta(ctx context.Context, key, value string) error {
	_, err := db.sql.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return wrap("write meta "+key, err)
}

// SetMeta stores value under key inside the transaction.
func (tx *Tx) SetMeta(ctx context.Context, key, value string) error {
	_, err := tx.Exec(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return wrap("write meta "+key, err)
}

// Meta reads key inside the transaction, or ErrNotFound.
func (tx *Tx) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := tx.QueryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return v, wrap("read meta "+key, err)
}
