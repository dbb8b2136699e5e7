package syncer

import (
	"context"
	"database/sql"
	"sort"
	"strings"

	"github.com/credence-mem/credence/store"
)

// maxStatementBytes bounds the text in one multi-row INSERT, so a push of
// long exchanges stays a reasonable HTTP request.
const maxStatementBytes = 1 << 20

// maxStatementRows bounds the rows in one multi-row INSERT, well below
// SQLite's limit on bound variables.
const maxStatementRows = 200

// Push stores the batch in one remote transaction.
func (r *sqlRemote) Push(ctx context.Context, b store.SyncBatch) (int, error) {
	r.begin()
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
			{"blank", func() (int, error) { return 0, blankForgotten(ctx, conn, b) }},
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
// rows and returns how many were new.
func insertRows(ctx context.Context, conn *sql.Conn, head string, width, n int, row func(i int) ([]any, int)) (int, error) {
	total := 0
	for start := 0; start < n; {
		var args []any
		size, end := 0, start
		for end < n && end-start < maxStatementRows && (end == start || size < maxStatementBytes) {
			vals, bytes := row(end)
			args = append(args, vals...)
			size += bytes
			end++
		}
		one := "(" + strings.TrimSuffix(strings.Repeat("?,", width), ",") + ")"
		q := head + " VALUES " + strings.TrimSuffix(strings.Repeat(one+",", end-start), ",") + " ON CONFLICT DO NOTHING"
		res, err := conn.ExecContext(ctx, q, args...)
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
		turn, created_at, hlc, origin)`, 11, len(rs), func(i int) ([]any, int) {
		e := rs[i]
		return []any{e.ID, e.SessionID, e.ProjectPath, e.Scope, e.Kind, e.Content, e.Summary, e.Turn, e.CreatedAt,
			e.HLC, e.Origin}, len(e.Content) + len(e.Summary) + 200
	})
}

func pushEvidence(ctx context.Context, conn *sql.Conn, rs []store.SyncEvidence) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO evidence(id, belief_id, episode_id, source, label, support, reliability,
		note, turn, created_at, hlc, origin)`, 12, len(rs), func(i int) ([]any, int) {
		e := rs[i]
		return []any{e.ID, e.BeliefID, nullable(e.EpisodeID), e.Source, e.Label, e.Support, e.Reliability, e.Note,
			e.Turn, e.CreatedAt, e.HLC, e.Origin}, len(e.Note) + 200
	})
}

func pushEvents(ctx context.Context, conn *sql.Conn, rs []store.SyncEvent) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO belief_events(id, belief_id, kind, evidence_id, payload, turn,
		created_at, hlc, origin)`, 9, len(rs), func(i int) ([]any, int) {
		e := rs[i]
		return []any{e.ID, e.BeliefID, e.Kind, nullable(e.EvidenceID), e.Payload, e.Turn, e.CreatedAt, e.HLC,
			e.Origin}, len(e.Payload) + 150
	})
}

func pushTombstones(ctx context.Context, conn *sql.Conn, rs []store.SyncTombstone) (int, error) {
	return insertRows(ctx, conn, `INSERT INTO tombstones(target_id, kind, created_at, hlc, origin)`, 5, len(rs),
		func(i int) ([]any, int) {
			t := rs[i]
			return []any{t.TargetID, t.Kind, t.CreatedAt, t.HLC, t.Origin}, 100
		})
}

// blankForgotten purges, on the remote, the text of everything a tombstone
// names among the rows of this push: the targets of the tombstones pushed
// now (rows other machines pushed earlier), and rows pushed now whose target
// was forgotten elsewhere before this machine heard of it. The payloads are
// rewritten exactly as forgetting rewrites them locally, so every copy of a
// row stays identical.
func blankForgotten(ctx context.Context, conn *sql.Conn, b store.SyncBatch) error {
	candidates := map[string]bool{}
	for _, t := range b.Tombstones {
		candidates[t.TargetID] = true
	}
	for _, e := range b.Episodes {
		candidates[e.ID] = true
	}
	for _, e := range b.Evidence {
		candidates[e.BeliefID] = true
	}
	for _, e := range b.Events {
		candidates[e.BeliefID] = true
	}
	keys := make([]string, 0, len(candidates))
	for k := range candidates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for start := 0; start < len(keys); start += 500 {
		chunk := keys[start:min(start+500, len(keys))]
		stones, err := remoteTombstones(ctx, conn, chunk)
		if err != nil {
			return err
		}
		for _, t := range stones {
			if err := blankTarget(ctx, conn, t.TargetID, t.Kind); err != nil {
				return err
			}
		}
	}
	return nil
}

func remoteTombstones(ctx context.Context, conn *sql.Conn, targets []string) ([]store.SyncTombstone, error) {
	args := make([]any, len(targets))
	for i, t := range targets {
		args[i] = t
	}
	rows, err := conn.QueryContext(ctx, `SELECT `+store.SyncColumns("#target_id", "#kind")+` FROM tombstones WHERE target_id IN (`+
		strings.TrimSuffix(strings.Repeat("?,", len(targets)), ",")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.SyncTombstone
	for rows.Next() {
		var t store.SyncTombstone
		if err := rows.Scan(raw(&t.TargetID), raw(&t.Kind)); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func blankTarget(ctx context.Context, conn *sql.Conn, id, kind string) error {
	if kind == "episode" {
		_, err := conn.ExecContext(ctx, `UPDATE episodes SET content = '', summary = ''
			WHERE id = ? AND (content != '' OR summary != '')`, id)
		return err
	}
	rows, err := conn.QueryContext(ctx, `SELECT `+store.SyncColumns("#id", "#payload")+` FROM belief_events
		WHERE belief_id = ? AND kind = 'create'`, id)
	if err != nil {
		return err
	}
	type update struct{ id, payload string }
	var updates []update
	for rows.Next() {
		var u update
		if err := rows.Scan(raw(&u.id), raw(&u.payload)); err != nil {
			rows.Close()
			return err
		}
		if blank := store.BlankCreatePayload(u.payload); blank != u.payload {
			updates = append(updates, update{u.id, blank})
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, u := range updates {
		if _, err := conn.ExecContext(ctx, `UPDATE belief_events SET payload = ? WHERE id = ?`, u.payload, u.id); err != nil {
			return err
		}
	}
	_, err = conn.ExecContext(ctx, `UPDATE evidence SET note = '' WHERE belief_id = ? AND note != ''`, id)
	return err
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
