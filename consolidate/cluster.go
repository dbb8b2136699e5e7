package consolidate

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// cluster is a group of similar pooled episodes.
type cluster struct {
	members []store.Episode
	vecs    [][]float32
	facts   map[string][]fact // by episode ID, as extracted
}

// clusterPhase is step 2 and 3: the pooled episodes are clustered by
// embedding within each project (cosine at or above the embedder's Cluster
// threshold, leader clustering in arrival order); the largest clusters of
// at least MinClusterSize, up to MaxClusters, are synthesized and matched.
// Clusters beyond the cap wait in the pool for the next cycle.
func (r *cycleRun) clusterPhase(ctx context.Context) error {
	b := r.c.opts.Budget
	r.invalidate() // beliefs created by extraction must be matched against
	err := r.db.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.RetirePool(ctx, b.PoolSize)
		return err
	})
	if err != nil {
		return err
	}
	clusters, err := r.formClusters(ctx)
	if err != nil {
		return err
	}
	// Until this pass completes, the next one must look at the whole pool.
	r.c.poolAll, r.c.poolDirty = true, map[string]bool{}
	defer func() {
		if r.stats.ClustersDeferred == 0 && r.stop(ctx) == nil {
			r.c.poolAll = false
		}
	}()
	for i, cl := range clusters {
		if i == b.MaxClusters {
			r.stats.ClustersDeferred = len(clusters) - i
			return nil // poolAll stays set: the rest are due next cycle
		}
		if err := r.stop(ctx); err != nil {
			r.stats.ClustersDeferred = len(clusters) - i
			return err
		}
		if err := r.processCluster(ctx, cl); err != nil {
			return err
		}
		r.stats.Clusters++
	}
	return nil
}

// formClusters reads the pool and returns its clusters big enough to
// synthesize, largest first (then oldest first).
func (r *cycleRun) formClusters(ctx context.Context) ([]cluster, error) {
	b := r.c.opts.Budget
	// Clusters never cross projects, so only projects whose pool gained
	// episodes since the last complete pass can have new ones.
	var projects []string
	if !r.c.poolAll {
		if len(r.c.poolDirty) == 0 {
			return nil, nil
		}
		for p := range r.c.poolDirty {
			projects = append(projects, p)
		}
		sort.Strings(projects)
	}
	pool, err := r.db.Pool(ctx, b.PoolSize, projects...)
	if err != nil || len(pool) < b.MinClusterSize {
		return nil, err
	}
	idList := make([]string, len(pool))
	factsOf := make(map[string][]fact, len(pool))
	for i, p := range pool {
		idList[i] = p.EpisodeID
		var fs []fact
		if err := json.Unmarshal([]byte(p.Facts), &fs); err == nil {
			factsOf[p.EpisodeID] = fs
		}
	}
	eps, err := r.db.EpisodesByID(ctx, idList)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]store.Episode, len(eps))
	for _, ep := range eps {
		byID[ep.ID] = ep
	}
	vecs, err := r.vectorsFor(ctx, "episodes", idList, func(missing []string) ([]string, error) {
		out := make([]string, len(missing))
		for i, id := range missing {
			out[i] = episodeText(byID[id])
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	threshold := r.th.Cluster
	var all []cluster
	byProject := map[string][]int{} // project → indexes into all
	for _, p := range pool {        // pool is oldest first
		ep, ok := byID[p.EpisodeID]
		if !ok || ep.Forgotten {
			continue
		}
		v := vecs[ep.ID]
		best, bestSim := -1, threshold
		for _, ci := range byProject[ep.ProjectPath] {
			if s := embed.Cosine(v, all[ci].vecs[0]); s >= bestSim {
				best, bestSim = ci, s
			}
		}
		if best < 0 {
			all = append(all, cluster{facts: factsOf})
			best = len(all) - 1
			byProject[ep.ProjectPath] = append(byProject[ep.ProjectPath], best)
		}
		all[best].members = append(all[best].members, ep)
		all[best].vecs = append(all[best].vecs, v)
	}
	var out []cluster
	for _, cl := range all {
		if len(cl.members) >= b.MinClusterSize {
			out = append(out, cl)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].members) > len(out[j].members) })
	return out, nil
}

// medoid returns the index of the member most similar to all the others.
func (cl cluster) medoid() int {
	best, bestSum := 0, -1.0
	for i := range cl.members {
		var sum float64
		for j := range cl.members {
			if i != j {
				sum += embed.Cosine(cl.vecs[i], cl.vecs[j])
			}
		}
		if sum > bestSum {
			best, bestSum = i, sum
		}
	}
	return best
}

func (cl cluster) ids() []string {
	out := make([]string, len(cl.members))
	for i, m := range cl.members {
		out[i] = m.ID
	}
	return out
}

// processCluster synthesizes a cluster's candidate and matches it; the
// members leave the pool in the same transaction as the evidence.
func (r *cycleRun) processCluster(ctx context.Context, cl cluster) error {
	cand, ok, err := r.synthesize(ctx, cl)
	if err != nil {
		return err
	}
	var plan matchPlan
	if ok {
		r.stats.Candidates++
		if plan, err = r.planMatch(ctx, cand); err != nil {
			return err
		}
	}
	before := r.stats
	err = r.db.Write(ctx, func(tx *store.Tx) error {
		if err := tx.SetConsolidationState(ctx, store.ConsolidationClustered, cl.ids()...); err != nil {
			return err
		}
		if !ok {
			return nil
		}
		return r.applyMatch(ctx, tx, cand, plan)
	})
	if err != nil {
		r.restore(before)
		return err
	}
	r.invalidate()
	return nil
}
