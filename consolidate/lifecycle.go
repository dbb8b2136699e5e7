package consolidate

import (
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// lifecyclePhase is step 4's gates over the beliefs this cycle touched:
// revision, else split, for each; then at most one merge. Each fires only
// when every condition of its gate (package belief) holds; an LLM may write
// the new statements but never decides whether a gate fires.
func (r *cycleRun) lifecyclePhase(ctx context.Context) error {
	bs, err := r.db.BeliefsByID(ctx, r.touchedIDs())
	if err != nil {
		return err
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].Seq < bs[j].Seq })
	for _, b := range bs {
		if err := r.stop(ctx); err != nil {
			return err
		}
		snap := r.snapshot(b)
		switch {
		case r.params.ShouldRevise(snap):
			err = r.revise(ctx, b)
		case r.params.ShouldSplit(snap):
			err = r.split(ctx, b)
		}
		if err != nil {
			return err
		}
	}
	r.invalidate()
	return r.mergeOne(ctx, bs)
}

// touchedIDs lists the beliefs the cycle touched, sorted.
func (r *cycleRun) touchedIDs() []string {
	idList := make([]string, 0, len(r.affected))
	for id := range r.affected {
		idList = append(idList, id)
	}
	sort.Strings(idList)
	return idList
}

// mergeOne merges the first pair the merge gate admits: a touched active
// belief and its nearest active neighbour above the merge threshold, same
// scope and project, both confident, neither new. Two claims about one
// slot that disagree (Tokyo and Kyoto, likes and not_likes) are never
// merged however close their sentences are. The belief with more evidence
// (then the older) survives.
func (r *cycleRun) mergeOne(ctx context.Context, touched []store.Belief) error {
	now := r.db.Now()
	eligible := false
	for _, t := range touched {
		// The gate's own conditions on one side, checked before loading
		// every active belief's vector.
		snap := r.snapshot(t)
		eligible = eligible || (t.Status == belief.Active && snap.Confidence > r.params.MergeMinConfidence &&
			now.Sub(time.UnixMilli(t.CreatedAt)) >= r.params.MergeCooldown)
	}
	if !eligible {
		return nil
	}
	idx, err := r.activeIndex(ctx)
	if err != nil {
		return err
	}
	pos := make(map[string]int, len(idx.beliefs))
	for i, b := range idx.beliefs {
		pos[b.ID] = i
	}
	// The gate's similarity is the embedder's calibrated Merge (or the
	// user's setting of it), never the seed's number for another embedder.
	params := r.params
	params.MergeMinSimilarity = r.th.Merge
	for _, t := range touched {
		i, ok := pos[t.ID]
		if !ok {
			continue // no longer active
		}
		a := idx.beliefs[i]
		for _, h := range idx.nearest(idx.vecs[i], a.Scope, a.ProjectPath, r.th.Merge, 5) {
			if h.b.ID == a.ID || (disagree(a, h.b) && !r.restates(a, h)) {
				continue
			}
			if !params.ShouldMerge(r.snapshot(a), r.snapshot(h.b), h.sim, now) {
				continue
			}
			survivor, source := a, h.b
			if h.b.EvidenceCount > a.EvidenceCount || (h.b.EvidenceCount == a.EvidenceCount && h.b.Seq < a.Seq) {
				survivor, source = h.b, a
			}
			err := r.db.Write(ctx, func(tx *store.Tx) error {
				_, err := tx.Merge(ctx, source.ID, survivor.ID)
				return err
			})
			if err != nil {
				return err
			}
			r.stats.Merged++
			r.touch(survivor.ID)
			r.invalidate()
			return nil
		}
	}
	return nil
}

// restates reports whether the nearest belief h says what a says in other
// words: the same predicate and polarity on a predicate that allows several
// values, at or above the Dedupe threshold. Beliefs that dedupe would have
// kept as one (made before it existed, or on another machine) merge even
// though their objects differ.
func (r *cycleRun) restates(a store.Belief, h hit) bool {
	return a.Predicate == h.b.Predicate && !exclusive(a.Predicate, r.exclusive) && h.sim >= r.th.Dedupe &&
		slotSubject(a.Subject, a.Predicate) == slotSubject(h.b.Subject, h.b.Predicate)
}

// disagree reports whether two beliefs make different claims about one
// slot, which no similarity of wording may merge.
func disagree(a, b store.Belief) bool {
	if a.Predicate == "" || b.Predicate == "" || a.Object == "" || b.Object == "" {
		return false
	}
	if slotSubject(a.Subject, a.Predicate) != slotSubject(b.Subject, b.Predicate) ||
		basePredicate(a.Predicate) != basePredicate(b.Predicate) {
		return false
	}
	return a.Predicate != b.Predicate || a.Object != b.Object
}

// sweepEvery is how often archival looks at every active belief rather
// than those the cycle touched: confidence falls between cycles only by
// decay and staleness, which move on the scale of days.
const sweepEvery = 24 * time.Hour

// metaLastSweep records when archival last looked at every active belief.
const metaLastSweep = "consolidate:last_archive_sweep"

// archivePhase is decay and archival: every active belief whose decayed
// confidence fell below the archive threshold, or that went unreinforced
// too long on thin evidence, leaves recall. Pinned beliefs stay. The
// beliefs the cycle touched are checked every cycle, all of them once a
// day.
func (r *cycleRun) archivePhase(ctx context.Context) error {
	now := r.db.Now()
	sweep := true
	if v, err := r.db.Meta(ctx, metaLastSweep); err == nil {
		if last, err := strconv.ParseInt(v, 10, 64); err == nil && now.Sub(time.UnixMilli(last)) < sweepEvery {
			sweep = false
		}
	}
	var bs []store.Belief
	var err error
	if sweep {
		bs, err = r.db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
	} else {
		bs, err = r.db.BeliefsByID(ctx, r.touchedIDs())
	}
	if err != nil {
		return err
	}
	var archive []string
	for _, b := range bs {
		if r.params.ShouldArchive(r.snapshot(b), now) {
			archive = append(archive, b.ID)
		}
	}
	if len(archive) == 0 && !sweep {
		return nil
	}
	// The sweep is recorded with its archiving, so a failed write leaves it
	// to be done again by the next cycle.
	err = r.db.Write(ctx, func(tx *store.Tx) error {
		for _, id := range archive {
			if _, err := tx.Mark(ctx, id, belief.Archive); err != nil {
				return err
			}
		}
		if sweep {
			return tx.SetMeta(ctx, metaLastSweep, strconv.FormatInt(now.UnixMilli(), 10))
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.stats.Archived += len(archive)
	return nil
}

// promotePhase hands over to the promoter. Its failure is logged, not the
// cycle's: beliefs are consolidated either way and the next cycle promotes.
func (r *cycleRun) promotePhase(ctx context.Context) error {
	p := r.c.opts.Promoter
	if p == nil {
		return nil
	}
	ps, err := p.Promote(ctx)
	if err != nil {
		r.c.opts.Logger.Error("promotion failed", "cycle", r.stats.CycleID, "err", err.Error())
		return nil
	}
	r.stats.Promotion = &ps
	return nil
}
