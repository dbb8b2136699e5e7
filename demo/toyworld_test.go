package demo

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

func openToy(t *testing.T) *store.DB {
	t.Helper()
	fixed := time.UnixMilli(1_700_000_000_000)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "toy.db"),
		store.Options{Params: belief.ToyWorldParams(), Now: func() time.Time { return fixed }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestToyWorldDynamics asserts the substrate's validation criteria:
// formation gets the capitals right, contradiction surfaces as contested
// groups and costs accuracy, reinforcement restores accuracy 1.0 with no
// contested group, and decay alone drifts confidence toward 0.5.
func TestToyWorldDynamics(t *testing.T) {
	ctx := context.Background()
	db := openToy(t)
	res, err := RunToyWorld(ctx, db, Script())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]PhaseResult{}
	for _, r := range res {
		byName[r.Phase] = r
	}
	if r := byName["formation"]; r.Accuracy != 1 || r.ContradictionRate != 0 {
		t.Errorf("formation: accuracy=%v contradiction=%v, want 1 and 0", r.Accuracy, r.ContradictionRate)
	}
	if r := byName["contradiction"]; r.Accuracy >= 1 || r.ContradictionRate == 0 {
		t.Errorf("contradiction: accuracy=%v contradiction=%v, want <1 and >0", r.Accuracy, r.ContradictionRate)
	}
	stable := byName["stabilization"]
	if stable.Accuracy != 1 || stable.ContradictionRate != 0 {
		t.Errorf("stabilization: accuracy=%v contradiction=%v, want 1 and 0", stable.Accuracy, stable.ContradictionRate)
	}
	decay := byName["decay"]
	for i, g := range decay.Groups {
		for j, m := range g.Members {
			before := stable.Groups[i].Members[j]
			if before.Country != m.Country {
				t.Fatalf("decay reordered %s's group", g.City)
			}
			if math.Abs(m.Confidence-0.5) >= math.Abs(before.Confidence-0.5) {
				t.Errorf("decay: %s→%s confidence %v did not move toward 0.5 from %v", g.City, m.Country, m.Confidence, before.Confidence)
			}
		}
	}
}

// TestDecayAloneApproachesPrior checks that with enough idle turns every
// belief ends within 0.01 of the prior mean.
func TestDecayAloneApproachesPrior(t *testing.T) {
	ctx := context.Background()
	db := openToy(t)
	ph := Script()[:1]
	ph = append(ph, Phase{Name: "long decay", IdleTurns: 5000})
	res, err := RunToyWorld(ctx, db, ph)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res[1].Groups {
		for _, m := range g.Members {
			if math.Abs(m.Confidence-0.5) > 0.01 {
				t.Errorf("%s→%s after 5000 idle turns: %v, want ≈0.5", g.City, m.Country, m.Confidence)
			}
		}
	}
}
