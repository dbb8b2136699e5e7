package consolidate

import (
	"context"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// Synthesis limits and weights.
const (
	// maxSynthesisEpisodes is how many members (medoid first) a model reads.
	maxSynthesisEpisodes = 10
	// clusterReliability is ρ of evidence a synthesized cluster gives: a
	// generalization over several episodes, not anyone's direct statement.
	clusterReliability = 0.8
	// minOfflineBackers is how many members must state the same fact before
	// offline synthesis proposes it: a cluster is similar text, agreement is
	// what makes it a belief.
	minOfflineBackers = 2
	// SourceCluster marks evidence from offline cluster synthesis.
	SourceCluster = "cluster"
)

// candidate is a synthesized belief with the episodes that back it.
type candidate struct {
	f         fact
	context   string
	timeframe string
	home      store.Episode // the medoid: it decides scope and project
	backers   []store.Episode
	source    string
}

// structured reports whether the candidate has a full triple, so the slot
// rules (exclusivity, negation, supersession) apply to it.
func (c candidate) structured() bool {
	return c.f.Subject != "" && c.f.Predicate != "" && c.f.Object != ""
}

// scope is where the candidate's belief lives.
func (c candidate) scope() (string, string) {
	if c.structured() {
		return c.f.scope(c.home)
	}
	if c.home.ProjectPath == "" || c.home.Scope == belief.ScopeGlobal {
		return belief.ScopeGlobal, ""
	}
	return belief.ScopeProject, c.home.ProjectPath
}

// spec is the belief an unstructured candidate creates.
func (c candidate) spec() belief.Spec {
	scope, project := c.scope()
	kind := c.f.Kind
	if kind == "" {
		kind = belief.KindFact
	}
	return belief.Spec{Statement: c.f.Statement, Subject: c.f.Subject, Predicate: c.f.polarPredicate(),
		Object: c.f.Object, Context: c.context, Timeframe: c.timeframe, Kind: kind, Scope: scope,
		ProjectPath: project, Source: c.source}
}

// synthesize proposes the one belief a cluster supports. The model writes
// it in LLM mode; offline (or when the call fails) medoid synthesis takes
// the fact most members state, requiring at least two, with the medoid's
// wording. A cluster whose members state nothing in common yields none:
// offline mode never invents a statement from free text.
func (r *cycleRun) synthesize(ctx context.Context, cl cluster) (candidate, bool, error) {
	m := cl.medoid()
	if r.c.opts.Model != nil {
		texts := []string{episodeText(cl.members[m])}
		for i, ep := range cl.members {
			if i != m && len(texts) < maxSynthesisEpisodes {
				texts = append(texts, episodeText(ep))
			}
		}
		cctx, cancel := r.callContext(ctx)
		lc, usage, err := r.c.opts.Model.Synthesize(cctx, texts)
		cancel()
		r.account(usage)
		switch {
		case err == nil && !lc.Coherent:
			return candidate{}, false, nil
		case err == nil:
			return fromCandidate(lc, cl.members[m], cl.members), true, nil
		case ctx.Err() != nil:
			return candidate{}, false, ctx.Err()
		}
		r.fallback("synthesize", cl.members[m].ID, err)
	}
	return medoidCandidate(cl, m)
}

// fromCandidate turns a model's synthesis into a candidate backed by every
// member.
func fromCandidate(lc llm.Candidate, home store.Episode, members []store.Episode) candidate {
	f := fact{Subject: strings.ToLower(strings.TrimSpace(lc.Subject)), Predicate: lc.Predicate,
		Object: normalizeObject(lc.Object), Statement: lc.Statement, Kind: lc.Kind, Support: 1,
		Reliability: clusterReliability, Direct: true}
	if f.Kind == belief.KindGuideline {
		f.Subject = extract.SubjectAssistant
	}
	return candidate{f: f, context: lc.Context, timeframe: lc.Timeframe, home: home, backers: members, source: SourceLLM}
}

// medoidCandidate is offline synthesis: the fact stated by most members.
func medoidCandidate(cl cluster, m int) (candidate, bool, error) {
	count := map[string]int{}
	var order []string
	for _, ep := range cl.members {
		seen := map[string]bool{}
		for _, f := range cl.facts[ep.ID] {
			k := f.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			if count[k] == 0 {
				order = append(order, k)
			}
			count[k]++
		}
	}
	best := ""
	for _, f := range cl.facts[cl.members[m].ID] { // the medoid's facts win ties
		if best == "" || count[f.key()] > count[best] {
			best = f.key()
		}
	}
	for _, k := range order {
		if best == "" || count[k] > count[best] {
			best = k
		}
	}
	if best == "" || count[best] < minOfflineBackers {
		return candidate{}, false, nil
	}
	c := candidate{home: cl.members[m], source: SourceCluster}
	for i, ep := range cl.members {
		for _, f := range cl.facts[ep.ID] {
			if f.key() != best {
				continue
			}
			if len(c.backers) == 0 || i == m {
				c.f = f
			}
			c.backers = append(c.backers, ep)
			break
		}
	}
	c.f.Direct = true
	c.f.Action, c.f.Target = "", ""
	return c, true, nil
}
