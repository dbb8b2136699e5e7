package syncer

import (
	"context"
	"database/sql"

	"github.com/credence-mem/credence/store"
)

// maxStatementBytes bounds the text of one multi-row INSERT, so a push of
// long exchanges stays a reasonable HTTP request; a single row longer than
// that is sent alone.
const maxStatementBytes = 1 << 20

// maxStatementRows bounds the rows of one multi-row INSERT.
const maxStatementRows = 500

// Push stores the batch in one remote transaction.
func (r *sqlRemote) Push(ctx context.Context, b store.SyncBatch) (int, error) {
	r.begin(ctx)
	inserted := 0
	err := r.inTx(ctx, func(conn *sql.Conn) error {
		steps := []struct {
			name string
			run  func() (int, error)
		}{
			{"episodes", func() (int, error) { return pushEpisodes(ctx, conn, b.Episodes) }},
			{"evidence", func() (int, error) { return pushEvidence(ctx, conn, b.Evidence) }},
			{"events", func() (int, error) { return pushEvents(ctx, conn, b.Events) }},
			{"tombstones", func() (int, error) { return pushTombstones(ctx, conn, b.Tombstones) }},
			{"blank", func() (int, error) { return 0, blankForgotten(ctx, conn) }},
		}
		for _, s := range steps {
			if err := r.step(s.name); err != nil {
				return err
			}
			n, err := s.run()
			if err != nil {
				return err
			}
			inserted += n
		}
		return nil
	})
	if err != nil {
		return 0, r.fail("push", err)
	}
	return inserted, nil
}

// insertRows runs one multi-row INSERT … ON CONFLICT DO NOTHING per group of
// rows, written as literals (see appendLiteral), and returns how many were
// new.
func insertRows(ctx context.Context, conn *sql.Conn, head string, n int, row func(i int) []any) (int, error) {
	total := 0
	var q []byte
	for start := 0; start < n; {
		q = append(append(q[:0], head...), " VALUES "...)
		end := start
		for end < n && end-start < maxStatementRows && (end == start || len(q) < maxStatementBytes) {
			if end > start {
				q = append(q, ',')
			}
			q = append(q, '(')
			for i, v := range row(end) {
				if i > 0 {
					q = append(q, ',')
				}
				q = appendLiteral(q, v)
			}
			q = append(q, ')')
			end++
		}
		q = append(q, " ON CONFLICT DO NOTHING"...)
		res, err := conn.ExecContext(ctx, string(q))
		if err != nil {
			return total, err
		}
		affected, _ := res.RowsAffected()
		total += int(affected)
		start = end
	}
	return total, nil
}

func pushEpisodes(ctx context.Context, conn *sql.Conn, rs []store.SyncEpisode) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO episodes(id, session_id, project_path, scope, kind, content, summary,
		turn, created_at, hlc, origin)`, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.SessionID, e.ProjectPath, e.Scope, e.Kind, e.Content, e.Summary, e.Turn, e.CreatedAt,
			e.HLC, e.Origin}
	})
}

func pushEvidence(ctx context.Context, conn *sql.Conn, rs []store.SyncEvidence) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO evidence(id, belief_id, episode_id, source, label, support, reliability,
		note, turn, created_at, hlc, origin)`, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.BeliefID, nullable(e.EpisodeID), e.Source, e.Label, e.Support, e.Reliability, e.Note,
			e.Turn, e.CreatedAt, e.HLC, e.Origin}
	})
}

func pushEvents(ctx context.Context, conn *sql.Conn, rs []store.SyncEvent) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO belief_events(id, belief_id, kind, evidence_id, payload, turn,
		created_at, hlc, origin)`, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.BeliefID, e.Kind, nullable(e.EvidenceID), e.Payload, e.Turn, e.CreatedAt, e.HLC,
			e.Origin}
	})
}

func pushTombstones(ctx context.Context, conn *sql.Conn, rs []store.SyncTombstone) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO tombstones(target_id, kind, created_at, hlc, origin)`, len(rs),
		func(i int) []any {
			t := rs[i]
			return []any{t.TargetID, t.Kind, t.CreatedAt, t.HLC, t.Origin}
		})
}

// blankForgotten purges, on the remote, the text of everything a tombstone
// names: the targets of the tombstones pushed now (rows other machines
// pushed earlier), and rows pushed now whose target was forgotten
// elsewhere before this machine heard of it. It works from the remote's
// tombstones in SQL, a few statements per push whatever its size, instead
// of sending the IDs of every row pushed. Payloads are rewritten exactly as
// forgetting rewrites them locally (store.BlankCreatePayload), so every
// copy of a row stays identical.
func blankForgotten(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `UPDATE episodes SET content = '', summary = ''
		WHERE id IN (SELECT target_id FROM tombstones WHERE kind = 'episode') AND (content != '' OR summary != '')`); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `UPDATE evidence SET note = ''
		WHERE belief_id IN (SELECT target_id FROM tombstones WHERE kind != 'episode') AND note != ''`); err != nil {
		return err
	}
	// Create events whose payload may still hold text: a blank one has
	// the statement "[forgotten]" and none of the fields it clears.
	type update struct{ id, payload string }
	var updates []update
	err := queryEach(ctx, conn, `SELECT `+store.SyncColumns("#id", "#payload")+` FROM belief_events
		WHERE kind = 'create' AND belief_id IN (SELECT target_id FROM tombstones WHERE kind != 'episode')
		AND NOT (json_valid(payload) AND json_extract(payload, '$.spec.statement') IS '[forgotten]'
			AND json_extract(payload, '$.spec.subject') IS NULL AND json_extract(payload, '$.spec.object') IS NULL
			AND json_extract(payload, '$.spec.context') IS NULL AND json_extract(payload, '$.spec.timeframe') IS NULL)`,
		nil, func(rows *sql.Rows) error {
			var u update
			if err := rows.Scan(raw(&u.id), raw(&u.payload)); err != nil {
				return err
			}
			if blank := store.BlankCreatePayload(u.payload); blank != u.payload {
				updates = append(updates, update{u.id, blank})
			}
			return nil
		})
	if err != nil {
		return err
	}
	for _, u := range updates {
		if _, err := conn.ExecContext(ctx, `UPDATE belief_events SET payload = ? WHERE id = ?`, u.payload, u.id); err != nil {
			return err
		}
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
