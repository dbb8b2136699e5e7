package recall

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// Candidate pool sizes. The lexical lists come straight from FTS5, the
// vector lists from the project's sketches, re-ranked by exact cosine. One
// bit per dimension is a coarse first cut, so the episodes' vector list is
// long: cut to 12 (and the lexical one with it) the hybrid fell below BM25
// alone on the labelled set's episode recall@5. The beliefs' lists are shorter: past 12 the extra vector
// candidates pushed relevant beliefs out of the top 10 (recall@10 0.821
// with 12 each, 0.767 with 16; docs/BENCHMARKS.md), and every candidate
// belief costs a row read.
const (
	lexicalBeliefs  = 12
	lexicalEpisodes = 20
	vectorBeliefs   = 12
	vectorEpisodes  = 24
)

// Recaller runs recalls against one database.
type Recaller struct {
	DB *store.DB
	// Embedder embeds the query; nil means lexical search only.
	Embedder embed.Embedder
	Opts     Options
	// Now is the clock; nil means the database's.
	Now func() time.Time
	// Cache, when set, keeps sketches and word frequencies between recalls
	// (a long-lived process); nil reads them from the database each time.
	Cache *Cache
	// SideBySide searches beliefs and episodes at the same time. It only
	// pays when DB's pool has a connection for each (the agent's); on one
	// connection the two searches just take turns.
	SideBySide bool
	// OneShot marks a process that recalls once and exits (a hook run
	// without the agent). There the scan of the episodes' vector sketches,
	// which reads and copies every sketch of the project (on the
	// 100k-episode bench about a third of the process's CPU and 3.5 MB of
	// its peak memory), runs only when the words found fewer candidates
	// than BM25's pool holds: where the vocabulary did not match, which is
	// what the scan is for. On a small history the pool is rarely full and
	// the scan is cheap. The agent and the CLI always scan.
	OneShot bool
	// Trace, when set, is told how long each stage of a recall took
	// (Stages names them), for the benchmarks' breakdown. With SideBySide
	// the beliefs' and the episodes' stages overlap.
	Trace func(stage string, d time.Duration)
}

// Stages are the stages a Recaller reports to Trace, in order.
var Stages = []string{"embed query", "belief search", "belief ranking", "episode search", "episode ranking", "current truth"}

// timed runs f and reports its duration to Trace under stage.
func (r *Recaller) timed(stage string, f func()) {
	if r.Trace == nil {
		f()
		return
	}
	start := time.Now()
	f()
	r.Trace(stage, time.Since(start))
}

// Query is one recall request.
type Query struct {
	Text string
	// Project is the project root the query comes from; its rows and the
	// global ones are searched. "" searches everything.
	Project string
	// Exclude lists episode IDs never to return (the prompt just stored).
	Exclude []string
	// AsOf, when set, recalls beliefs as they were then and only episodes
	// recorded by then.
	AsOf time.Time
}

// Result is what a recall found, ready to render or print as JSON.
type Result struct {
	Query    string       `json:"query"`
	Project  string       `json:"project,omitempty"`
	AsOf     string       `json:"as_of,omitempty"`
	Mode     string       `json:"mode"`
	Beliefs  []BeliefHit  `json:"beliefs"`
	Episodes []EpisodeHit `json:"episodes"`
	// Lexical reports why vector search was not used, when it was not.
	Lexical string `json:"lexical_only,omitempty"`
}

// Empty reports whether nothing relevant was found.
func (r Result) Empty() bool { return len(r.Beliefs) == 0 && len(r.Episodes) == 0 }

// BeliefIDs returns the IDs of the beliefs found.
func (r Result) BeliefIDs() []string {
	out := make([]string, len(r.Beliefs))
	for i, b := range r.Beliefs {
		out[i] = b.ID
	}
	return out
}

// BeliefHit is a recalled belief.
type BeliefHit struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Kind      string `json:"kind"`
	Scope     string `json:"scope"`
	Project   string `json:"project,omitempty"`
	// Confidence is decayed and, in an exclusive group, normalized.
	Confidence float64 `json:"confidence"`
	Sources    int     `json:"sources"`
	Contested  bool    `json:"contested"`
	// Rivals are the other members of a contested group.
	Rivals    []Rival `json:"rivals,omitempty"`
	Score     float64 `json:"score"`
	Cosine    float64 `json:"cosine"`
	BM25      float64 `json:"bm25"`
	Retrieval float64 `json:"retrieval_strength"`
	// Relevant says whether the relevance rule passes the belief: whether
	// a prompt would be given it. Only Options.Unfiltered returns others.
	Relevant bool `json:"relevant"`
	// Need names the relation the prompt asks about or needs, when the
	// belief is that slot's current value (relations.Needs).
	Need string `json:"need,omitempty"`
	// SupersededBy, set only when the prompt asks about the past, is the
	// newer value that replaced this one.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Earlier is the value this belief replaced in its exclusive slot.
	Earlier string `json:"earlier,omitempty"`
	// Doubted says a newer message speaks of changing this belief's
	// value, which the belief does not know yet.
	Doubted bool `json:"doubted,omitempty"`
	// Said, for a rule whose statement leaves out part of what the person
	// said ("Never use ORMs" of "we never use ORMs here. raw sql through
	// sqlc only"), is their own words from the newest message it rests on.
	Said string `json:"said,omitempty"`
	// Episodes are the episodes whose evidence the belief rests on; only
	// filled by callers that ask (the CLI), never on the hook path.
	Episodes []string `json:"episodes,omitempty"`
}

// Rival is another active belief competing for the same exclusive slot.
type Rival struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Confidence float64 `json:"confidence"`
}

// EpisodeHit is a recalled episode.
type EpisodeHit struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id,omitempty"`
	Project   string    `json:"project,omitempty"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
	Score     float64   `json:"score"`
	Cosine    float64   `json:"cosine"`
	BM25      float64   `json:"bm25"`
	// Relevant says whether the relevance rule passes the episode (see
	// BeliefHit.Relevant).
	Relevant bool `json:"relevant"`
	// SupersededBy, set only when the prompt asks about the past, is the
	// current value of a slot whose earlier value this episode states.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Note says which value is current when the episode names both ("now:
	// Bun; earlier: pnpm").
	Note string `json:"note,omitempty"`

	consolidated bool
	// followUp: found by a shown item's own words (supersede.go's
	// followUps), not the prompt's; it counts only where it replaces.
	followUp bool
	// ofBelief marks the message a shown belief rests on, offered as an
	// update of the older messages on its topic (beliefMessages).
	ofBelief bool
	// slotOnly names the needed slot whose words alone kept the episode
	// (speaksOfNeededSlot).
	slotOnly string
	// corrects holds the person's words of the message this one followed
	// in its session and opened by correcting (corrections).
	corrects string
}

// Recall searches beliefs and episodes for q. An empty query gives an empty
// result. When the query cannot be embedded in time, or the embedder's
// vector space does not exist yet, it searches lexically and says why in
// Result.Lexical.
func (r *Recaller) Recall(ctx context.Context, q Query) (Result, error) {
	res := Result{Query: q.Text, Project: q.Project, Mode: r.Opts.Mode.String(), Beliefs: []BeliefHit{}, Episodes: []EpisodeHit{}}
	if !q.AsOf.IsZero() {
		res.AsOf = q.AsOf.UTC().Format(time.RFC3339)
	}
	if strings.TrimSpace(q.Text) == "" {
		return res, nil
	}
	now := r.now()
	if !q.AsOf.IsZero() {
		now = q.AsOf
	}
	// The words searched with leave out the tools' names the prompt uses
	// as common nouns ("what's a semaphore in concurrency?" is not about
	// Semaphore CI).
	text := withoutWords(q.Text, relations.CommonNouns(q.Text))
	asked := q.Text
	world := worldQuestion(q.Text)
	off := slices.Concat(offSenseTools(q.Text), worldNames(q.Text, world), notOurWords(q.Text))
	if len(off) > 0 {
		// "how do I get rust off a cast iron pan?": the words are the
		// everyday ones, not the tools'
		text, asked = withoutWords(text, off), withoutWords(q.Text, off)
	}
	s := search{r: r, q: q, text: text, now: now, terms: queryTerms(text), needs: relations.Needs(asked),
		specific: specificTerms(text), memo: &claimMemo{}, links: promptLinkWords(text), anchors: &anchorMemo{}, asks: asksFor(q.Text), owned: ownsSomething(q.Text)}
	s.world, s.common = world, commonTerms(text)
	if s.world {
		s.needs, s.generic = worldNeeds(s.needs, q.Text), genericTerms(text)
	}
	if r.Cache != nil {
		s.memo, s.anchors = &r.Cache.claims, &r.Cache.anchors
	}
	if r.Opts.Mode != LexicalOnly {
		var err error
		r.timed("embed query", func() { err = s.embedQuery(ctx) })
		if err != nil {
			if r.Opts.Mode == VectorOnly {
				return res, err
			}
			res.Lexical = err.Error()
		}
	}
	var beliefs []BeliefHit
	var states map[string]store.Belief
	var asOf []store.Belief
	var episodes, unshown []EpisodeHit
	var errB, errE error
	findBeliefs := func() {
		b := s.fork()
		r.timed("belief search", func() { errB = b.gather(ctx, "beliefs", lexicalBeliefs, vectorBeliefs) })
		if errB == nil {
			r.timed("belief ranking", func() { beliefs, states, errB = b.rankBeliefs(ctx) })
			asOf = b.asOf
		}
	}
	findEpisodes := func() {
		e := s.fork()
		// Asked for more episodes than the pools hold, search deeper.
		k := r.Opts.MaxEpisodes
		r.timed("episode search", func() { errE = e.gather(ctx, "episodes", max(lexicalEpisodes, k), max(vectorEpisodes, k)) })
		if errE == nil {
			r.timed("episode ranking", func() { episodes, errE = e.rankEpisodes(ctx) })
			unshown = e.unshown
		}
	}
	if r.SideBySide {
		var wg sync.WaitGroup
		wg.Go(findBeliefs)
		findEpisodes()
		wg.Wait()
	} else {
		findBeliefs()
		findEpisodes()
	}
	if err := errors.Join(errB, errE); err != nil {
		return res, err
	}
	s.asOf, s.unshown = asOf, unshown
	var err error
	r.timed("current truth", func() {
		if err = s.readSupport(ctx, beliefs, states); err != nil {
			return
		}
		if err = s.corrections(ctx, beliefs, episodes); err != nil {
			return
		}
		episodes = s.withCorrections(episodes)
		if err = s.followUps(ctx, beliefs, states, episodes); err == nil {
			beliefs, episodes, err = s.settle(ctx, beliefs, episodes, states)
		}
	})
	if err != nil {
		return res, err
	}
	beliefs = dropSaidByVersion(dropToldDenials(outdatedRules(beliefs, states), states), states)
	episodes = s.dropRepeats(s.dropPastQuestions(episodes))
	if len(episodes) > r.Opts.MaxEpisodes {
		episodes = episodes[:max(r.Opts.MaxEpisodes, 0)]
	}
	respell(beliefs, episodes)
	res.Beliefs, res.Episodes = beliefs, episodes
	return res, nil
}

func (r *Recaller) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return r.DB.Now()
}

// errNoSpace reports that no vectors exist yet for the configured embedder.
var errNoSpace = errors.New("no vectors for this embedder yet")

// space returns the vector space of the recaller's embedder. An
// OpenAI-compatible embedder whose dimension is not known until its first
// response matches the space of the same model with any dimension.
func (r *Recaller) space(ctx context.Context) (store.Space, error) {
	var spaces []store.Space
	var err error
	if r.Cache != nil {
		spaces, err = r.Cache.cachedSpaces(ctx, r.DB)
	} else {
		spaces, err = r.DB.Spaces(ctx)
	}
	if err != nil {
		return store.Space{}, err
	}
	id := r.Embedder.ID()
	unknownDim := r.Embedder.Dim() == 0
	for _, sp := range spaces {
		if sp.EmbedderID == id || unknownDim && strings.HasPrefix(sp.EmbedderID, strings.TrimSuffix(id, "0")) {
			return sp, nil
		}
	}
	return store.Space{}, errNoSpace
}

// embedQuery finds the vector space and embeds the query within the query
// timeout.
func (s *search) embedQuery(ctx context.Context) error {
	if s.r.Embedder == nil {
		return errors.New("no embedder configured")
	}
	sp, err := s.r.space(ctx)
	if err != nil && !(errors.Is(err, errNoSpace) && s.localEmbedder()) {
		// Without stored vectors only an in-process embedder is worth
		// running: it scores the lexical candidates by cosine.
		return err
	}
	if s.r.Opts.QueryTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.r.Opts.QueryTimeout)
		defer cancel()
	}
	vecs, err := s.r.Embedder.Embed(ctx, []string{s.text})
	if err != nil {
		return fmt.Errorf("embed query: %w", err)
	}
	if len(vecs) != 1 || sp.Dim != 0 && len(vecs[0]) != sp.Dim {
		return fmt.Errorf("embed query: got a vector of the wrong size for space %s", sp.EmbedderID)
	}
	s.space, s.vec = sp, vecs[0]
	return nil
}

// dropPastQuestions leaves out the person's earlier prompts that only ask
// something: "which package manager does this repo use", asked last week,
// tells Claude nothing when it is asked again, and three copies of it
// pushed out the memories that answer it. Under Options.Unfiltered they
// stay, marked not relevant.
func (s *search) dropPastQuestions(eps []EpisodeHit) []EpisodeHit {
	out := eps[:0:0]
	for _, e := range eps {
		if e.Kind == store.EpisodePrompt && bareQuestion(e.Text) {
			if !s.r.Opts.Unfiltered {
				continue
			}
			e.Relevant = false
		}
		out = append(out, e)
	}
	return out
}

// interrogatives open a question.
var interrogatives = map[string]bool{"what": true, "which": true, "who": true, "whom": true, "whose": true,
	"where": true, "when": true, "why": true, "how": true, "is": true, "are": true, "was": true, "were": true,
	"do": true, "does": true, "did": true, "can": true, "could": true, "should": true, "would": true,
	"will": true, "shall": true, "may": true, "have": true, "has": true, "what's": true, "where's": true,
	"who's": true, "how's": true, "whats": true}

// statementInside marks a question that also states something ("should
// we keep Jest now that we're on Vitest?"): such a prompt is kept.
var statementInside = []string{",", ";", " now that ", " since ", " because ", " as we ", " as i ", " btw", " fyi", " given that ", " but ", " though "}

// bareQuestion reports whether a prompt is one short question and nothing
// else: a single sentence that opens with a question word or ends in a
// question mark, with no clause that states something.
func bareQuestion(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsAny(t, "\n") || len(strings.Fields(t)) > 25 {
		return false
	}
	body := strings.TrimRight(t, "?!. ")
	if strings.ContainsAny(body, ".!?") {
		return false // more than one sentence
	}
	lower := " " + strings.ToLower(body) + " "
	for _, m := range statementInside {
		if strings.Contains(lower, m) {
			return false
		}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(lower), " ")
	return strings.HasSuffix(t, "?") || interrogatives[strings.Trim(first, "\"'")]
}

// dropRepeats shows each thing the person said once, where it ranks
// best. A prompt is stored on its own and again inside its exchange, and
// a fact said in three sessions is three episodes: shown together they
// took the places of other memories and read as noise. (A reply worth
// keeping follows a question, and a bare question's prompt is already
// left out, so its exchange stays.) Under Options.Unfiltered the ranking
// stays as it is.
func (s *search) dropRepeats(eps []EpisodeHit) []EpisodeHit {
	if s.r.Opts.Unfiltered {
		return eps
	}
	seen := map[string]bool{} // the person's words, as normalised
	out := eps[:0:0]
	for _, e := range eps {
		key := strings.ToLower(transcript.NormalizePrompt(ownWords(e.Text)))
		if key != "" && seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, e)
	}
	return out
}

// respell writes the values a note names ("now: luis; earlier: kim") as
// the texts shown beside it spell them ("now: Luis; earlier: Kim"): the
// slots keep values lowercased, and a name read in lower case looks like
// a mistake. A tool keeps its own spelling.
func respell(beliefs []BeliefHit, eps []EpisodeHit) {
	texts := make([]string, 0, len(beliefs)+len(eps))
	for _, b := range beliefs {
		texts = append(texts, b.Statement)
	}
	for _, e := range eps {
		texts = append(texts, e.Text)
	}
	fix := func(v string) string {
		if v == "" || strings.ToLower(v) != v {
			return v
		}
		if _, tool := relations.LookupTool(v); tool {
			return v
		}
		for _, t := range texts {
			if w := spelledAs(v, t); w != v {
				return w
			}
		}
		return v
	}
	for i := range beliefs {
		beliefs[i].SupersededBy, beliefs[i].Earlier = fix(beliefs[i].SupersededBy), fix(beliefs[i].Earlier)
	}
	for i := range eps {
		eps[i].SupersededBy = fix(eps[i].SupersededBy)
		if now, earlier, ok := strings.Cut(strings.TrimPrefix(eps[i].Note, "now: "), "; earlier: "); ok && strings.HasPrefix(eps[i].Note, "now: ") {
			eps[i].Note = "now: " + fix(now) + "; earlier: " + fix(earlier)
		}
	}
}
