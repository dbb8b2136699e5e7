package promote

import (
	"context"
	"errors"
	"slices"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// The hand-over (docs/PROMOTION.md): when a person's own words end a
// promoted belief ("I moved to Lisbon" ends "User lives in Berlin"), the
// belief they state takes its place in the same cycle, before it has the
// evidence the promotion rule asks of a belief that has to earn its place,
// and the old one's Former line names it. Otherwise the file would tell the
// model only what is no longer true, and nothing of what is.

// lineage is what the file's replaced beliefs turned into.
type lineage struct {
	// successor maps a superseded or revised belief of the file to the
	// active belief that now holds its place.
	successor map[string]store.Belief
	// handOver lists the beliefs promoted in a predecessor's place, by the
	// hand-over now or, recorded with the file, in an earlier cycle.
	handOver map[string]bool
}

// Evidence that is nobody's own words: a cluster's generalization and what
// a revision carried over (consolidate's SourceCluster and SourceRevision).
var generalizedSources = map[string]bool{"cluster": true, "revision": true}

// directReliability is the least reliability of a person's direct
// statement as consolidation records it (0.9 plain, 0.95 a correction, 1 a
// person's edit); hedged words and the assistant's reports sit at 0.6.
const directReliability = 0.8

// maxLineage bounds how many replacements are followed from a former belief
// to the belief that holds its place now (Berlin → Lisbon → Porto).
const maxLineage = 8

// lineage finds, for the file's beliefs that were superseded or revised
// while marked, the active belief now in their place, and which beliefs
// take a place by hand-over: the successor of a belief that was promoted
// until now and that a person's direct statement ended. A successor the
// query for candidates did not return (too little evidence yet) is added to
// t.beliefs.
func (p *Promoter) lineage(ctx context.Context, t *target, rec record) (lineage, error) {
	lin := lineage{successor: map[string]store.Belief{}, handOver: map[string]bool{}}
	for _, id := range rec.handOver {
		lin.handOver[id] = true
	}
	byID := make(map[string]bool, len(t.beliefs))
	for _, b := range t.beliefs {
		byID[b.ID] = true
	}
	known := formerByID(rec.onDisk())
	for _, b := range slices.Clone(t.beliefs) {
		if (b.Status != belief.Superseded && b.Status != belief.Revised) || (b.PromotedAt == 0 && b.DemotedAt == 0) {
			continue
		}
		succ, ok, err := p.successorOf(ctx, t, b, known[b.ID].SuccessorID)
		if err != nil || !ok {
			if err != nil {
				return lin, err
			}
			continue
		}
		lin.successor[b.ID] = succ
		wasPromoted := b.Status == belief.Superseded && b.PromotedAt != 0 && b.DemotedAt == 0
		if !wasPromoted || !t.holds(succ) {
			continue
		}
		explicit, err := p.endedByDirectWords(ctx, b.ID, succ.ID)
		if err != nil {
			return lin, err
		}
		if !explicit {
			continue
		}
		lin.handOver[succ.ID] = true
		if !byID[succ.ID] {
			byID[succ.ID] = true
			t.beliefs = append(t.beliefs, succ)
		}
	}
	return lin, nil
}

// successorOf returns the active belief that holds b's place now: the one
// that superseded it or it was revised into, followed while that one was
// replaced in turn. known is the successor recorded for b's Former line,
// reused while it is still active.
func (p *Promoter) successorOf(ctx context.Context, t *target, b store.Belief, known string) (store.Belief, bool, error) {
	if known != "" {
		for _, c := range t.beliefs {
			if c.ID == known && c.Status == belief.Active {
				return c, true, nil
			}
		}
		switch s, err := p.db.Belief(ctx, known); {
		case err == nil && s.Status == belief.Active:
			return s, true, nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return store.Belief{}, false, err
		}
	}
	id := b.ID
	for range maxLineage {
		card, err := p.db.Card(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return store.Belief{}, false, nil
		}
		if err != nil {
			return store.Belief{}, false, err
		}
		next := card.SupersededBy
		if next == nil {
			next = card.RevisedInto
		}
		if next == nil || next.ID == b.ID {
			return store.Belief{}, false, nil
		}
		if next.Status == belief.Active {
			return *next, true, nil
		}
		id = next.ID
	}
	return store.Belief{}, false, nil
}

// endedByDirectWords reports whether the statement that last spoke against
// the old belief was a person's own, direct words that state the new one:
// its latest contradicting evidence came from an episode, at the
// reliability of a direct statement and not from a generalization, and the
// same episode supports the successor. That is an explicit change ("I moved
// to Lisbon", "actually it's John"), not a slow shift of evidence, which the
// ordinary rule handles.
func (p *Promoter) endedByDirectWords(ctx context.Context, oldID, newID string) (bool, error) {
	evs, err := p.db.Evidence(ctx, oldID)
	if err != nil {
		return false, err
	}
	var last *store.Evidence
	for i := range evs {
		if evs[i].Label == belief.Contradicts {
			last = &evs[i]
		}
	}
	if last == nil || last.EpisodeID == "" || last.Reliability < directReliability || generalizedSources[last.Source] {
		return false, nil
	}
	evs, err = p.db.Evidence(ctx, newID)
	if err != nil {
		return false, err
	}
	for _, e := range evs {
		if e.Label == belief.Supports && e.EpisodeID == last.EpisodeID {
			return true, nil
		}
	}
	return false, nil
}

// holds reports whether a belief belongs in the target's file.
func (t *target) holds(b store.Belief) bool {
	if b.Scope == belief.ScopeGlobal {
		return t.global
	}
	return slices.Contains(t.projects, b.ProjectPath)
}
