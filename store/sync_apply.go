package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/credence-mem/credence/ids"
)

// SyncApplied says what applying a pulled batch changed.
type SyncApplied struct {
	// Inserted counts rows that were new here; the rest were already held.
	Inserted int
	// Beliefs are the beliefs whose history gained rows (or lost text) and
	// were folded again.
	Beliefs []string
	// Purged counts tombstones applied; text was blanked, so the caller
	// should run Purge after the transaction commits.
	Purged int
}

// rowsPerInsert bounds a multi-row INSERT well below SQLite's variable limit.
const rowsPerInsert = 200

// ApplySync inserts rows pulled from another machine, idempotently by ID,
// then applies the tombstones they carry (and any tombstone held here that
// names one of them), advances the clock past them and folds again every
// belief whose history they touch. Rows may come in any order and more than
// once: the fold orders each belief's history by (HLC, ID) and skips records
// whose create event or evidence row has not arrived yet, so folding again
// when they do gives the same state as receiving everything at once.
func (tx *Tx) ApplySync(ctx context.Context, b SyncBatch) (SyncApplied, error) {
	var out SyncApplied
	var maxHLC int64
	touched := map[string]bool{}
	targets := map[string]bool{}

	n, err := tx.insertSyncEpisodes(ctx, b.Episodes)
	if err != nil {
		return out, err
	}
	out.Inserted += n
	for _, r := range b.Episodes {
		maxHLC, targets[r.ID] = max(maxHLC, r.HLC), true
	}
	if n, err = tx.insertSyncEvidence(ctx, b.Evidence); err != nil {
		return out, err
	}
	out.Inserted += n
	for _, r := range b.Evidence {
		maxHLC, touched[r.BeliefID], targets[r.BeliefID] = max(maxHLC, r.HLC), true, true
	}
	if n, err = tx.insertSyncEvents(ctx, b.Events); err != nil {
		return out, err
	}
	out.Inserted += n
	for _, r := range b.Events {
		maxHLC, touched[r.BeliefID], targets[r.BeliefID] = max(maxHLC, r.HLC), true, true
		if r.Kind == "create" {
			if err := tx.addSpecEntities(ctx, r.Payload); err != nil {
				return out, err
			}
		}
	}
	if n, err = tx.insertSyncTombstones(ctx, b.Tombstones); err != nil {
		return out, err
	}
	out.Inserted += n
	for _, r := range b.Tombstones {
		maxHLC, targets[r.TargetID] = max(maxHLC, r.HLC), true
	}

	// A row that arrives after its target was forgotten here (it left
	// another machine before that machine heard of the forget) is purged
	// as it lands, whichever tombstone names it.
	stones, err := tx.tombstonesFor(ctx, sortedKeys(targets))
	if err != nil {
		return out, err
	}
	for _, t := range stones {
		if err := tx.ApplyTombstone(ctx, t.TargetID, t.Kind); err != nil {
			return out, err
		}
		if t.Kind == "belief" {
			touched[t.TargetID] = true
		}
		out.Purged++
	}
	if maxHLC > 0 {
		if err := tx.Observe(ctx, ids.HLC(maxHLC)); err != nil {
			return out, err
		}
	}
	out.Beliefs = sortedKeys(touched)
	return out, tx.Refold(ctx, out.Beliefs...)
}

func (tx *Tx) insertSyncEpisodes(ctx context.Context, rs []SyncEpisode) (int, error) {
	return tx.insertLiterals(ctx, "insert pulled episodes", `INSERT INTO episodes(id, session_id, project_path, scope,
		kind, content, summary, turn, created_at, hlc, origin)`, len(rs), func(i int) []any {
		r := rs[i]
		return []any{r.ID, r.SessionID, r.ProjectPath, r.Scope, r.Kind, r.Content, r.Summary, r.Turn, r.CreatedAt,
			r.HLC, r.Origin}
	})
}

func (tx *Tx) insertSyncEvidence(ctx context.Context, rs []SyncEvidence) (int, error) {
	return tx.insertLiterals(ctx, "insert pulled evidence", `INSERT INTO evidence(id, belief_id, episode_id, source,
		label, support, reliability, note, turn, created_at, hlc, origin)`, len(rs), func(i int) []any {
		r := rs[i]
		return []any{r.ID, r.BeliefID, nullString(r.EpisodeID), r.Source, r.Label, r.Support, r.Reliability, r.Note,
			r.Turn, r.CreatedAt, r.HLC, r.Origin}
	})
}

func (tx *Tx) insertSyncEvents(ctx context.Context, rs []SyncEvent) (int, error) {
	return tx.insertLiterals(ctx, "insert pulled belief events", `INSERT INTO belief_events(id, belief_id, kind,
		evidence_id, payload, turn, created_at, hlc, origin)`, len(rs), func(i int) []any {
		r := rs[i]
		return []any{r.ID, r.BeliefID, r.Kind, nullString(r.EvidenceID), r.Payload, r.Turn, r.CreatedAt, r.HLC,
			r.Origin}
	})
}

// insertLiterals runs one multi-row INSERT … ON CONFLICT DO NOTHING per
// rowsPerInsert rows, the values written as literals (AppendSQLLiteral,
// which also makes text valid UTF-8 without NUL), and returns how many
// rows were new.
func (tx *Tx) insertLiterals(ctx context.Context, op, head string, n int, row func(i int) []any) (int, error) {
	total := 0
	var q []byte
	for start := 0; start < n; start += rowsPerInsert {
		q = append(append(q[:0], head...), " VALUES "...)
		for i := start; i < min(start+rowsPerInsert, n); i++ {
			if i > start {
				q = append(q, ',')
			}
			q = AppendSQLRow(q, row(i))
		}
		res, err := tx.Exec(ctx, string(append(q, " ON CONFLICT DO NOTHING"...)))
		if err != nil {
			return total, wrap(op, err)
		}
		affected, _ := res.RowsAffected()
		total += int(affected)
	}
	return total, nil
}

func (tx *Tx) insertSyncTombstones(ctx context.Context, rs []SyncTombstone) (int, error) {
	total := 0
	for _, r := range rs {
		// One row per statement: the trigger that numbers tombstones reads
		// max(seq), which a multi-row insert would see only once.
		res, err := tx.Exec(ctx, `INSERT INTO tombstones(target_id, kind, created_at, hlc, origin)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, r.TargetID, r.Kind, r.CreatedAt, r.HLC, r.Origin)
		if err != nil {
			return total, wrap("insert pulled tombstone", err)
		}
		n, _ := res.RowsAffected()
		total += int(n)
	}
	return total, nil
}

// tombstonesFor returns the tombstones held here that name any of targets.
func (tx *Tx) tombstonesFor(ctx context.Context, targets []string) ([]SyncTombstone, error) {
	var out []SyncTombstone
	for _, chunk := range chunks(targets, 500) {
		rows, err := tx.Query(ctx, `SELECT target_id, kind FROM tombstones WHERE target_id IN (`+
			placeholders(len(chunk))+`) ORDER BY target_id`, anySlice(chunk)...)
		if err != nil {
			return nil, wrap("read tombstones", err)
		}
		for rows.Next() {
			var t SyncTombstone
			if err := rows.Scan(&t.TargetID, &t.Kind); err != nil {
				rows.Close()
				return nil, wrap("read tombstones", err)
			}
			out = append(out, t)
		}
		if err := closeRows(rows, "read tombstones"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addSpecEntities records the subject and object of a pulled create event,
// as creating the belief here would have.
func (tx *Tx) addSpecEntities(ctx context.Context, payload string) error {
	var p eventPayload
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return fmt.Errorf("decode pulled create event: %w", err)
	}
	if p.Spec == nil {
		return nil
	}
	for _, name := range []string{p.Spec.Subject, p.Spec.Object} {
		if err := tx.addEntity(ctx, validUTF8(name)); err != nil {
			return err
		}
	}
	return nil
}

// tuples returns n parenthesized groups of width placeholders.
func tuples(n, width int) string {
	one := "(" + placeholders(width) + ")"
	var b strings.Builder
	b.Grow(n * (len(one) + 1))
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one)
	}
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
