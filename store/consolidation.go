package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
)

// States of an episode in the consolidation pool (consolidated_episodes).
const (
	// ConsolidationPooled: its facts are applied and it waits to join a
	// cluster of similar episodes.
	ConsolidationPooled = "pooled"
	// ConsolidationClustered: a synthesized cluster consumed it.
	ConsolidationClustered = "clustered"
	// ConsolidationRetired: it left the pool without joining a cluster.
	ConsolidationRetired = "retired"
)

// Consolidated is the agent's local record that one of this machine's
// episodes was consolidated: written in the same transaction as the
// evidence derived from it, so no episode is applied twice.
type Consolidated struct {
	EpisodeID string
	Seq       int64
	State     string
	Mode      string // "offline" or "llm": who extracted the facts
	// Facts is the JSON the consolidator keeps of the facts it read, for
	// cluster synthesis in later cycles.
	Facts     string
	Surprise  float64
	CycleID   string
	UpdatedAt int64
}

// MarkConsolidated records c. It reports false, with no error, when the
// episode was already consolidated; the caller must then roll back whatever
// it derived from the episode in this transaction.
func (tx *Tx) MarkConsolidated(ctx context.Context, c Consolidated) (bool, error) {
	if c.Facts == "" {
		c.Facts = "[]"
	}
	res, err := tx.Exec(ctx, `INSERT INTO consolidated_episodes(episode_id, seq, state, mode, facts, surprise,
		cycle_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(episode_id) DO NOTHING`,
		c.EpisodeID, c.Seq, c.State, c.Mode, validUTF8(c.Facts), c.Surprise, c.CycleID, tx.db.now().UnixMilli())
	if err != nil {
		return false, wrap("mark consolidated", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// MarkConsolidatedMany records episodes from which nothing was derived, in
// one statement, and returns how many were new.
func (tx *Tx) MarkConsolidatedMany(ctx context.Context, cs []Consolidated) (int, error) {
	total := 0
	now := tx.db.now().UnixMilli()
	for _, chunk := range chunks(cs, 100) {
		var args []any
		for _, c := range chunk {
			args = append(args, c.EpisodeID, c.Seq, c.State, c.Mode, "[]", c.Surprise, c.CycleID, now)
		}
		res, err := tx.Exec(ctx, `INSERT INTO consolidated_episodes(episode_id, seq, state, mode, facts, surprise,
			cycle_id, updated_at) VALUES `+strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?), ", len(chunk)), ", ")+`
			ON CONFLICT(episode_id) DO NOTHING`, args...)
		if err != nil {
			return total, wrap("mark consolidated", err)
		}
		n, _ := res.RowsAffected()
		total += int(n)
	}
	return total, nil
}

// SetConsolidationState moves episodes of the pool to state.
func (tx *Tx) SetConsolidationState(ctx context.Context, state string, episodeIDs ...string) error {
	now := tx.db.now().UnixMilli()
	for _, chunk := range chunks(episodeIDs, 200) {
		args := append([]any{state, now}, anySlice(chunk)...)
		if _, err := tx.Exec(ctx, `UPDATE consolidated_episodes SET state = ?, updated_at = ?
			WHERE episode_id IN (`+placeholders(len(chunk))+`)`, args...); err != nil {
			return wrap("set consolidation state", err)
		}
	}
	return nil
}

// RetirePool retires every pooled episode except the newest keep, so the
// pool that clustering scans stays bounded. It returns how many it retired.
func (tx *Tx) RetirePool(ctx context.Context, keep int) (int, error) {
	res, err := tx.Exec(ctx, `UPDATE consolidated_episodes SET state = ?, updated_at = ?
		WHERE state = ? AND seq < coalesce((SELECT min(seq) FROM (SELECT seq FROM consolidated_episodes
		WHERE state = ? ORDER BY seq DESC LIMIT ?)), 0)`,
		ConsolidationRetired, tx.db.now().UnixMilli(), ConsolidationPooled, ConsolidationPooled, keep)
	if err != nil {
		return 0, wrap("retire pool", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Pool returns the records of the newest limit pooled episodes, oldest
// first. With projects given, only episodes of those projects ("" is
// global) are returned.
func (db *DB) Pool(ctx context.Context, limit int, projects ...string) ([]Consolidated, error) {
	where, args := "state = ?", []any{ConsolidationPooled}
	if len(projects) > 0 {
		where += ` AND episode_id IN (SELECT id FROM episodes WHERE project_path IN (` + placeholders(len(projects)) + `))`
		args = append(args, anySlice(projects)...)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT episode_id, seq, state, mode, CAST('.' || facts AS BLOB), surprise,
		cycle_id, updated_at FROM (SELECT * FROM consolidated_episodes WHERE `+where+` ORDER BY seq DESC LIMIT ?)
		ORDER BY seq`, append(args, limit)...)
	if err != nil {
		return nil, wrap("read pool", err)
	}
	defer rows.Close()
	var out []Consolidated
	for rows.Next() {
		var c Consolidated
		if err := rows.Scan(&c.EpisodeID, &c.Seq, &c.State, &c.Mode, rawText{&c.Facts}, &c.Surprise, &c.CycleID, &c.UpdatedAt); err != nil {
			return nil, wrap("read pool", err)
		}
		out = append(out, c)
	}
	return out, wrap("read pool", rows.Err())
}

// ConsolidatedFacts returns the facts JSON recorded for each of the given
// episodes that was consolidated, keyed by episode ID.
func (db *DB) ConsolidatedFacts(ctx context.Context, episodeIDs []string) (map[string]string, error) {
	out := make(map[string]string, len(episodeIDs))
	for _, chunk := range chunks(episodeIDs, 200) {
		rows, err := db.sql.QueryContext(ctx, `SELECT episode_id, CAST('.' || facts AS BLOB) FROM consolidated_episodes
			WHERE episode_id IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
		if err != nil {
			return nil, wrap("read consolidated facts", err)
		}
		for rows.Next() {
			var id, facts string
			if err := rows.Scan(&id, rawText{&facts}); err != nil {
				rows.Close()
				return nil, wrap("read consolidated facts", err)
			}
			out[id] = facts
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, wrap("read consolidated facts", err)
		}
	}
	return out, nil
}

// LocalEpisodesAfter returns up to limit live episodes with origin origin
// and a sequence number above seq that are not consolidated yet, oldest
// first.
func (db *DB) LocalEpisodesAfter(ctx context.Context, origin string, seq int64, limit int) ([]Episode, error) {
	// "+origin" keeps the planner on the seq range: the origin index would
	// make every batch scan all of this machine's episodes again.
	return collect(ctx, db.sql, "list new episodes", scanEpisode, `SELECT `+episodeCols+` FROM episodes e
		WHERE seq > ? AND +origin = ? AND forgotten_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episode_id = e.id)
		ORDER BY seq LIMIT ?`, seq, origin, limit)
}

// CountLocalEpisodesAfter counts the live episodes with origin origin and a
// sequence number above seq: how much consolidation work is waiting.
func (db *DB) CountLocalEpisodesAfter(ctx context.Context, origin string, seq int64) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM episodes e WHERE seq > ? AND +origin = ?
		AND forgotten_at IS NULL AND NOT EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episode_id = e.id)`,
		seq, origin).Scan(&n)
	return n, wrap("count new episodes", err)
}

// SetSurprise records how surprising an episode was inside the transaction.
func (tx *Tx) SetSurprise(ctx context.Context, id string, surprise float64, explanation string) error {
	_, err := tx.Exec(ctx, `UPDATE episodes SET surprise = ?, surprise_explanation = ? WHERE id = ?`,
		surprise, nullString(validUTF8(explanation)), id)
	return wrap("set surprise", err)
}

// HasEvidenceFrom reports whether the episode already gave evidence about
// the belief, so the same observation is never counted twice.
func (tx *Tx) HasEvidenceFrom(ctx context.Context, beliefID, episodeID string) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM evidence WHERE episode_id = ? AND belief_id = ?`,
		episodeID, beliefID).Scan(&n)
	return n > 0, wrap("look up evidence", err)
}

func filterQuery(f Filter) (string, []any) {
	where, args := f.where()
	q := `SELECT ` + beliefCols + ` FROM beliefs` + where + ` ORDER BY seq`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return q, args
}

// Beliefs returns the beliefs matching f inside the transaction, oldest
// first, so a writer sees its own changes.
func (tx *Tx) Beliefs(ctx context.Context, f Filter) ([]Belief, error) {
	q, args := filterQuery(f)
	return collect(ctx, txQuerier{tx}, "list beliefs", scanBelief, q, args...)
}

// SlotFilter selects the beliefs of one slot: any of the subjects, any of
// the predicates, one scope (and project), any of the statuses.
type SlotFilter struct {
	Scope      string
	Project    string
	Subjects   []string
	Predicates []string
	Statuses   []belief.Status
}

// SlotBeliefs returns the beliefs of a slot, oldest first, in one indexed
// query; calibration runs it for every fact it applies.
func (db *DB) SlotBeliefs(ctx context.Context, f SlotFilter) ([]Belief, error) {
	q, args := slotQuery(f)
	return collect(ctx, db.sql, "list beliefs", scanBelief, q, args...)
}

// SlotBeliefs is the transaction's SlotBeliefs, seeing its own writes.
func (tx *Tx) SlotBeliefs(ctx context.Context, f SlotFilter) ([]Belief, error) {
	q, args := slotQuery(f)
	return collect(ctx, txQuerier{tx}, "list beliefs", scanBelief, q, args...)
}

func slotQuery(f SlotFilter) (string, []any) {
	args := append(anySlice(f.Subjects), anySlice(f.Predicates)...)
	q := `SELECT ` + beliefCols + ` FROM beliefs WHERE subject IN (` + placeholders(len(f.Subjects)) +
		`) AND predicate IN (` + placeholders(len(f.Predicates)) + `) AND scope = ?`
	args = append(args, f.Scope)
	if f.Scope == belief.ScopeProject {
		q += ` AND project_path = ?`
		args = append(args, f.Project)
	}
	if len(f.Statuses) > 0 {
		q += ` AND status IN (` + placeholders(len(f.Statuses)) + `)`
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
	}
	return q + ` ORDER BY seq`, args
}

// Belief reads one belief by its full ID inside the transaction.
func (tx *Tx) Belief(ctx context.Context, id string) (Belief, error) {
	b, err := scanBelief(tx.QueryRow(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("belief %s: %w", id, ErrNotFound)
	}
	return b, wrap("read belief", err)
}
