package syncer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

func TestTwoMachinesConverge(t *testing.T) {
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	b := newMachine(t, "b", 3*time.Second, Dial(url, ""))
	ctx := context.Background()

	ep := &store.Episode{Content: "we use pnpm here", ProjectPath: "/p"}
	if _, err := a.db.AddEpisode(ctx, ep); err != nil {
		t.Fatal(err)
	}
	pnpm := a.create(t, belief.Spec{Statement: "The project uses pnpm.", Subject: "project",
		Predicate: "uses_package_manager", Object: "pnpm", ProjectPath: "/p"}, 2)
	tabs := b.create(t, belief.Spec{Statement: "Indent with tabs.", Kind: belief.KindGuideline}, 1)

	a.round(t)
	b.round(t)
	a.round(t)

	sa, sb := a.snapshot(t), b.snapshot(t)
	if d := diff(sa, sb, "episodes", "evidence", "events", "beliefs", "tombstones"); d != "" {
		t.Fatalf("machines differ after sync:\n%s", d)
	}
	for _, id := range []string{pnpm, tabs} {
		for _, m := range []*machine{a, b} {
			if _, err := m.db.Belief(ctx, id); err != nil {
				t.Errorf("%s: Belief(%s)=%v", m.name, id, err)
			}
		}
	}
	got, err := b.db.Episode(ctx, ep.ID)
	if err != nil || got.Content != ep.Content {
		t.Errorf("b: Episode()=%q, %v; want %q", got.Content, err, ep.Content)
	}

	// A fourth round moves nothing: every row is everywhere.
	if rep := b.round(t); rep.Moved() || rep.Pulled != 0 {
		t.Errorf("idle round moved rows: %+v", rep)
	}
}

func TestTwinsMergeDeterministically(t *testing.T) {
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	c := newMachine(t, "c", 2*time.Second, Dial(url, ""))
	ctx := context.Background()
	spec := belief.Spec{Statement: "The user lives in Paris.", Subject: "user", Predicate: "lives_in", Object: "Paris"}
	idA := a.create(t, spec, 2)
	spec.Statement, spec.Object = "User lives in paris", "paris " // same triple, normalized
	idB := b.create(t, spec, 3)

	for i := 0; i < 3; i++ {
		for _, m := range []*machine{a, b, c} {
			m.round(t)
		}
	}
	sa := a.snapshot(t)
	for _, m := range []*machine{b, c} {
		if d := diff(sa, m.snapshot(t), "episodes", "evidence", "events", "beliefs", "tombstones"); d != "" {
			t.Fatalf("a and %s differ:\n%s", m.name, d)
		}
	}
	survivor, err := c.db.Belief(ctx, idA) // a's clock is behind b's: created first
	if err != nil {
		t.Fatal(err)
	}
	twin, err := c.db.Belief(ctx, idB)
	if err != nil {
		t.Fatal(err)
	}
	if survivor.Status != belief.Active || twin.Status != belief.Merged || twin.MergedInto != idA {
		t.Fatalf("survivor %s status %s; twin status %s into %q", idA, survivor.Status, twin.Status, twin.MergedInto)
	}
	if survivor.EvidenceCount != 5 || survivor.Supports != 5 {
		t.Errorf("survivor evidence=%d supports=%d, want 5 and 5 (2 own + 3 mirrored)", survivor.EvidenceCount, survivor.Supports)
	}
}

func TestForgetPurgesEverywhere(t *testing.T) {
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	ctx := context.Background()
	secret := "the staging password is hunter2"
	ep := &store.Episode{Content: secret}
	if _, err := a.db.AddEpisode(ctx, ep); err != nil {
		t.Fatal(err)
	}
	id := a.create(t, belief.Spec{Statement: secret}, 1)
	a.round(t)
	b.round(t)
	// a's consolidation derived text from the episode: the forget from b
	// must take that too.
	if _, err := a.db.SQL().ExecContext(ctx, `INSERT INTO consolidated_episodes(episode_id, seq, state, mode, facts,
		cycle_id, updated_at) VALUES (?, 1, 'pooled', 'offline', ?, 'cy_test', 0)`,
		ep.ID, `[{"statement":"`+secret+`"}]`); err != nil {
		t.Fatal(err)
	}
	if err := b.db.ForgetBelief(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := b.db.ForgetEpisode(ctx, ep.ID); err != nil {
		t.Fatal(err)
	}
	b.round(t)
	a.round(t)
	var facts string
	if err := a.db.SQL().QueryRowContext(ctx, `SELECT facts FROM consolidated_episodes WHERE episode_id = ?`, ep.ID).Scan(&facts); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(facts, "hunter2") {
		t.Errorf("a: consolidation's facts still hold the forgotten text after sync: %s", facts)
	}

	assertForgottenEverywhere(t, url, "hunter2", a, b)
	got, err := a.db.Belief(ctx, id)
	if err != nil || got.Status != belief.Forgotten {
		t.Errorf("a: Belief()=%s, %v; want forgotten", got.Status, err)
	}
}

// TestForgetTakesEpisodesEverywhere forgets a belief on b with the default
// scope: the note it was learned from on a is forgotten too, on a, by the
// episode's tombstone, and no machine or the remote keeps the words.
func TestForgetTakesEpisodesEverywhere(t *testing.T) {
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	ctx := context.Background()
	r, err := a.db.Remember(ctx, store.RememberInput{Text: "we deploy with qqbelzz", Scope: belief.ScopeGlobal, Source: "cli",
		Statements: []store.Statement{{Subject: "project", Predicate: "deploys_with", Object: "qqbelzz",
			Statement: "Project deploys with qqbelzz", Kind: belief.KindFact}}})
	if err != nil {
		t.Fatal(err)
	}
	a.round(t)
	b.round(t)
	done, err := b.db.Forget(ctx, []string{r.Beliefs[0].ID}, store.ForgetSources)
	if err != nil {
		t.Fatal(err)
	}
	if len(done.Episodes) != 1 || done.Episodes[0] != r.EpisodeID {
		t.Fatalf("b forgot %+v, want the note %s with the belief", done, r.EpisodeID)
	}
	b.round(t)
	a.round(t)
	if e, err := a.db.Episode(ctx, r.EpisodeID); err != nil || !e.Forgotten || e.Content != "" {
		t.Errorf("a: note after sync = %+v, %v; want it forgotten and blank", e, err)
	}
	assertForgottenEverywhere(t, url, "qqbelzz", a, b)
	if problems, err := a.db.CheckIntegrity(ctx, true); err != nil || len(problems) > 0 {
		t.Errorf("a: CheckIntegrity()=%q, %v", problems, err)
	}
}

// assertForgottenEverywhere fails the test when text is still in a row of
// any of the machines or of the remote at url.
func assertForgottenEverywhere(t *testing.T, url, text string, machines ...*machine) {
	t.Helper()
	snaps := map[string]snapshot{"remote": takeSnapshot(t, openFileRemote(t, url), remoteQueries)}
	for _, m := range machines {
		snaps[m.name] = m.snapshot(t)
	}
	for name, snap := range snaps {
		for table, lines := range snap {
			for _, l := range lines {
				if strings.Contains(l, text) {
					t.Errorf("%s %s still holds the forgotten text: %s", name, table, l)
				}
			}
		}
	}
}

// scriptedRemote hands out one prepared batch per round and accepts pushes.
type scriptedRemote struct{ batches []store.SyncBatch }

func (r *scriptedRemote) Prepare(context.Context) (string, error)                { return "rm_script", nil }
func (r *scriptedRemote) Push(_ context.Context, b store.SyncBatch) (int, error) { return b.Len(), nil }
func (r *scriptedRemote) Survey(context.Context, store.SyncCursor, string) (Survey, error) {
	// Something may wait in every table: the script does not say.
	return Survey{ID: "rm_script", Schema: remoteSchemaVersion, Waiting: store.SyncCursor{Episodes: 1, Evidence: 1,
		Events: 1, Tombstones: 1}}, nil
}
func (r *scriptedRemote) Close() error { return nil }
func (r *scriptedRemote) Pull(_ context.Context, after store.SyncCursor, _ string, _ int, _ Tables) (store.SyncBatch, error) {
	for _, b := range r.batches {
		if b.Advance(store.SyncCursor{}).Max(after) != after {
			var out store.SyncBatch
			for _, e := range b.Events {
				if e.Seq > after.Events {
					out.Events = append(out.Events, e)
				}
			}
			for _, e := range b.Evidence {
				if e.Seq > after.Evidence {
					out.Evidence = append(out.Evidence, e)
				}
			}
			return out, nil
		}
	}
	return store.SyncBatch{}, nil
}

// TestTwinEvidenceArrivingLate delivers a twin's evidence events in one
// round and the evidence rows in a later one: the mirror must still be made.
func TestTwinEvidenceArrivingLate(t *testing.T) {
	ctx := context.Background()
	a := newMachine(t, "a", 0, nil)
	b := newMachine(t, "b", time.Second, nil)
	spec := belief.Spec{Statement: "The user prefers tabs.", Subject: "user", Predicate: "prefers", Object: "tabs"}
	first := a.create(t, spec, 1)
	twin := b.create(t, spec, 2)
	var rows []store.SyncBatch
	for _, m := range []*machine{a, b} {
		r, err := m.db.SyncRows(ctx, store.SyncCursor{}, store.SyncSelect{Origins: []string{m.db.MachineID()}}, 100)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	// Remote order: every event, then a's evidence; b's evidence last.
	var seq int64
	var script store.SyncBatch
	for _, r := range rows {
		for _, e := range r.Events {
			seq++
			e.Seq = seq
			script.Events = append(script.Events, e)
		}
	}
	late := store.SyncBatch{Events: script.Events}
	for i, r := range rows {
		for _, e := range r.Evidence {
			seq++
			e.Seq = seq
			if i == 0 {
				script.Evidence = append(script.Evidence, e)
			}
			late.Evidence = append(late.Evidence, e)
		}
	}
	remote := &scriptedRemote{batches: []store.SyncBatch{script}}
	c := newMachine(t, "c", 2*time.Second, func(context.Context) (Remote, error) { return remote, nil })
	if rep := c.round(t); rep.Merged != 1 || rep.Mirrored != 0 {
		t.Fatalf("first round: %+v; want the twin merged, nothing to mirror yet", rep)
	}
	remote.batches = []store.SyncBatch{late}
	if rep := c.round(t); rep.Mirrored != 2 {
		t.Fatalf("second round: %+v; want b's two pieces of evidence mirrored", rep)
	}
	got, err := c.db.Belief(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if got.EvidenceCount != 3 {
		t.Errorf("survivor evidence=%d, want 3 (1 own + 2 mirrored from %s)", got.EvidenceCount, twin)
	}
}
