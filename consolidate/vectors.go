package consolidate

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// embedBatch is how many texts the agent embeds and stores per write.
const embedBatch = 32

// EmbedPending embeds episodes and beliefs that have no vector yet in the
// configured embedder's space, in batches, until none are left, limit items
// are done, or the deadline passes (a zero deadline means none). It returns
// how many vectors it stored. The agent calls it between cycles so recall
// finds new episodes by meaning.
//
// A remote embedder that is down and not due for a retry is left alone
// (the vectors wait for it: recall reads only its space, so the fallback's
// would serve nothing); one whose call fails now is marked down and the
// error wraps ErrEndpointDown.
func (c *Consolidator) EmbedPending(ctx context.Context, limit int, deadline time.Time) (int, error) {
	db, e := c.opts.DB, c.opts.Embedder
	if g := c.remote; g != nil {
		if !g.b.ready() {
			return 0, nil
		}
		if g.Dim() == 0 || g.b.state().Down {
			if err := g.probe(ctx, c.opts.ProbeTimeout); err != nil {
				return 0, err
			}
		}
		e = g
	}
	sp, err := db.EnsureSpace(ctx, e.ID(), e.Dim())
	if err != nil {
		return 0, err
	}
	done := 0
	for _, kind := range []string{"episodes", "beliefs"} {
		for done < limit {
			if ctx.Err() != nil || (!deadline.IsZero() && !c.opts.Clock().Before(deadline)) {
				return done, nil
			}
			idList, err := db.Unembedded(ctx, sp, kind, min(embedBatch, limit-done))
			if err != nil {
				return done, err
			}
			if len(idList) == 0 {
				break
			}
			texts, err := textsOf(ctx, db, kind, idList)
			if err != nil {
				return done, err
			}
			vecs, err := e.Embed(ctx, texts)
			if err != nil {
				return done, fmt.Errorf("embed %s: %w", kind, err)
			}
			vs := make([]store.Vector, len(idList))
			for i := range idList {
				vs[i] = store.Vector{ID: idList[i], Vec: vecs[i]}
			}
			if err := db.PutVectors(ctx, sp, vs); err != nil {
				return done, err
			}
			done += len(vs)
		}
	}
	return done, nil
}

// textsOf returns the text embedded for each ID, in order.
func textsOf(ctx context.Context, db *store.DB, kind string, idList []string) ([]string, error) {
	by := map[string]string{}
	if kind == "episodes" {
		eps, err := db.EpisodesByID(ctx, idList)
		if err != nil {
			return nil, err
		}
		for _, ep := range eps {
			by[ep.ID] = episodeText(ep)
		}
	} else {
		bs, err := db.BeliefsByID(ctx, idList)
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			by[b.ID] = b.Statement
		}
	}
	out := make([]string, len(idList))
	for i, id := range idList {
		out[i] = by[id]
	}
	return out, nil
}

// vectorsFor returns a vector for every ID: the stored one, else one
// embedded now. Vectors embedded now are stored only when the embedder is
// remote — recomputing an offline vector costs microseconds, inserting into
// the vector index costs far more, and EmbedPending stores it later anyway.
// A cycle on the fallback embedder computes every vector and stores none:
// its space is not the one recall reads.
func (r *cycleRun) vectorsFor(ctx context.Context, kind string, idList []string, texts func([]string) ([]string, error)) (map[string][]float32, error) {
	e := r.emb
	have := map[string][]float32{}
	var sp store.Space
	if !r.stats.EmbedderFallback {
		var err error
		if sp, err = r.db.EnsureSpace(ctx, e.ID(), e.Dim()); err != nil {
			return nil, err
		}
		if have, err = r.db.VectorsByID(ctx, sp, kind, idList); err != nil {
			return nil, err
		}
	}
	cache := r.c.vecs
	if r.c.vecsOf != e.ID() {
		clear(cache) // another embedder's vectors
		r.c.vecsOf = e.ID()
	}
	var missing []string
	for _, id := range idList {
		if _, ok := have[id]; ok {
			continue
		}
		if v, ok := cache[id]; ok && kind == "episodes" {
			have[id] = v // episodes never change; beliefs' statements may
			continue
		}
		missing = append(missing, id)
	}
	if len(missing) == 0 {
		return have, nil
	}
	ts, err := texts(missing)
	if err != nil {
		return nil, err
	}
	vecs, err := e.Embed(ctx, ts)
	if err != nil {
		return nil, fmt.Errorf("embed %s: %w", kind, err)
	}
	var toStore []store.Vector
	if kind == "episodes" && len(cache)+len(missing) > 2*r.c.opts.Budget.PoolSize {
		clear(cache) // bounded: the pool is what gets clustered
	}
	for i, id := range missing {
		have[id] = vecs[i]
		if kind == "episodes" {
			cache[id] = vecs[i]
		}
		toStore = append(toStore, store.Vector{ID: id, Vec: vecs[i]})
	}
	if !embed.Local(e.ID()) && !r.stats.EmbedderFallback {
		if err := r.db.PutVectors(ctx, sp, toStore); err != nil {
			return nil, err
		}
	}
	return have, nil
}

// beliefIndex is the active beliefs with their vectors, for matching
// candidates, building LLM context and finding merge pairs. Similarity is
// computed here rather than through the database's vector index: a cycle
// compares a handful of candidates against every active belief, which is
// cheaper in memory than one index query each.
type beliefIndex struct {
	beliefs []store.Belief
	vecs    [][]float32
}

// activeIndex loads the index once per phase; invalidate drops it after
// beliefs change.
func (r *cycleRun) activeIndex(ctx context.Context) (*beliefIndex, error) {
	if r.index != nil {
		return r.index, nil
	}
	bs, err := r.db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
	if err != nil {
		return nil, err
	}
	idList := make([]string, len(bs))
	byID := make(map[string]string, len(bs))
	for i, b := range bs {
		idList[i] = b.ID
		byID[b.ID] = b.Statement
	}
	vecs, err := r.vectorsFor(ctx, "beliefs", idList, func(missing []string) ([]string, error) {
		out := make([]string, len(missing))
		for i, id := range missing {
			out[i] = byID[id]
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	idx := &beliefIndex{}
	for _, b := range bs {
		idx.beliefs = append(idx.beliefs, b)
		idx.vecs = append(idx.vecs, vecs[b.ID])
	}
	r.index = idx
	return idx, nil
}

func (r *cycleRun) invalidate() { r.index = nil }

// hit is a belief with its similarity to a query.
type hit struct {
	b   store.Belief
	sim float64
}

// nearest returns the beliefs visible from (scope, project) most similar to
// q, best first, down to minSim.
func (idx *beliefIndex) nearest(q []float32, scope, project string, minSim float64, k int) []hit {
	var out []hit
	for i, b := range idx.beliefs {
		if !visible(b, scope, project) {
			continue
		}
		if s := embed.Cosine(q, idx.vecs[i]); s >= minSim {
			out = append(out, hit{b: b, sim: s})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].sim != out[j].sim {
			return out[i].sim > out[j].sim
		}
		return out[i].b.Seq < out[j].b.Seq
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// visible reports whether a belief belongs where a candidate of (scope,
// project) would live: the same scope, and for project scope the same
// project.
func visible(b store.Belief, scope, project string) bool {
	return b.Scope == scope && (scope == belief.ScopeGlobal || b.ProjectPath == project)
}
