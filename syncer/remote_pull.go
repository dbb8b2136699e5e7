package syncer

import (
	"context"
	"database/sql"

	"github.com/credence-mem/credence/store"
)

// The remote's columns as a pull reads them, text raw (store.SyncColumns).
var (
	remoteEpisodeCols = store.SyncColumns("rseq", "#id", "#session_id", "#project_path", "#scope", "#kind",
		"#content", "#summary", "turn", "created_at", "hlc", "#origin")
	remoteEvidenceCols = store.SyncColumns("rseq", "#id", "#belief_id", "#coalesce(episode_id, '')", "#source",
		"#label", "support", "reliability", "#note", "turn", "created_at", "hlc", "#origin")
	remoteEventCols = store.SyncColumns("rseq", "#id", "#belief_id", "#kind", "#coalesce(evidence_id, '')",
		"#payload", "turn", "created_at", "hlc", "#origin")
	remoteTombstoneCols = store.SyncColumns("rseq", "#target_id", "#kind", "created_at", "hlc", "#origin")
)

// raw scans a column read raw into dst.
func raw(dst *string) sql.Scanner { return store.RawText(dst) }

// Pull reads up to limit rows of each table past the cursor.
func (r *sqlRemote) Pull(ctx context.Context, after store.SyncCursor, skip string, limit int) (store.SyncBatch, error) {
	var b store.SyncBatch
	err := queryEach(ctx, r.db, `SELECT `+remoteEpisodeCols+` FROM episodes WHERE rseq > ? AND origin != ?
		ORDER BY rseq LIMIT ?`, []any{after.Episodes, skip, limit}, func(rows *sql.Rows) error {
		var e store.SyncEpisode
		err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.SessionID), raw(&e.ProjectPath), raw(&e.Scope), raw(&e.Kind),
			raw(&e.Content), raw(&e.Summary), &e.Turn, &e.CreatedAt, &e.HLC, raw(&e.Origin))
		b.Episodes = append(b.Episodes, e)
		return err
	})
	if err != nil {
		return b, r.fail("pull episodes", err)
	}
	err = queryEach(ctx, r.db, `SELECT `+remoteEvidenceCols+` FROM evidence WHERE rseq > ? AND origin != ?
		ORDER BY rseq LIMIT ?`, []any{after.Evidence, skip, limit}, func(rows *sql.Rows) error {
		var e store.SyncEvidence
		err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.BeliefID), raw(&e.EpisodeID), raw(&e.Source), raw(&e.Label),
			&e.Support, &e.Reliability, raw(&e.Note), &e.Turn, &e.CreatedAt, &e.HLC, raw(&e.Origin))
		b.Evidence = append(b.Evidence, e)
		return err
	})
	if err != nil {
		return b, r.fail("pull evidence", err)
	}
	err = queryEach(ctx, r.db, `SELECT `+remoteEventCols+` FROM belief_events WHERE rseq > ? AND origin != ?
		ORDER BY rseq LIMIT ?`, []any{after.Events, skip, limit}, func(rows *sql.Rows) error {
		var e store.SyncEvent
		err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.BeliefID), raw(&e.Kind), raw(&e.EvidenceID), raw(&e.Payload),
			&e.Turn, &e.CreatedAt, &e.HLC, raw(&e.Origin))
		b.Events = append(b.Events, e)
		return err
	})
	if err != nil {
		return b, r.fail("pull belief events", err)
	}
	err = queryEach(ctx, r.db, `SELECT `+remoteTombstoneCols+` FROM tombstones WHERE rseq > ? AND origin != ?
		ORDER BY rseq LIMIT ?`, []any{after.Tombstones, skip, limit}, func(rows *sql.Rows) error {
		var t store.SyncTombstone
		err := rows.Scan(&t.Seq, raw(&t.TargetID), raw(&t.Kind), &t.CreatedAt, &t.HLC, raw(&t.Origin))
		b.Tombstones = append(b.Tombstones, t)
		return err
	})
	if err != nil {
		return b, r.fail("pull tombstones", err)
	}
	return b, nil
}

// Pending counts rows past the cursor not from skip.
func (r *sqlRemote) Pending(ctx context.Context, after store.SyncCursor, skip string) (int, error) {
	var n int
	err := r.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM episodes WHERE rseq > ? AND origin != ?) +
		(SELECT count(*) FROM evidence WHERE rseq > ? AND origin != ?) +
		(SELECT count(*) FROM belief_events WHERE rseq > ? AND origin != ?) +
		(SELECT count(*) FROM tombstones WHERE rseq > ? AND origin != ?)`,
		after.Episodes, skip, after.Evidence, skip, after.Events, skip, after.Tombstones, skip).Scan(&n)
	return n, r.fail("count rows to pull", err)
}

// queryEach runs a query and calls scan for every row.
func queryEach(ctx context.Context, db *sql.DB, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
