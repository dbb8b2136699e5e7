package recall

import (
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"time"

	"github.com/credence-mem/credence/store"
)

// Vector search on the hot path scans sign sketches: one bit per dimension
// (SimHash), packed sketchChunkCap to a row of recall_sketches, so a
// project's 10,000 vectors are a handful of row reads and a few popcounts
// each. The nearest sketches are then re-ranked by their exact cosine.
// libSQL's own vector index (vector_top_k) costs 5–15 ms of CPU per query
// here even on small tables, more than a prompt's whole budget.
const sketchChunkCap = 2048

// syncBatch is how many new vectors one sync transaction reads.
const syncBatch = 512

// sketchKinds are the vector tables of a space.
var sketchKinds = []string{"beliefs", "episodes"}

// checkpointKey is the meta key holding the last vector row sketched.
func checkpointKey(sp store.Space, kind string) string {
	return "recall_sketch:" + sp.Name + ":" + kind
}

// SyncSketches appends the sketches of vectors stored since the last sync
// to recall_sketches, reading at most limit new vectors per kind (0 or less:
// all of them). It returns how many it added. Callers with time to spare
// run it: the Stop, SessionEnd and PreCompact hooks with a small limit, the
// CLI before a recall, the agent after it embeds.
func SyncSketches(ctx context.Context, db *store.DB, sp store.Space, limit int) (int, error) {
	total := 0
	for _, kind := range sketchKinds {
		current, err := upToDate(ctx, db, sp, kind)
		if err != nil {
			return total, err
		}
		if current {
			continue
		}
		for limit <= 0 || total < limit {
			n := syncBatch
			if limit > 0 {
				n = min(n, limit-total)
			}
			added, err := syncBatchOf(ctx, db, sp, kind, n)
			total += added
			if err != nil {
				return total, err
			}
			if added < n {
				break
			}
		}
	}
	return total, nil
}

// upToDate reports, with two cheap reads, whether every vector of a kind is
// already sketched, so a sync with nothing to do takes no write lock.
func upToDate(ctx context.Context, db *store.DB, sp store.Space, kind string) (bool, error) {
	last, err := db.MaxVectorRow(ctx, sp, kind)
	if err != nil {
		return false, err
	}
	v, err := db.Meta(ctx, checkpointKey(sp, kind))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return last == 0, nil
	case err != nil:
		return false, err
	}
	done, err := strconv.ParseInt(v, 10, 64)
	return err == nil && done >= last, nil
}

// syncBatchOf sketches up to n new vectors of one kind in one transaction;
// reading the checkpoint inside it keeps two concurrent syncs from adding
// the same vectors twice.
func syncBatchOf(ctx context.Context, db *store.DB, sp store.Space, kind string, n int) (int, error) {
	added := 0
	err := db.Write(ctx, func(tx *store.Tx) error {
		key := checkpointKey(sp, kind)
		var after int64
		v, err := tx.Meta(ctx, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		default:
			if after, err = strconv.ParseInt(v, 10, 64); err != nil {
				return fmt.Errorf("read %s: %w", key, err)
			}
		}
		vs, err := tx.VectorsAfter(ctx, sp, kind, after, n)
		if err != nil || len(vs) == 0 {
			return err
		}
		open := map[string]*store.SketchChunk{}
		var order []string
		for _, sv := range vs {
			c, ok := open[sv.Project]
			if !ok {
				last, err := tx.LastSketchChunk(ctx, sp.Name, kind, sv.Project)
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					return err
				}
				c, open[sv.Project] = &last, &last
				order = append(order, sv.Project)
			}
			if c.Count == sketchChunkCap {
				if err := tx.PutSketchChunk(ctx, *c); err != nil {
					return err
				}
				*c = store.SketchChunk{Space: sp.Name, Kind: kind, Project: sv.Project, Chunk: c.Chunk + 1}
			}
			if c.Count > 0 {
				c.IDs = append(c.IDs, '\n')
			}
			c.IDs = append(c.IDs, sv.ID...)
			c.Signs = appendSigns(c.Signs, sv.Vec)
			c.Count++
		}
		for _, p := range order {
			if err := tx.PutSketchChunk(ctx, *open[p]); err != nil {
				return err
			}
		}
		added = len(vs)
		return tx.SetMeta(ctx, key, strconv.FormatInt(vs[len(vs)-1].RowID, 10))
	})
	if err != nil {
		return 0, fmt.Errorf("sync %s sketches: %w", kind, err)
	}
	return added, nil
}

// sketchBytes is the size of one sketch of a dim-dimensional vector.
func sketchBytes(dim int) int { return (dim + 7) / 8 }

// appendSigns appends v's sign bits (bit i set when v[i] > 0).
func appendSigns(dst []byte, v []float32) []byte {
	out := make([]byte, sketchBytes(len(v)))
	for i, x := range v {
		if x > 0 {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return append(dst, out...)
}

// hamming counts differing bits of two sketches of equal length.
func hamming(a, b []byte) int {
	n := 0
	for len(a) >= 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b))
		a, b = a[8:], b[8:]
	}
	for i := range a {
		n += bits.OnesCount8(a[i] ^ b[i])
	}
	return n
}

// sketchNearest returns the IDs of the k items of a kind, visible from the
// query's project, whose sketches are nearest the query's.
func (s *search) sketchNearest(ctx context.Context, kind string, k int) ([]string, error) {
	sets, err := s.sketchSets(ctx, kind)
	if err != nil {
		return nil, err
	}
	qs := appendSigns(nil, s.vec)
	size := len(qs)
	h := &farthestFirst{}
	for si, set := range sets {
		for ci, c := range set.chunks {
			if len(c.Signs) != c.Count*size {
				return nil, fmt.Errorf("sketch chunk %s/%s/%d: %d bytes for %d sketches of %d", c.Kind, c.Project, c.Chunk, len(c.Signs), c.Count, size)
			}
			for i := 0; i < c.Count; i++ {
				d := hamming(qs, c.Signs[i*size:(i+1)*size])
				if h.Len() < k {
					heap.Push(h, sketchHit{d, si, ci, i})
				} else if d < (*h)[0].dist {
					(*h)[0] = sketchHit{d, si, ci, i}
					heap.Fix(h, 0)
				}
			}
		}
	}
	out := make([]string, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		hit := heap.Pop(h).(sketchHit)
		id, ok := sets[hit.set].id(hit.chunk, hit.item)
		if !ok {
			c := sets[hit.set].chunks[hit.chunk]
			return nil, fmt.Errorf("sketch chunk %d: fewer ids than its %d sketches", c.Chunk, c.Count)
		}
		out[i] = id
	}
	return out, nil
}

// sketchSets returns the sketches visible from the query's project: from
// the Recaller's cache when it has one.
func (s *search) sketchSets(ctx context.Context, kind string) ([]*sketchSet, error) {
	if s.r.Cache != nil && s.q.Project != "" {
		return s.r.Cache.projectSketches(ctx, s.r.DB, s.space, kind, []string{s.q.Project, ""})
	}
	var projects []string
	if s.q.Project != "" {
		projects = []string{s.q.Project, ""}
	}
	chunks, err := s.r.DB.SketchChunks(ctx, s.space.Name, kind, projects)
	if err != nil {
		return nil, err
	}
	return []*sketchSet{newSketchSet(chunks, "", time.Time{}, false)}, nil
}

type sketchHit struct{ dist, set, chunk, item int }

// farthestFirst is a max-heap on distance: its root is the worst of the k
// best so far.
type farthestFirst []sketchHit

func (h farthestFirst) Len() int           { return len(h) }
func (h farthestFirst) Less(i, j int) bool { return h[i].dist > h[j].dist }
func (h farthestFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *farthestFirst) Push(x any)        { *h = append(*h, x.(sketchHit)) }
func (h *farthestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
