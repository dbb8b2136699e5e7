package store

import (
	"context"
	"database/sql"
	"errors"
)

// Statuses of a consolidation cycle.
const (
	CycleRunning      = "running"
	CycleDone         = "done"
	CycleCheckpointed = "checkpointed" // the budget ran out; the next cycle resumes
	CycleFailed       = "failed"
)

// Cycle is one consolidation cycle's record: when and why it ran, how it
// ended, and what it cost. Stats is the consolidator's JSON summary.
type Cycle struct {
	ID               string
	Trigger          string
	Mode             string
	Status           string
	StartedAt        int64 // Unix ms
	FinishedAt       int64 // Unix ms; 0 while running
	Episodes         int
	PromptTokens     int64
	CompletionTokens int64
	Stats            string
	Error            string
}

// SaveCycle inserts or updates a cycle's record.
func (db *DB) SaveCycle(ctx context.Context, c Cycle) error {
	if c.Stats == "" {
		c.Stats = "{}"
	}
	_, err := db.sql.ExecContext(ctx, `INSERT INTO consolidation_cycles(id, trigger, mode, status, started_at,
		finished_at, episodes, prompt_tokens, completion_tokens, stats, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at,
		episodes = excluded.episodes, prompt_tokens = excluded.prompt_tokens,
		completion_tokens = excluded.completion_tokens, stats = excluded.stats, error = excluded.error`,
		c.ID, c.Trigger, c.Mode, c.Status, c.StartedAt, nullInt(c.FinishedAt), c.Episodes, c.PromptTokens,
		c.CompletionTokens, validUTF8(c.Stats), validUTF8(c.Error))
	return wrap("save cycle", err)
}

// Cycles returns the newest limit cycles, newest first.
func (db *DB) Cycles(ctx context.Context, limit int) ([]Cycle, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, trigger, mode, status, started_at, coalesce(finished_at, 0),
		episodes, prompt_tokens, completion_tokens, stats, error FROM consolidation_cycles
		ORDER BY started_at DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, wrap("list cycles", err)
	}
	defer rows.Close()
	var out []Cycle
	for rows.Next() {
		var c Cycle
		if err := rows.Scan(&c.ID, &c.Trigger, &c.Mode, &c.Status, &c.StartedAt, &c.FinishedAt, &c.Episodes,
			&c.PromptTokens, &c.CompletionTokens, &c.Stats, &c.Error); err != nil {
			return nil, wrap("list cycles", err)
		}
		out = append(out, c)
	}
	return out, wrap("list cycles", rows.Err())
}

// AbandonCycles marks cycles still recorded as running as failed: their
// process died (the consolidation lock guarantees no other cycle runs).
func (db *DB) AbandonCycles(ctx context.Context, reason string) (int, error) {
	res, err := db.sql.ExecContext(ctx, `UPDATE consolidation_cycles SET status = ?, error = ?, finished_at = ?
		WHERE status = ?`, CycleFailed, validUTF8(reason), db.now().UnixMilli(), CycleRunning)
	if err != nil {
		return 0, wrap("abandon cycles", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// MetaPrefix returns every meta key starting with prefix and its value;
// status reads the sync engineer's "sync_" keys through it.
func (db *DB) MetaPrefix(ctx context.Context, prefix string) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT key, value FROM meta WHERE key >= ? AND key < ?`,
		prefix, prefix+"\U0010FFFF")
	if err != nil {
		return nil, wrap("read meta "+prefix+"*", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, wrap("read meta "+prefix+"*", err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap("read meta "+prefix+"*", err)
	}
	return out, nil
}
