package syncer

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/credence-mem/credence/store"
)

// maxStatementBytes bounds the text of one multi-row INSERT, so a push of
// long exchanges stays a reasonable HTTP request. A remote that refuses a
// request as too large makes the bound smaller (sqlRemote.budget), down to
// minStatementBytes; an episode longer than the bound is sent in pieces.
const (
	maxStatementBytes = 1 << 20
	minStatementBytes = 8 << 10
)

// maxStatementRows bounds the rows of one multi-row INSERT.
const maxStatementRows = 500

// Push stores the batch in one remote transaction. A remote that refuses
// a request as too large gets the batch again in smaller statements.
func (r *sqlRemote) Push(ctx context.Context, b store.SyncBatch) (int, error) {
	for {
		n, err := r.push(ctx, b)
		if errors.Is(err, ErrTooLarge) && r.budget > minStatementBytes {
			r.budget = max(r.budget/4, minStatementBytes)
			continue
		}
		return n, err
	}
}

func (r *sqlRemote) push(ctx context.Context, b store.SyncBatch) (int, error) {
	r.begin(ctx)
	inserted := 0
	err := r.inTx(ctx, func(conn *sql.Conn) error {
		w := rowWriter{conn: conn, budget: r.budget}
		steps := []struct {
			name string
			run  func() (int, error)
		}{
			{"episodes", func() (int, error) { return w.episodes(ctx, b.Episodes) }},
			{"evidence", func() (int, error) { return w.evidence(ctx, b.Evidence) }},
			{"events", func() (int, error) { return w.events(ctx, b.Events) }},
			{"tombstones", func() (int, error) { return w.tombstones(ctx, b.Tombstones) }},
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

// rowWriter writes rows to the remote in statements of at most budget
// bytes.
type rowWriter struct {
	conn   *sql.Conn
	budget int
}

// table is how rowWriter inserts one table's rows: the INSERT's head, and
// the columns (by position in a row, the ID first) whose long text may be
// sent in pieces.
type table struct {
	name, head string
	cols       []string
	pieces     []int
}

// insert runs one multi-row INSERT … ON CONFLICT DO NOTHING per group of
// rows, written as literals (see store.AppendSQLLiteral), and returns how many were
// new. A row too long for the budget alone goes without the text of its
// piece columns, which is appended in pieces when the row was new.
func (w rowWriter) insert(ctx context.Context, t table, n int, row func(i int) []any) (int, error) {
	total := 0
	var q, one []byte
	for start := 0; start < n; {
		q = append(append(q[:0], t.head...), " VALUES "...)
		end := start
		for ; end < n && end-start < maxStatementRows; end++ {
			one = store.AppendSQLRow(one[:0], row(end))
			if end > start && len(q)+len(one)+1 > w.budget {
				break
			}
			if end > start {
				q = append(q, ',')
			}
			q = append(q, one...)
		}
		if end == start+1 && len(q) > w.budget && len(t.pieces) > 0 {
			n, err := w.insertInPieces(ctx, t, row(start))
			if err != nil {
				return total, err
			}
			total, start = total+n, end
			continue
		}
		res, err := w.conn.ExecContext(ctx, string(append(q, " ON CONFLICT DO NOTHING"...)))
		if err != nil {
			return total, err
		}
		affected, _ := res.RowsAffected()
		total += int(affected)
		start = end
	}
	return total, nil
}

// insertInPieces inserts one row with its piece columns empty and, when
// the row is new (a row the remote holds already is whole), appends their
// text in pieces that fit the budget.
func (w rowWriter) insertInPieces(ctx context.Context, t table, vals []any) (int, error) {
	short := append([]any(nil), vals...)
	for _, c := range t.pieces {
		short[c] = ""
	}
	q := append(append([]byte(t.head), " VALUES "...), store.AppendSQLRow(nil, short)...)
	res, err := w.conn.ExecContext(ctx, string(append(q, " ON CONFLICT DO NOTHING"...)))
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, nil
	}
	piece := max(w.budget/2, 1024)
	for _, c := range t.pieces {
		text, _ := vals[c].(string)
		for text != "" {
			cut := min(len(text), piece)
			for cut < len(text) && !utf8.RuneStart(text[cut]) {
				cut--
			}
			q := append([]byte("UPDATE "+t.name+" SET "+t.cols[c]+" = "+t.cols[c]+" || "), store.AppendSQLText(nil, text[:cut])...)
			q = append(append(q, " WHERE id = "...), store.AppendSQLText(nil, vals[0].(string))...)
			if _, err := w.conn.ExecContext(ctx, string(q)); err != nil {
				return 0, err
			}
			text = text[cut:]
		}
	}
	return 1, nil
}

var (
	episodeTable = table{name: "episodes", cols: []string{"id", "session_id", "project_path", "scope", "kind",
		"content", "summary", "turn", "created_at", "hlc", "origin"}, pieces: []int{5, 6}}
	evidenceTable = table{name: "evidence", cols: []string{"id", "belief_id", "episode_id", "source", "label",
		"support", "reliability", "note", "turn", "created_at", "hlc", "origin"}}
	eventTable = table{name: "belief_events", cols: []string{"id", "belief_id", "kind", "evidence_id", "payload",
		"turn", "created_at", "hlc", "origin"}}
	tombstoneTable = table{name: "tombstones", cols: []string{"target_id", "kind", "created_at", "hlc", "origin"}}
)

func init() {
	for _, t := range []*table{&episodeTable, &evidenceTable, &eventTable, &tombstoneTable} {
		t.head = "INSERT INTO " + t.name + "(" + strings.Join(t.cols, ", ") + ")"
	}
}

func (w rowWriter) episodes(ctx context.Context, rs []store.SyncEpisode) (int, error) {
	return w.insert(ctx, episodeTable, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.SessionID, e.ProjectPath, e.Scope, e.Kind, e.Content, e.Summary, e.Turn, e.CreatedAt,
			e.HLC, e.Origin}
	})
}

func (w rowWriter) evidence(ctx context.Context, rs []store.SyncEvidence) (int, error) {
	return w.insert(ctx, evidenceTable, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.BeliefID, nullable(e.EpisodeID), e.Source, e.Label, e.Support, e.Reliability, e.Note,
			e.Turn, e.CreatedAt, e.HLC, e.Origin}
	})
}

func (w rowWriter) events(ctx context.Context, rs []store.SyncEvent) (int, error) {
	return w.insert(ctx, eventTable, len(rs), func(i int) []any {
		e := rs[i]
		return []any{e.ID, e.BeliefID, e.Kind, nullable(e.EvidenceID), e.Payload, e.Turn, e.CreatedAt, e.HLC,
			e.Origin}
	})
}

func (w rowWriter) tombstones(ctx context.Context, rs []store.SyncTombstone) (int, error) {
	return w.insert(ctx, tombstoneTable, len(rs), func(i int) []any {
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
		WHERE kind IN ('create', 'restate') AND belief_id IN (SELECT target_id FROM tombstones WHERE kind != 'episode')
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
