package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/credence-mem/credence/belief"
)

// recordQuery reads text as prefixed BLOBs; see beliefCols. The label is
// NULL for events without evidence.
var recordQuery = `SELECT ` + rawCols(`#e.id`, `#e.belief_id`, `#e.kind`, `#e.payload`, `e.turn`, `e.created_at`,
	`e.hlc`, `#e.origin`) + `, CAST('.' || ev.label AS BLOB), coalesce(ev.support, 0), coalesce(ev.reliability, 0)
	FROM belief_events e LEFT JOIN evidence ev ON ev.id = e.evidence_id`

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// records streams belief records in (belief, HLC, ID) order to fn. Evidence
// events whose evidence row has not arrived yet (sync delivers tables
// separately) are skipped; folding again once it arrives picks them up.
func records(ctx context.Context, q querier, where string, args []any, fn func(belief.Record) error) error {
	rows, err := q.QueryContext(ctx, recordQuery+" "+where+" ORDER BY e.belief_id, e.hlc, e.id", args...)
	if err != nil {
		return wrap("read belief history", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r belief.Record
		var kind, payload string
		var label string
		var hasLabel bool
		if err := rows.Scan(rawText{&r.ID}, rawText{&r.BeliefID}, rawText{&kind}, rawText{&payload}, &r.At.Turn,
			&r.At.Millis, &r.HLC, rawText{&r.Origin}, rawNullText{&label, &hasLabel}, &r.Support, &r.Reliability); err != nil {
			return wrap("read belief history", err)
		}
		r.Kind = belief.EventKind(kind)
		if r.Kind.IsEvidence() {
			if !hasLabel {
				continue
			}
			r.Label = belief.Label(label)
		}
		var p eventPayload
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			return fmt.Errorf("decode event %s: %w", r.ID, err)
		}
		r.Spec, r.Target, r.Absorb = p.Spec, p.Target, p.Absorb
		if err := fn(r); err != nil {
			return err
		}
	}
	return wrap("read belief history", rows.Err())
}

// fold replays the records matched by where and calls emit with each
// belief's final state.
func (db *DB) fold(ctx context.Context, q querier, where string, args []any, emit func(belief.State) error) error {
	var cur belief.State
	var curID string
	flush := func() error {
		if curID == "" || cur.ID == "" {
			return nil
		}
		return emit(cur)
	}
	err := records(ctx, q, where, args, func(r belief.Record) error {
		if r.BeliefID != curID {
			if err := flush(); err != nil {
				return err
			}
			cur, curID = belief.State{}, r.BeliefID
		}
		db.params.Apply(&cur, r)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

type txQuerier struct{ tx *Tx }

func (q txQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return q.tx.Query(ctx, query, args...)
}

// Refold recomputes the given beliefs from their logs inside the
// transaction. Sync calls it for every belief whose history gained rows from
// another machine, since those may sort before rows already folded.
func (tx *Tx) Refold(ctx context.Context, beliefIDs ...string) error {
	for _, chunk := range chunks(beliefIDs, 200) {
		var states []belief.State
		err := tx.db.fold(ctx, txQuerier{tx}, "WHERE e.belief_id IN ("+placeholders(len(chunk))+")", anySlice(chunk),
			func(s belief.State) error { states = append(states, s); return nil })
		if err == nil {
			err = tx.writeStates(ctx, states)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Rebuild recomputes every belief from episodes, evidence and events, in one
// transaction, and removes belief rows that no history supports. Local
// columns (stability, access and promotion marks) are kept.
func (db *DB) Rebuild(ctx context.Context) (int, error) {
	n := 0
	err := db.Write(ctx, func(tx *Tx) error {
		seen := map[string]bool{}
		err := db.fold(ctx, txQuerier{tx}, "", nil, func(s belief.State) error {
			seen[s.ID] = true
			n++
			return tx.writeState(ctx, s)
		})
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id FROM beliefs`)
		if err != nil {
			return wrap("list beliefs", err)
		}
		var orphans []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return wrap("list beliefs", err)
			}
			if !seen[id] {
				orphans = append(orphans, id)
			}
		}
		rows.Close()
		for _, id := range orphans {
			if _, err := tx.Exec(ctx, `DELETE FROM beliefs WHERE id = ?`, id); err != nil {
				return wrap("delete orphan belief", err)
			}
		}
		return nil
	})
	return n, err
}

// AsOf folds a belief's history up to and including time t: what we believed
// then. It returns ErrNotFound when the belief did not exist yet.
func (db *DB) AsOf(ctx context.Context, id string, t time.Time) (belief.State, error) {
	var out belief.State
	err := db.fold(ctx, db.sql, "WHERE e.belief_id = ? AND e.created_at <= ?", []any{id, t.UnixMilli()},
		func(s belief.State) error { out = s; return nil })
	if err == nil && out.ID == "" {
		err = fmt.Errorf("belief %s as of %s: %w", id, t.Format(time.RFC3339), ErrNotFound)
	}
	return out, err
}

// AllAsOf folds every belief's history up to time t.
func (db *DB) AllAsOf(ctx context.Context, t time.Time) ([]belief.State, error) {
	var out []belief.State
	err := db.fold(ctx, db.sql, "WHERE e.created_at <= ?", []any{t.UnixMilli()},
		func(s belief.State) error { out = append(out, s); return nil })
	return out, err
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
