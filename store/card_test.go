package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

func TestTimelineShowsEventsAndDecay(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	db, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), Options{Params: belief.DefaultParams(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id string
	err = db.Write(ctx, func(tx *Tx) error {
		if id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "User lives in Lisbon", Subject: "user", Predicate: "lives_in", Object: "lisbon"}); err != nil {
			return err
		}
		for range 3 {
			if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Source: "test", Label: belief.Supports}); err != nil {
				return err
			}
		}
		_, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Source: "test", Label: belief.Contradicts})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		later     time.Duration
		maxPoints int
		wantLen   int
		wantLast  float64
	}{
		// Same instant: one point per event, in replay order, even within one millisecond.
		{"events only", 0, 20, 5, 4.0 / 6},
		// A year and a half later the evidence has decayed toward the prior.
		{"with decay samples", 540 * 24 * time.Hour, 12, 5 + 4, 0},
		{"thinned", 540 * 24 * time.Hour, 4, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC).Add(tt.later)
			tl, err := db.Timeline(ctx, id, tt.maxPoints)
			if err != nil {
				t.Fatal(err)
			}
			if len(tl) != tt.wantLen {
				t.Fatalf("%d points %+v, want %d", len(tl), tl, tt.wantLen)
			}
			if tl[0].Event != belief.Create || tl[0].Confidence != 0.5 {
				t.Errorf("first point %+v, want the prior at create", tl[0])
			}
			last := tl[len(tl)-1]
			if tt.later == 0 {
				if want := []belief.EventKind{belief.Create, belief.Reinforce, belief.Reinforce, belief.Reinforce, belief.Contradict}; tl[1].Event != want[1] || tl[4].Event != want[4] {
					t.Errorf("events %+v, want create, 3 reinforce, contradict", tl)
				}
				if d := last.Confidence - tt.wantLast; d > 1e-9 || d < -1e-9 {
					t.Errorf("last %v, want %v", last.Confidence, tt.wantLast)
				}
				return
			}
			if last.Event != "" || !last.At.Equal(now) {
				t.Errorf("last point %+v, want a decay sample at now", last)
			}
			card, err := db.Card(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if d := last.Confidence - card.Confidence; d > 1e-9 || d < -1e-9 {
				t.Errorf("last point %v, card says %v", last.Confidence, card.Confidence)
			}
			if !(last.Confidence < 4.0/6 && last.Confidence > 0.5) {
				t.Errorf("decayed confidence %v, want between the prior and 0.667", last.Confidence)
			}
			for i := 1; i < len(tl); i++ {
				if tl[i].At.Before(tl[i-1].At) {
					t.Errorf("points out of order at %d", i)
				}
			}
		})
	}
}
