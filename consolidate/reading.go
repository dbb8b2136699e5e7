package consolidate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// Reliabilities of evidence by where it came from.
const (
	// directReliability is the least reliability an offline fact needs to
	// count as the user's direct statement (the extractor gives 0.9 to a
	// plain statement, 0.95 to a correction, 0.6 to a hedged one).
	directReliability = 0.8
	// llmReliability is ρ for a fact the model extracted.
	llmReliability = 0.9
	// deepReliability is ρ for a fact read from the assistant's side of a
	// surprising exchange: what the assistant reports about the project is
	// evidence, never a belief on its own.
	deepReliability = 0.6
	// maxContext bounds the beliefs an LLM extraction is shown.
	maxContext = 12
)

// Evidence sources recorded with each piece of evidence.
const (
	SourceHeuristic = "heuristic"
	SourceLLM       = "llm"
)

// reading is what one episode said, ready to apply.
type reading struct {
	ep          store.Episode
	facts       []fact
	mode        string // "offline" or "llm"
	source      string
	surprise    float64
	explanation string
}

// offlineFacts reads the user's words of an episode with the heuristic
// extractor, and returns the assistant's words for a deeper reading.
func (r *cycleRun) offlineFacts(ctx context.Context, ep store.Episode) ([]fact, string, error) {
	user, assistant, err := r.ownWords(ctx, ep)
	if err != nil {
		return nil, "", err
	}
	var ectx extract.Context
	var efs []extract.Fact
	if extract.NeedsContext(user) {
		if ectx, err = r.extractContext(ctx, ep); err != nil {
			return nil, "", err
		}
		efs = extract.ExtractWith(user, ectx)
		more, err := r.filledSlots(ctx, ep, efs, ectx.Slots)
		if err != nil {
			return nil, "", err
		}
		if len(more) > 0 {
			// read again with the values of the slots the words fill:
			// the meeting that moved, the person named without the
			// relation they were first named with
			ectx.Slots = append(more, ectx.Slots...)
			efs = extract.ExtractWith(user, ectx)
		}
	} else {
		efs = extract.ExtractWith(user, ectx)
	}
	var facts []fact
	for _, f := range efs {
		ff := fromExtract(f, true)
		ff.Change = ff.Change || changeLeads(user, f.Span)
		facts = append(facts, ff)
	}
	return facts, assistant, nil
}

// recentUtterances bounds how much of a session a correction is read
// against: what was said just before is what it corrects.
const recentUtterances = 6

// extractContext is what the extractor needs to place a correction that
// names only a value ("actually it's John"): the person's earlier words in
// the same session, oldest first, and the values believed now for the
// single-valued slots the episode can speak to (its project's and the
// person's global ones), the most recently reinforced first.
func (r *cycleRun) extractContext(ctx context.Context, ep store.Episode) (extract.Context, error) {
	var out extract.Context
	eps, err := r.db.SessionEpisodesBefore(ctx, ep.SessionID, ep.Seq, recentUtterances)
	if err != nil {
		return out, err
	}
	for i := len(eps) - 1; i >= 0; i-- {
		if user, _ := userWords(eps[i]); strings.TrimSpace(user) != "" {
			out.Recent = append(out.Recent, user)
		}
	}
	preds := map[string]bool{}
	for _, p := range extract.SlotPredicates() {
		preds[p] = true
	}
	// a slot with one value is one whatever its predicate: the relation
	// table's, the database's, and any open "_is" slot the person filled
	// ("the minimum deployment target is iOS 15")
	var bs []store.Belief
	for _, f := range r.contextScopes(ep) {
		// the person, the project, and the person's kin and pets ("my
		// dog is called Pickle", then "earlier i said pickle but thats
		// my sisters dog. mine is Noodle")
		for _, sf := range []store.Filter{{Subject: extract.SubjectUser}, {Subject: extract.SubjectProject}, {SubjectPrefix: extract.SubjectUser + "'s "}} {
			f.Subject, f.SubjectPrefix = sf.Subject, sf.SubjectPrefix
			found, err := r.db.Beliefs(ctx, f)
			if err != nil {
				return out, fmt.Errorf("read slot values: %w", err)
			}
			for _, b := range found {
				if preds[b.Predicate] || exclusive(b.Predicate, r.exclusive) {
					bs = append(bs, b)
				}
			}
		}
	}
	sort.SliceStable(bs, func(i, j int) bool {
		if bs[i].LastReinforced != bs[j].LastReinforced {
			return bs[i].LastReinforced > bs[j].LastReinforced
		}
		return bs[i].Seq > bs[j].Seq
	})
	out.Slots = slotValues(bs)
	return out, nil
}

// contextScopes are the filters of the active beliefs an episode can speak
// to: the person's global ones and its project's.
func (r *cycleRun) contextScopes(ep store.Episode) []store.Filter {
	out := []store.Filter{{Scope: belief.ScopeGlobal, Statuses: []belief.Status{belief.Active}}}
	if ep.ProjectPath != "" && ep.Scope != belief.ScopeGlobal {
		out = append(out, store.Filter{Scope: belief.ScopeProject, Project: ep.ProjectPath, Statuses: []belief.Status{belief.Active}})
	}
	return out
}

// slotValues are beliefs as the extractor's slot values, the most
// recently reinforced first.
func slotValues(bs []store.Belief) []extract.SlotValue {
	sort.SliceStable(bs, func(i, j int) bool {
		if bs[i].LastReinforced != bs[j].LastReinforced {
			return bs[i].LastReinforced > bs[j].LastReinforced
		}
		return bs[i].Seq > bs[j].Seq
	})
	out := make([]extract.SlotValue, 0, len(bs))
	for _, b := range bs {
		out = append(out, extract.SlotValue{Subject: b.Subject, Predicate: b.Predicate, Object: b.Object})
	}
	return out
}

// maxFilled bounds the values of one filled slot passed on a second reading.
const maxFilled = 12

// filledSlots returns the believed values of the slots a change or
// correction's facts fill that its context did not carry: a slot of many
// values (a person's meetings: "they moved standup to 10:15" moves the
// standup believed at 9:30, a meeting the context had no reason to hold),
// and the same slot of a named person stored under a fuller subject
// ("user's sister hannah" for "Hannah's birthday"), or a shorter one.
func (r *cycleRun) filledSlots(ctx context.Context, ep store.Episode, efs []extract.Fact, have []extract.SlotValue) ([]extract.SlotValue, error) {
	seen := map[extract.SlotValue]bool{}
	for _, s := range have {
		seen[s] = true
	}
	asked := map[string]bool{}
	var bs []store.Belief
	for _, f := range efs {
		if f.Kind != extract.KindFact || f.Negated || f.Replaces != "" {
			continue
		}
		named := namedSubject(f.Subject)
		if !named && exclusive(f.Predicate, r.exclusive) {
			continue // its values came with the context
		}
		key := f.Subject + "\x00" + f.Predicate
		if asked[key] {
			continue
		}
		asked[key] = true
		for _, flt := range r.contextScopes(ep) {
			flt.Predicate = f.Predicate
			if !named {
				flt.Subject = f.Subject
			}
			found, err := r.db.Beliefs(ctx, flt)
			if err != nil {
				return nil, fmt.Errorf("read filled slot: %w", err)
			}
			n := 0
			for i := len(found) - 1; i >= 0 && n < maxFilled; i-- {
				b := found[i]
				if b.Object == f.Object || (named && !samePerson(b.Subject, f.Subject)) {
					continue
				}
				bs = append(bs, b)
				n++
			}
		}
	}
	var out []extract.SlotValue
	for _, s := range slotValues(bs) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// namedSubject reports whether a subject is a named person or thing, not
// the user, the project or the assistant.
func namedSubject(subject string) bool {
	switch subject {
	case "", extract.SubjectUser, extract.SubjectProject, extract.SubjectAssistant:
		return false
	}
	return true
}

// samePerson reports whether two subjects name the same one: equal, or
// one the other's name with the relation it was introduced by ("hannah"
// and "user's sister hannah").
func samePerson(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return strings.Contains(a, "'s ") && strings.HasSuffix(a, " "+b)
}

// applyOffline applies an episode's facts through cal and returns its
// reading. Surprise comes from the beliefs as each fact found them; a
// surprising episode is read again more deeply — the assistant's side of
// the exchange too, for facts about the project or named entities (never
// "I", which there means the assistant) — and a very surprising one gets
// an explanation naming the belief it contradicted.
func (r *cycleRun) applyOfflineEpisode(ctx context.Context, cal *calibrator, ep store.Episode, facts []fact, assistant string) (reading, error) {
	rdg := reading{ep: ep, mode: ModeOffline, source: SourceHeuristic, facts: facts}
	var fc forecast
	worstConf := -1.0
	applyAll := func(fs []fact) error {
		for _, f := range fs {
			out, err := cal.apply(ctx, ep, f, rdg.source)
			if err != nil {
				return fmt.Errorf("apply fact %q of %s: %w", f.Statement, ep.ID, err)
			}
			fc.surprise = max(fc.surprise, out.surprise)
			if out.worst != nil && out.worstConf > worstConf {
				worstConf, fc.worst, fc.worstFact = out.worstConf, out.worst, f
			}
		}
		return nil
	}
	if err := applyAll(facts); err != nil {
		return rdg, err
	}
	if fc.surprise >= DeepSurprise && assistant != "" {
		deep := newFacts(facts, deepFacts(assistant))
		if err := applyAll(deep); err != nil {
			return rdg, err
		}
		rdg.facts = append(rdg.facts, deep...)
	}
	rdg.surprise = fc.surprise
	if fc.surprise >= DeepSurprise {
		r.stats.HighSurprise++
	}
	if fc.surprise >= ExplainSurprise && fc.worst != nil {
		rdg.explanation = fmt.Sprintf("Contradicted %q (%s, confidence %.2f): the episode says %q.",
			fc.worst.Statement, fc.worst.ID, worstConf, fc.worstFact.Statement)
	}
	return rdg, nil
}

// deepFacts reads the assistant's words for what they report about the
// project or named entities, as weaker, non-direct evidence.
func deepFacts(text string) []fact {
	var out []fact
	for _, ef := range extract.Extract(text) {
		if ef.Subject == extract.SubjectUser || ef.Subject == extract.SubjectAssistant {
			continue
		}
		f := fromExtract(ef, false)
		f.Reliability = min(f.Reliability, deepReliability)
		out = append(out, f)
	}
	return out
}

// newFacts returns the facts of more that facts does not already state.
func newFacts(facts, more []fact) []fact {
	have := map[string]bool{}
	for _, f := range facts {
		have[f.key()] = true
	}
	var out []fact
	for _, f := range more {
		if !have[f.key()] {
			have[f.key()] = true
			out = append(out, f)
		}
	}
	return out
}

// ownWords splits an episode into the user's words and the assistant's.
// An exchange whose prompt the UserPromptSubmit hook already stored as its
// own episode gives no user words: that prompt is read once, from its
// prompt episode.
func (r *cycleRun) ownWords(ctx context.Context, ep store.Episode) (user, assistant string, err error) {
	user, assistant = userWords(ep)
	if ep.Kind == store.EpisodeExchange && user != "" && ep.SessionID != "" {
		n, err := r.db.CountSessionPrompts(ctx, ep.SessionID, user)
		if err != nil {
			return "", "", err
		}
		if n > 0 {
			user = ""
		}
	}
	return user, assistant, nil
}

// readLLM reads an episode with the model: the offline reading first (for
// its surprise, its related beliefs and as the fallback), then one
// extraction call with those beliefs as context. Any failure of the call
// falls back to the offline reading; a cancelled context returns the error
// instead, so a stopping agent applies nothing it did not finish.
func (r *cycleRun) readLLM(ctx context.Context, ep store.Episode) (reading, error) {
	facts, assistant, err := r.offlineFacts(ctx, ep)
	if err != nil {
		return reading{}, err
	}
	fc, err := r.predict(ctx, r.db, ep, facts)
	if err != nil {
		return reading{}, err
	}
	off := reading{ep: ep, mode: ModeOffline, source: SourceHeuristic, facts: facts, surprise: fc.surprise}
	if fc.surprise >= DeepSurprise {
		r.stats.HighSurprise++
		if assistant != "" {
			off.facts = append(off.facts, newFacts(facts, deepFacts(assistant))...)
		}
	}
	if fc.surprise >= ExplainSurprise {
		off.explanation = r.explain(fc)
	}
	user, _, err := r.ownWords(ctx, ep)
	if err != nil || strings.TrimSpace(user) == "" {
		return off, err // nothing of the user's to read
	}
	near, err := r.nearBeliefs(ctx, ep)
	if err != nil {
		return off, err
	}
	req := llm.ExtractRequest{Episode: episodeText(ep), Surprise: fc.surprise, Related: r.known(append(fc.context, near...))}
	cctx, cancel := r.callContext(ctx)
	ext, usage, err := r.c.opts.Model.Extract(cctx, req)
	cancel()
	r.account(usage)
	if err != nil {
		if ctx.Err() != nil {
			return off, ctx.Err()
		}
		r.fallback("extract", ep.ID, err)
		return off, nil
	}
	rdg := reading{ep: ep, mode: ModeLLM, source: SourceLLM, surprise: fc.surprise}
	for _, f := range ext.Facts {
		rdg.facts = append(rdg.facts, newFacts(rdg.facts, []fact{fromLLM(f)})...)
	}
	if fc.surprise >= ExplainSurprise {
		rdg.explanation = strings.TrimSpace(ext.SurpriseExplanation)
		if rdg.explanation == "" {
			rdg.explanation = off.explanation
		}
	}
	return rdg, nil
}

// nearBeliefs returns the active beliefs nearest the episode by meaning,
// global ones and its project's, at or above the related threshold: the
// part of the model's context that shares no slot with the offline facts.
func (r *cycleRun) nearBeliefs(ctx context.Context, ep store.Episode) ([]store.Belief, error) {
	vecs, err := r.vectorsFor(ctx, "episodes", []string{ep.ID}, func([]string) ([]string, error) {
		return []string{episodeText(ep)}, nil
	})
	if err != nil {
		return nil, err
	}
	idx, err := r.activeIndex(ctx)
	if err != nil {
		return nil, err
	}
	th := r.th.Related
	hits := idx.nearest(vecs[ep.ID], belief.ScopeGlobal, "", th, maxContext/2)
	if ep.ProjectPath != "" {
		hits = append(hits, idx.nearest(vecs[ep.ID], belief.ScopeProject, ep.ProjectPath, th, maxContext/2)...)
	}
	out := make([]store.Belief, len(hits))
	for i, h := range hits {
		out[i] = h.b
	}
	return out, nil
}

// known turns beliefs into the model's context, without repeats.
func (r *cycleRun) known(bs []store.Belief) []llm.KnownBelief {
	out := make([]llm.KnownBelief, 0, min(len(bs), maxContext))
	seen := map[string]bool{}
	for _, b := range bs {
		if len(out) == maxContext {
			break
		}
		if seen[b.ID] {
			continue
		}
		seen[b.ID] = true
		out = append(out, llm.KnownBelief{ID: b.ID, Statement: b.Statement, Subject: b.Subject,
			Predicate: b.Predicate, Object: b.Object, Confidence: r.conf(b)})
	}
	return out
}

// episodeText is what the model reads of an episode.
func episodeText(ep store.Episode) string {
	if ep.Summary != "" && !strings.Contains(ep.Content, ep.Summary) {
		return ep.Content + "\n\nSummary: " + ep.Summary
	}
	return ep.Content
}

// errAlreadyConsolidated means another cycle consolidated the episode
// first; what this one derived from it is rolled back.
var errAlreadyConsolidated = errors.New("episode already consolidated")
