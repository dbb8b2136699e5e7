package syncer

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestLiveRemote runs two machines against a real libSQL server (Turso
// Cloud or sqld) named by CREDENCE_TEST_REMOTE_URL, with the token in
// CREDENCE_TEST_REMOTE_TOKEN. It writes rows with fresh IDs, so it can run
// against a database that already holds data, and leaves them there.
func TestLiveRemote(t *testing.T) {
	url := os.Getenv("CREDENCE_TEST_REMOTE_URL")
	if url == "" {
		t.Skip("set CREDENCE_TEST_REMOTE_URL (and CREDENCE_TEST_REMOTE_TOKEN) to test against a real libSQL server")
	}
	token := os.Getenv("CREDENCE_TEST_REMOTE_TOKEN")
	dial := Dial(url, token)
	a := newMachine(t, "a", 0, dial)
	b := newMachine(t, "b", time.Second, dial)
	a.sync.batch, b.sync.batch = 50, 50
	ctx := context.Background()

	ep := &store.Episode{Content: "live remote test episode"}
	if _, err := a.db.AddEpisode(ctx, ep); err != nil {
		t.Fatal(err)
	}
	id := a.create(t, belief.Spec{Statement: "The live remote works.", Subject: "live remote " + ep.ID,
		Predicate: "works", Object: "yes"}, 3)
	twin := b.create(t, belief.Spec{Statement: "the live remote works", Subject: "live remote " + ep.ID,
		Predicate: "works", Object: "yes"}, 1)
	forgotten := b.create(t, belief.Spec{Statement: "live secret " + ep.ID}, 1)
	if err := b.db.ForgetBelief(ctx, forgotten); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		for _, m := range []*machine{a, b} {
			rep, err := m.sync.Round(ctx)
			if err != nil {
				t.Fatalf("%s: Round()=%v", m.name, err)
			}
			t.Logf("%s round %d: %+v", m.name, i, rep)
		}
	}
	got, err := b.db.Episode(ctx, ep.ID)
	if err != nil || got.Content != ep.Content {
		t.Fatalf("b: Episode()=%q, %v", got.Content, err)
	}
	surv, err := b.db.Belief(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := a.db.Belief(ctx, twin)
	if err != nil {
		t.Fatal(err)
	}
	if surv.Status != belief.Active || surv.EvidenceCount != 4 || merged.MergedInto != id {
		t.Errorf("survivor %s evidence %d; twin merged into %q, want %s", surv.Status, surv.EvidenceCount, merged.MergedInto, id)
	}
	if d := diff(a.snapshot(t), b.snapshot(t), allTables...); d != "" {
		t.Errorf("machines differ:\n%s", d)
	}
	r, err := dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sv, err := r.Survey(ctx, store.SyncCursor{}, "")
	if err != nil || sv.Total() == 0 || sv.Schema != remoteSchemaVersion {
		t.Errorf("Survey()=%+v, %v on the live remote", sv, err)
	}
}
