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
	if err := b.db.ForgetBelief(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := b.db.ForgetEpisode(ctx, ep.ID); err != nil {
		t.Fatal(err)
	}
	b.round(t)
	a.round(t)

	remote := openFileRemote(t, url)
	for name, snap := range map[string]snapshot{"a": a.snapshot(t), "b": b.snapshot(t),
		"remote": takeSnapshot(t, remote, remoteQueries)} {
		for table, lines := range snap {
			for _, l := range lines {
				if strings.Contains(l, "hunter2") {
					t.Errorf("%s %s still holds the forgotten text: %s", name, table, l)
				}
			}
		}
	}
	got, err := a.db.Belief(ctx, id)
	if err != nil || got.Status != belief.Forgotten {
		t.Errorf("a: Belief()=%s, %v; want forgotten", got.Status, err)
	}
}
