package consolidate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// beliefReader is what calibration reads beliefs through: the database
// before a transaction (to build an LLM's context), the transaction itself
// while applying (to see its own writes).
type beliefReader interface {
	SlotBeliefs(ctx context.Context, f store.SlotFilter) ([]store.Belief, error)
}

// liveStatuses are the beliefs a fact can still bear on: active ones, and
// superseded, archived or rejected ones that evidence can reach (the first
// two can be reactivated; a rejection stands).
var liveStatuses = []belief.Status{belief.Active, belief.Superseded, belief.Archived, belief.Rejected}

// related returns the beliefs in f's slot — same scope and project, a
// subject sharing the slot, the same predicate in either polarity — the
// context predict-calibrate judges f against.
func related(ctx context.Context, r beliefReader, f fact, ep store.Episode) ([]store.Belief, error) {
	scope, project := f.scope(ep)
	pred := f.polarPredicate()
	out, err := r.SlotBeliefs(ctx, store.SlotFilter{Scope: scope, Project: project, Statuses: liveStatuses,
		Subjects: subjectsOf(f.Subject, f.Predicate), Predicates: []string{pred, opposite(pred)}})
	if err != nil {
		return nil, fmt.Errorf("read related beliefs: %w", err)
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
		if b.Predicate == pred && sameObject(b.Object, f.Object) && slotSubject(b.Subject, b.Predicate) == slotSubject(f.Subject, pred) {
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
		case b.Predicate == opposite(pred) && sameObject(b.Object, f.Object):
			against, ends = true, f.Change
		case f.Replaces != "" && b.Predicate == pred && sameObject(b.Object, f.Replaces):
			against, ends = true, true
		case exclusive(pred, excl) && b.Predicate == pred && !sameObject(b.Object, f.Object):
			against, ends = true, f.Change
		case f.Switch && toolSlot(pred) && b.Predicate == pred && !sameObject(b.Object, f.Object):
			against, ends = true, true // "we switched the cache over to Memcached": Redis is gone
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

// judgeFact is judge, then dedupe: a fact whose slot holds no belief with
// its triple supports the belief that states it in other words, if one
// does (dedupe.go). inTx says a transaction is open, in which a remote
// embedder is never called.
func (r *cycleRun) judgeFact(ctx context.Context, f fact, group []store.Belief, inTx bool) (verdict, error) {
	v := judge(f, group, r.exclusive)
	if v.same != nil {
		return v, nil
	}
	candidates := make([]store.Belief, 0, len(group))
	for _, b := range group {
		if !slices.ContainsFunc(v.contradicted, func(c store.Belief) bool { return c.ID == b.ID }) {
			candidates = append(candidates, b)
		}
	}
	same, err := r.paraphrase(ctx, f, candidates, inTx)
	if err != nil || same == nil {
		return v, err
	}
	for i := range group {
		if group[i].ID == same.ID {
			v.same = &group[i]
		}
	}
	if inTx {
		r.stats.Deduplicated++ // counted when applied, not when forecast
	}
	return v, nil
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
	// fresh lists episodes first consolidated in this transaction: no
	// evidence from them can exist outside written, so the per-belief
	// check needs no query.
	fresh   map[string]bool
	written map[string]bool // belief ID + "\x00" + episode ID
	// supportOnly replays facts for a cluster: they support the belief they
	// state, creating it if need be, but contradict and settle nothing —
	// their episodes had their say when they were extracted, and an old
	// statement must not count against a belief formed after it.
	supportOnly bool
}

func newCalibrator(r *cycleRun, tx *store.Tx) *calibrator {
	return &calibrator{run: r, tx: tx, fresh: map[string]bool{}, written: map[string]bool{}}
}

// outcome is what applying one fact did.
type outcome struct {
	verdict
	// surprise is how badly the beliefs as they were predicted the fact
	// (see forecast).
	surprise float64
	// worst is the most confident belief the fact contradicted.
	worst     *store.Belief
	worstConf float64
}

// apply writes the evidence one fact gives and resolves its slot: it
// creates the belief a direct fact states when none exists, supports it,
// contradicts what the fact speaks against, supersedes what the fact ends
// (or what lost an exclusive slot to a clear winner) and reactivates a
// superseded or archived belief that evidence brought back.
func (c *calibrator) apply(ctx context.Context, ep store.Episode, f fact, source string) (outcome, error) {
	group, err := related(ctx, c.tx, f, ep)
	if err != nil {
		return outcome{}, err
	}
	if f.Action == llm.ActionInvalidate || f.Action == llm.ActionReinforce {
		group, err = c.withTarget(ctx, group, f.Target)
		if err != nil {
			return outcome{}, err
		}
	}
	v, err := c.run.judgeFact(ctx, f, group, true)
	if err != nil {
		return outcome{}, err
	}
	out := outcome{verdict: v, surprise: noveltySurprise, worstConf: -1}
	if v.same != nil && v.same.Status == belief.Active {
		out.surprise = 1 - c.run.conf(*v.same)
	}
	for i := range v.contradicted {
		if conf := c.run.conf(v.contradicted[i]); conf > out.worstConf {
			out.worst, out.worstConf = &v.contradicted[i], conf
		}
	}
	out.surprise = max(out.surprise, out.worstConf)

	// states follows every belief of the slot through the writes below.
	states := make(map[string]*store.Belief, len(group)+1)
	for i := range group {
		states[group[i].ID] = &group[i]
	}
	wrote, created := false, false
	if v.same == nil && f.Direct {
		id, err := c.tx.CreateBelief(ctx, f.spec(ep, source))
		if err != nil {
			return out, err
		}
		v.same = &store.Belief{State: belief.State{ID: id}}
		states[id] = v.same
		c.run.stats.BeliefsCreated++
		wrote, created = true, true
	}
	if v.same != nil {
		if err := c.evidence(ctx, states[v.same.ID], ep.ID, source, belief.Supports, f.Support, f.Reliability, f.Statement, &wrote); err != nil {
			return out, err
		}
		if !created && !c.supportOnly {
			if err := c.restate(ctx, states[v.same.ID], f); err != nil {
				return out, err
			}
		}
	}
	if c.supportOnly {
		out.verdict = v
		return out, nil
	}
	for _, b := range v.contradicted {
		if err := c.evidence(ctx, states[b.ID], ep.ID, source, belief.Contradicts, -f.Support, f.Reliability, f.Statement, &wrote); err != nil {
			return out, err
		}
	}
	out.verdict = v
	if !wrote {
		return out, nil // nothing new from this episode: the slot stays as it is
	}
	return out, c.resolve(ctx, f, v, states)
}

// restate renders a belief's sentence again when the one it carries is out
// of step with its triple — "User moved to Lisbon" for (user, lives_in,
// lisbon), an older extractor's "Assistant should run the linter" — and
// the fact states the same triple in the extractor's words. A pinned
// belief keeps the person's own words.
func (c *calibrator) restate(ctx context.Context, b *store.Belief, f fact) error {
	if b == nil || b.Pinned || b.Statement == f.Statement || b.Subject != f.Subject ||
		b.Predicate != f.polarPredicate() || b.Object != f.Object {
		return nil
	}
	pred, negated := basePredicate(b.Predicate), strings.HasPrefix(b.Predicate, notPrefix)
	if extract.InStep(b.Statement, b.Subject, pred, b.Object, negated) ||
		!extract.InStep(f.Statement, b.Subject, pred, b.Object, negated) {
		return nil
	}
	st, err := c.tx.Restate(ctx, b.ID, f.Statement)
	if err != nil {
		return err
	}
	b.State = st
	c.run.stats.Restated++
	c.run.touch(b.ID)
	return nil
}

// withTarget adds the belief an LLM named to the group when the slot query
// missed it (the model may match across predicates).
func (c *calibrator) withTarget(ctx context.Context, group []store.Belief, target string) ([]store.Belief, error) {
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

// evidence appends one piece of evidence about b unless the episode
// already gave evidence about it — one observation counts once — and
// updates b to the belief's new state. It sets *wrote when it writes.
func (c *calibrator) evidence(ctx context.Context, b *store.Belief, episodeID, source string, label belief.Label, s, rho float64, note string, wrote *bool) error {
	key := b.ID + "\x00" + episodeID
	if episodeID != "" {
		if c.written[key] {
			return nil
		}
		if !c.fresh[episodeID] {
			seen, err := c.tx.HasEvidenceFrom(ctx, b.ID, episodeID)
			if err != nil || seen {
				return err
			}
		}
	}
	if label == belief.Partial {
		s = 0
	}
	st, err := c.tx.AddEvidence(ctx, store.Evidence{BeliefID: b.ID, EpisodeID: episodeID, Source: source,
		Label: label, Support: s, Reliability: rho, Note: note})
	if err != nil {
		return err
	}
	b.State = st
	c.written[key] = true
	*wrote = true
	c.run.touch(b.ID)
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

// evidenceFor is evidence about a belief known by ID only.
func (c *calibrator) evidenceFor(ctx context.Context, beliefID, episodeID, source string, label belief.Label, s, rho float64, note string) error {
	var wrote bool
	return c.evidence(ctx, &store.Belief{State: belief.State{ID: beliefID}}, episodeID, source, label, s, rho, note, &wrote)
}

// resolve settles the slot after the evidence: what the fact ends is
// superseded by the belief it states; on an exclusive predicate a clear,
// uncontested winner supersedes the rest; a superseded or archived belief
// that evidence put back on top is reactivated. Rejections stand.
func (c *calibrator) resolve(ctx context.Context, f fact, v verdict, states map[string]*store.Belief) error {
	if v.same == nil {
		return nil
	}
	same := states[v.same.ID]
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
	if exclusive(f.polarPredicate(), c.run.exclusive) {
		if won, others := c.clearWinner(same, states); won {
			reactivate = true
			losers = append(losers, others...)
		}
	} else if same.Status != belief.Active && c.run.conf(*same) > c.run.params.PriorConfidence() {
		reactivate = !c.opposed(v)
	}
	if reactivate && same.Status != belief.Active {
		st, err := c.tx.Mark(ctx, same.ID, belief.Reactivate)
		if err != nil {
			return err
		}
		same.State = st
		c.run.stats.Reactivated++
		c.run.touch(same.ID)
	}
	if same.Status != belief.Active {
		return nil // a superseded value gathering evidence does not unseat the current one yet
	}
	for _, id := range losers {
		b := states[id]
		if b == nil || b.ID == same.ID || b.Status != belief.Active || b.Pinned {
			continue // a pinned belief is the person's call, not the evidence's
		}
		st, err := c.tx.Supersede(ctx, id, same.ID)
		if err != nil {
			return err
		}
		b.State = st
		c.run.stats.Superseded++
		c.run.touch(id)
	}
	return nil
}

// opposed reports whether an active belief of the opposite polarity still
// stands against the fact.
func (c *calibrator) opposed(v verdict) bool {
	for _, b := range v.contradicted {
		if b.Predicate == opposite(v.same.Predicate) && !v.invalidated[b.ID] {
			return true
		}
	}
	return false
}

// clearWinner reports whether same now leads its exclusive slot without
// contest, and which active members it should supersede.
func (c *calibrator) clearWinner(same *store.Belief, states map[string]*store.Belief) (bool, []string) {
	confs := []float64{c.run.conf(*same)}
	var others []string
	for id, b := range states {
		if id == same.ID || b.Status != belief.Active || b.Predicate != same.Predicate {
			continue
		}
		conf := c.run.conf(*b)
		if conf >= confs[0] {
			return false, nil
		}
		confs = append(confs, conf)
		others = append(others, id)
	}
	if len(others) == 0 {
		// Alone in its slot: it wins if it is back above the prior.
		return same.Status != belief.Active && confs[0] > c.run.params.PriorConfidence(), nil
	}
	if c.run.params.Contested(confs) {
		return false, nil
	}
	sort.Strings(others) // map order must not decide the order of events
	return true, others
}
