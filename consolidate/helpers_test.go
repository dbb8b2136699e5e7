package consolidate

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// testClock is a settable clock shared by the database and the budget.
type testClock struct {
	mu  sync.Mutex
	now time.Time
	// step is added after every reading, to run a budget out.
	step time.Duration
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.now
	c.now = c.now.Add(c.step)
	return t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testEnv is a temporary database with a consolidator over it.
type testEnv struct {
	t      *testing.T
	ctx    context.Context
	db     *store.DB
	c      *Consolidator
	dbTime *testClock // the database's clock (event times, decay, gates)
	budget *testClock // the consolidator's budget clock
	// strictLLM fails a cycle that fell back to offline mode: the LLM runs
	// of the scenario tests must exercise the model, not the fallback.
	strictLLM bool
}

// envConfig is what options set before the environment opens.
type envConfig struct {
	store  store.Options
	opts   Options
	strict bool
}

type envOption func(*envConfig)

// strict marks an LLM test in which no call may fail.
func strict(c *envConfig) { c.strict = true }

func withModel(m Model) envOption { return func(c *envConfig) { c.opts.Model = m } }

func withBudget(b Budget) envOption { return func(c *envConfig) { c.opts.Budget = b } }

func withParams(p belief.Params) envOption { return func(c *envConfig) { c.store.Params = p } }

func newEnv(t *testing.T, opts ...envOption) *testEnv {
	t.Helper()
	ctx := context.Background()
	e := &testEnv{t: t, ctx: ctx,
		dbTime: &testClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), step: time.Millisecond},
		budget: &testClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}}
	cfg := envConfig{store: store.Options{Now: e.dbTime.Now}, opts: Options{Embedder: embed.NewOffline(), Clock: e.budget.Now}}
	for _, o := range opts {
		o(&cfg)
	}
	so, co := cfg.store, cfg.opts
	e.strictLLM = cfg.strict
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "credence.db"), so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	co.DB = db
	c, err := New(co)
	if err != nil {
		t.Fatal(err)
	}
	e.db, e.c = db, c
	return e
}

// say stores prompt episodes in project (global when "").
func (e *testEnv) say(project string, texts ...string) []store.Episode {
	e.t.Helper()
	var out []store.Episode
	for _, text := range texts {
		ep := store.Episode{Kind: store.EpisodePrompt, Content: text, ProjectPath: project, SessionID: "s1"}
		if _, err := e.db.AddEpisode(e.ctx, &ep); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, ep)
	}
	return out
}

// run runs one cycle and fails the test on error.
func (e *testEnv) run() Stats {
	e.t.Helper()
	st, err := e.c.Run(e.ctx, "test")
	if err != nil {
		e.t.Fatalf("Run: %v", err)
	}
	if e.strictLLM && (st.LLMFallbacks > 0 || st.LLM.Calls == 0) {
		e.t.Errorf("LLM cycle: %d calls, %d fallbacks; want calls and no fallback", st.LLM.Calls, st.LLMFallbacks)
	}
	return st
}

// beliefs returns the beliefs about (subject, predicate) with one of the
// statuses (all when none).
func (e *testEnv) beliefs(subject, predicate string, statuses ...belief.Status) []store.Belief {
	e.t.Helper()
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Subject: subject, Predicate: predicate, Statuses: statuses})
	if err != nil {
		e.t.Fatal(err)
	}
	return bs
}

// top returns the most confident active belief about (subject, predicate).
func (e *testEnv) top(subject, predicate string) (store.Belief, bool) {
	e.t.Helper()
	var best store.Belief
	bestConf := -1.0
	for _, b := range e.beliefs(subject, predicate, belief.Active) {
		if c := e.conf(b); c > bestConf {
			best, bestConf = b, c
		}
	}
	return best, bestConf >= 0
}

func (e *testEnv) conf(b store.Belief) float64 {
	return b.Confidence(e.db.Params(), e.db.Now(), 0)
}

// objects lists "object:status" of the given beliefs.
func objects(bs []store.Belief) map[string]belief.Status {
	out := map[string]belief.Status{}
	for _, b := range bs {
		out[b.Object] = b.Status
	}
	return out
}

// evidenceCount sums the evidence rows of the whole database.
func (e *testEnv) evidenceCount() int {
	e.t.Helper()
	var n int
	if err := e.db.SQL().QueryRowContext(e.ctx, `SELECT count(*) FROM evidence`).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}
