package store

import (
	"context"
	"errors"
	"sort"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// promoteFixture creates beliefs with the given supports/contradictions.
func promoteFixture(t *testing.T, db *DB, specs []belief.Spec, evidence [][2]int) []string {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(specs))
	err := db.Write(ctx, func(tx *Tx) error {
		for i, s := range specs {
			id, err := tx.CreateBelief(ctx, s)
			if err != nil {
				return err
			}
			ids[i] = id
			for range evidence[i][0] {
				if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Label: belief.Supports}); err != nil {
					return err
				}
			}
			for range evidence[i][1] {
				if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Label: belief.Contradicts}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestPromotionCandidatesPrefilter(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	g := func(s string) belief.Spec { return belief.Spec{Statement: s, Scope: belief.ScopeGlobal} }
	ids := promoteFixture(t, db, []belief.Spec{
		g("strong"),  // 0.83, evidence 4
		g("thin"),    // 0.75, evidence 2
		g("doubted"), // 0.5, evidence 6
		{Statement: "pinned", Scope: belief.ScopeGlobal, Source: "user", Pinned: true},                       // 0.67, evidence 1
		{Statement: "rival", Subject: "user", Predicate: "lives_in", Object: "x", Scope: belief.ScopeGlobal}, // 0.5
		{Statement: "project", Scope: belief.ScopeProject, ProjectPath: "/p"},
		g("marked"),
	}, [][2]int{{4, 0}, {2, 0}, {3, 3}, {1, 0}, {0, 0}, {5, 0}, {0, 0}})
	if err := db.SetPromotion(ctx, ids[6], 5, 0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sel  PromotionSelect
		want []string
	}{
		{"everything active or marked", PromotionSelect{}, []string{"strong", "thin", "doubted", "pinned", "rival", "project", "marked"}},
		{"the promotion thresholds", PromotionSelect{MinConfidence: 0.7, MinEvidence: 3, PinnedMinConfidence: 0.5},
			[]string{"strong", "pinned", "rival", "project", "marked"}},
		{"global only", PromotionSelect{Global: true, MinConfidence: 0.7, MinEvidence: 3, PinnedMinConfidence: 0.5},
			[]string{"strong", "pinned", "rival", "marked"}},
		{"one project", PromotionSelect{Projects: []string{"/p"}}, []string{"project"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bs, err := db.PromotionCandidates(ctx, tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range bs {
				got = append(got, b.Statement)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("PromotionCandidates=%v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("PromotionCandidates=%v, want %v", got, tc.want)
				}
			}
		})
	}
	bs, err := db.PromotionCandidates(ctx, PromotionSelect{Global: true})
	if err != nil {
		t.Fatal(err)
	}
	if b := bs[0]; b.ID != ids[0] || b.Alpha != 5 || b.Beta != 1 || b.EvidenceCount != 4 || b.Status != belief.Active {
		t.Fatalf("candidate row %+v", b.State)
	}
}

func TestRejectedSinceSupport(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	g := func(s string) belief.Spec { return belief.Spec{Statement: s, Scope: belief.ScopeGlobal} }
	ids := promoteFixture(t, db, []belief.Spec{g("rejected"), g("supported after"), g("never rejected")},
		[][2]int{{3, 0}, {3, 0}, {3, 0}})
	err := db.Write(ctx, func(tx *Tx) error {
		for _, id := range ids[:2] {
			if _, err := tx.Mark(ctx, id, belief.Reject); err != nil {
				return err
			}
			if _, err := tx.Mark(ctx, id, belief.Reactivate); err != nil {
				return err
			}
		}
		_, err := tx.AddEvidence(ctx, Evidence{BeliefID: ids[1], Label: belief.Supports})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.RejectedSinceSupport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[ids[0]] {
		t.Fatalf("RejectedSinceSupport=%v, want only %s", got, ids[0])
	}
}

func TestMemorySectionRecords(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if _, err := db.MemorySection(ctx, "/h/MEMORY.md"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("MemorySection of a new path: %v, want ErrNotFound", err)
	}
	recs := []MemorySection{
		{Path: "/h/b/MEMORY.md", Section: `{"Beliefs":null}`, Hash: "abc", WrittenAt: 7},
		{Path: "/h/a/MEMORY.md", Section: "{}", Pending: `{"Former":[]}`, Hash: "def", WrittenAt: 9},
	}
	for _, r := range recs {
		if err := db.PutMemorySection(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	recs[0].Hash = "changed"
	if err := db.Write(ctx, func(tx *Tx) error { return tx.PutMemorySection(ctx, recs[0]) }); err != nil {
		t.Fatal(err)
	}
	got, err := db.MemorySections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
	if len(got) != 2 || got[0] != recs[0] || got[1] != recs[1] {
		t.Fatalf("MemorySections=%+v, want %+v", got, recs)
	}
	one, err := db.MemorySection(ctx, "/h/b/MEMORY.md")
	if err != nil || one.Hash != "changed" {
		t.Fatalf("MemorySection=%+v, %v; want the replaced record", one, err)
	}
}
