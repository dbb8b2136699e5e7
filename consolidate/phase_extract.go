package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/credence-mem/credence/store"
)

// extractPhase is step 1: every new episode of this machine, oldest first,
// read (offline in batches, or one LLM call each) and applied, each with
// its consolidated_episodes record in the same transaction. The checkpoint
// moves after every transaction, so a cycle stopped at any point resumes
// at the first episode it did not apply.
func (r *cycleRun) extractPhase(ctx context.Context) error {
	seq, err := checkpoint(ctx, r.db)
	if err != nil {
		return err
	}
	batch := r.c.opts.Budget.BatchSize
	if r.c.opts.Model != nil {
		batch = 1
	}
	for {
		if err := r.stop(ctx); err != nil {
			return err
		}
		eps, err := r.db.LocalEpisodesAfter(ctx, r.db.MachineID(), seq, batch)
		if err != nil {
			return err
		}
		if len(eps) == 0 {
			return nil
		}
		n := 1
		if r.c.opts.Model != nil {
			err = r.applyLLM(ctx, eps[0])
		} else {
			n, err = r.applyOffline(ctx, eps)
		}
		if err != nil {
			return err
		}
		seq = eps[n-1].Seq
		if err := r.saveCheckpoint(ctx, seq); err != nil {
			return err
		}
	}
}

// maxHold bounds how long one offline transaction keeps the write lock
// once it has applied an episode: hooks wait at most a fifth of a second
// for the lock before they spool, and a batch of 128 episodes held it for
// 400 ms on a loaded machine. Commits are cheap (WAL, synchronous=NORMAL),
// so a batch that runs long is cut and the rest goes in the next
// transaction.
const maxHold = 25 * time.Millisecond

// offlineRead is an episode with the facts the offline extractor found in
// it, read before the transaction that applies them.
type offlineRead struct {
	ep        store.Episode
	facts     []fact
	assistant string
}

// applyOffline reads a batch (outside any transaction: extraction is CPU
// work that needs no lock) and applies it in one short transaction, as
// many episodes as fit in maxHold; it returns how many it applied. If the
// batch fails for any reason but a busy database, each episode is tried
// alone so one bad episode cannot hold back the rest.
func (r *cycleRun) applyOffline(ctx context.Context, eps []store.Episode) (int, error) {
	reads := make([]offlineRead, 0, len(eps))
	for i, ep := range eps {
		facts, assistant, err := r.offlineFacts(ctx, ep)
		if err != nil {
			if i == 0 {
				return 1, r.setAside(ctx, ep, err)
			}
			break // apply those before it; it comes first next time
		}
		reads = append(reads, offlineRead{ep, facts, assistant})
	}
	for _, rd := range reads {
		if err := r.prepareDedupe(ctx, rd.ep, rd.facts); err != nil {
			return 0, err
		}
	}
	before := r.stats
	applied := 0
	err := r.db.Write(ctx, func(tx *store.Tx) error {
		var err error
		applied, err = r.applyBatch(ctx, tx, reads)
		return err
	})
	if err == nil {
		return applied, nil
	}
	r.restore(before)
	switch {
	case len(reads) == 1 && errors.Is(err, errAlreadyConsolidated):
		return 1, nil
	case errors.Is(err, store.ErrLocked) || len(reads) == 1:
		return 1, r.setAside(ctx, reads[0].ep, err)
	}
	for i := range reads {
		if _, err := r.applyOffline(ctx, []store.Episode{reads[i].ep}); err != nil {
			return i, err
		}
	}
	return len(reads), nil
}

// applyBatch applies offline readings in tx, stopping once maxHold has
// passed, and returns how many it applied. Episodes that state nothing
// are recorded together, retired at once: offline synthesis works from
// stated facts, so they could never back a cluster.
func (r *cycleRun) applyBatch(ctx context.Context, tx *store.Tx, reads []offlineRead) (int, error) {
	began := time.Now()
	cal := newCalibrator(r, tx)
	var quiet []store.Consolidated
	applied := 0
	for _, rd := range reads {
		if applied > 0 && time.Since(began) > maxHold {
			break
		}
		applied++
		ep := rd.ep
		if len(rd.facts) == 0 {
			quiet = append(quiet, store.Consolidated{EpisodeID: ep.ID, Seq: ep.Seq, State: store.ConsolidationRetired,
				Mode: ModeOffline, CycleID: r.stats.CycleID})
			continue
		}
		cal.fresh[ep.ID] = true
		rdg, err := r.applyOfflineEpisode(ctx, cal, ep, rd.facts, rd.assistant)
		if err != nil {
			return 0, err
		}
		if err := r.record(ctx, tx, rdg); err != nil {
			return 0, err
		}
	}
	n, err := tx.MarkConsolidatedMany(ctx, quiet)
	if err != nil {
		return 0, err
	}
	r.stats.Episodes += n // those another cycle recorded first had nothing else written
	return applied, nil
}

// applyLLM reads one episode with the model (outside any transaction: a
// call may take seconds) and applies it.
func (r *cycleRun) applyLLM(ctx context.Context, ep store.Episode) error {
	rdg, err := r.readLLM(ctx, ep)
	if err != nil {
		return err
	}
	if err := r.prepareDedupe(ctx, ep, rdg.facts); err != nil {
		return err
	}
	before := r.stats
	err = r.db.Write(ctx, func(tx *store.Tx) error { return r.applyReading(ctx, tx, rdg) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errAlreadyConsolidated):
		r.restore(before)
		return nil
	}
	r.restore(before)
	return r.setAside(ctx, ep, err)
}

// restore undoes the counts of a rolled-back transaction, keeping what the
// LLM cost (that was spent either way).
func (r *cycleRun) restore(before Stats) {
	llmUse, fallbacks, high := r.stats.LLM, r.stats.LLMFallbacks, r.stats.HighSurprise
	r.stats = before
	r.stats.LLM, r.stats.LLMFallbacks, r.stats.HighSurprise = llmUse, fallbacks, high
}

// setAside handles an episode that could not be applied. A busy database
// stops the cycle (the next one retries); anything else marks the episode
// retired with no facts, logged, so it cannot block every later cycle.
func (r *cycleRun) setAside(ctx context.Context, ep store.Episode, cause error) error {
	if errors.Is(cause, store.ErrLocked) {
		return fmt.Errorf("apply episode %s: %w", ep.ID, cause)
	}
	r.c.opts.Logger.Error("episode set aside: it could not be consolidated", "episode", ep.ID, "err", cause.Error())
	err := r.db.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.MarkConsolidated(ctx, store.Consolidated{EpisodeID: ep.ID, Seq: ep.Seq,
			State: store.ConsolidationRetired, Mode: r.c.Mode(), CycleID: r.stats.CycleID})
		return err
	})
	if err != nil {
		return fmt.Errorf("set aside episode %s: %w", ep.ID, err)
	}
	r.stats.Failed++
	return nil
}

// applyReading applies an LLM-mode reading in tx: the evidence of each
// fact, then the episode's record. It returns errAlreadyConsolidated when
// another cycle got there first, and the transaction rolls back.
func (r *cycleRun) applyReading(ctx context.Context, tx *store.Tx, rdg reading) error {
	cal := newCalibrator(r, tx)
	cal.fresh[rdg.ep.ID] = true
	for _, f := range rdg.facts {
		if _, err := cal.apply(ctx, rdg.ep, f, rdg.source); err != nil {
			return fmt.Errorf("apply fact %q of %s: %w", f.Statement, rdg.ep.ID, err)
		}
	}
	return r.record(ctx, tx, rdg)
}

// record writes an episode's consolidated_episodes row and its surprise,
// last in its transaction: if another cycle recorded the episode first,
// errAlreadyConsolidated rolls back what this one derived from it.
func (r *cycleRun) record(ctx context.Context, tx *store.Tx, rdg reading) error {
	facts, err := json.Marshal(rdg.facts)
	if err != nil {
		return fmt.Errorf("encode facts: %w", err)
	}
	fresh, err := tx.MarkConsolidated(ctx, store.Consolidated{EpisodeID: rdg.ep.ID, Seq: rdg.ep.Seq,
		State: store.ConsolidationPooled, Mode: rdg.mode, Facts: string(facts), Surprise: rdg.surprise,
		CycleID: r.stats.CycleID})
	if err != nil {
		return err
	}
	if !fresh {
		return errAlreadyConsolidated
	}
	if rdg.surprise > 0 || rdg.explanation != "" {
		if err := tx.SetSurprise(ctx, rdg.ep.ID, rdg.surprise, rdg.explanation); err != nil {
			return err
		}
	}
	r.stats.Episodes++
	r.stats.Facts += len(rdg.facts)
	r.c.poolDirty[rdg.ep.ProjectPath] = true
	return nil
}
