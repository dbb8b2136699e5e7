package recall

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/transcript"
)

// rrfK is reciprocal rank fusion's constant, the usual 60.
const rrfK = 60

// maxEpisodeRead is how much of each candidate episode is read: enough for
// its snippet, its term coverage and telling whether it repeats the query.
// Two episodes that agree on their first kilobyte count as the same text.
const maxEpisodeRead = 1 << 10

// rankEpisodes loads the episode candidates, drops what may not be shown
// (other projects, forgotten, excluded, recorded after AsOf, the query
// itself), scores the rest and returns the best.
func (s *search) rankEpisodes(ctx context.Context) ([]EpisodeHit, error) {
	ids := s.ids("ep_")
	if len(ids) == 0 || s.r.Opts.MaxEpisodes <= 0 {
		return []EpisodeHit{}, nil
	}
	eps, err := s.r.DB.RecallEpisodes(ctx, ids, s.q.Project, maxEpisodeRead)
	if err != nil {
		return nil, err
	}
	if len(s.elsewhere) > 0 {
		// the person's messages from other projects, which the read above
		// left out (those of this project it has read already)
		read := make(map[string]bool, len(eps))
		for _, e := range eps {
			read[e.ID] = true
		}
		var far []string
		for _, id := range ids {
			if s.elsewhere[id] && !read[id] {
				far = append(far, id)
			}
		}
		more, err := s.r.DB.RecallEpisodes(ctx, far, "", maxEpisodeRead)
		if err != nil {
			return nil, err
		}
		eps = append(eps, more...)
	}
	exclude := make(map[string]bool, len(s.q.Exclude))
	for _, id := range s.q.Exclude {
		exclude[id] = true
	}
	echo := transcript.NormalizePrompt(cutBytes(s.q.Text, maxEpisodeRead))
	texts := map[string]string{}
	away := map[string]bool{} // another project's, found by a personal slot's words
	hits := make([]EpisodeHit, 0, len(eps))
	for _, e := range eps {
		switch {
		case exclude[e.ID], !s.visible(e.Scope, e.ProjectPath) && !s.elsewhere[e.ID], !s.q.AsOf.IsZero() && e.CreatedAt.After(s.q.AsOf):
			continue
		case !s.visible(e.Scope, e.ProjectPath):
			away[e.ID] = true
		}
		if transcript.NormalizePrompt(cutBytes(e.Content, maxEpisodeRead)) == echo {
			continue // the prompt itself, stored now or earlier, says nothing new
		}
		texts[e.ID] = e.Content
		hits = append(hits, EpisodeHit{ID: e.ID, SessionID: e.SessionID, Project: e.ProjectPath, Kind: e.Kind,
			Text: e.Content, CreatedAt: e.CreatedAt, consolidated: e.Consolidated})
	}
	if err := s.fillCosines(ctx, "episodes", texts); err != nil {
		return nil, err
	}
	maxBM25 := 0.0
	for _, h := range hits {
		maxBM25 = math.Max(maxBM25, s.bm25[h.ID])
	}
	s.liftFrom, s.liftTo = liftRange(hits, s.cosine)
	kept := hits[:0]
	for _, h := range hits {
		h.Cosine, h.BM25 = s.cosine[h.ID], s.bm25[h.ID]
		h.Score = s.fuse(h.ID, normalize(h.BM25, maxBM25))
		h.Relevant = true
		if away[h.ID] {
			// another project's message: kept only when it states one of
			// the person's own slots the prompt needs
			if !s.statesPersonalNeed(&h) {
				continue
			}
			h.Score += needBoost
			kept = append(kept, h)
			continue
		}
		if !s.relevant(h.ID, h.Text) || s.world && (s.valueOnly(h.Text) || !s.namedSpecifically(h.Text)) || s.namesOnly(h.Text) {
			// An episode that states a slot the prompt needs is relevant
			// whatever words it shares: "I moved to Lisbon" answers
			// "where do I live?".
			switch {
			case len(s.needs) > 0 && (s.needsSlot(s.claimsOf(h.ID, h.Text)) || s.namesNeededTool(h.Text)):
				h.Score += needBoost
			case s.keptBySlotWords(&h):
				// in the slot's words, not read as a fact: kept, not lifted
			case !s.world && s.episodeLinked(h.ID, h.Text):
				// It states a fact about what the prompt names (facts.go).
			case s.r.Opts.Unfiltered:
				h.Relevant = false
			default:
				s.unshown = append(s.unshown, h)
				continue
			}
		}
		kept = append(kept, h)
	}
	kept = newestPerSlot(kept)
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].Score != kept[j].Score {
			return kept[i].Score > kept[j].Score
		}
		return kept[i].ID > kept[j].ID // newer first on ties
	})
	// Recall cuts to MaxEpisodes once settle has left out what a later
	// episode replaced.
	if n := s.r.Opts.MaxEpisodes + maxClaimEpisodes; len(kept) > n {
		kept = kept[:n]
	}
	return kept, nil
}

// statesPersonalNeed reports whether an episode states a slot of the
// person's that the prompt needs: a claim the extractor reads of it, or
// the slot's own words (speaksOfNeededSlot).
func (s *search) statesPersonalNeed(h *EpisodeHit) bool {
	if s.world {
		return false
	}
	personal := personalNeeds(s.needs)
	for _, c := range s.claimsOf(h.ID, h.Text) {
		for _, n := range personal {
			if c.slot.subject == extract.SubjectUser && (c.slot.predicate == n.Relation.Predicate || c.slot.predicate == n.Relation.Fallback) {
				return true
			}
		}
	}
	p := s.speaksOfNeededSlot(h.Text)
	return p != "" && slices.ContainsFunc(personal, func(n relations.Need) bool { return n.Relation.Predicate == p })
}

// keptBySlotWords reports whether the episode states something in the
// words of a needed slot, and marks it so (newestPerSlot).
func (s *search) keptBySlotWords(h *EpisodeHit) bool {
	if len(s.needs) == 0 {
		return false
	}
	h.slotOnly = s.speaksOfNeededSlot(h.Text)
	return h.slotOnly != ""
}

// fuse combines an episode's two signals as Options.Fusion says.
func (s *search) fuse(id string, bm25n float64) float64 {
	o := s.r.Opts
	switch {
	case o.Mode == LexicalOnly:
		return bm25n
	case o.Mode == VectorOnly:
		return math.Max(s.cosine[id], 0)
	case o.Fusion == RankFusion:
		var f float64
		if r, ok := s.lexRank[id]; ok {
			f += 1 / float64(rrfK+r)
		}
		if r, ok := s.vecRank[id]; ok {
			f += 1 / float64(rrfK+r)
		}
		return f
	case o.Fusion == ScoreFusion:
		wv, wb := o.WeightVector, o.WeightBM25
		if wv+wb <= 0 {
			wv, wb = 1, 1
		}
		return (wv*math.Max(s.cosine[id], 0) + wb*bm25n) / (wv + wb)
	}
	c, ok := s.cosine[id]
	if !ok || s.liftTo <= s.liftFrom || c <= s.liftFrom {
		return bm25n
	}
	return bm25n + o.VectorLift*(c-s.liftFrom)/(s.liftTo-s.liftFrom)
}

// liftRange returns the cosines between which LiftFusion lifts a
// candidate: from the median cosine of the query's candidates (what a
// candidate that merely shares the register of the query scores) to the
// best one. Below the median a cosine adds nothing.
func liftRange(hits []EpisodeHit, cosine map[string]float64) (from, to float64) {
	cs := make([]float64, 0, len(hits))
	for _, h := range hits {
		if c, ok := cosine[h.ID]; ok {
			cs = append(cs, c)
		}
	}
	if len(cs) < 2 {
		return 0, 0
	}
	sort.Float64s(cs)
	return cs[len(cs)/2], cs[len(cs)-1]
}

// normalize maps a BM25 score into [0, 1] by the best score of the query.
func normalize(score, best float64) float64 {
	if best <= 0 || score <= 0 {
		return 0
	}
	return score / best
}

// snippet collapses white space and cuts text to at most n bytes with an
// ellipsis.
func snippet(text string, n int) string {
	text = strings.Join(strings.Fields(cutBytes(text, 4*n+64)), " ")
	if len(text) <= n {
		return text
	}
	return strings.TrimRight(cutBytes(text, n-len("…")), " ") + "…"
}
