package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/credence-mem/credence/belief"
)

// ForgetBelief tombstones a belief and purges its text: the belief row, the
// statement in its create event, the notes of its evidence, its vectors, and
// (through Purge) the FTS segments, free pages and WAL that still hold them.
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
	rows, err := tx.Query(ctx, `SELECT id, payload FROM belief_events WHERE belief_id = ? AND kind = 'create'`, id)
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
	err := db.Write(ctx, func(tx *Tx) error {
		if err := tx.purgeEpisode(ctx, id); err != nil {
			return err
		}
		return tx.addTombstone(ctx, id, "episode")
	})
	if err != nil {
		return fmt.Errorf("forget %s: %w", id, err)
	}
	return db.Purge(ctx)
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

// Purge makes deleted text unrecoverable from the database files: it merges
// the FTS5 indexes (secure_delete is on, so freed pages are zeroed) and
// checkpoints the WAL, truncating it.
func (db *DB) Purge(ctx context.Context) error {
	for _, q := range []string{
		`INSERT INTO episodes_fts(episodes_fts) VALUES ('optimize')`,
		`INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')`,
	} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return wrap("purge", err)
		}
	}
	return db.Checkpoint(ctx)
}

// Checkpoint copies the WAL into the database file and truncates it.
func (db *DB) Checkpoint(ctx context.Context) error {
	rows, err := db.sql.QueryContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	if err != nil {
		return wrap("checkpoint", err)
	}
	return rows.Close()
}
