package recall

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

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
	exclude := make(map[string]bool, len(s.q.Exclude))
	for _, id := range s.q.Exclude {
		exclude[id] = true
	}
	echo := transcript.NormalizePrompt(cutBytes(s.q.Text, maxEpisodeRead))
	texts := map[string]string{}
	hits := make([]EpisodeHit, 0, len(eps))
	for _, e := range eps {
		switch {
		case exclude[e.ID], !s.visible(e.Scope, e.ProjectPath), !s.q.AsOf.IsZero() && e.CreatedAt.After(s.q.AsOf):
			continue
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
		if !s.relevant(h.ID, h.Text) || s.world && (s.valueOnly(h.Text) || !s.namedSpecifically(h.Text)) {
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

// worldQuestion reports whether a prompt asks about the world, not about
// the person's work or life: a question with no "I", "my", "we", "this"
// or "here" in it ("who was Nikola Tesla?", "what's the region of
// convergence of a power series?").
func worldQuestion(prompt string) bool {
	p := strings.ToLower(strings.TrimSpace(cutBytes(prompt, 600)))
	return generalQuestion().MatchString(p) && !ownWork().MatchString(p) && !pointsAtOurs(p)
}

// pointsAtOurs reports whether a question points at a particular thing of
// the person's world with "the": "who's the DBA?", "why is the bundler so
// slow?", "what's the staging url for the api?" — not "the surface of
// mercury", "the region of convergence", "the difference between …",
// whose "the" is of the thing after "of" or "for".
func pointsAtOurs(p string) bool {
	toks := strings.FieldsFunc(p, notWordRune)
	for i, t := range toks {
		if t != "the" {
			continue
		}
		next := toks[i+1 : min(len(toks), i+5)]
		if slices.ContainsFunc(next, func(w string) bool { return ourParts[w] || isSlotNoun(w) }) {
			return true
		}
		if !slices.ContainsFunc(next, func(w string) bool { return worldOf[w] }) {
			return true
		}
	}
	return false
}

// worldOf are the words after which "the" is of a thing of the world:
// "the surface of mercury", "the hex code for black".
var worldOf = map[string]bool{"of": true, "for": true, "between": true, "among": true}

// isSlotNoun reports whether a word is a one-word noun of a relation
// ("bundler", "editor", "manager"): "the bundler" is the project's.
func isSlotNoun(w string) bool {
	r, ok := relations.ByNoun(w)
	return ok && !slices.Contains(r.Ambiguous, w)
}

// worldNeeds keeps, of what a question about the world was read as
// needing, the relations it named by a cue of the person's situation:
// "explain the double helix" names the editor Helix, "what does a product
// manager do all day?" the role, "what's the hex code for black?" the
// formatter, and none of them asks about the person's.
func worldNeeds(needs []relations.Need, prompt string) []relations.Need {
	p := " " + strings.Join(strings.FieldsFunc(strings.ToLower(prompt), notWordRune), " ") + " "
	var out []relations.Need
	for _, n := range needs {
		if slices.ContainsFunc(n.Words, func(w string) bool {
			if slices.Contains(n.Relation.Nouns, w) || slices.Contains(n.Relation.Weak, w) {
				return false
			}
			if strings.HasPrefix(w, "the ") && (strings.Contains(p, " "+w+" of ") || strings.Contains(p, " "+w+" for ")) {
				return false // "the region of convergence" is not the project's region
			}
			_, tool := relations.LookupTool(w)
			return !tool && slices.Contains(n.Relation.Cues, w)
		}) {
			out = append(out, n)
		}
	}
	return out
}

// genericTerms returns the prompt's search terms that it uses only of a
// kind, not of a particular one: after "a" or "an" ("what does a product
// manager do?") or as a bare plural ("why do cats knead blankets?").
func genericTerms(prompt string) map[string]bool {
	toks := strings.FieldsFunc(strings.ToLower(cutQuery(prompt)), notWordRune)
	generic, specific := map[string]bool{}, map[string]bool{}
	for i, w := range toks {
		st := stem(w)
		prev := ""
		if i > 0 {
			prev = toks[i-1]
		}
		// "a product manager": the article may lead the noun's modifier
		indefinite := prev == "a" || prev == "an" || i > 1 && !determiners[prev] && (toks[i-2] == "a" || toks[i-2] == "an")
		if indefinite || len(w) > 3 && strings.HasSuffix(w, "s") && st != w && !determiners[prev] {
			generic[st] = true
		} else {
			specific[st] = true
		}
	}
	for st := range specific {
		delete(generic, st)
	}
	return generic
}

// determiners point at a particular thing: "the cats", "my cats".
var determiners = map[string]bool{"the": true, "this": true, "that": true, "these": true, "those": true, "my": true,
	"our": true, "your": true, "his": true, "her": true, "their": true, "its": true}

// namedSpecifically reports whether text holds one of the prompt's terms
// that the prompt uses of a particular thing, not only of a kind.
func (s *search) namedSpecifically(text string) bool {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(cutBytes(text, maxEpisodeRead)), notWordRune) {
		have[stem(w)] = true
	}
	for _, t := range s.terms {
		if have[t] && !s.generic[t] {
			return true
		}
	}
	return false
}

// valueOnly reports whether the prompt's words that a message holds all
// come after the verb of the message's sentence, as what it says of its
// subject: "I work at Mercury Bank" for "how hot is the surface of
// mercury?", not "standup is at 9:30" for "when is standup?".
func (s *search) valueOnly(text string) bool {
	own := strings.ToLower(cutBytes(ownWords(text), maxEpisodeRead))
	shared := false
	for _, sent := range strings.FieldsFunc(own, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' || r == ';' }) {
		words := strings.FieldsFunc(sent, notWordRune)
		verb := slices.IndexFunc(words, func(w string) bool { return statingVerbs[w] })
		for i, w := range words {
			if !slices.Contains(s.terms, stem(w)) {
				continue
			}
			shared = true
			if verb < 0 || i < verb {
				return false // the message is about the word
			}
		}
	}
	return shared
}

// statingVerbs open what a sentence says of its subject: "my dog is
// called Pixel", "I drive a Tesla", "tests here run with jest".
var statingVerbs = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "m": true,
	"s": true, "re": true, "called": true, "named": true, "use": true, "uses": true, "using": true, "run": true,
	"runs": true, "drive": true, "drives": true, "work": true, "works": true, "live": true, "lives": true,
	"have": true, "has": true, "got": true, "learning": true, "prefer": true, "like": true, "love": true,
	"go": true, "goes": true, "moved": true, "switched": true, "deploy": true, "deploys": true, "store": true}

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
