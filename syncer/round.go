package syncer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/credence-mem/credence/store"
)

// pull applies the remote's rows past the pull cursor, one batch per local
// transaction; the cursor moves in the transaction that commits the rows,
// so a pull cut anywhere loses nothing and repeats nothing it committed.
// Only tables the survey found rows waiting in are asked; the others'
// positions move past what the survey saw (this machine's own rows), so
// an idle round costs the remote one statement.
func (s *Syncer) pull(ctx context.Context, remote Remote, st syncState, sv Survey, rep *Report) error {
	me := s.db.MachineID()
	cur := st.pull
	want := AllTables
	if !st.reset {
		want = waiting(sv)
		if next := pastIdle(cur, sv); next != cur {
			err := s.db.Write(ctx, func(tx *store.Tx) error {
				var err error
				cur, err = advance(ctx, tx, MetaPullCursor, next)
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	for want != 0 {
		b, err := remote.Pull(ctx, cur, me, s.batch, want)
		if err != nil {
			return err
		}
		if b.Len() == 0 {
			break
		}
		var applied store.SyncApplied
		err = s.db.Write(ctx, func(tx *store.Tx) error {
			var err error
			if applied, err = tx.ApplySync(ctx, b); err != nil {
				return err
			}
			cur, err = advance(ctx, tx, MetaPullCursor, b.Advance(cur))
			return err
		})
		if err != nil {
			return err
		}
		rep.Pulled += b.Len()
		rep.PulledNew += applied.Inserted
		rep.Refolded += len(applied.Beliefs)
		rep.Purged += applied.Purged
		want = full(b, s.batch, want)
	}
	rep.pulledAt = time.Now()
	return nil
}

// full returns the tables of want that filled their batch: more may wait
// there.
func full(b store.SyncBatch, limit int, want Tables) Tables {
	var out Tables
	for _, t := range []struct {
		table Tables
		n     int
	}{{TableEpisodes, len(b.Episodes)}, {TableEvidence, len(b.Evidence)}, {TableEvents, len(b.Events)},
		{TableTombstones, len(b.Tombstones)}} {
		if want&t.table != 0 && t.n >= limit {
			out |= t.table
		}
	}
	if b.More && want&TableEpisodes != 0 {
		out |= TableEpisodes // cut short by size
	}
	return out
}

// waiting returns the tables the survey found rows to pull in.
func waiting(sv Survey) Tables {
	var out Tables
	w := sv.Waiting
	for _, t := range []struct {
		table Tables
		n     int64
	}{{TableEpisodes, w.Episodes}, {TableEvidence, w.Evidence}, {TableEvents, w.Events},
		{TableTombstones, w.Tombstones}} {
		if t.n > 0 {
			out |= t.table
		}
	}
	return out
}

// pastIdle moves the cursor of each table with nothing waiting to the
// head the survey saw. The count and the head come from one snapshot, so
// every row at or below the head is this machine's own or already pulled,
// and a row committed later gets a higher sequence.
func pastIdle(cur store.SyncCursor, sv Survey) store.SyncCursor {
	w, h := sv.Waiting, sv.Head
	if w.Episodes == 0 {
		cur.Episodes = max(cur.Episodes, h.Episodes)
	}
	if w.Evidence == 0 {
		cur.Evidence = max(cur.Evidence, h.Evidence)
	}
	if w.Events == 0 {
		cur.Events = max(cur.Events, h.Events)
	}
	if w.Tombstones == 0 {
		cur.Tombstones = max(cur.Tombstones, h.Tombstones)
	}
	return cur
}

// mergeTwins derives the merge of beliefs created independently on two
// machines, from the rows now held. Twins and evidence to mirror appear
// only with new belief events (a create, a reactivation, a forget) or new
// evidence rows, pulled or written here, so the scan is skipped when
// neither log has grown since the last one.
func (s *Syncer) mergeTwins(ctx context.Context, rep *Report) error {
	// Looked at outside a write transaction first: an idle round takes no
	// write lock for it.
	seen, err := s.db.Meta(ctx, MetaMergedThrough)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if head, err := logHeads(ctx, s.db.SQL().QueryRowContext); err != nil || head == seen {
		return err
	}
	return s.db.Write(ctx, func(tx *store.Tx) error {
		head, err := logHeads(ctx, tx.QueryRow)
		if err != nil {
			return err
		}
		seen, err := metaOr(ctx, tx, MetaMergedThrough)
		if err != nil {
			return err
		}
		if seen == head {
			return nil
		}
		d, err := tx.MergeDuplicates(ctx)
		if err != nil {
			return err
		}
		rep.Merged, rep.Mirrored, rep.Forgotten = d.Merged, d.Mirrored, d.Forgotten
		rep.Refolded += len(d.Beliefs)
		if head, err = logHeads(ctx, tx.QueryRow); err != nil {
			return err
		}
		return tx.SetMeta(ctx, MetaMergedThrough, head)
	})
}

// logHeads names the newest belief event and evidence row held.
func logHeads(ctx context.Context, queryRow func(context.Context, string, ...any) *sql.Row) (string, error) {
	var events, evidence int64
	err := queryRow(ctx, `SELECT (SELECT coalesce(max(seq), 0) FROM belief_events),
		(SELECT coalesce(max(seq), 0) FROM evidence)`).Scan(&events, &evidence)
	if err != nil {
		return "", fmt.Errorf("read log heads: %w", err)
	}
	return fmt.Sprintf("%d/%d", events, evidence), nil
}

// pushSelect chooses the local rows a push sends: this machine's own, the
// rows derived from others (so a merge one machine saw half way still
// reaches everyone), and, for a remote new to this machine, everything up
// to what was held when it was first seen.
func (s *Syncer) pushSelect(st syncState) store.SyncSelect {
	return store.SyncSelect{Origins: []string{s.db.MachineID(), store.OriginDerived}, AllThrough: st.all}
}

// push sends the selected rows past the push cursor. The cursor moves only
// after the remote committed a batch; a crash in between sends the batch
// again, which the remote ignores row by row.
func (s *Syncer) push(ctx context.Context, remote Remote, st syncState, rep *Report) error {
	sel := s.pushSelect(st)
	cur, err := s.pushCursor(ctx, st)
	if err != nil {
		return err
	}
	for {
		b, err := s.db.SyncRows(ctx, cur, sel, s.batch)
		if err != nil {
			return err
		}
		if b.Len() == 0 {
			break
		}
		n, err := remote.Push(ctx, b)
		if err != nil {
			rep.Pending, _ = s.db.CountSyncRows(ctx, cur, sel)
			return err
		}
		rep.Pushed += b.Len()
		rep.PushedNew += n
		err = s.db.Write(ctx, func(tx *store.Tx) error {
			cur, err = advance(ctx, tx, MetaPushCursor, b.Advance(cur))
			return err
		})
		if err != nil {
			return err
		}
	}
	rep.pushedAt = time.Now()
	return nil
}

// pushCursor rereads the push cursor: the pull and merge of this round
// wrote nothing to it, but another round may have run meanwhile.
func (s *Syncer) pushCursor(ctx context.Context, st syncState) (store.SyncCursor, error) {
	v, err := s.db.Meta(ctx, MetaPushCursor)
	if errors.Is(err, store.ErrNotFound) {
		return st.push, nil
	}
	if err != nil {
		return st.push, err
	}
	c, err := store.ParseSyncCursor(v)
	if err != nil {
		return st.push, err
	}
	return c.Max(st.push), nil
}
