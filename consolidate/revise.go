package consolidate

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// SourceRevision marks evidence carried to a revised or split belief.
const SourceRevision = "revision"

// evidenceEpisodes returns a belief's evidence with the episodes behind it,
// newest last.
func (r *cycleRun) evidenceEpisodes(ctx context.Context, b store.Belief) ([]store.Evidence, map[string]store.Episode, error) {
	evs, err := r.db.Evidence(ctx, b.ID)
	if err != nil {
		return nil, nil, err
	}
	var idList []string
	for _, e := range evs {
		if e.EpisodeID != "" {
			idList = append(idList, e.EpisodeID)
		}
	}
	eps, err := r.db.EpisodesByID(ctx, idList)
	if err != nil {
		return nil, nil, err
	}
	by := make(map[string]store.Episode, len(eps))
	for _, ep := range eps {
		by[ep.ID] = ep
	}
	return evs, by, nil
}

// texts returns the newest maxSynthesisEpisodes episode texts of evs.
func texts(evs []store.Evidence, eps map[string]store.Episode) []string {
	var out []string
	for i := len(evs) - 1; i >= 0 && len(out) < maxSynthesisEpisodes; i-- {
		if ep, ok := eps[evs[i].EpisodeID]; ok && !ep.Forgotten {
			out = append(out, string(evs[i].Label)+": "+episodeText(ep))
		}
	}
	return out
}

// revise re-synthesizes a belief the revision gate admitted. The model
// writes the new statement from the evidence; offline, it is the fact the
// contradicting episodes stated most often about the same slot, or else the
// belief's negation. When an active belief already states it, the old one
// is superseded by that belief instead of gaining a duplicate.
func (r *cycleRun) revise(ctx context.Context, b store.Belief) error {
	evs, eps, err := r.evidenceEpisodes(ctx, b)
	if err != nil {
		return err
	}
	var contra []string
	for _, e := range evs {
		if e.Label == belief.Contradicts && e.EpisodeID != "" {
			contra = append(contra, e.EpisodeID)
		}
	}
	next, ok := r.reviseWithModel(ctx, b, texts(evs, eps))
	if !ok {
		if next, err = r.reviseOffline(ctx, b, contra); err != nil {
			return err
		}
	}
	return r.db.Write(ctx, func(tx *store.Tx) error {
		if next.Predicate != "" && next.Object != "" {
			group, err := tx.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}, Scope: b.Scope,
				Project: b.ProjectPath, Subject: next.Subject, Predicate: next.Predicate, Object: next.Object})
			if err != nil {
				return err
			}
			if len(group) > 0 {
				if _, err := tx.Supersede(ctx, b.ID, group[0].ID); err != nil {
					return err
				}
				r.stats.Superseded++
				return nil
			}
		}
		id, err := tx.Revise(ctx, b.ID, next)
		if err != nil {
			return err
		}
		r.stats.Revised++
		r.touch(id)
		cal := newCalibrator(r, tx)
		for _, epID := range contra {
			if err := cal.evidenceFor(ctx, id, epID, SourceRevision, belief.Supports, 1, clusterReliability, next.Statement); err != nil {
				return err
			}
		}
		return nil
	})
}

func (r *cycleRun) reviseWithModel(ctx context.Context, b store.Belief, evidence []string) (belief.Spec, bool) {
	if r.c.opts.Model == nil {
		return belief.Spec{}, false
	}
	cctx, cancel := r.callContext(ctx)
	lc, usage, err := r.c.opts.Model.Revise(cctx, b.Statement, evidence)
	cancel()
	r.account(usage)
	if err != nil {
		r.fallback("revise", b.ID, err)
		return belief.Spec{}, false
	}
	return childSpec(b, lc), true
}

// childSpec is a revised or split belief written by the model, in the
// parent's scope.
func childSpec(parent store.Belief, lc llm.Candidate) belief.Spec {
	kind := lc.Kind
	if kind != belief.KindGuideline {
		kind = belief.KindFact
	}
	return belief.Spec{Statement: lc.Statement, Subject: strings.ToLower(lc.Subject), Predicate: lc.Predicate,
		Object: normalizeObject(lc.Object), Context: lc.Context, Timeframe: lc.Timeframe, Kind: kind,
		Scope: parent.Scope, ProjectPath: parent.ProjectPath, Source: SourceLLM}
}

func (r *cycleRun) reviseOffline(ctx context.Context, b store.Belief, contra []string) (belief.Spec, error) {
	factsOf, err := r.db.ConsolidatedFacts(ctx, contra)
	if err != nil {
		return belief.Spec{}, err
	}
	count := map[string]int{}
	var best fact
	for _, epID := range contra {
		var fs []fact
		if json.Unmarshal([]byte(factsOf[epID]), &fs) != nil {
			continue
		}
		for _, f := range fs {
			if slotSubject(f.Subject, f.Predicate) != slotSubject(b.Subject, b.Predicate) ||
				basePredicate(f.polarPredicate()) != basePredicate(b.Predicate) ||
				(f.polarPredicate() == b.Predicate && f.Object == b.Object) {
				continue
			}
			count[f.key()]++
			if count[f.key()] > count[best.key()] || best.Statement == "" {
				best = f
			}
		}
	}
	if best.Statement != "" {
		return belief.Spec{Statement: best.Statement, Subject: best.Subject, Predicate: best.polarPredicate(),
			Object: best.Object, Kind: b.Kind, Scope: b.Scope, ProjectPath: b.ProjectPath, Source: SourceRevision}, nil
	}
	return belief.Spec{Statement: "It is no longer true that " + lowerFirst(b.Statement), Subject: b.Subject,
		Predicate: opposite(b.Predicate), Object: b.Object, Context: b.Context, Kind: b.Kind, Scope: b.Scope,
		ProjectPath: b.ProjectPath, Source: SourceRevision}, nil
}

// split breaks a belief the split gate admitted into context-specific
// children. The model names the contexts; offline, the projects behind the
// supporting and the contradicting evidence do when they differ, and
// "usually" / "in some cases" otherwise. Children inherit the parent's
// counts in proportion to the evidence behind them.
func (r *cycleRun) split(ctx context.Context, b store.Belief) error {
	evs, eps, err := r.evidenceEpisodes(ctx, b)
	if err != nil {
		return err
	}
	specs, shares, ok := r.splitWithModel(ctx, b, texts(evs, eps))
	if !ok {
		specs, shares = splitOffline(b, evs, eps)
	}
	return r.db.Write(ctx, func(tx *store.Tx) error {
		kids, err := tx.Split(ctx, b.ID, specs, shares)
		if err != nil {
			return err
		}
		r.stats.Split++
		for _, id := range kids {
			r.touch(id)
		}
		return nil
	})
}

func (r *cycleRun) splitWithModel(ctx context.Context, b store.Belief, evidence []string) ([]belief.Spec, []float64, bool) {
	if r.c.opts.Model == nil {
		return nil, nil, false
	}
	cctx, cancel := r.callContext(ctx)
	kids, usage, err := r.c.opts.Model.Split(cctx, b.Statement, evidence)
	cancel()
	r.account(usage)
	if err != nil {
		r.fallback("split", b.ID, err)
		return nil, nil, false
	}
	var specs []belief.Spec
	var shares []float64
	var sum float64
	for _, k := range kids {
		specs = append(specs, childSpec(b, k))
		shares = append(shares, k.Share)
		sum += k.Share
	}
	if sum > 1 {
		for i := range shares {
			shares[i] /= sum
		}
	}
	return specs, shares, true
}

func splitOffline(b store.Belief, evs []store.Evidence, eps map[string]store.Episode) ([]belief.Spec, []float64) {
	pro, con := map[string]bool{}, map[string]bool{}
	for _, e := range evs {
		ep, ok := eps[e.EpisodeID]
		if !ok || ep.ProjectPath == "" {
			continue
		}
		switch e.Label {
		case belief.Supports:
			pro[filepath.Base(ep.ProjectPath)] = true
		case belief.Contradicts:
			con[filepath.Base(ep.ProjectPath)] = true
		}
	}
	ctxPro, ctxCon := "usually", "in some cases"
	if len(pro) > 0 && len(con) > 0 && disjoint(pro, con) {
		ctxPro, ctxCon = "in "+list(pro), "in "+list(con)
	}
	total := float64(b.Supports + b.Contradictions)
	yes := b.Spec
	yes.Statement, yes.Context, yes.Source, yes.ParentID = b.Statement+" ("+ctxPro+")", ctxPro, SourceRevision, ""
	no := b.Spec
	no.Statement = upperFirst(ctxCon) + ", it is not true that " + lowerFirst(b.Statement)
	no.Predicate, no.Context, no.Source, no.ParentID = opposite(b.Predicate), ctxCon, SourceRevision, ""
	yes.Pinned, no.Pinned = false, false
	return []belief.Spec{yes, no}, []float64{float64(b.Supports) / total, float64(b.Contradictions) / total}
}

func disjoint(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return false
		}
	}
	return true
}

func list(set map[string]bool) string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || (len(s) > n && unicode.IsUpper(rune(s[n]))) {
		return s // an acronym keeps its case
	}
	return string(unicode.ToLower(r)) + s[n:]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
