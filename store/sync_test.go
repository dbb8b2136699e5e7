package store

import (
	"context"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
)

func TestBlankCreatePayloadMatchesForget(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var id, before string
	err := db.Write(ctx, func(tx *Tx) error {
		var err error
		id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "The door code is 4411.", Subject: "door",
			Predicate: "code_is", Object: "4411", Context: "office", ProjectPath: "/p"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.sql.QueryRow(`SELECT payload FROM belief_events WHERE belief_id = ? AND kind = 'create'`, id).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetBelief(ctx, id); err != nil {
		t.Fatal(err)
	}
	var after string
	if err := db.sql.QueryRow(`SELECT payload FROM belief_events WHERE belief_id = ? AND kind = 'create'`, id).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if got := BlankCreatePayload(before); got != after {
		t.Errorf("BlankCreatePayload()=%s\nforget wrote      %s", got, after)
	}
	if got := BlankCreatePayload(after); got != after {
		t.Errorf("BlankCreatePayload() of a blanked payload changed it: %s", got)
	}
	if got := BlankCreatePayload("not json"); got != "{}" {
		t.Errorf("BlankCreatePayload(garbage)=%s, want {}", got)
	}
}

func TestCanonicalKey(t *testing.T) {
	base := belief.Spec{Statement: "The user lives in Paris.", Subject: "user", Predicate: "lives_in", Object: "Paris",
		Kind: belief.KindFact, Scope: belief.ScopeGlobal}
	tests := []struct {
		name string
		edit func(*belief.Spec)
		same bool
	}{
		{"other wording, same triple", func(s *belief.Spec) { s.Statement = "User lives in paris" }, true},
		{"case and spaces in the triple", func(s *belief.Spec) { s.Object, s.Subject = " PARIS ", "User" }, true},
		{"other object", func(s *belief.Spec) { s.Object = "Rome" }, false},
		{"other context (split children)", func(s *belief.Spec) { s.Context = "in winter" }, false},
		{"project scope", func(s *belief.Spec) { s.Scope, s.ProjectPath = belief.ScopeProject, "/p" }, false},
		{"guideline", func(s *belief.Spec) { s.Kind = belief.KindGuideline }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			if got := CanonicalKey(s) == CanonicalKey(base); got != tt.same {
				t.Errorf("CanonicalKey equal=%v, want %v", got, tt.same)
			}
		})
	}
	noTriple := belief.Spec{Statement: "Keep commits small.", Kind: belief.KindGuideline, Scope: belief.ScopeGlobal}
	other := noTriple
	other.Statement = "keep   commits SMALL"
	if CanonicalKey(noTriple) != CanonicalKey(other) {
		t.Errorf("statements differing in case, spacing and final stop have different keys")
	}
}

func TestDerivedIDIsDeterministicAndValid(t *testing.T) {
	a := derivedID(ids.Evidence, 1_700_000_000_000, "mirror", "ev_x", "bl_y")
	b := derivedID(ids.Evidence, 1_700_000_000_000, "mirror", "ev_x", "bl_y")
	c := derivedID(ids.Evidence, 1_700_000_000_000, "mirror", "ev_x", "bl_z")
	if a != b || a == c || !ids.Valid(ids.Evidence, a) {
		t.Errorf("derivedID: %s, %s, %s; want the first two equal, the third different, all valid", a, b, c)
	}
}

// TestApplySyncOrderFree applies one machine's rows to another in reverse
// order and twice, and expects the origin's beliefs.
func TestApplySyncOrderFree(t *testing.T) {
	ctx := context.Background()
	src, dst := openTest(t), openTest(t)
	var id string
	err := src.Write(ctx, func(tx *Tx) error {
		var err error
		if id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "Tests run with go test."}); err != nil {
			return err
		}
		for _, l := range []belief.Label{belief.Supports, belief.Contradicts, belief.Supports} {
			if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Label: l, Note: "n"}); err != nil {
				return err
			}
		}
		_, err = tx.Mark(ctx, id, belief.Pin)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.SyncRows(ctx, SyncCursor{}, SyncSelect{Origins: []string{src.MachineID()}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Events) != 5 || len(b.Evidence) != 3 {
		t.Fatalf("SyncRows() gave %d events and %d evidence, want 5 and 3", len(b.Events), len(b.Evidence))
	}
	rev := SyncBatch{}
	for i := len(b.Events) - 1; i >= 0; i-- {
		rev.Events = append(rev.Events, b.Events[i])
	}
	for i := len(b.Evidence) - 1; i >= 0; i-- {
		rev.Evidence = append(rev.Evidence, b.Evidence[i])
	}
	// Events first, evidence in a later transaction, then everything again.
	for _, part := range []SyncBatch{{Events: rev.Events}, {Evidence: rev.Evidence}, b} {
		if err := dst.Write(ctx, func(tx *Tx) error { _, err := tx.ApplySync(ctx, part); return err }); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := src.Belief(ctx, id)
	got, err := dst.Belief(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != want.State {
		t.Errorf("applied state %+v\nwant %+v", got.State, want.State)
	}
	var n int
	dst.sql.QueryRow(`SELECT count(*) FROM evidence`).Scan(&n)
	if n != 3 {
		t.Errorf("evidence rows=%d after applying twice, want 3", n)
	}
}

func TestTombstoneSeq(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for i := 0; i < 3; i++ {
		e := &Episode{Content: "x"}
		if _, err := db.AddEpisode(ctx, e); err != nil {
			t.Fatal(err)
		}
		if err := db.ForgetEpisode(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
	}
	head, err := db.SyncHead(ctx)
	if err != nil || head.Tombstones != 3 {
		t.Fatalf("SyncHead()=%+v, %v; want 3 tombstones numbered", head, err)
	}
	b, err := db.SyncRows(ctx, SyncCursor{Tombstones: 1}, SyncSelect{Origins: []string{db.MachineID()}}, 10)
	if err != nil || len(b.Tombstones) != 2 || b.Tombstones[0].Seq != 2 {
		t.Fatalf("SyncRows() past tombstone 1 = %+v, %v", b.Tombstones, err)
	}
}
