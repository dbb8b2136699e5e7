package consolidate

import (
	"context"
	"errors"
	"fmt"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// beliefReader is what calibration reads beliefs through: the database
// before a transaction (to build an LLM's context), the transaction itself
// while applying (to see its own writes).
type beliefReader interface {
	Beliefs(ctx context.Context, f store.Filter) ([]store.Belief, error)
}

// liveStatuses are the beliefs a fact can still bear on: active ones, and
// superseded, archived or rejected ones that evidence can reach (the first
// two can be reactivated; a rejection stands).
var liveStatuses = []belief.Status{belief.Active, belief.Superseded, belief.Archived, belief.Rejected}

// related returns the beliefs in f's slot — same scope and project, a
// subject sharing the slot, the same predicate in either polarity — the
// context predict-calibrate judges f against.
func related(ctx context.Context, r beliefReader, f fact, ep store.Episode) ([]store.Belief, error) {
	scope, project := scopeOf(f.Subject, f.Predicate, ep)
	var out []store.Belief
	pred := f.polarPredicate()
	for _, subj := range subjectsOf(f.Subject, f.Predicate) {
		for _, p := range []string{pred, opposite(pred)} {
			bs, err := r.Beliefs(ctx, store.Filter{Statuses: liveStatuses, Scope: scope, Project: project, Subject: subj, Predicate: p})
			if err != nil {
				return nil, fmt.Errorf("read related beliefs: %w", err)
			}
			out = append(out, bs...)
		}
	}
	return out, nil
}

// verdict is how one fact bears on the beliefs of its slot.
type verdict struct {
	// same is the belief stating what the fact states (nil: none yet).
	same *store.Belief
	// contradicted are the active beliefs the fact speaks against: the other
	// value of an exclusive predicate, the opposite polarity, the value it
	// replaces, or the belief an LLM said it invalidates.
	contradicted []store.Belief
	// invalidated marks which of them the fact ends outright (a change or a
	// correction), so they are superseded at once.
	invalidated map[string]bool
}

// judge applies the offline rules — same triple supports; the same
// exclusive predicate with another object contradicts; negation flips;
// a named old value (Replaces) is contradicted — plus, in LLM mode, the
// model's reinforce/invalidate target.
func judge(f fact, group []store.Belief, excl map[string]bool) verdict {
	v := verdict{invalidated: map[string]bool{}}
	pred := f.polarPredicate()
	for i := range group {
		b := &group[i]
		if b.Predicate == pred && b.Object == f.Object && slotSubject(b.Subject, b.Predicate) == slotSubject(f.Subject, pred) {
			if v.same == nil || better(b, v.same) {
				v.same = b
			}
		}
	}
	if v.same == nil && f.Action == llm.ActionReinforce {
		for i := range group {
			if group[i].ID == f.Target {
				v.same = &group[i]
			}
		}
	}
	for _, b := range group {
		if b.Status != belief.Active || (v.same != nil && b.ID == v.same.ID) {
			continue
		}
		var against, ends bool
		switch {
		case f.Action == llm.ActionInvalidate && b.ID == f.Target:
			against, ends = true, true
		case b.Predicate == opposite(pred) && b.Object == f.Object:
			against, ends = true, f.Change
		case f.Replaces != "" && b.Predicate == pred && b.Object == f.Replaces:
			against, ends = true, true
		case exclusive(pred, excl) && b.Predicate == pred && b.Object != f.Object:
			against, ends = true, f.Change
		}
		if against {
			v.contradicted = append(v.contradicted, b)
			if ends {
				v.invalidated[b.ID] = true
			}
		}
	}
	return v
}

// better prefers an active belief, then the newest.
func better(a, b *store.Belief) bool {
	if (a.Status == belief.Active) != (b.Status == belief.Active) {
		return a.Status == belief.Active
	}
	return a.Seq > b.Seq
}

// calibrator applies facts inside one write transaction.
type calibrator struct {
	run *cycleRun
	tx  *store.Tx
}

// apply writes the evidence one fact gives and resolves its slot: it
// creates the belief a direct fact states when none exists, supports it,
// contradicts what the fact speaks against, supersedes what the fact ends
// (or what lost an exclusive slot to a clear winner) and reactivates a
// superseded or archived belief that evidence brought back. It returns the
// verdict it acted on.
func (c calibrator) apply(ctx context.Context, ep store.Episode, f fact, source string) (verdict, error) {
	group, err := related(ctx, c.tx, f, ep)
	if err != nil {
		return verdict{}, err
	}
	if f.Action == llm.ActionInvalidate || f.Action == llm.ActionReinforce {
		group, err = c.withTarget(ctx, group, f.Target)
		if err != nil {
			return verdict{}, err
		}
	}
	v := judge(f, group, c.run.exclusive)
	if v.same == nil && f.Direct {
		id, err := c.tx.CreateBelief(ctx, f.spec(ep, source))
		if err != nil {
			return v, err
		}
		b, err := c.tx.Belief(ctx, id)
		if err != nil {
			return v, err
		}
		v.same = &b
		c.run.stats.BeliefsCreated++
	}
	if v.same != nil {
		if err := c.evidence(ctx, v.same.ID, ep.ID, source, belief.Supports, f.Support, f.Reliability, f.Statement); err != nil {
			return v, err
		}
	}
	for _, b := range v.contradicted {
		if err := c.evidence(ctx, b.ID, ep.ID, source, belief.Contradicts, -f.Support, f.Reliability, f.Statement); err != nil {
			return v, err
		}
	}
	return v, c.resolve(ctx, f, v)
}

// withTarget adds the belief an LLM named to the group when the slot query
// missed it (the model may match across predicates).
func (c calibrator) withTarget(ctx context.Context, group []store.Belief, target string) ([]store.Belief, error) {
	for _, b := range group {
		if b.ID == target {
			return group, nil
		}
	}
	b, err := c.tx.Belief(ctx, target)
	if errors.Is(err, store.ErrNotFound) {
		return group, nil
	}
	if err != nil {
		return nil, err
	}
	return append(group, b), nil
}

// evidence appends one piece of evidence unless the episode already gave
// evidence about the belief: one observation counts once.
func (c calibrator) evidence(ctx context.Context, beliefID, episodeID, source string, label belief.Label, s, rho float64, note string) error {
	if episodeID != "" {
		seen, err := c.tx.HasEvidenceFrom(ctx, beliefID, episodeID)
		if err != nil || seen {
			return err
		}
	}
	if label == belief.Partial {
		s = 0
	}
	if _, err := c.tx.AddEvidence(ctx, store.Evidence{BeliefID: beliefID, EpisodeID: episodeID, Source: source,
		Label: label, Support: s, Reliability: rho, Note: note}); err != nil {
		return err
	}
	c.run.touch(beliefID)
	switch label {
	case belief.Supports:
		c.run.stats.Reinforced++
	case belief.Contradicts:
		c.run.stats.Contradicted++
	case belief.Partial:
		c.run.stats.Partial++
	}
	return nil
}

// resolve settles the slot after the evidence: what the fact ends is
// superseded by the belief it states; on an exclusive predicate a clear,
// uncontested winner supersedes the rest; a superseded or archived belief
// that evidence put back on top is reactivated. Rejections stand.
func (c calibrator) resolve(ctx context.Context, f fact, v verdict) error {
	if v.same == nil {
		return nil
	}
	same, err := c.tx.Belief(ctx, v.same.ID)
	if err != nil {
		return err
	}
	if same.Status == belief.Rejected {
		return nil
	}
	var losers []string
	for _, b := range v.contradicted {
		if v.invalidated[b.ID] {
			losers = append(losers, b.ID)
		}
	}
	reactivate := len(losers) > 0
	if pred := f.polarPredicate(); exclusive(pred, c.run.exclusive) {
		won, others, err := c.clearWinner(ctx, same, f)
		if err != nil {
			return err
		}
		if won {
			reactivate = true
			losers = append(losers, others...)
		}
	} else if same.Status != belief.Active && c.run.conf(same) > c.run.params.PriorConfidence() {
		reactivate = !c.opposed(v)
	}
	if reactivate && same.Status != belief.Active {
		if _, err := c.tx.Mark(ctx, same.ID, belief.Reactivate); err != nil {
			return err
		}
		c.run.stats.Reactivated++
		c.run.touch(same.ID)
	}
	if same.Status != belief.Active && !reactivate {
		return nil // a superseded value gathering evidence does not unseat the current one yet
	}
	done := map[string]bool{}
	for _, id := range losers {
		if done[id] || id == same.ID {
			continue
		}
		done[id] = true
		b, err := c.tx.Belief(ctx, id)
		if err != nil {
			return err
		}
		if b.Status != belief.Active || b.Pinned {
			continue // a pinned belief is the person's call, not the evidence's
		}
		if _, err := c.tx.Supersede(ctx, id, same.ID); err != nil {
			return err
		}
		c.run.stats.Superseded++
		c.run.touch(id)
	}
	return nil
}

// opposed reports whether an active belief of the opposite polarity still
// stands against the fact.
func (c calibrator) opposed(v verdict) bool {
	for _, b := range v.contradicted {
		if b.Predicate == opposite(v.same.Predicate) && !v.invalidated[b.ID] {
			return true
		}
	}
	return false
}

// clearWinner reports whether same now leads its exclusive slot without
// contest, and which active members it should supersede.
func (c calibrator) clearWinner(ctx context.Context, same store.Belief, f fact) (bool, []string, error) {
	ep := store.Episode{ProjectPath: same.ProjectPath, Scope: same.Scope}
	group, err := related(ctx, c.tx, fact{Subject: same.Subject, Predicate: same.Predicate}, ep)
	if err != nil {
		return false, nil, err
	}
	confs := []float64{c.run.conf(same)}
	var others []string
	for _, b := range group {
		if b.ID == same.ID || b.Status != belief.Active || b.Predicate != same.Predicate {
			continue
		}
		conf := c.run.conf(b)
		if conf >= confs[0] {
			return false, nil, nil
		}
		confs = append(confs, conf)
		others = append(others, b.ID)
	}
	if len(others) == 0 {
		// Alone in its slot: it wins if it is back above the prior.
		return same.Status != belief.Active && confs[0] > c.run.params.PriorConfidence(), nil, nil
	}
	if c.run.params.Contested(confs) {
		return false, nil, nil
	}
	return true, others, nil
}
