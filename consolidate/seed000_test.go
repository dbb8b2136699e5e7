package consolidate

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// Seed 000's testing notes: creation from 20+ episodes, alpha/beta updates,
// each lifecycle gate firing only when all its conditions hold, budget
// enforcement with resume. The gates themselves are unit-tested in package
// belief; these tests drive them through the pipeline.

func TestCreationFromTwentyEpisodes(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		e.say("/work/app",
			"I prefer pnpm over npm", "can you fix the failing test in api_test.go?", "we deploy with Fly",
			"always run go vet before committing", "why is the build slow?", "we use Postgres for the database",
			"never use var in JavaScript", "My name is Dana", "I live in Lisbon", "refactor the handler please",
			"we use pnpm", "what does this regex do?", "use bun instead of npm", "we use Vitest for tests",
			"I like Rust", "show me the diff", "I don't like Java", "from now on write tests first",
			"we use GitHub Actions for CI", "thanks, that works", "I like TypeScript", "we deploy with Fly")
		st := e.run()
		if st.Episodes < 20 || st.Status != store.CycleDone {
			t.Fatalf("cycle: %d episodes, status %s; want all 22 done", st.Episodes, st.Status)
		}
		bs, err := e.db.Beliefs(e.ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{
			"project|deploys_with|fly.io": false, "assistant|should|run go vet before committing": false,
			"user|name_is|dana": false, "user|lives_in|lisbon": false, "user|not_likes|java": false,
			"project|uses_database|postgres": false, "user|likes|rust": false,
		}
		for _, b := range bs {
			if strings.TrimSpace(b.Statement) == "" || b.Subject == "" || b.Predicate == "" || b.Object == "" {
				t.Errorf("belief %s lacks a statement or structured fields: %+v", b.ID, b.Spec)
			}
			k := b.Subject + "|" + b.Predicate + "|" + b.Object
			if _, ok := want[k]; ok {
				want[k] = true
			}
		}
		for k, found := range want {
			if !found {
				t.Errorf("no active belief %s among %d", k, len(bs))
			}
		}
		if len(bs) < 12 {
			t.Errorf("%d active beliefs from 22 episodes, want at least 12", len(bs))
		}
	})
}

func TestAlphaBetaUpdates(t *testing.T) {
	e := newEnv(t)
	e.say("/p", "we use pnpm", "we use pnpm")
	e.run()
	pnpm := e.beliefs("project", "uses_package_manager")[0]
	// Two supports at reliability 0.9: alpha = 1 + 2·0.9, beta = 1.
	if !near(pnpm.Alpha, 2.8) || !near(pnpm.Beta, 1) || pnpm.Supports != 2 {
		t.Fatalf("after two supports alpha=%v beta=%v supports=%d, want 2.8, 1, 2", pnpm.Alpha, pnpm.Beta, pnpm.Supports)
	}
	e.say("/p", "we use bun")
	e.run()
	got := map[string]store.Belief{}
	for _, b := range e.beliefs("project", "uses_package_manager") {
		got[b.Object] = b
	}
	// The other value of an exclusive predicate contradicts: beta += 0.9.
	if p := got["pnpm"]; !near(p.Alpha, 2.8) || !near(p.Beta, 1.9) || p.Contradictions != 1 {
		t.Errorf("pnpm after a contradiction alpha=%v beta=%v contradictions=%d, want 2.8, 1.9, 1", p.Alpha, p.Beta, p.Contradictions)
	}
	if b := got["bun"]; !near(b.Alpha, 1.9) || !near(b.Beta, 1) {
		t.Errorf("bun alpha=%v beta=%v, want 1.9, 1", b.Alpha, b.Beta)
	}
	if got["pnpm"].Status != belief.Active || got["bun"].Status != belief.Active {
		t.Errorf("statuses pnpm=%s bun=%s: contested (0.737 vs 0.655), neither wins yet", got["pnpm"].Status, got["bun"].Status)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// makeBelief creates a belief with evidence of the given labels, in order.
func (e *testEnv) makeBelief(spec belief.Spec, labels ...belief.Label) string {
	e.t.Helper()
	var id string
	err := e.db.Write(e.ctx, func(tx *store.Tx) error {
		var err error
		if id, err = tx.CreateBelief(e.ctx, spec); err != nil {
			return err
		}
		for _, l := range labels {
			if _, err := tx.AddEvidence(e.ctx, store.Evidence{BeliefID: id, Source: "test", Label: l}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func repeat(l belief.Label, n int) []belief.Label {
	out := make([]belief.Label, n)
	for i := range out {
		out[i] = l
	}
	return out
}

func labels(groups ...[]belief.Label) []belief.Label {
	var out []belief.Label
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// gates runs the lifecycle and archival phases over the given beliefs as if
// the cycle had touched them.
func (e *testEnv) gates(ids ...string) Stats {
	e.t.Helper()
	r, err := e.c.newRun(e.ctx, "test")
	if err != nil {
		e.t.Fatal(err)
	}
	for _, id := range ids {
		r.touch(id)
	}
	if err := r.lifecyclePhase(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	if err := r.archivePhase(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	return r.stats
}

func (e *testEnv) status(id string) belief.Status {
	e.t.Helper()
	b, err := e.db.Belief(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return b.Status
}

func TestRevisionGate(t *testing.T) {
	S, C, P := belief.Supports, belief.Contradicts, belief.Partial
	low := belief.DefaultParams()
	low.PriorBeta = 2 // prior confidence 1/3: the peak never reaches 0.5
	tests := []struct {
		name   string
		params *belief.Params
		ev     []belief.Label
		want   bool
	}{
		{"all conditions", nil, labels(repeat(S, 2), repeat(C, 4)), true},
		{"two contradictions", nil, labels(repeat(C, 2), repeat(P, 3)), false},
		{"four pieces of evidence", nil, repeat(C, 4), false},
		{"peak never reached 0.5", &low, labels(repeat(C, 3), repeat(P, 2)), false},
		{"confidence not below 0.4", nil, labels(repeat(S, 4), repeat(C, 3)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []envOption
			if tt.params != nil {
				opts = append(opts, withParams(*tt.params))
			}
			e := newEnv(t, opts...)
			id := e.makeBelief(belief.Spec{Statement: "User prefers tabs", Subject: "user", Predicate: "prefers", Object: "tabs"}, tt.ev...)
			st := e.gates(id)
			if got := e.status(id) == belief.Revised; got != tt.want {
				t.Fatalf("revised=%v (status %s), want %v", got, e.status(id), tt.want)
			}
			if !tt.want {
				return
			}
			kids, err := e.db.Beliefs(e.ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
			if err != nil || len(kids) != 1 || kids[0].ParentID != id || st.Revised != 1 {
				t.Fatalf("revised into %v (err %v, stats %d), want one active belief whose parent is %s", kids, err, st.Revised, id)
			}
			if kids[0].Predicate != "not_prefers" {
				t.Errorf("offline revision %q (%s), want the negation", kids[0].Statement, kids[0].Predicate)
			}
		})
	}
}

func TestSplitGate(t *testing.T) {
	S, C, P := belief.Supports, belief.Contradicts, belief.Partial
	tests := []struct {
		name string
		ev   []belief.Label
		want bool
	}{
		{"all conditions", labels(repeat(S, 3), repeat(C, 3), repeat(P, 2)), true},
		{"one partial", labels(repeat(S, 3), repeat(C, 3), repeat(P, 1)), false},
		{"two supports", labels(repeat(S, 2), repeat(C, 3), repeat(P, 2)), false},
		{"two contradictions", labels(repeat(S, 3), repeat(C, 2), repeat(P, 2)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			id := e.makeBelief(belief.Spec{Statement: "User prefers tabs", Subject: "user", Predicate: "prefers", Object: "tabs"}, tt.ev...)
			e.gates(id)
			if got := e.status(id) == belief.SplitUp; got != tt.want {
				t.Fatalf("split=%v (status %s), want %v", got, e.status(id), tt.want)
			}
			if !tt.want {
				return
			}
			kids, _ := e.db.Beliefs(e.ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
			if len(kids) != 2 || kids[0].ParentID != id || kids[1].ParentID != id {
				t.Fatalf("children=%d, want 2 with parent %s", len(kids), id)
			}
			if kids[0].EvidenceCount != 0 || kids[0].Alpha <= 1 {
				t.Errorf("child inherits alpha=%v, want a share of the parent's counts", kids[0].Alpha)
			}
		})
	}
}

func TestArchivalGate(t *testing.T) {
	S, C := belief.Supports, belief.Contradicts
	tests := []struct {
		name   string
		ev     []belief.Label
		pinned bool
		age    time.Duration
		want   bool
	}{
		{"confidence below 0.3", repeat(C, 2), false, 0, true},
		{"pinned", repeat(C, 2), true, 0, false},
		{"stale with little evidence", repeat(S, 2), false, 91 * 24 * time.Hour, true},
		{"stale with five pieces of evidence", repeat(S, 5), false, 91 * 24 * time.Hour, false},
		{"fresh with little evidence", repeat(S, 2), false, 89 * 24 * time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			id := e.makeBelief(belief.Spec{Statement: "User likes Go", Subject: "user", Predicate: "likes", Object: "go", Pinned: tt.pinned}, tt.ev...)
			e.dbTime.Advance(tt.age)
			e.gates()
			if got := e.status(id) == belief.Archived; got != tt.want {
				t.Errorf("archived=%v (status %s), want %v", got, e.status(id), tt.want)
			}
		})
	}
}

func TestMergeGate(t *testing.T) {
	S := belief.Supports
	a := belief.Spec{Statement: "User prefers dark themes in every editor", Scope: belief.ScopeProject, ProjectPath: "/p"}
	b := belief.Spec{Statement: "User prefers dark themes in every editor they use", Scope: belief.ScopeProject, ProjectPath: "/p"}
	tests := []struct {
		name   string
		b      belief.Spec
		evB    int
		age    time.Duration
		merged bool
	}{
		{"all conditions", b, 3, 8 * 24 * time.Hour, true},
		{"other project", func() belief.Spec { x := b; x.ProjectPath = "/q"; return x }(), 3, 8 * 24 * time.Hour, false},
		{"not confident", b, 0, 8 * 24 * time.Hour, false},
		{"too recent", b, 3, 6 * 24 * time.Hour, false},
		{"different sentence", belief.Spec{Statement: "The deploy pipeline runs on Fridays", Scope: belief.ScopeProject, ProjectPath: "/p"}, 3, 8 * 24 * time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			idA := e.makeBelief(a, repeat(S, 4)...)
			idB := e.makeBelief(tt.b, repeat(S, tt.evB)...)
			e.dbTime.Advance(tt.age)
			st := e.gates(idA, idB)
			gotA, gotB := e.status(idA), e.status(idB)
			if merged := gotA == belief.Merged || gotB == belief.Merged; merged != tt.merged || st.Merged != map[bool]int{true: 1}[tt.merged] {
				t.Fatalf("statuses %s/%s, stats %d; want merged=%v", gotA, gotB, st.Merged, tt.merged)
			}
			if tt.merged && gotB != belief.Merged {
				t.Errorf("the belief with less evidence (b) should be merged into a; got a=%s b=%s", gotA, gotB)
			}
		})
	}
}

func TestMergeOnePairPerCycle(t *testing.T) {
	e := newEnv(t)
	S := belief.Supports
	spec := func(s string) belief.Spec {
		return belief.Spec{Statement: s, Scope: belief.ScopeProject, ProjectPath: "/p"}
	}
	ids := []string{
		e.makeBelief(spec("User prefers dark themes in every editor"), repeat(S, 4)...),
		e.makeBelief(spec("User prefers dark themes in every editor they use"), repeat(S, 3)...),
		e.makeBelief(spec("Deploys to production happen on Fridays after review"), repeat(S, 4)...),
		e.makeBelief(spec("Deploys to production happen on Fridays after a review"), repeat(S, 3)...),
	}
	e.dbTime.Advance(8 * 24 * time.Hour)
	if st := e.gates(ids...); st.Merged != 1 {
		t.Fatalf("first cycle merged %d pairs, want 1", st.Merged)
	}
	if st := e.gates(ids...); st.Merged != 1 {
		t.Fatalf("second cycle merged %d pairs, want the other one", st.Merged)
	}
}
