package recall

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// beliefCandidate is a belief being ranked.
type beliefCandidate struct {
	b        store.Belief
	raw      float64 // decayed confidence before exclusivity
	conf     float64
	strength float64
	bm25n    float64
	hit      BeliefHit
	// need and boost mark the current belief of a slot the prompt needs
	// (slots.go): boost is added to its score.
	need  string
	boost float64
	// earlier is the value the slot held before this belief, to show.
	earlier string
	// irrelevant marks a candidate the relevance rule would leave out,
	// kept because Options.Unfiltered asks for the ranking as it is.
	irrelevant bool
}

// groupKey identifies an exclusive group: beliefs that compete for one
// (scope, project, subject, predicate) slot.
type groupKey struct{ scope, project, subject, predicate string }

func keyOf(b store.Belief) groupKey {
	k := groupKey{b.Scope, "", b.Subject, b.Predicate}
	if b.Scope == belief.ScopeProject {
		k.project = b.ProjectPath
	}
	return k
}

// rankBeliefs loads the belief candidates, keeps the active, visible,
// relevant and confident ones, applies exclusivity and returns the best by
// 0.5·(confidence·cosine) + 0.3·retrieval strength + 0.2·normalized BM25
// (weights from Options).
func (s *search) rankBeliefs(ctx context.Context) ([]BeliefHit, map[string]store.Belief, error) {
	if s.r.Opts.MaxBeliefs <= 0 {
		return []BeliefHit{}, nil, nil
	}
	all, err := s.loadBeliefs(ctx)
	if err != nil {
		return nil, nil, err
	}
	p := s.r.DB.Params()
	turn, err := s.turn(ctx)
	if err != nil {
		return nil, nil, err
	}
	texts := map[string]string{}
	var cands []*beliefCandidate
	for _, b := range all {
		if b.Status != belief.Active || !s.visible(b.Scope, b.ProjectPath) {
			continue
		}
		c := &beliefCandidate{b: b, raw: b.Confidence(p, s.now, turn)}
		c.conf = c.raw
		if c.raw < s.r.Opts.MinConfidence {
			continue // exclusivity only lowers confidence
		}
		texts[b.ID] = b.Statement
		cands = append(cands, c)
	}
	if err := s.fillCosines(ctx, "beliefs", texts); err != nil {
		return nil, nil, err
	}
	maxBM25 := 0.0
	for _, c := range cands {
		maxBM25 = math.Max(maxBM25, s.bm25[c.b.ID])
	}
	kept := cands[:0]
	for _, c := range cands {
		if !s.relevant(c.b.ID, c.b.Statement) && !s.beliefLinked(c.b) || s.world && (!s.beliefLinked(c.b) || !s.namedSpecifically(c.b.Statement)) || s.namesOnly(c.b.Statement) {
			// a question about the world gets the person's facts and rules
			// only when it needs them (a slot it asks about, a rule of its
			// kind of work, both read elsewhere), not for sharing a word
			if !s.r.Opts.Unfiltered {
				continue
			}
			c.irrelevant = true
		}
		c.strength = s.retrievalStrength(c.b, p)
		c.bm25n = normalize(s.bm25[c.b.ID], maxBM25)
		s.score(c)
		kept = append(kept, c)
	}
	sortCandidates(kept)
	// Exclusivity needs each group's other members; look them up only for
	// the few candidates that can still make the cut.
	if n := 4 * s.r.Opts.MaxBeliefs; len(kept) > n {
		kept = kept[:n]
	}
	if err := s.applyExclusivity(ctx, kept, p, turn); err != nil {
		return nil, nil, err
	}
	needed, err := s.needCandidates(ctx, p, turn)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range needed {
		s.score(c)
	}
	// The guidelines that govern the kind of work the prompt asks for
	// (guidelines.go) come after the needed slots, before resemblance.
	guides, err := s.topicCandidates(ctx, p, turn)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range guides {
		s.score(c)
	}
	sortCandidates(kept)
	out := make([]BeliefHit, 0, s.r.Opts.MaxBeliefs)
	states := map[string]store.Belief{}
	for _, c := range append(append(needed, guides...), kept...) {
		if _, dup := states[c.b.ID]; dup || c.conf < s.r.Opts.MinConfidence && !c.hit.Contested {
			continue
		}
		states[c.b.ID] = c.b
		out = append(out, c.hit.rounded())
		if len(out) == s.r.Opts.MaxBeliefs {
			break
		}
	}
	return out, states, nil
}

// score fills a candidate's hit from its current confidence.
func (s *search) score(c *beliefCandidate) {
	o := s.r.Opts
	cos := s.cosine[c.b.ID]
	var score float64
	switch o.Mode {
	case LexicalOnly:
		score = c.bm25n
	case VectorOnly:
		score = math.Max(cos, 0)
	default:
		score = o.WeightVector*c.conf*math.Max(cos, 0) + o.WeightRetrieval*c.strength + o.WeightBM25*c.bm25n
	}
	c.hit = BeliefHit{ID: c.b.ID, Statement: c.b.Statement, Kind: c.b.Kind, Scope: c.b.Scope, Project: c.b.ProjectPath,
		Confidence: c.conf, Sources: c.b.EvidenceCount, Contested: c.hit.Contested, Rivals: c.hit.Rivals,
		Score: score + c.boost, Cosine: cos, BM25: s.bm25[c.b.ID], Retrieval: c.strength, Need: c.need, Earlier: c.earlier,
		Relevant: !c.irrelevant}
}

// applyExclusivity normalizes the confidence of candidates whose predicate
// is exclusive over the active members of their group, flags contested
// groups and rescores.
func (s *search) applyExclusivity(ctx context.Context, cands []*beliefCandidate, p belief.Params, turn int64) error {
	var exclusive map[string]bool
	var err error
	if s.r.Cache != nil {
		exclusive, err = s.r.Cache.exclusivePredicates(ctx, s.r.DB)
	} else {
		exclusive, err = s.r.DB.ExclusivePredicates(ctx)
	}
	if err != nil {
		return err
	}
	groups := map[groupKey][]store.Belief{}
	for _, c := range cands {
		if c.b.Predicate == "" || !exclusive[c.b.Predicate] {
			continue
		}
		k := keyOf(c.b)
		members, ok := groups[k]
		if !ok {
			if members, err = s.groupMembers(ctx, c.b); err != nil {
				return err
			}
			groups[k] = members
		}
		if len(members) < 2 {
			continue
		}
		raw := make([]float64, len(members))
		self := -1
		for i, m := range members {
			raw[i] = m.Confidence(p, s.now, turn)
			if m.ID == c.b.ID {
				self = i
			}
		}
		if self < 0 {
			continue
		}
		norm := belief.Normalize(raw, p.Epsilon)
		c.conf = norm[self]
		if p.Contested(raw) {
			c.hit.Contested = true
			for i, m := range members {
				if i != self {
					c.hit.Rivals = append(c.hit.Rivals, Rival{ID: m.ID, Statement: m.Statement, Confidence: round3(norm[i])})
				}
			}
			sort.SliceStable(c.hit.Rivals, func(i, j int) bool { return c.hit.Rivals[i].Confidence > c.hit.Rivals[j].Confidence })
		}
		s.score(c)
	}
	return nil
}

// groupMembers returns the active beliefs competing with b.
func (s *search) groupMembers(ctx context.Context, b store.Belief) ([]store.Belief, error) {
	if !s.q.AsOf.IsZero() {
		var out []store.Belief
		for _, m := range s.asOf {
			if m.Status == belief.Active && keyOf(m) == keyOf(b) {
				out = append(out, m)
			}
		}
		return out, nil
	}
	return s.r.DB.ExclusiveGroup(ctx, b)
}

// retrievalStrength is exp(−t/S) since the belief was last surfaced (or
// created).
func (s *search) retrievalStrength(b store.Belief, p belief.Params) float64 {
	last := b.LastAccessedAt
	if last == 0 {
		last = b.CreatedAt
	}
	stability := b.Stability
	if stability <= 0 {
		stability = p.StabilityInitial
	}
	return belief.RetrievalStrength(time.UnixMilli(last), s.now, stability)
}

// turn returns the turn counter to decay by: the current one, or for an
// as-of recall none (each belief is read at its own last turn).
func (s *search) turn(ctx context.Context) (int64, error) {
	if !s.q.AsOf.IsZero() {
		return 0, nil
	}
	return s.r.DB.CurrentTurn(ctx)
}

func sortCandidates(cs []*beliefCandidate) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].hit.Score != cs[j].hit.Score {
			return cs[i].hit.Score > cs[j].hit.Score
		}
		return cs[i].b.ID < cs[j].b.ID
	})
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// rounded returns the hit with its numbers cut to three decimals for
// display and JSON.
func (h BeliefHit) rounded() BeliefHit {
	h.Confidence, h.Score, h.Cosine, h.BM25, h.Retrieval = round3(h.Confidence), round3(h.Score), round3(h.Cosine),
		round3(h.BM25), round3(h.Retrieval)
	return h
}

// loadBeliefs returns the candidate beliefs: the search hits as they are
// now, or for an as-of recall every belief as it was then that was a hit or
// shares enough of the query's terms.
func (s *search) loadBeliefs(ctx context.Context) ([]store.Belief, error) {
	ids := s.ids("bl_")
	if s.q.AsOf.IsZero() {
		if len(ids) == 0 {
			return nil, nil
		}
		return s.r.DB.RecallBeliefs(ctx, ids)
	}
	states, err := s.r.DB.AllAsOf(ctx, s.q.AsOf)
	if err != nil {
		return nil, err
	}
	hit := make(map[string]bool, len(ids))
	for _, id := range ids {
		hit[id] = true
	}
	p := s.r.DB.Params()
	s.asOf = s.asOf[:0]
	var out []store.Belief
	for _, st := range states {
		b := store.Belief{State: st, Stability: p.StabilityInitial}
		s.asOf = append(s.asOf, b)
		if hit[st.ID] || coverage(s.terms, st.Statement) >= s.r.Opts.LexicalFloor {
			out = append(out, b)
		}
	}
	return out, nil
}
