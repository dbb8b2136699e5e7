package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
)

// ForgetScope says which episodes forgetting a belief takes with it
// (forget_sources.go has the rules).
type ForgetScope int

const (
	// ForgetSources, the default, takes the episodes that are the belief's
	// only source and those whose text states it, so its words are gone.
	ForgetSources ForgetScope = iota
	// ForgetEvidence also takes every episode the belief was learned from,
	// even those other beliefs rest on.
	ForgetEvidence
	// KeepEpisodes forgets the belief alone.
	KeepEpisodes
)

// Forgotten is what Forget removed.
type Forgotten struct {
	Beliefs  []string // beliefs forgotten now
	Episodes []string // episodes forgotten now, named or taken with a belief
	// Kept lists episodes a forgotten belief was learned from that were
	// left in place: other beliefs rest on them and their text does not
	// mention it, or the scope was KeepEpisodes.
	Kept []string
	// AlreadyForgotten lists the named IDs that were forgotten before.
	AlreadyForgotten []string
	// DerivedPurged counts rows PurgeDerived changed.
	DerivedPurged int
}

// Forget forgets each belief (bl_…) and episode (ep_…) in ids, short
// prefixes accepted, taking with each belief the episodes scope names.
// Each is tombstoned, so sync forgets it on every machine, and its text is
// purged from every table, derived row, FTS segment, free page and WAL
// frame. Every ID is looked up before anything is forgotten, so a mistyped
// one forgets nothing.
func (db *DB) Forget(ctx context.Context, ids []string, scope ForgetScope) (Forgotten, error) {
	var out Forgotten
	type target struct{ id, kind string }
	var targets []target
	for _, id := range ids {
		id = strings.TrimSpace(id)
		switch {
		case strings.HasPrefix(id, "bl_"):
			b, err := db.Belief(ctx, id)
			if err != nil {
				return out, err
			}
			targets = append(targets, target{b.ID, "belief"})
		case strings.HasPrefix(id, "ep_"):
			e, err := db.EpisodeByPrefix(ctx, id)
			if err != nil {
				return out, err
			}
			targets = append(targets, target{e.ID, "episode"})
		default:
			return out, fmt.Errorf("%q is not a belief (bl_…) or episode (ep_…) ID", id)
		}
	}
	forgotten := map[string]bool{}
	for _, t := range targets {
		var err error
		if t.kind == "belief" {
			err = db.forgetBelief(ctx, t.id, scope, &out, forgotten)
		} else {
			err = db.forgetNamedEpisode(ctx, t.id, &out, forgotten)
		}
		if err != nil {
			return out, fmt.Errorf("forget %s: %w", t.id, err)
		}
	}
	var err error
	if out.DerivedPurged, err = db.PurgeDerived(ctx); err != nil {
		return out, err
	}
	return out, db.Purge(ctx)
}

// forgetBelief forgets one belief and the episodes scope takes with it, in
// one transaction, and records them in out; forgotten holds what this
// Forget already took.
func (db *DB) forgetBelief(ctx context.Context, id string, scope ForgetScope, out *Forgotten, forgotten map[string]bool) error {
	b, err := db.Belief(ctx, id)
	if err != nil {
		return err
	}
	if b.Status == belief.Forgotten {
		if !forgotten[id] {
			out.AlreadyForgotten = append(out.AlreadyForgotten, id)
		}
		return nil
	}
	plan, err := db.planEpisodes(ctx, b, scope)
	if err != nil {
		return err
	}
	err = db.Write(ctx, func(tx *Tx) error {
		if _, err := tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: belief.Forget}, ""); err != nil {
			return err
		}
		if err := tx.purgeBeliefText(ctx, id, true); err != nil {
			return err
		}
		for _, eid := range plan.forget {
			if err := tx.forgetEpisode(ctx, eid); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	forgotten[id] = true
	out.Beliefs = append(out.Beliefs, id)
	for _, eid := range plan.forget {
		if !forgotten[eid] {
			forgotten[eid] = true
			out.Episodes = append(out.Episodes, eid)
		}
	}
	out.Kept = append(out.Kept, plan.kept...)
	return nil
}

// forgetNamedEpisode forgets one episode a person named.
func (db *DB) forgetNamedEpisode(ctx context.Context, id string, out *Forgotten, forgotten map[string]bool) error {
	e, err := db.Episode(ctx, id)
	if err != nil {
		return err
	}
	if e.Forgotten {
		if !forgotten[id] {
			out.AlreadyForgotten = append(out.AlreadyForgotten, id)
		}
		return nil
	}
	if err := db.Write(ctx, func(tx *Tx) error { return tx.forgetEpisode(ctx, id) }); err != nil {
		return err
	}
	forgotten[id] = true
	out.Episodes = append(out.Episodes, id)
	return nil
}

// ForgetBelief tombstones a belief alone, keeping every episode, and purges
// its text: the belief row, the statement in its create event, the notes of
// its evidence, its vectors, and (through Purge) the FTS segments, free
// pages and WAL that still hold them. Forget is what people use; it also
// decides which episodes go with the belief.
func (db *DB) ForgetBelief(ctx context.Context, id string) error {
	err := db.Write(ctx, func(tx *Tx) error {
		if _, err := tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: belief.Forget}, ""); err != nil {
			return err
		}
		return tx.purgeBeliefText(ctx, id, true)
	})
	if err != nil {
		return fmt.Errorf("forget %s: %w", id, err)
	}
	return db.Purge(ctx)
}

// purgeBeliefText blanks the text a belief's history holds. With tombstone
// set it also records the forget for sync.
func (tx *Tx) purgeBeliefText(ctx context.Context, id string, tombstone bool) error {
	rows, err := tx.Query(ctx, `SELECT id, payload FROM belief_events WHERE belief_id = ? AND kind IN ('create', 'restate')`, id)
	if err != nil {
		return wrap("read create event", err)
	}
	type upd struct{ id, payload string }
	var updates []upd
	for rows.Next() {
		var eid, payload string
		if err := rows.Scan(&eid, &payload); err != nil {
			rows.Close()
			return wrap("read create event", err)
		}
		var p eventPayload
		if err := json.Unmarshal([]byte(payload), &p); err != nil || p.Spec == nil {
			updates = append(updates, upd{eid, "{}"})
			continue
		}
		s := p.Spec
		s.Statement, s.Subject, s.Object, s.Context, s.Timeframe = "[forgotten]", "", "", "", ""
		b, _ := json.Marshal(p)
		updates = append(updates, upd{eid, string(b)})
	}
	rows.Close()
	for _, u := range updates {
		if _, err := tx.Exec(ctx, `UPDATE belief_events SET payload = ? WHERE id = ?`, u.payload, u.id); err != nil {
			return wrap("purge create event", err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE evidence SET note = '' WHERE belief_id = ?`, id); err != nil {
		return wrap("purge evidence notes", err)
	}
	if err := tx.db.deleteVectors(ctx, tx, id); err != nil {
		return err
	}
	if !tombstone {
		return nil
	}
	return tx.addTombstone(ctx, id, "belief")
}

// ForgetEpisode tombstones an episode and purges its text everywhere it is
// stored on this machine.
func (db *DB) ForgetEpisode(ctx context.Context, id string) error {
	if err := db.Write(ctx, func(tx *Tx) error { return tx.forgetEpisode(ctx, id) }); err != nil {
		return fmt.Errorf("forget %s: %w", id, err)
	}
	return db.Purge(ctx)
}

// forgetEpisode blanks an episode's text and records its tombstone, which
// sync carries to every machine.
func (tx *Tx) forgetEpisode(ctx context.Context, id string) error {
	if err := tx.purgeEpisode(ctx, id); err != nil {
		return err
	}
	return tx.addTombstone(ctx, id, "episode")
}

func (tx *Tx) purgeEpisode(ctx context.Context, id string) error {
	res, err := tx.Exec(ctx, `UPDATE episodes SET content = '', summary = '', surprise_explanation = NULL,
		forgotten_at = coalesce(forgotten_at, ?) WHERE id = ?`, tx.db.now().UnixMilli(), id)
	if err != nil {
		return wrap("purge episode", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("episode %s: %w", id, ErrNotFound)
	}
	return tx.db.deleteVectors(ctx, tx, id)
}

func (tx *Tx) addTombstone(ctx context.Context, id, kind string) error {
	h, err := tx.Tick(ctx)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO tombstones(target_id, kind, created_at, hlc, origin) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, id, kind, tx.db.now().UnixMilli(), int64(h), tx.db.machineID)
	return wrap("add tombstone", err)
}

// ApplyTombstone purges what a tombstone from another machine names. Sync
// calls it for every tombstone it pulls; it is idempotent.
func (tx *Tx) ApplyTombstone(ctx context.Context, targetID, kind string) error {
	switch kind {
	case "episode":
		err := tx.purgeEpisode(ctx, targetID)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	case "belief":
		return tx.purgeBeliefText(ctx, targetID, false)
	}
	return fmt.Errorf("apply tombstone %s: unknown kind %q", targetID, kind)
}
