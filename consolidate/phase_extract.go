package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
		if r.c.opts.Model != nil {
			err = r.applyLLM(ctx, eps[0])
		} else {
			err = r.applyOffline(ctx, eps)
		}
		if err != nil {
			return err
		}
		seq = eps[len(eps)-1].Seq
		if err := r.saveCheckpoint(ctx, seq); err != nil {
			return err
		}
	}
}

// applyOffline reads and applies a batch in one transaction. If the batch
// fails for any reason but a busy database, each episode is tried alone so
// one bad episode cannot hold back the rest.
func (r *cycleRun) applyOffline(ctx context.Context, eps []store.Episode) error {
	before := r.stats
	err := r.db.Write(ctx, func(tx *store.Tx) error {
		for _, ep := range eps {
			if err := r.readAndApply(ctx, tx, ep); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		return nil
	}
	r.restore(before)
	if errors.Is(err, store.ErrLocked) || len(eps) == 1 {
		return r.setAside(ctx, eps[0], err)
	}
	for _, ep := range eps {
		if err := r.applyOffline(ctx, []store.Episode{ep}); err != nil {
			return err
		}
	}
	return nil
}

func (r *cycleRun) readAndApply(ctx context.Context, tx *store.Tx, ep store.Episode) error {
	rdg, _, err := r.readOffline(ctx, tx, ep)
	if err != nil {
		return err
	}
	err = r.applyReading(ctx, tx, rdg)
	if errors.Is(err, errAlreadyConsolidated) {
		return nil // nothing was written for it before the check
	}
	return err
}

// applyLLM reads one episode with the model (outside any transaction: a
// call may take seconds) and applies it.
func (r *cycleRun) applyLLM(ctx context.Context, ep store.Episode) error {
	rdg, err := r.readLLM(ctx, ep)
	if err != nil {
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

// applyReading records the episode as consolidated, its surprise, and the
// evidence of each fact, in tx. It returns errAlreadyConsolidated, having
// written nothing, when another cycle got there first.
func (r *cycleRun) applyReading(ctx context.Context, tx *store.Tx, rdg reading) error {
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
	cal := calibrator{run: r, tx: tx}
	for _, f := range rdg.facts {
		if _, err := cal.apply(ctx, rdg.ep, f, rdg.source); err != nil {
			return fmt.Errorf("apply fact %q of %s: %w", f.Statement, rdg.ep.ID, err)
		}
	}
	r.stats.Episodes++
	r.stats.Facts += len(rdg.facts)
	return nil
}
