package recall

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/embed/wordvec"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// maxQueryBytes is how much of the query text is searched: a pasted log or
// a 10 MB prompt is searched by its beginning, which bounds the FTS query
// and the embedding work.
const maxQueryBytes = 4 << 10

// maxEmbedBytes bounds the text embedded on the fly for a candidate that has
// no stored vector.
const maxEmbedBytes = 2 << 10

// search holds one recall's state: the query vector and the lexical and
// vector scores of every candidate, by ID.
type search struct {
	r   *Recaller
	q   Query
	now time.Time
	// text is the prompt as searched: without the tools' names it uses as
	// common nouns.
	text  string
	terms []string

	space store.Space // zero when the embedder has no vectors stored yet
	vec   []float32   // nil when the query was not embedded

	bm25             map[string]float64 // negated BM25, higher is better
	cosine           map[string]float64
	lexRank, vecRank map[string]int // 1-based ranks in each list
	memo             *claimMemo     // the claims of episodes read, shared by the forks
	// liftFrom and liftTo are the cosines LiftFusion lifts between.
	liftFrom, liftTo float64

	asOf []store.Belief // every belief as of Query.AsOf, for exclusive groups

	needs []relations.Need // the relations the prompt asks about or needs
	// support is the newest message each shown belief rests on
	// (readSupport); corrected, the beliefs whose message the next one
	// corrected (corrections).
	support   map[string]store.Support
	corrected map[string]bool
	// correcting are the messages that corrected a shown belief's, shown
	// beside it: the belief says it may be out of date, they say what
	// replaced it.
	correcting []EpisodeHit
	// unshown are the episode candidates too far from the prompt to show:
	// one may still be the update of an episode that is shown (supersede.go).
	unshown []EpisodeHit
	// specific are the query's words no English word list holds (names,
	// identifiers, tools: "zanzibarledger", "pnpm"), stemmed: an item that
	// names one is relevant whatever its cosine.
	specific []string
	// links are the prompt's content words that can name what a fact is
	// about (facts.go); linkChecks counts the episodes read for it.
	links      []linkWord
	linkChecks int
	anchors    *anchorMemo
	asks       answerKinds // who, when, where
	owned      bool        // the prompt says "my …": it may ask about the person's own
	// world: the prompt asks about the world, not the person's work or
	// life ("how hot is the surface of mercury?", "who was Nikola
	// Tesla?"): a fact or a message that shares a word with it only as a
	// value ("I work at Mercury Bank") is another sense of the word.
	world bool
	// generic are the prompt's terms it uses only of a kind (genericTerms).
	generic map[string]bool
	// common are the prompt's terms it writes in lower case in a prompt
	// of no one's own (commonTerms): "black pepper", "apple varieties".
	common map[string]bool
	// elsewhere are the episode candidates from other projects found by a
	// needed personal slot's words: shown only when they state that slot
	// ("had to walk Biscuit (my beagle)", said in a repository, for "a
	// name for my dog" asked outside it).
	elsewhere map[string]bool
}

// hasSpace reports whether stored vectors can be searched.
func (s *search) hasSpace() bool {
	return s.vec != nil && s.space.Dim == len(s.vec) && s.space.Name != ""
}

// localEmbedder reports whether the embedder runs in-process, cheaply
// enough to embed a few candidates that have no stored vector yet.
func (s *search) localEmbedder() bool {
	return s.r.Embedder != nil && embed.Local(s.r.Embedder.ID())
}

// fork returns a search for one kind of item: the query state shared,
// the scores its own, so the two kinds can be searched side by side.
func (s *search) fork() *search {
	f := *s
	f.bm25, f.cosine = map[string]float64{}, map[string]float64{}
	f.lexRank, f.vecRank = map[string]int{}, map[string]int{}
	f.asOf, f.unshown = nil, nil
	return &f
}

// gather runs the lexical and vector searches over one kind ("beliefs" or
// "episodes") and records each candidate's scores and ranks. The two
// write separate maps, so with Recaller.SideBySide they run at once.
func (s *search) gather(ctx context.Context, kind string, lexicalK, vectorK int) error {
	mode := s.r.Opts.Mode
	lexical, vector := mode != VectorOnly, s.hasSpace() && mode != LexicalOnly
	if !lexical || !vector || !s.r.SideBySide {
		if lexical {
			if err := s.lexicalSearch(ctx, kind, lexicalK); err != nil {
				return err
			}
			if s.r.OneShot && kind == "episodes" && len(s.lexRank) >= lexicalK {
				// The words filled BM25's pool: in a one-shot process the
				// scan of every sketch of the project is not worth it.
				// The candidates are still scored by their vectors.
				return nil
			}
		}
		if vector {
			return s.vectorSearch(ctx, kind, vectorK)
		}
		return nil
	}
	var errL error
	var wg sync.WaitGroup
	wg.Go(func() { errL = s.lexicalSearch(ctx, kind, lexicalK) })
	errV := s.vectorSearch(ctx, kind, vectorK)
	wg.Wait()
	return errors.Join(errL, errV)
}

// lexicalSearch runs BM25 over one kind and records each hit's score and
// rank.
func (s *search) lexicalSearch(ctx context.Context, kind string, k int) error {
	text := cutQuery(s.text)
	if kind == "beliefs" && s.owned {
		// "a poem about my dog": the person's facts are candidates by the
		// word every one of their sentences holds, for the links
		// (facts.go) to judge; "User's beagle's name is Waffles" shares no
		// other word with the prompt.
		text += " user"
	}
	words, err := s.searchWords(ctx, kind, text)
	if err != nil {
		return err
	}
	hits, err := s.r.DB.TextSearch(ctx, kind, words, s.q.Project, k)
	if err != nil {
		return err
	}
	for i, h := range hits {
		s.bm25[h.ID], s.lexRank[h.ID] = h.Score, i+1
	}
	if kind != "episodes" || len(s.needs) == 0 {
		return nil
	}
	// Episodes that state a needed slot in other words: "I moved to
	// Lisbon" for "where do I live?", "we switched to bun" for "which
	// package manager?". Ranked below the prompt's own words.
	words, err = s.searchWordsOf(ctx, kind, needWords(s.needs), maxNeedWords)
	if err != nil || words == "" {
		return err
	}
	more, err := s.r.DB.TextSearch(ctx, kind, words, s.q.Project, needEpisodes)
	if err != nil {
		return err
	}
	for _, h := range more {
		if _, ok := s.bm25[h.ID]; !ok {
			s.bm25[h.ID] = h.Score / 2
		}
	}
	// What the person says of themselves holds wherever they said it:
	// their other projects' messages are searched for their own slots.
	personal := personalNeeds(s.needs)
	if s.q.Project == "" || len(personal) == 0 {
		return nil
	}
	words, err = s.searchWordsOf(ctx, kind, needWords(personal), maxNeedWords)
	if err != nil || words == "" {
		return err
	}
	more, err = s.r.DB.TextSearch(ctx, kind, words, "", needEpisodes)
	if err != nil {
		return err
	}
	for _, h := range more {
		if _, ok := s.bm25[h.ID]; !ok {
			s.bm25[h.ID] = h.Score / 2
			if s.elsewhere == nil {
				s.elsewhere = map[string]bool{}
			}
			s.elsewhere[h.ID] = true
		}
	}
	return nil
}

// personalNeeds are the needs of slots only the person has (where they
// live, their pet, their diet) or that hold for them everywhere (their
// editor, shell, OS), asked of the person.
func personalNeeds(needs []relations.Need) []relations.Need {
	var out []relations.Need
	for _, n := range needs {
		r := n.Relation
		if slices.Contains(n.Subjects, relations.User) && (!r.Said(relations.Project) || r.Personal) {
			out = append(out, n)
		}
	}
	return out
}

// needEpisodes bounds the episodes found through a needed slot's words.
const needEpisodes = 10

// maxNeedWords bounds the words of needed slots looked up; the search
// keeps the rarest present ones.
const maxNeedWords = 96

// needWords are the words that state the slots a prompt needs: for a tool
// relation its tools' names first (the search keeps the first ten words,
// rarest first), then the single-word cues and nouns.
func needWords(needs []relations.Need) string {
	var b strings.Builder
	for _, n := range needs {
		r := n.Relation
		if r.Category != "" {
			for _, w := range relations.ToolNames(r.Category) {
				b.WriteString(w + " ")
			}
		}
		if r.VersionOf != "" {
			b.WriteString(r.VersionOf + " ") // "we're pinned to Python 3.10"
		}
		for _, w := range r.ShapeWords {
			b.WriteString(w + " ") // "everything runs in eu-west-1"
		}
		for _, st := range r.States {
			// a trait's phrases are searched by their words ("free",
			// "time"); keptBySlotWords checks the phrase
			for _, w := range strings.Fields(st) {
				if len(w) > 2 && w != "the" && w != "and" {
					b.WriteString(w + " ")
				}
			}
		}
		for _, w := range append(slices.Clone(r.Cues), r.Nouns...) {
			if !strings.Contains(w, " ") {
				b.WriteString(w + " ")
			}
		}
	}
	return b.String()
}

// vectorSearch finds the k nearest items of a kind by sketch and records
// their exact cosines and their rank by it.
func (s *search) vectorSearch(ctx context.Context, kind string, k int) error {
	near, err := s.sketchNearest(ctx, kind, k)
	if err != nil || len(near) == 0 {
		return err
	}
	vecs, err := s.r.DB.VectorsByID(ctx, s.space, kind, near)
	if err != nil {
		return err
	}
	type scored struct {
		id  string
		cos float64
	}
	ranked := make([]scored, 0, len(vecs))
	for _, id := range near {
		if v, ok := vecs[id]; ok {
			ranked = append(ranked, scored{id, embed.Cosine(s.vec, v)})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].cos > ranked[j].cos })
	for i, r := range ranked {
		s.cosine[r.id], s.vecRank[r.id] = r.cos, i+1
	}
	return nil
}

// ids returns the candidate IDs with the given prefix ("bl_" or "ep_").
func (s *search) ids(prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]float64{s.bm25, s.cosine} {
		for id := range m {
			if strings.HasPrefix(id, prefix) && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// fillCosines gives every candidate that has a text but no cosine yet one:
// from its stored vector, or, with the in-process embedder, by embedding
// the start of its text now. Without a query vector nothing changes.
func (s *search) fillCosines(ctx context.Context, kind string, texts map[string]string) error {
	if s.vec == nil || s.r.Opts.Mode == LexicalOnly {
		return nil
	}
	var missing []string
	for id := range texts {
		if _, ok := s.cosine[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if s.hasSpace() {
		vecs, err := s.r.DB.VectorsByID(ctx, s.space, kind, missing)
		if err != nil {
			return err
		}
		rest := missing[:0]
		for _, id := range missing {
			if v, ok := vecs[id]; ok {
				s.cosine[id] = embed.Cosine(s.vec, v)
			} else {
				rest = append(rest, id)
			}
		}
		missing = rest
	}
	if len(missing) == 0 || !s.localEmbedder() {
		return nil
	}
	in := make([]string, len(missing))
	for i, id := range missing {
		in[i] = cutBytes(texts[id], maxEmbedBytes)
	}
	vecs, err := s.r.Embedder.Embed(ctx, in)
	if err != nil {
		return err
	}
	for i, id := range missing {
		s.cosine[id] = embed.Cosine(s.vec, vecs[i])
	}
	return nil
}

// specificTerms returns the query terms that are names rather than
// English: at least four letters and absent from the pretrained word
// table. Sharing one is strong evidence that an item is about what the
// prompt asks; a cosine over the rest of the words cannot see it.
func specificTerms(text string) []string {
	t, err := wordvec.Default()
	if err != nil {
		return nil
	}
	q := store.MatchQuery(cutQuery(text), 32)
	var out []string
	for _, w := range strings.Split(q, " OR ") {
		w = strings.Trim(w, `"`)
		if len(w) < 4 {
			continue
		}
		if _, known := t.Find(w); !known {
			out = append(out, stem(w))
		}
	}
	return out
}

// relevant reports whether an item clears the relevance floor: its cosine
// plus the weighted share of query terms its text holds, or without a
// cosine (lexical fallback) that share alone against LexicalFloor.
func (s *search) relevant(id, text string) bool {
	if len(s.specific) > 0 && coverage(s.specific, text) > 0 {
		return true // it names what the prompt names: "zanzibarledger", "ledger-stg"
	}
	cov := coverage(s.terms, text)
	if c, ok := s.cosine[id]; ok && s.vec != nil {
		return c+s.r.Opts.CoverageWeight*cov >= s.r.Opts.RelevanceFloor
	}
	return cov >= s.r.Opts.LexicalFloor
}

// visible reports whether a row of the given scope and project may be
// recalled for the query's project.
func (s *search) visible(scope, project string) bool {
	return s.q.Project == "" || scope == "global" || project == s.q.Project
}

func cutQuery(text string) string { return cutBytes(text, maxQueryBytes) }

// withoutWords returns text with every whole-word use of the given words
// (lower case) blanked out.
func withoutWords(text string, words []string) string {
	if len(words) == 0 {
		return text
	}
	var kept []string
	for _, f := range strings.Fields(text) {
		core := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if !slices.Contains(words, core) {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// cutBytes returns at most n bytes of s, not splitting a rune.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
