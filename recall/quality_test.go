package recall

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
)

// qualityConfig is the labelled history of the recall quality test:
// 8 projects × 12 sessions × 10 turns, two queries per (project, topic)
// slot and 20 off-topic queries.
var qualityConfig = synth.Config{Seed: 7, Projects: 8, SessionsPerProject: 12, TurnsPerSession: 10, ChatterShare: 0.3,
	QueriesPerSlot: 2, OffTopicQueries: 20}

// fixture is the loaded labelled history, shared by the tests of this file.
type fixture struct {
	db   *store.DB
	h    synth.History
	idOf map[string]string
	keys map[string]string // ID → key
	emb  embed.Embedder

	cacheOnce sync.Once
	cache     *Cache // shared by the recalls that model the agent (fusion_test.go)
}

// fixtures holds the labelled history loaded once per embedder ID, each in
// its own database. Tests that load different embedders' fixtures at once
// (they run in parallel) load them side by side.
var (
	fixturesMu sync.Mutex
	fixtures   = map[string]*fixture{}
	loading    = map[string]*fixtureLoad{}
)

// fixtureLoad is one embedder's fixture being loaded.
type fixtureLoad struct {
	once sync.Once
	f    *fixture
	err  error
}

// measuresQuality skips a test that measures recall's numbers on the
// labelled history when the race detector runs: the numbers do not depend
// on it, and under it those passes took most of CI's ten minutes in this
// package. README's test command runs the package again without -race for
// them; the passes that run side by side stay under the detector
// (TestSideBySideSameResults).
func measuresQuality(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("measures recall quality, not concurrency; runs in the README's second, race-free pass (go test ./recall)")
	}
}

// loadFixture returns the labelled history embedded by the default
// embedder, the one DefaultOptions' relevance floor belongs to.
func loadFixture(t testing.TB) *fixture {
	t.Helper()
	emb, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	return loadFixtureFor(t, emb)
}

// loadFixtureFor returns the labelled history embedded by emb.
func loadFixtureFor(t testing.TB, emb embed.Embedder) *fixture {
	t.Helper()
	fixturesMu.Lock()
	l := loading[emb.ID()]
	if l == nil {
		l = &fixtureLoad{}
		loading[emb.ID()] = l
	}
	fixturesMu.Unlock()
	l.once.Do(func() {
		l.f, l.err = newFixture(emb)
		if l.err == nil {
			fixturesMu.Lock()
			fixtures[emb.ID()] = l.f
			fixturesMu.Unlock()
		}
	})
	if l.err != nil {
		t.Fatal(l.err)
	}
	return l.f
}

// measured keeps what a pass over the labelled queries measured, by
// fixture, measure and options: the tests that ask for the same pass (the
// default embedder's hybrid and vector scores, its default floor) share
// one run of it. A pass reads the fixture, which no test changes.
var measured sync.Map // measureKey → *measure

type measureKey struct {
	embedder, what string
	opts           Options
}

type measure struct {
	once sync.Once
	v    any
}

// measureOnce runs fn once per fixture, measure and options.
func measureOnce[T any](t testing.TB, f *fixture, what string, opts Options, fn func() T) T {
	t.Helper()
	m, _ := measured.LoadOrStore(measureKey{f.emb.ID(), what, opts}, &measure{})
	mm := m.(*measure)
	mm.once.Do(func() { mm.v = fn() })
	v, ok := mm.v.(T)
	if !ok {
		t.Fatalf("%s: the test that ran it failed", what)
	}
	return v
}

func newFixture(emb embed.Embedder) (*fixture, error) {
	ctx := context.Background()
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	now := time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(dir, "quality-"+emb.ID()+".db"), store.Options{Now: func() time.Time { return now }})
	if err != nil {
		return nil, err
	}
	h := synth.Generate(qualityConfig)
	idOf, err := synth.Load(ctx, db, h, synth.LoadOptions{Embedder: emb, NoVectorIndex: true})
	if err != nil {
		return nil, errors.Join(err, db.Close())
	}
	sp, err := db.EnsureSpace(ctx, emb.ID(), emb.Dim())
	if err != nil {
		return nil, errors.Join(err, db.Close())
	}
	if _, err := SyncSketches(ctx, db, sp, 0); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	keys := make(map[string]string, len(idOf))
	for k, id := range idOf {
		keys[id] = k
	}
	return &fixture{db: db, h: h, idOf: idOf, keys: keys, emb: emb}, nil
}

// scores are mean recall@5 and @10 over the labelled queries, separately
// for episodes and beliefs.
type scores struct {
	Episodes5, Episodes10, Beliefs5, Beliefs10 float64
}

func (s scores) String() string {
	return fmt.Sprintf("episodes r@5 %.3f r@10 %.3f | beliefs r@5 %.3f r@10 %.3f", s.Episodes5, s.Episodes10, s.Beliefs5, s.Beliefs10)
}

// evaluate runs every on-topic query in the given mode with the relevance
// floors off and at most 10 results of each kind. Recall@k is the share of
// an item kind's relevant items in the top k, out of min(k, relevant): a
// query with 14 relevant episodes scores 1 at k=5 when its top 5 are all
// relevant.
func (f *fixture) evaluate(t testing.TB, opts Options) scores {
	t.Helper()
	opts.MaxBeliefs, opts.MaxEpisodes, opts.RelevanceFloor, opts.LexicalFloor, opts.MinConfidence = 10, 10, -1, 0, 0
	return measureOnce(t, f, "evaluate", opts, func() scores { return f.evaluateOnce(t, opts) })
}

func (f *fixture) evaluateOnce(t testing.TB, opts Options) scores {
	ctx := context.Background()
	r := &Recaller{DB: f.db, Embedder: f.emb, Opts: opts}
	var sum scores
	var nEp, nBl int
	for _, q := range f.h.Queries {
		if len(q.Relevant) == 0 {
			continue
		}
		res, err := r.Recall(ctx, Query{Text: q.Text, Project: q.Project})
		if err != nil {
			t.Fatalf("Recall(%q): %v", q.Text, err)
		}
		relEp, relBl := map[string]bool{}, map[string]bool{}
		for _, k := range q.Relevant {
			if strings.HasPrefix(k, "e") {
				relEp[f.idOf[k]] = true
			} else {
				relBl[f.idOf[k]] = true
			}
		}
		var eps, bls []string
		for _, e := range res.Episodes {
			eps = append(eps, e.ID)
		}
		for _, b := range res.Beliefs {
			bls = append(bls, b.ID)
		}
		if len(relEp) > 0 {
			nEp++
			sum.Episodes5 += recallAt(eps, relEp, 5)
			sum.Episodes10 += recallAt(eps, relEp, 10)
		}
		if len(relBl) > 0 {
			nBl++
			sum.Beliefs5 += recallAt(bls, relBl, 5)
			sum.Beliefs10 += recallAt(bls, relBl, 10)
		}
	}
	return scores{sum.Episodes5 / float64(nEp), sum.Episodes10 / float64(nEp), sum.Beliefs5 / float64(nBl), sum.Beliefs10 / float64(nBl)}
}

// beliefQueries counts the labelled queries with a relevant belief: the
// denominator of the beliefs' recall.
func (f *fixture) beliefQueries() int {
	n := 0
	for _, q := range f.h.Queries {
		for _, k := range q.Relevant {
			if !strings.HasPrefix(k, "e") {
				n++
				break
			}
		}
	}
	return max(n, 1)
}

func recallAt(ranked []string, rel map[string]bool, k int) float64 {
	hit := 0
	for i, id := range ranked {
		if i == k {
			break
		}
		if rel[id] {
			hit++
		}
	}
	return float64(hit) / float64(min(k, len(rel)))
}

// TestHybridBeatsEachHalf is the acceptance test of DESIGN §6's hybrid
// search: on the labelled history, hybrid recall@5 and @10 beat BM25 alone
// and are never below vector alone, for episodes and for beliefs. (With
// static-v1 the vector search alone finds the beliefs as well as the
// hybrid does: the same 0.795 and 0.895.)
func TestHybridBeatsEachHalf(t *testing.T) {
	measuresQuality(t)
	t.Parallel()
	f := loadFixture(t)
	t.Logf("history: %s", f.h.Describe())
	base := DefaultOptions()
	results := map[string]scores{}
	for _, m := range []Mode{LexicalOnly, VectorOnly, Hybrid} {
		o := base
		o.Mode = m
		results[m.String()] = f.evaluate(t, o)
		t.Logf("%-7s %v", m, results[m.String()])
	}
	rrf := base
	rrf.Fusion = RankFusion
	t.Logf("%-7s %v", "rrf", f.evaluate(t, rrf))
	h := results["hybrid"]
	for _, other := range []string{"bm25", "vector"} {
		o := results[other]
		checks := []struct {
			name       string
			got, other float64
		}{
			{"episodes@5", h.Episodes5, o.Episodes5}, {"episodes@10", h.Episodes10, o.Episodes10},
			{"beliefs@5", h.Beliefs5, o.Beliefs5}, {"beliefs@10", h.Beliefs10, o.Beliefs10},
		}
		for _, c := range checks {
			// Against vector alone a belief list may trail by one query's
			// worth of recall: DESIGN §6 ranks beliefs by 0.5·conf·cos +
			// 0.3·retrieval strength + 0.2·BM25, so where no word matches,
			// strength reorders near ties that cosine alone keeps ("compile
			// server config": the CI belief 6th at 0.359 behind a 0.361).
			// Against BM25 alone (issue 13: never below the lexical stage),
			// and for episodes, there is no slack.
			slack := 0.0
			if other == "vector" && strings.HasPrefix(c.name, "beliefs") {
				slack = 1.0/float64(f.beliefQueries()) + 1e-9
			}
			if c.got < c.other-slack || other == "bm25" && c.got == c.other {
				t.Errorf("hybrid %s=%.3f, want above %s's %.3f", c.name, c.got, other, c.other)
			}
		}
	}
}

// sortedKeys is a helper for stable failure messages.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// floorStats measure a relevance floor on the labelled set: how often an
// on-topic query gets at least one relevant item, what share of the items
// shown are relevant, and how often an off-topic query gets anything.
type floorStats struct {
	Answered, Precision, OffTopicNoise float64
}

func (f *fixture) floorStats(t testing.TB, opts Options) floorStats {
	t.Helper()
	return measureOnce(t, f, "floorStats", opts, func() floorStats { return f.floorStatsOnce(t, opts) })
}

func (f *fixture) floorStatsOnce(t testing.TB, opts Options) floorStats {
	ctx := context.Background()
	r := &Recaller{DB: f.db, Embedder: f.emb, Opts: opts}
	var answered, onTopic, shown, relevantShown, noisy, offTopic int
	for _, q := range f.h.Queries {
		res, err := r.Recall(ctx, Query{Text: q.Text, Project: q.Project})
		if err != nil {
			t.Fatal(err)
		}
		if len(q.Relevant) == 0 {
			offTopic++
			if !res.Empty() {
				noisy++
			}
			continue
		}
		onTopic++
		rel := map[string]bool{}
		for _, k := range q.Relevant {
			rel[f.idOf[k]] = true
		}
		hit := false
		for _, id := range append(res.BeliefIDs(), episodeIDs(res)...) {
			shown++
			if rel[id] {
				relevantShown++
				hit = true
			}
		}
		if hit {
			answered++
		}
	}
	return floorStats{float64(answered) / float64(onTopic), float64(relevantShown) / float64(max(shown, 1)), float64(noisy) / float64(offTopic)}
}

func episodeIDs(r Result) []string {
	out := make([]string, len(r.Episodes))
	for i, e := range r.Episodes {
		out[i] = e.ID
	}
	return out
}

// TestRelevanceFloor checks the default floor on the labelled set: most of
// what is shown is relevant, most off-topic queries get nothing, and well
// over half the on-topic queries get something relevant (about 0.79 is the
// ceiling with no floor at all: the ranking itself misses the rest). With
// -v it logs the sweep the default was chosen from.
func TestRelevanceFloor(t *testing.T) {
	measuresQuality(t)
	t.Parallel()
	f := loadFixture(t)
	weights := []float64{0, 0.25, 0.5, 0.75}
	if !testing.Verbose() {
		weights = nil
	}
	for _, w := range weights {
		for _, floor := range []float64{0.2, 0.25, 0.3, 0.35, 0.4, 0.45} {
			o := DefaultOptions()
			o.RelevanceFloor, o.CoverageWeight = floor, w
			t.Logf("coverage weight %.2f floor %.2f: %+v", w, floor, f.floorStats(t, o))
		}
	}
	got := f.floorStats(t, DefaultOptions())
	t.Logf("default: %+v", got)
	if got.Answered < 0.55 || got.Precision < 0.75 || got.OffTopicNoise > 0.15 {
		t.Errorf("default floor: %+v; want answered ≥ 0.55, precision ≥ 0.75, off-topic noise ≤ 0.15", got)
	}
}

// TestSideBySideSameResults: searching beliefs and episodes side by side,
// as the agent does, finds exactly what searching them in turn finds, with
// a shared cache (run it under -race).
func TestSideBySideSameResults(t *testing.T) {
	t.Parallel()
	f := loadFixture(t)
	ctx := context.Background()
	cache := NewCache()
	inTurn := &Recaller{DB: f.db, Embedder: f.emb, Opts: DefaultOptions()}
	sideBySide := &Recaller{DB: f.db, Embedder: f.emb, Opts: DefaultOptions(), Cache: cache, SideBySide: true}
	n := 0
	for i, q := range f.h.Queries {
		if i%4 != 0 {
			continue
		}
		query := Query{Text: q.Text, Project: q.Project}
		want, err := inTurn.Recall(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sideBySide.Recall(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: side by side %+v, in turn %+v", q.Text, got, want)
		}
		n += len(got.Beliefs) + len(got.Episodes)
	}
	if n == 0 {
		t.Fatal("no query found anything; the comparison proves nothing")
	}
}

// TestEmbedderRecall compares the built-in embedders on the labelled
// history: recall@k of vector search alone and of the hybrid, with the
// relevance floors off, and what each one's own floor lets through. The
// numbers are in docs/EMBEDDERS.md; the test fails if the default embedder
// falls behind offline-v1 on the hybrid.
func TestEmbedderRecall(t *testing.T) {
	measuresQuality(t)
	t.Parallel()
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	hybrid := map[string]scores{}
	for _, emb := range []embed.Embedder{embed.NewOffline(), static} {
		f := loadFixtureFor(t, emb)
		base := DefaultOptions()
		base.RelevanceFloor = RelevanceFloorFor(emb.ID())
		for _, m := range []Mode{VectorOnly, Hybrid} {
			o := base
			o.Mode = m
			s := f.evaluate(t, o)
			t.Logf("%-14s %-7s %v", emb.ID(), m, s)
			if m == Hybrid {
				hybrid[emb.ID()] = s
			}
		}
		t.Logf("%-14s floor %.2f: %+v", emb.ID(), base.RelevanceFloor, f.floorStats(t, base))
	}
	old, got := hybrid[embed.NewOffline().ID()], hybrid[static.ID()]
	if got.Episodes5 < old.Episodes5 || got.Episodes10 < old.Episodes10 || got.Beliefs5 < old.Beliefs5 {
		t.Errorf("hybrid recall with %s: %v; want no lower than offline-v1's %v", static.ID(), got, old)
	}
}
