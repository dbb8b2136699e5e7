package consolidate

import (
	"context"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// judged is one classification of a candidate against a belief.
type judged struct {
	b           store.Belief
	label       belief.Label
	support     float64
	reliability float64
}

// matchPlan is what step 3 decided about a candidate, before writing.
type matchPlan struct {
	// reinforce is the belief the candidate restates (similarity above the
	// reinforce threshold), when its slot holds no belief stating it.
	reinforce *store.Belief
	// judged are the classifications of the related band, IRRELEVANT left
	// out.
	judged []judged
}

func (p matchPlan) supported() bool {
	if p.reinforce != nil {
		return true
	}
	for _, j := range p.judged {
		if j.label == belief.Supports {
			return true
		}
	}
	return false
}

// planMatch is step 3: a structured candidate whose slot already holds the
// belief it states goes straight to the slot rules; otherwise the candidate
// is compared with the active beliefs where it would live — above the
// reinforce threshold it reinforces the nearest; in the related band the
// top MaxClassifications are classified (by the model, or by the slot rules
// offline); below, it is novel.
func (r *cycleRun) planMatch(ctx context.Context, c candidate) (matchPlan, error) {
	var plan matchPlan
	if c.structured() {
		group, err := related(ctx, r.db, c.f, c.home)
		if err != nil {
			return plan, err
		}
		v, err := r.judgeFact(ctx, c.f, group, false)
		if err != nil {
			return plan, err
		}
		if v.same != nil {
			return plan, nil
		}
	}
	vecs, err := r.emb.Embed(ctx, []string{c.f.Statement})
	if err != nil {
		return plan, err
	}
	idx, err := r.activeIndex(ctx)
	if err != nil {
		return plan, err
	}
	th := r.th
	scope, project := c.scope()
	limit := r.c.opts.Budget.MaxClassifications
	hits := idx.nearest(vecs[0], scope, project, th.Related, limit)
	if len(hits) > 0 && hits[0].sim > th.Reinforce {
		plan.reinforce = &hits[0].b
		return plan, nil
	}
	for _, h := range hits {
		j, err := r.classify(ctx, c, h.b)
		if err != nil {
			return plan, err
		}
		r.stats.Classifications++
		if j.label != belief.Irrelevant {
			plan.judged = append(plan.judged, j)
		}
	}
	return plan, nil
}

// classify judges a candidate against one belief: the model in LLM mode,
// falling back to the offline rules when the call fails.
func (r *cycleRun) classify(ctx context.Context, c candidate, b store.Belief) (judged, error) {
	if r.c.opts.Model != nil {
		cctx, cancel := r.callContext(ctx)
		j, usage, err := r.c.opts.Model.Classify(cctx, c.f.Statement, b.Statement)
		cancel()
		r.account(usage)
		if err == nil {
			return judged{b: b, label: belief.Label(j.Label), support: j.Support,
				reliability: j.Reliability * c.f.Reliability}, nil
		}
		if ctx.Err() != nil {
			return judged{}, ctx.Err()
		}
		r.fallback("classify", b.ID, err)
	}
	return r.classifyOffline(c, b), nil
}

// classifyOffline applies the slot rules to a candidate and a belief that
// are close in meaning: the same triple supports; the other value of an
// exclusive predicate or the opposite polarity contradicts; the same triple
// in another context is PARTIAL; anything else — two values of a
// predicate that allows several ("likes Rust", "likes TypeScript"), or a
// belief without a triple — is IRRELEVANT.
func (r *cycleRun) classifyOffline(c candidate, b store.Belief) judged {
	j := judged{b: b, label: belief.Irrelevant, reliability: c.f.Reliability}
	if !c.structured() || b.Predicate == "" || b.Object == "" {
		return j
	}
	v := judge(c.f, []store.Belief{b}, r.exclusive)
	switch {
	case v.same != nil && c.context != "" && c.context != b.Context:
		j.label = belief.Partial
	case v.same != nil:
		j.label, j.support = belief.Supports, 1
	case len(v.contradicted) > 0:
		j.label, j.support = belief.Contradicts, -1
	}
	return j
}

// applyMatch writes the plan: each backing episode supports, contradicts or
// partially supports the beliefs the plan names; a candidate nothing
// supports becomes a belief (through the slot rules when it has a triple).
func (r *cycleRun) applyMatch(ctx context.Context, tx *store.Tx, c candidate, plan matchPlan) error {
	cal := newCalibrator(r, tx)
	rho := c.f.Reliability
	if rho == 0 {
		rho = clusterReliability
	}
	for _, ep := range c.backers {
		if plan.reinforce != nil {
			if err := cal.evidenceFor(ctx, plan.reinforce.ID, ep.ID, c.source, belief.Supports, 1, rho, c.f.Statement); err != nil {
				return err
			}
		}
		for _, j := range plan.judged {
			if j.label == belief.Contradicts && ep.CreatedAt.UnixMilli() <= j.b.CreatedAt {
				continue // an episode older than the belief cannot speak against it
			}
			if err := cal.evidenceFor(ctx, j.b.ID, ep.ID, c.source, j.label, j.support, j.reliability, c.f.Statement); err != nil {
				return err
			}
		}
	}
	if plan.supported() {
		return nil
	}
	if c.structured() {
		// A cluster generalizes what its members say: it supports the belief
		// it states, without replaying their contradictions or the
		// "moved", "switched" of old statements.
		f := c.f
		f.Reliability, f.Direct, f.Action, f.Change, f.Replaces = rho, true, "", false, ""
		if f.Support == 0 {
			f.Support = 1
		}
		cal.supportOnly = true
		for _, ep := range c.backers {
			if _, err := cal.apply(ctx, ep, f, c.source); err != nil {
				return err
			}
		}
		return nil
	}
	id, err := tx.CreateBelief(ctx, c.spec())
	if err != nil {
		return err
	}
	r.stats.BeliefsCreated++
	for _, ep := range c.backers {
		if err := cal.evidenceFor(ctx, id, ep.ID, c.source, belief.Supports, 1, rho, c.f.Statement); err != nil {
			return err
		}
	}
	return nil
}
