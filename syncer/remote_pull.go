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

// pullBytes bounds the episode text of one pull, so an answer stays well
// below the response limits of real servers (a few MiB on sqld). Tests
// lower it.
var pullBytes = 4 << 20

// raw scans a column read raw into dst.
func raw(dst *string) sql.Scanner { return store.RawText(dst) }

// Pull reads up to limit rows of each table in want past the cursor.
func (r *sqlRemote) Pull(ctx context.Context, after store.SyncCursor, skip string, limit int, want Tables) (store.SyncBatch, error) {
	r.begin(ctx)
	var b store.SyncBatch
	err := r.use(ctx, func(conn *sql.Conn) error { return r.pull(ctx, conn, &b, after, skip, limit, want) })
	return b, err
}

func (r *sqlRemote) pull(ctx context.Context, conn *sql.Conn, b *store.SyncBatch, after store.SyncCursor, skip string,
	limit int, want Tables) error {
	for _, q := range []struct {
		table Tables
		what  string
		query string
		after int64
		scan  func(*sql.Rows) error
	}{
		{TableEpisodes, "episodes", "", after.Episodes, func(rows *sql.Rows) error {
			var e store.SyncEpisode
			var waiting int
			err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.SessionID), raw(&e.ProjectPath), raw(&e.Scope),
				raw(&e.Kind), raw(&e.Content), raw(&e.Summary), &e.Turn, &e.CreatedAt, &e.HLC, raw(&e.Origin), &waiting)
			b.Episodes = append(b.Episodes, e)
			b.More = b.More || len(b.Episodes) < waiting
			return err
		}},
		{TableEvidence, "evidence", `SELECT ` + remoteEvidenceCols + ` FROM evidence`, after.Evidence,
			func(rows *sql.Rows) error {
				var e store.SyncEvidence
				err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.BeliefID), raw(&e.EpisodeID), raw(&e.Source),
					raw(&e.Label), &e.Support, &e.Reliability, raw(&e.Note), &e.Turn, &e.CreatedAt, &e.HLC,
					raw(&e.Origin))
				b.Evidence = append(b.Evidence, e)
				return err
			}},
		{TableEvents, "belief events", `SELECT ` + remoteEventCols + ` FROM belief_events`, after.Events,
			func(rows *sql.Rows) error {
				var e store.SyncEvent
				err := rows.Scan(&e.Seq, raw(&e.ID), raw(&e.BeliefID), raw(&e.Kind), raw(&e.EvidenceID),
					raw(&e.Payload), &e.Turn, &e.CreatedAt, &e.HLC, raw(&e.Origin))
				b.Events = append(b.Events, e)
				return err
			}},
		{TableTombstones, "tombstones", `SELECT ` + remoteTombstoneCols + ` FROM tombstones`, after.Tombstones,
			func(rows *sql.Rows) error {
				var t store.SyncTombstone
				err := rows.Scan(&t.Seq, raw(&t.TargetID), raw(&t.Kind), &t.CreatedAt, &t.HLC, raw(&t.Origin))
				b.Tombstones = append(b.Tombstones, t)
				return err
			}},
	} {
		if want&q.table == 0 {
			continue
		}
		var err error
		if q.table == TableEpisodes {
			// Episodes can be long: the batch stops at pullBytes of text
			// (at least one row), and says so when rows were left out.
			err = queryEach(ctx, conn, `SELECT `+remoteEpisodeCols+`, waiting FROM (
				SELECT *, sum(size) OVER (ORDER BY rseq) AS run, count(*) OVER () AS waiting FROM (
					SELECT *, length(CAST(content AS BLOB)) + length(CAST(summary AS BLOB)) AS size FROM episodes
					WHERE rseq > ? AND origin != ? ORDER BY rseq LIMIT ?))
				WHERE run - size < ? ORDER BY rseq`, []any{q.after, skip, limit, pullBytes}, q.scan)
		} else {
			err = queryEach(ctx, conn, q.query+` WHERE rseq > ? AND origin != ? ORDER BY rseq LIMIT ?`,
				[]any{q.after, skip, limit}, q.scan)
		}
		if err != nil {
			return r.fail("pull "+q.what, err)
		}
	}
	return nil
}

// Survey reads the remote's identity and, per table, the rows waiting
// and the head, in one statement.
func (r *sqlRemote) Survey(ctx context.Context, after store.SyncCursor, skip string) (Survey, error) {
	r.begin(ctx)
	var sv Survey
	err := r.use(ctx, func(conn *sql.Conn) error {
		return conn.QueryRowContext(ctx, `SELECT
		(SELECT `+store.SyncColumns("#value")+` FROM credence_sync WHERE key = 'remote_id'),
		(SELECT `+store.SyncColumns("#value")+` FROM credence_sync WHERE key = 'schema'),
		(SELECT count(*) FROM episodes WHERE rseq > ? AND origin != ?), (SELECT coalesce(max(rseq), 0) FROM episodes),
		(SELECT count(*) FROM evidence WHERE rseq > ? AND origin != ?), (SELECT coalesce(max(rseq), 0) FROM evidence),
		(SELECT count(*) FROM belief_events WHERE rseq > ? AND origin != ?),
		(SELECT coalesce(max(rseq), 0) FROM belief_events),
		(SELECT count(*) FROM tombstones WHERE rseq > ? AND origin != ?), (SELECT coalesce(max(rseq), 0) FROM tombstones)`,
			after.Episodes, skip, after.Evidence, skip, after.Events, skip, after.Tombstones, skip).Scan(
			rawNull(&sv.ID), rawNull(&sv.Schema), &sv.Waiting.Episodes, &sv.Head.Episodes, &sv.Waiting.Evidence,
			&sv.Head.Evidence, &sv.Waiting.Events, &sv.Head.Events, &sv.Waiting.Tombstones, &sv.Head.Tombstones)
	})
	if err != nil && isMissingTable(err) {
		return Survey{}, nil // a new remote: nothing to say yet
	}
	return sv, r.fail("survey", err)
}

// rawNull scans a column read raw that may be NULL into dst ("" for NULL).
func rawNull(dst *string) sql.Scanner {
	return scanFunc(func(v any) error {
		if v == nil {
			*dst = ""
			return nil
		}
		return store.RawText(dst).Scan(v)
	})
}

type scanFunc func(any) error

func (f scanFunc) Scan(v any) error { return f(v) }

// queryEach runs a query and calls scan for every row.
func queryEach(ctx context.Context, db *sql.Conn, q string, args []any, scan func(*sql.Rows) error) error {
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
