package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
)

// Belief is a row of the beliefs table: the replicated state folded from the
// belief's history, plus the columns that are local to this machine.
type Belief struct {
	belief.State
	Seq int64

	// Local by design.
	Stability      float64
	LastAccessedAt int64 // Unix ms; 0 when never surfaced
	PromotedAt     int64
	DemotedAt      int64
}

// Confidence returns the belief's decayed confidence at time now and turn
// turn, before exclusivity.
func (b Belief) Confidence(p belief.Params, now time.Time, turn int64) float64 {
	return p.ConfidenceAt(b.State, belief.MomentAt(now, turn))
}

// writeState stores a folded state, inserting the row or updating its
// replicated columns; the local columns of an existing row are kept.
func (tx *Tx) writeState(ctx context.Context, s belief.State) error {
	return tx.writeStates(ctx, []belief.State{s})
}

// statesPerWrite bounds the rows of one multi-row upsert (32 variables
// each), well below SQLite's variable limit.
const statesPerWrite = 100

// writeStates is writeState for many states, a multi-row statement per
// statesPerWrite: go-libsql prepares every statement anew, so a sync that
// folds a thousand beliefs again would otherwise prepare a thousand.
func (tx *Tx) writeStates(ctx context.Context, states []belief.State) error {
	for _, chunk := range chunks(states, statesPerWrite) {
		args := make([]any, 0, 32*len(chunk))
		for _, s := range chunk {
			args = append(args, s.ID, s.Statement, s.Subject, s.Predicate, s.Object, s.Context, s.Timeframe, s.Kind,
				s.Scope, s.ProjectPath, s.Source, string(s.Status), s.Alpha, s.Beta, s.CountsAt.Millis, s.CountsAt.Turn,
				s.Peak, s.EvidenceCount, s.Supports, s.Contradictions, s.Partials, nullInt(s.LastReinforced), s.ValidAt,
				nullInt(s.InvalidAt), nullString(s.ParentID), nullString(s.MergedInto), s.Pinned, s.CreatedAt,
				s.UpdatedAt, s.LastHLC, s.Origin, tx.db.params.StabilityInitial)
		}
		_, err := tx.Exec(ctx, `INSERT INTO beliefs(id, statement, subject, predicate, object, context, timeframe,
		kind, scope, project_path, source, status, alpha, beta, counts_at, counts_turn, peak_confidence,
		evidence_count, supports, contradictions, partials, last_reinforced_at, valid_at, invalid_at,
		parent_belief_id, merged_into, pinned, created_at, updated_at, last_hlc, origin, stability)
		VALUES `+tuples(len(chunk), 32)+`
		ON CONFLICT(id) DO UPDATE SET statement = excluded.statement, subject = excluded.subject,
		predicate = excluded.predicate, object = excluded.object, context = excluded.context,
		timeframe = excluded.timeframe, kind = excluded.kind, scope = excluded.scope,
		project_path = excluded.project_path, source = excluded.source, status = excluded.status,
		alpha = excluded.alpha, beta = excluded.beta, counts_at = excluded.counts_at,
		counts_turn = excluded.counts_turn, peak_confidence = excluded.peak_confidence,
		evidence_count = excluded.evidence_count, supports = excluded.supports,
		contradictions = excluded.contradictions, partials = excluded.partials,
		last_reinforced_at = excluded.last_reinforced_at, valid_at = excluded.valid_at,
		invalid_at = excluded.invalid_at, parent_belief_id = excluded.parent_belief_id,
		merged_into = excluded.merged_into, pinned = excluded.pinned, created_at = excluded.created_at,
		updated_at = excluded.updated_at, last_hlc = excluded.last_hlc, origin = excluded.origin`, args...)
		if err != nil {
			if len(chunk) == 1 {
				return wrap("write belief "+chunk[0].ID, err)
			}
			return wrap(fmt.Sprintf("write %d beliefs", len(chunk)), err)
		}
	}
	return nil
}

// Belief returns the belief with the given ID. An unambiguous prefix of at
// least six characters after "bl_" is accepted too, so people can type the
// short IDs they are shown.
func (db *DB) Belief(ctx context.Context, id string) (Belief, error) {
	b, err := scanBelief(db.sql.QueryRowContext(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id = ?`, id))
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return b, wrap("read belief", err)
	}
	prefix := strings.TrimSuffix(id, "…")
	if len(prefix) < len("bl_")+6 || !strings.HasPrefix(prefix, "bl_") {
		return b, fmt.Errorf("belief %s: %w", id, ErrNotFound)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id >= ? AND id < ? LIMIT 2`,
		prefix, prefix+"~") // '~' sorts after every ULID character; the driver rejects invalid UTF-8
	if err != nil {
		return b, wrap("read belief", err)
	}
	defer rows.Close()
	var found []Belief
	for rows.Next() {
		b, err := scanBelief(rows)
		if err != nil {
			return b, wrap("read belief", err)
		}
		found = append(found, b)
	}
	switch len(found) {
	case 0:
		return b, fmt.Errorf("belief %s: %w", id, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return b, fmt.Errorf("belief %s: prefix matches more than one belief; give more characters", id)
}

// Filter selects beliefs. Zero fields select everything.
type Filter struct {
	Statuses []belief.Status
	Scope    string // "global" or "project"
	Project  string // with Scope "" and Project set: the project's beliefs plus global ones
	Subject  string
	// SubjectPrefix keeps the subjects that start with it ("user's "
	// for the person's kin and pets).
	SubjectPrefix string
	Predicate     string
	Object        string
	Kind          string
	Promoted      bool // only beliefs with promoted_at set
	Limit         int
}

func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	if len(f.Statuses) > 0 {
		conds = append(conds, "status IN ("+placeholders(len(f.Statuses))+")")
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
	}
	switch {
	case f.Scope == belief.ScopeGlobal:
		conds = append(conds, "scope = 'global'")
	case f.Scope == belief.ScopeProject && f.Project != "":
		conds, args = append(conds, "scope = 'project' AND project_path = ?"), append(args, f.Project)
	case f.Scope == belief.ScopeProject:
		conds = append(conds, "scope = 'project'")
	case f.Project != "":
		conds, args = append(conds, "(scope = 'global' OR project_path = ?)"), append(args, f.Project)
	}
	for _, c := range []struct{ col, v string }{{"subject", f.Subject}, {"predicate", f.Predicate}, {"object", f.Object}, {"kind", f.Kind}} {
		if c.v != "" {
			conds, args = append(conds, c.col+" = ?"), append(args, c.v)
		}
	}
	if f.SubjectPrefix != "" {
		// a range the (subject, predicate) index serves
		conds, args = append(conds, "subject >= ? AND subject < ?"), append(args, f.SubjectPrefix, f.SubjectPrefix+"\U0010FFFF")
	}
	if f.Promoted {
		conds = append(conds, "promoted_at IS NOT NULL")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Beliefs returns the beliefs matching f, oldest first.
func (db *DB) Beliefs(ctx context.Context, f Filter) ([]Belief, error) {
	q, args := filterQuery(f)
	return db.queryBeliefs(ctx, q, args...)
}

// BeliefsByID returns the beliefs with the given IDs, in no particular order.
func (db *DB) BeliefsByID(ctx context.Context, idList []string) ([]Belief, error) {
	var out []Belief
	for _, chunk := range chunks(idList, 200) {
		bs, err := db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

func (db *DB) queryBeliefs(ctx context.Context, q string, args ...any) ([]Belief, error) {
	return collect(ctx, db.sql, "list beliefs", scanBelief, q, args...)
}

// CountBeliefs returns the number of beliefs per status.
func (db *DB) CountBeliefs(ctx context.Context) (map[belief.Status]int, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT status, count(*) FROM beliefs GROUP BY status`)
	if err != nil {
		return nil, wrap("count beliefs", err)
	}
	defer rows.Close()
	out := map[belief.Status]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, wrap("count beliefs", err)
		}
		out[belief.Status(s)] = n
	}
	return out, wrap("count beliefs", rows.Err())
}

// Touch records that beliefs were surfaced at now: their stability grows with
// the gap since the previous access, and their access time moves to now.
func (db *DB) Touch(ctx context.Context, now time.Time, idList ...string) error {
	if len(idList) == 0 {
		return nil
	}
	bs, err := db.BeliefsByID(ctx, idList)
	if err != nil {
		return err
	}
	return db.Write(ctx, func(tx *Tx) error {
		for _, b := range bs {
			last := time.UnixMilli(b.LastAccessedAt)
			if b.LastAccessedAt == 0 {
				last = time.UnixMilli(b.CreatedAt)
			}
			s := db.params.NextStability(b.Stability, last, now)
			if _, err := tx.Exec(ctx, `UPDATE beliefs SET stability = ?, last_accessed_at = ? WHERE id = ?`,
				s, now.UnixMilli(), b.ID); err != nil {
				return wrap("touch belief", err)
			}
		}
		return nil
	})
}

// SetPromotion records this machine's promotion marks for a belief; zero
// clears a mark.
func (db *DB) SetPromotion(ctx context.Context, id string, promotedAt, demotedAt int64) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE beliefs SET promoted_at = ?, demoted_at = ? WHERE id = ?`,
		nullInt(promotedAt), nullInt(demotedAt), id)
	return wrap("set promotion", err)
}

// Exclusive reports whether predicate has cardinality one.
func (db *DB) Exclusive(ctx context.Context, predicate string) (bool, error) {
	var ex bool
	err := db.sql.QueryRowContext(ctx, `SELECT exclusive FROM relations WHERE predicate = ?`, predicate).Scan(&ex)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return ex, wrap("read relation", err)
}

// ExclusivePredicates returns every predicate marked exclusive.
func (db *DB) ExclusivePredicates(ctx context.Context) (map[string]bool, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT predicate FROM relations WHERE exclusive = 1`)
	if err != nil {
		return nil, wrap("list relations", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, wrap("list relations", err)
		}
		out[p] = true
	}
	return out, wrap("list relations", rows.Err())
}

// SetRelation records whether predicate is exclusive. Extraction may mark
// new predicates exclusive; an existing built-in flag is not overridden.
func (db *DB) SetRelation(ctx context.Context, predicate string, exclusive bool, source string) error {
	_, err := db.sql.ExecContext(ctx, `INSERT INTO relations(predicate, exclusive, source, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT(predicate) DO NOTHING`, predicate, exclusive, source, db.now().UnixMilli())
	return wrap("set relation", err)
}
