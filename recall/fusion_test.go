package recall

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/credence-mem/credence/embed"
)

// fusionKs are the result counts the fusion is measured at.
var fusionKs = []int{5, 10, 20, 50}

// episodeRecallAt runs every on-topic query of the labelled history with
// the relevance rule off and k episodes asked for, and returns the mean
// episode recall@k (relevant episodes in the top k out of min(k,
// relevant)) and the mean number of episodes returned.
func (f *fixture) episodeRecallAt(t testing.TB, opts Options, k int, oneShot ...bool) (recall, returned float64) {
	t.Helper()
	ctx := context.Background()
	opts.MaxBeliefs, opts.MaxEpisodes, opts.MinConfidence = 2, k, 0
	opts.RelevanceFloor, opts.LexicalFloor = -1, 0
	// The ranking as it is: what a prompt is shown (repeats and earlier
	// bare questions left out) is not what this measures.
	opts.Unfiltered = true
	r := &Recaller{DB: f.db, Embedder: f.emb, Opts: opts, OneShot: len(oneShot) > 0 && oneShot[0]}
	if !r.OneShot {
		// As in the agent, one cache serves every recall: the claims read
		// from an episode are read once, not once per query, k and variant
		// (what kept this test's -race run past the package's timeout).
		r.Cache = f.sharedCache()
	}
	n := 0
	for _, q := range f.h.Queries {
		rel := map[string]bool{}
		for _, key := range q.Relevant {
			if strings.HasPrefix(key, "e") {
				rel[f.idOf[key]] = true
			}
		}
		if len(rel) == 0 {
			continue
		}
		res, err := r.Recall(ctx, Query{Text: q.Text, Project: q.Project})
		if err != nil {
			// Errorf, not Fatalf: passes run on goroutines of their own.
			t.Errorf("Recall(%q): %v", q.Text, err)
			return 0, 0
		}
		n++
		recall += recallAt(episodeIDs(res), rel, k)
		returned += float64(len(res.Episodes))
	}
	return recall / float64(n), returned / float64(n)
}

// blurred is the default embedder with a large random component per text
// added to every vector: cosines that carry little about the topic, as the
// built-in embedder's do between turns of small talk ("every turn is about
// as close to every question"). It is the case where a fusion that trusts
// the cosine loses to BM25.
type blurred struct {
	embed.Embedder
	noise float64
}

func (b blurred) ID() string { return "static-blurred-" + fmt.Sprint(b.Dim()) }

func (b blurred) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := b.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, v := range vecs {
		h := fnv.New64a()
		h.Write([]byte(texts[i]))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		n := make([]float64, len(v))
		var nn float64
		for j := range n {
			n[j] = r.NormFloat64()
			nn += n[j] * n[j]
		}
		var norm float64
		out := make([]float32, len(v))
		for j := range v {
			x := float64(v[j]) + b.noise*n[j]/math.Sqrt(nn)
			out[j] = float32(x)
			norm += x * x
		}
		for j := range out {
			out[j] /= float32(math.Sqrt(norm))
		}
		vecs[i] = out
	}
	return vecs, nil
}

// TestHybridNotBelowLexical: on the labelled history, embedded by the
// default embedder and by a blurred one whose cosines say little, the
// hybrid's episode recall@k is never below its own lexical stage's at any
// k measured, in the agent and in a one-shot hook process (Recaller.OneShot),
// and a recall asked for k episodes returns k when the candidates are there.
// With -v it logs the other fusions beside it.
func TestHybridNotBelowLexical(t *testing.T) {
	measuresQuality(t)
	t.Parallel()
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	for _, emb := range []embed.Embedder{static, blurred{static, 2}} {
		t.Run(emb.ID(), func(t *testing.T) {
			t.Parallel()
			hybridNotBelowLexical(t, emb)
		})
	}
}

// hybridNotBelowLexical measures every variant at every k on emb's
// fixture, the passes side by side (each reads the fixture; the variants
// that model the agent share its cache, which is safe for concurrent use
// and holds what the database holds, so no pass changes another's
// result), and checks the hybrids against BM25.
func hybridNotBelowLexical(t *testing.T, emb embed.Embedder) {
	f := loadFixtureFor(t, emb)
	type variant struct {
		name    string
		set     func(*Options)
		oneShot bool
	}
	vs := []variant{{"bm25", func(o *Options) { o.Mode = LexicalOnly }, false}, {"hybrid", func(*Options) {}, false},
		{"hybrid 1-shot", func(*Options) {}, true}}
	if testing.Verbose() {
		vs = append(vs, variant{"score (old)", func(o *Options) { o.Fusion = ScoreFusion }, false},
			variant{"rrf", func(o *Options) { o.Fusion = RankFusion }, false})
		for _, b := range []float64{0.1, 0.25, 0.75, 1} {
			vs = append(vs, variant{fmt.Sprintf("lift %.2f", b), func(o *Options) { o.VectorLift = b }, false})
		}
	}
	type pass struct{ recall, returned float64 }
	passes := make([][]pass, len(vs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for vi, v := range vs {
		passes[vi] = make([]pass, len(fusionKs))
		for ki, k := range fusionKs {
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				o := DefaultOptions()
				v.set(&o)
				r, n := f.episodeRecallAt(t, o, k, v.oneShot)
				passes[vi][ki] = pass{r, n}
			})
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	got := map[string][]float64{}
	for vi, v := range vs {
		line := ""
		for ki, k := range fusionKs {
			r, n := passes[vi][ki].recall, passes[vi][ki].returned
			got[v.name] = append(got[v.name], r)
			line += fmt.Sprintf("  k=%d %.3f (%.1f)", k, r, n)
			if v.name == "hybrid" && n < float64(k)*0.95 {
				t.Errorf("%s: asked for %d episodes, got %.1f on average", emb.ID(), k, n)
			}
		}
		t.Logf("%-15s %-11s %s", emb.ID(), v.name, line)
	}
	for i, k := range fusionKs {
		for _, name := range []string{"hybrid", "hybrid 1-shot"} {
			if h, l := got[name][i], got["bm25"][i]; h < l {
				t.Errorf("%s: %s episode recall@%d %.3f, below its lexical stage's %.3f", emb.ID(), name, k, h, l)
			}
		}
	}
}

// sharedCache returns the fixture's one recall cache, made on first use.
func (f *fixture) sharedCache() *Cache {
	f.cacheOnce.Do(func() { f.cache = NewCache() })
	return f.cache
}
