package recall

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

func TestHamming(t *testing.T) {
	tests := []struct {
		name string
		a, b []byte
		want int
	}{
		{"equal", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 0},
		{"one word all bits", bytes.Repeat([]byte{0xff}, 8), make([]byte, 8), 64},
		{"tail bytes", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0b101}, make([]byte, 9), 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hamming(tc.a, tc.b); got != tc.want {
				t.Errorf("hamming()=%d, want %d", got, tc.want)
			}
		})
	}
}

// sketchDB opens a database with n random vectors in one space, split
// between two projects and global episodes.
func sketchDB(t *testing.T, n int) (*store.DB, store.Space, map[string][]float32, map[string]string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sp, err := db.EnsureSpace(ctx, "test-space-16", 16)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	vecs, project := map[string][]float32{}, map[string]string{}
	var vs []store.Vector
	err = db.Write(ctx, func(tx *store.Tx) error {
		for i := 0; i < n; i++ {
			p := []string{"/a", "/b", ""}[i%3]
			ep := &store.Episode{ProjectPath: p, Kind: store.EpisodeNote, Content: fmt.Sprint("episode ", i)}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			v := make([]float32, 16)
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
			vecs[ep.ID], project[ep.ID] = embed.Normalize(v), p
			vs = append(vs, store.Vector{ID: ep.ID, Vec: vecs[ep.ID]})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutVectors(ctx, sp, vs); err != nil {
		t.Fatal(err)
	}
	return db, sp, vecs, project
}

func TestSyncSketchesOnceEach(t *testing.T) {
	ctx := context.Background()
	db, sp, vecs, _ := sketchDB(t, 5000)
	// Two syncs racing, each in small steps, must sketch every vector once.
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n, err := SyncSketches(ctx, db, sp, 700)
				if err != nil {
					t.Error(err)
					return
				}
				if n == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	chunks, err := db.SketchChunks(ctx, sp.Name, "episodes", nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, c := range chunks {
		if c.Count > sketchChunkCap || len(c.Signs) != c.Count*sketchBytes(16) {
			t.Errorf("chunk %s/%d: count %d, %d sign bytes", c.Project, c.Chunk, c.Count, len(c.Signs))
		}
		for _, id := range bytes.Split(c.IDs, []byte{'\n'}) {
			seen[string(id)]++
		}
	}
	if len(seen) != len(vecs) {
		t.Errorf("%d vectors sketched, want %d", len(seen), len(vecs))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sketched %d times", id, n)
		}
	}
	if n, err := SyncSketches(ctx, db, sp, 0); err != nil || n != 0 {
		t.Errorf("SyncSketches after a full sync=%d, %v; want 0", n, err)
	}
}

func TestSketchNearestScopedAndExact(t *testing.T) {
	ctx := context.Background()
	db, sp, vecs, project := sketchDB(t, 3000)
	if _, err := SyncSketches(ctx, db, sp, 0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, project string
		allowed       func(p string) bool
	}{
		{"project a and global", "/a", func(p string) bool { return p == "/a" || p == "" }},
		{"everything", "", func(string) bool { return true }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checked := 0
			for id, v := range vecs {
				if !tc.allowed(project[id]) {
					continue
				}
				s := &search{r: &Recaller{DB: db}, q: Query{Project: tc.project}, space: sp, vec: v}
				got, err := s.sketchNearest(ctx, "episodes", 10)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 10 || got[0] != id && hamming(appendSigns(nil, vecs[got[0]]), appendSigns(nil, v)) != 0 {
					t.Fatalf("sketchNearest(vector of %s)[0]=%v, want it first", id, got)
				}
				for _, g := range got {
					if !tc.allowed(project[g]) {
						t.Fatalf("sketchNearest returned %s of project %q", g, project[g])
					}
				}
				if checked++; checked == 50 {
					break
				}
			}
		})
	}
}

// TestSketchCacheFollowsSyncs runs sketchNearest through a Cache, as the
// agent does: it must give what the database gives, and a vector sketched
// after the cache was filled must be found at once.
func TestSketchCacheFollowsSyncs(t *testing.T) {
	ctx := context.Background()
	db, sp, vecs, project := sketchDB(t, 3000)
	if _, err := SyncSketches(ctx, db, sp, 0); err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	checked := 0
	for id, v := range vecs {
		if project[id] != "/a" && project[id] != "" {
			continue
		}
		direct := &search{r: &Recaller{DB: db}, q: Query{Project: "/a"}, space: sp, vec: v}
		cached := &search{r: &Recaller{DB: db, Cache: cache}, q: Query{Project: "/a"}, space: sp, vec: v}
		want, err := direct.sketchNearest(ctx, "episodes", 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cached.sketchNearest(ctx, "episodes", 10)
		if err != nil {
			t.Fatal(err)
		}
		// Sketches tie often at 16 bits, and the two read chunks in another
		// order: compare the distances found, not which of the tied items.
		dists := func(ids []string) string {
			d := make([]int, len(ids))
			for i, id := range ids {
				d[i] = hamming(appendSigns(nil, vecs[id]), appendSigns(nil, v))
			}
			sort.Ints(d)
			return fmt.Sprint(d)
		}
		if dists(got) != dists(want) {
			t.Fatalf("cached sketchNearest at distances %s, from the database %s", dists(got), dists(want))
		}
		if checked++; checked == 20 {
			break
		}
	}

	// A new episode in project /a, its vector the opposite of nothing
	// else: after a sync, the cached search must return it first.
	v := make([]float32, 16)
	for i := range v {
		v[i] = float32(i%3) - 0.9
	}
	v = embed.Normalize(v)
	ep := &store.Episode{ProjectPath: "/a", Kind: store.EpisodeNote, Content: "the new one"}
	if _, err := db.AddEpisode(ctx, ep); err != nil {
		t.Fatal(err)
	}
	if err := db.PutVectors(ctx, sp, []store.Vector{{ID: ep.ID, Vec: v}}); err != nil {
		t.Fatal(err)
	}
	if _, err := SyncSketches(ctx, db, sp, 0); err != nil {
		t.Fatal(err)
	}
	s := &search{r: &Recaller{DB: db, Cache: cache}, q: Query{Project: "/a"}, space: sp, vec: v}
	got, err := s.sketchNearest(ctx, "episodes", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0] != ep.ID {
		t.Errorf("after a sync the cached search returned %v; want %s first", got, ep.ID)
	}
}
