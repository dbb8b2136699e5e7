package recall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/credence-mem/credence/store"
)

// Cache keeps, for a process that recalls many times (the agent serving
// hooks), what every recall reads and what rarely changes: the vector
// sketches of each project and the document frequencies of search words.
// A Recaller without a Cache reads them from the database each time, as a
// one-shot hook process must. Safe for concurrent use.
//
// Staleness is bounded: sketches are reloaded as soon as the sketch
// checkpoint moves (one small read per recall) and after cacheTTL in any
// case; a sketch of an item forgotten since is harmless, since candidates
// are re-ranked by their stored vectors and loaded from the database, and
// a forgotten item has neither. Frequencies only choose which query words
// are worth searching, and live for dfTTL.
type Cache struct {
	mu        sync.Mutex
	now       func() time.Time
	sketches  map[sketchKey]*sketchSet
	df        map[dfKey]dfEntry
	spaces    timed[[]store.Space]
	exclusive timed[map[string]bool]
	claims    claimMemo
	anchors   anchorMemo
	// beliefHits keeps the IDs a search of the beliefs' index found for
	// the same words, project and limit (the task topics' words, a
	// category's tools): they change only when a belief is added or
	// updated (hitsVersion). The rows themselves are read again each
	// time, so a belief deleted or touched since is seen as it is. (A
	// belief a sync round updates with an older updated_at than the
	// newest here is seen within cacheTTL.)
	beliefHits  map[string][]string
	hitsVersion string
	hitsAt      time.Time
}

// maxBeliefSearches bounds beliefHits; past it the cache starts over.
const maxBeliefSearches = 1024

// beliefSearch returns the IDs the beliefs' index finds for words in a
// project, from the cache while no belief has been added or updated since
// (and for cacheTTL at most), from the index otherwise.
func (c *Cache) beliefSearch(ctx context.Context, db *store.DB, words, project string, limit int) ([]string, error) {
	version, err := db.BeliefsVersion(ctx)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s\x00%d\x00%s", project, limit, words)
	now := c.now()
	c.mu.Lock()
	if c.hitsVersion != version || now.Sub(c.hitsAt) > cacheTTL || len(c.beliefHits) >= maxBeliefSearches {
		c.beliefHits, c.hitsVersion, c.hitsAt = map[string][]string{}, version, now
	}
	ids, ok := c.beliefHits[key]
	c.mu.Unlock()
	if ok {
		return ids, nil
	}
	if ids, err = beliefIDs(ctx, db, words, project, limit); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.hitsVersion == version {
		c.beliefHits[key] = ids
	}
	c.mu.Unlock()
	return ids, nil
}

// beliefIDs returns the IDs the beliefs' index finds for words in a
// project, best first, at most limit.
func beliefIDs(ctx context.Context, db *store.DB, words, project string, limit int) ([]string, error) {
	hits, err := db.TextSearch(ctx, "beliefs", words, project, limit)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// smallTTL bounds how long the small tables every recall reads (vector
// spaces, exclusive relations) are kept: a space the agent creates with its
// first vectors, or a relation extraction marks exclusive, is seen within
// this.
const smallTTL = 30 * time.Second

// timed is a cached value and when it was read.
type timed[T any] struct {
	v  T
	at time.Time
}

// cacheTTL bounds how long sketches are used without a reload.
const cacheTTL = 5 * time.Minute

// dfTTL bounds how long a word's frequency is used. Counting a common word
// reads its postings up to the cap, about 0.1-0.2 ms a word on a long
// history, and a person's prompts come minutes apart; a count an hour old
// is off by an hour's episodes, which barely moves which words are worth
// searching.
const dfTTL = time.Hour

// maxCachedWords bounds the frequency cache; past it the cache starts over.
const maxCachedWords = 20000

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{now: time.Now, sketches: map[sketchKey]*sketchSet{}, df: map[dfKey]dfEntry{}}
}

type sketchKey struct{ space, kind, project string }

// sketchSet is one project's sketches of a space and kind, with each
// chunk's ID offsets found once.
type sketchSet struct {
	version  string // the sketch checkpoint it was loaded at
	loadedAt time.Time
	chunks   []store.SketchChunk
	offsets  [][]int32 // per chunk: start of each ID in IDs, plus len(IDs)+1
}

// id returns item i of chunk c, or false when the chunk holds fewer IDs.
// A set used by one recall only finds a chunk's offsets on first use; a
// cached one has them all (newSketchSet), so concurrent reads never write.
func (s *sketchSet) id(c, i int) (string, bool) {
	if s.offsets[c] == nil {
		s.offsets[c] = idOffsets(s.chunks[c].IDs, s.chunks[c].Count)
	}
	off := s.offsets[c]
	if i+1 >= len(off) {
		return "", false
	}
	return string(s.chunks[c].IDs[off[i] : off[i+1]-1]), true
}

type dfKey struct{ kind, word string }

type dfEntry struct {
	n  int
	at time.Time
	// last is the kind's newest row (its highest seq) when the count was
	// read: a word no row held is counted again as soon as a row is added.
	last int64
}

// fresh reports whether the count may still be used: for an hour, but a
// word no row held only until a row is added (a fact told one prompt ago
// is searched for by the next) and for smallTTL at most.
func (e dfEntry) fresh(now time.Time, last int64) bool {
	if e.n == 0 {
		return e.last == last && now.Sub(e.at) <= smallTTL
	}
	return now.Sub(e.at) <= dfTTL
}

// projectSketches returns the sketch sets of the given projects ("" is
// global) for a space and kind, reloading the ones that are stale.
func (c *Cache) projectSketches(ctx context.Context, db *store.DB, sp store.Space, kind string, projects []string) ([]*sketchSet, error) {
	version, err := db.Meta(ctx, checkpointKey(sp, kind))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	now := c.now()
	out := make([]*sketchSet, 0, len(projects))
	for _, p := range projects {
		key := sketchKey{sp.Name, kind, p}
		c.mu.Lock()
		set := c.sketches[key]
		c.mu.Unlock()
		if set == nil || set.version != version || now.Sub(set.loadedAt) > cacheTTL {
			chunks, err := db.SketchChunks(ctx, sp.Name, kind, []string{p})
			if err != nil {
				return nil, err
			}
			set = newSketchSet(chunks, version, now, true)
			c.mu.Lock()
			c.sketches[key] = set
			c.mu.Unlock()
		}
		out = append(out, set)
	}
	return out, nil
}

// newSketchSet wraps chunks; offsets finds every chunk's ID offsets now.
func newSketchSet(chunks []store.SketchChunk, version string, now time.Time, offsets bool) *sketchSet {
	s := &sketchSet{version: version, loadedAt: now, chunks: chunks, offsets: make([][]int32, len(chunks))}
	if offsets {
		for i, ch := range chunks {
			s.offsets[i] = idOffsets(ch.IDs, ch.Count)
		}
	}
	return s
}

// idOffsets returns where each newline-separated ID of ids starts, plus
// len(ids)+1, so ID i is ids[off[i]:off[i+1]-1].
func idOffsets(ids []byte, count int) []int32 {
	off := make([]int32, 0, count+1)
	start := 0
	for {
		off = append(off, int32(start))
		j := bytes.IndexByte(ids[start:], '\n')
		if j < 0 {
			break
		}
		start += j + 1
	}
	return append(off, int32(len(ids)+1))
}

// docFrequencies returns the frequencies of words in a kind's index, from
// the cache where fresh and the database otherwise.
func (c *Cache) docFrequencies(ctx context.Context, db *store.DB, kind string, words []string, upTo int) (map[string]int, error) {
	now := c.now()
	last, err := db.LastSeq(ctx, kind)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(words))
	var missing []string
	c.mu.Lock()
	for _, w := range words {
		if e, ok := c.df[dfKey{kind, w}]; ok && e.fresh(now, last) {
			out[w] = e.n
		} else {
			missing = append(missing, w)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got, err := db.DocFrequencies(ctx, kind, missing, upTo)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.df)+len(got) > maxCachedWords {
		c.df = map[dfKey]dfEntry{}
	}
	for _, w := range missing {
		out[w] = got[w]
		c.df[dfKey{kind, w}] = dfEntry{got[w], now, last}
	}
	c.mu.Unlock()
	return out, nil
}

// cachedSpaces returns the vector spaces, read again after smallTTL. No
// space yet is never cached: the first vectors should be searched at once.
func (c *Cache) cachedSpaces(ctx context.Context, db *store.DB) ([]store.Space, error) {
	now := c.now()
	c.mu.Lock()
	sp := c.spaces
	c.mu.Unlock()
	if len(sp.v) > 0 && now.Sub(sp.at) <= smallTTL {
		return sp.v, nil
	}
	v, err := db.Spaces(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.spaces = timed[[]store.Space]{v, now}
	c.mu.Unlock()
	return v, nil
}

// exclusivePredicates returns the exclusive relations, read again after
// smallTTL. Callers must not modify the map.
func (c *Cache) exclusivePredicates(ctx context.Context, db *store.DB) (map[string]bool, error) {
	now := c.now()
	c.mu.Lock()
	ex := c.exclusive
	c.mu.Unlock()
	if ex.v != nil && now.Sub(ex.at) <= smallTTL {
		return ex.v, nil
	}
	v, err := db.ExclusivePredicates(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.exclusive = timed[map[string]bool]{v, now}
	c.mu.Unlock()
	return v, nil
}

// WarmProject loads (or reloads, when the sketches moved) the sketches a
// recall from project reads, so the next prompt does not pay for it: the
// agent calls it after the Stop hook has sketched new vectors.
func (c *Cache) WarmProject(ctx context.Context, db *store.DB, sp store.Space, project string) error {
	if project == "" {
		return nil // a recall from no project reads every sketch, uncached (sketchSets)
	}
	for _, kind := range sketchKinds {
		if _, err := c.projectSketches(ctx, db, sp, kind, []string{project, ""}); err != nil {
			return err
		}
	}
	return nil
}
