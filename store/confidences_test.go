package store

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

func TestBeliefCountsMatchRows(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a := mustCreate(t, db, belief.Spec{Statement: "a"})
	addEv(t, db, a, belief.Supports, 0)
	b := mustCreate(t, db, belief.Spec{Statement: "b"})
	addEv(t, db, b, belief.Contradicts, 0)
	if err := db.Write(ctx, func(tx *Tx) error { _, err := tx.Mark(ctx, b, belief.Archive); return err }); err != nil {
		t.Fatal(err)
	}
	cs, err := db.BeliefCounts(ctx, belief.Active)
	if err != nil || len(cs) != 1 || cs[0].ID != a {
		t.Fatalf("BeliefCounts(active)=%v, %v", cs, err)
	}
	row, _ := db.Belief(ctx, a)
	now := time.UnixMilli(1_700_000_000_000).Add(400 * 24 * time.Hour)
	p := db.Params()
	if got, want := cs[0].Confidence(p, belief.MomentAt(now, 0)), row.Confidence(p, now, 0); math.Abs(got-want) > 1e-12 {
		t.Errorf("Counts.Confidence()=%v, row gives %v", got, want)
	}
	all, _ := db.BeliefCounts(ctx)
	if len(all) != 2 {
		t.Errorf("BeliefCounts()=%d rows, want 2", len(all))
	}
}
