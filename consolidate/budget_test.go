package consolidate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// workload is a mix of statements and chatter across two projects.
func workload(n int) (projects, texts []string) {
	stmts := []string{"we use pnpm", "I live in Lisbon", "always run go vet before committing", "we switched from pnpm to bun",
		"I like Rust", "what does this function do?", "we deploy with Fly", "I moved to Porto", "please fix the test"}
	for i := 0; i < n; i++ {
		projects = append(projects, fmt.Sprintf("/work/p%d", i%2))
		texts = append(texts, stmts[i%len(stmts)])
	}
	return projects, texts
}

// fingerprint summarises the beliefs and evidence of a database, so two
// databases that consolidated the same episodes can be compared.
func (e *testEnv) fingerprint() []string {
	e.t.Helper()
	bs, err := e.db.Beliefs(e.ctx, store.Filter{})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%s|%s|%s|%s|%s|ev=%d s=%d c=%d a=%.4f b=%.4f", b.Scope, b.ProjectPath, b.Subject,
			b.Predicate, b.Object, b.EvidenceCount, b.Supports, b.Contradictions, b.Alpha, b.Beta))
		_ = b.Status
	}
	sort.Strings(out)
	return append(out, fmt.Sprintf("evidence=%d", e.evidenceCount()))
}

// untilDone runs cycles until one ends done (deferred clusters make a
// cycle end checkpointed) and returns the stats summed.
func (e *testEnv) untilDone() Stats {
	e.t.Helper()
	var sum Stats
	for i := 0; i < 10; i++ {
		st := e.run()
		sum.Episodes += st.Episodes
		sum.Remaining = st.Remaining
		if st.Status == store.CycleDone {
			return sum
		}
	}
	e.t.Fatal("no cycle ended done in 10")
	return sum
}

func (e *testEnv) load(projects, texts []string) {
	e.t.Helper()
	for i := range texts {
		e.say(projects[i], texts[i])
	}
}

func TestBudgetCheckpointAndResume(t *testing.T) {
	projects, texts := workload(60)
	ref := newEnv(t)
	ref.load(projects, texts)
	ref.untilDone()

	// Every reading of the budget clock moves it a second; a 4 s budget
	// runs out part way through the episodes.
	e := newEnv(t, withBudget(Budget{Cycle: 4 * time.Second, BatchSize: 8}))
	e.load(projects, texts)
	e.budget.step = time.Second
	first := e.run()
	if !first.Checkpointed || first.Status != store.CycleCheckpointed || first.Remaining == 0 || first.Episodes == 0 {
		t.Fatalf("first cycle: checkpointed=%v status=%s episodes=%d remaining=%d; want it cut short with work left",
			first.Checkpointed, first.Status, first.Episodes, first.Remaining)
	}
	cp, err := e.db.Meta(e.ctx, store.MetaConsolidationCheckpoint)
	if err != nil || cp == "" || cp == "0" {
		t.Fatalf("checkpoint=%q, %v; want progress saved", cp, err)
	}
	total := first.Episodes
	for i := 0; i < 20 && total < len(texts); i++ {
		st := e.run()
		total += st.Episodes
	}
	e.budget.step = 0
	last := e.untilDone()
	total += last.Episodes
	if last.Remaining != 0 || total != len(texts) {
		t.Fatalf("after resuming: %d episodes consolidated in all, %d remaining; want %d and 0", total, last.Remaining, len(texts))
	}
	got, want := e.fingerprint(), ref.fingerprint()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("resumed consolidation differs from one uninterrupted cycle:\n got %v\nwant %v", got, want)
	}
}

func TestClusterCapDefersTheRest(t *testing.T) {
	e := newEnv(t)
	// Twelve projects, each with three hedged statements: no one of them is
	// a belief on its own, each project's cluster is.
	for p := 0; p < 12; p++ {
		proj := fmt.Sprintf("/work/p%02d", p)
		e.say(proj, "I think we use pnpm", "I think we use pnpm", "I think we use pnpm here")
	}
	first := e.run()
	if first.Clusters != 10 || first.ClustersDeferred != 2 || first.Status != store.CycleCheckpointed {
		t.Fatalf("first cycle: %d clusters, %d deferred, status %s; want 10, 2, checkpointed", first.Clusters, first.ClustersDeferred, first.Status)
	}
	if n := len(e.beliefs("project", "uses_package_manager")); n != 10 {
		t.Fatalf("%d beliefs after the first cycle, want 10 (one per synthesized cluster)", n)
	}
	second := e.run()
	if second.Clusters != 2 || second.Status != store.CycleDone {
		t.Fatalf("second cycle: %d clusters, status %s; want the remaining 2, done", second.Clusters, second.Status)
	}
	bs := e.beliefs("project", "uses_package_manager")
	if len(bs) != 12 {
		t.Fatalf("%d beliefs, want 12", len(bs))
	}
	for _, b := range bs {
		if b.EvidenceCount != 3 || b.Source != SourceCluster {
			t.Errorf("%s: evidence %d from %q, want 3 from its cluster", b.ProjectPath, b.EvidenceCount, b.Source)
		}
	}
	if st := e.run(); st.Clusters != 0 || st.Reinforced != 0 {
		t.Errorf("third cycle clustered %d and reinforced %d; want nothing left", st.Clusters, st.Reinforced)
	}
}

func TestRunTwiceCountsOnce(t *testing.T) {
	e := newEnv(t)
	e.say("/p", "we use pnpm", "I like Rust", "we use pnpm")
	e.run()
	before := e.fingerprint()
	if st := e.run(); st.Episodes != 0 || st.Reinforced != 0 {
		t.Errorf("second cycle consolidated %d episodes, %d reinforcements; want none", st.Episodes, st.Reinforced)
	}
	if after := e.fingerprint(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a second cycle changed beliefs:\n%v\n%v", before, after)
	}
}

func TestOnlyThisMachinesEpisodes(t *testing.T) {
	e := newEnv(t)
	ep := store.Episode{Kind: store.EpisodePrompt, Content: "I live in Oslo", Origin: "mc_othermachine"}
	if _, err := e.db.AddEpisode(e.ctx, &ep); err != nil {
		t.Fatal(err)
	}
	e.say("", "I like Rust")
	st := e.run()
	if st.Episodes != 1 || len(e.beliefs("user", "lives_in")) != 0 {
		t.Errorf("consolidated %d episodes and %d lives_in beliefs; another machine's episode must be left to its own agent",
			st.Episodes, len(e.beliefs("user", "lives_in")))
	}
}

func TestOneCycleAtATime(t *testing.T) {
	e := newEnv(t)
	unlock, err := TryLock(e.c.LockPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Run(e.ctx, "test"); !errors.Is(err, ErrBusy) {
		t.Errorf("Run while the lock is held: %v, want ErrBusy", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, time.Second)
	defer cancel()
	unlock, err = Lock(ctx, e.c.LockPath(), time.Millisecond)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	unlock()
}

func TestSurpriseAndExplanation(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		for i := 0; i < 10; i++ {
			e.say("", "I live in Beijing")
		}
		e.run()
		beijing := e.beliefs("user", "lives_in")[0]
		moved := e.say("", "I moved to Tokyo")[0]
		plain := e.say("", "I like Rust")[0]
		st := e.run()
		if st.HighSurprise != 1 {
			t.Errorf("high-surprise episodes=%d, want 1", st.HighSurprise)
		}
		got, err := e.db.Episode(e.ctx, moved.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Surprise < ExplainSurprise || got.SurpriseExplanation == "" {
			t.Fatalf("surprise=%v explanation=%q; want ≥ 0.90 with an explanation", got.Surprise, got.SurpriseExplanation)
		}
		if e.c.Mode() == ModeOffline && !contains(got.SurpriseExplanation, beijing.ID) {
			t.Errorf("offline explanation %q does not name the contradicted belief %s", got.SurpriseExplanation, beijing.ID)
		}
		p, _ := e.db.Episode(e.ctx, plain.ID)
		if p.Surprise != noveltySurprise || p.SurpriseExplanation != "" {
			t.Errorf("a novel fact: surprise=%v explanation=%q, want %v and none", p.Surprise, p.SurpriseExplanation, noveltySurprise)
		}
		if b := e.beliefs("user", "lives_in", belief.Active); len(b) != 1 || b[0].Object != "tokyo" {
			t.Errorf("active lives_in=%v, want tokyo alone", objects(b))
		}
	})
}

func contains(s, sub string) bool { return sub != "" && strings.Contains(s, sub) }
