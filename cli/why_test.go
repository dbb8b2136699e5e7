package cli

import (
	"math"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/card"
	"github.com/credence-mem/credence/store"
)

func TestWhy(t *testing.T) {
	h := newCmdHarness(t)
	var r struct{ Beliefs []struct{ ID string } }
	h.json(&r, "remember", "I live in Tokyo")
	h.ok("remember", "I live in Tokyo")
	h.ok("remember", "I live in Kyoto") // contradicts Tokyo
	id := r.Beliefs[0].ID

	var card card.Belief
	h.json(&card, "why", id)
	if len(card.Timeline) < 4 {
		t.Fatalf("timeline has %d points, want one per event (create, 2 supports, 1 contradiction)", len(card.Timeline))
	}
	first, last := card.Timeline[0], card.Timeline[len(card.Timeline)-1]
	if first.Event != "create" || math.Abs(first.Confidence-0.5) > 1e-3 {
		t.Errorf("first point = %+v, want the prior 0.5 at create", first)
	}
	if math.Abs(last.Confidence-card.Confidence) > 1e-3 {
		t.Errorf("last point %v, want the card's confidence %v", last.Confidence, card.Confidence)
	}
	var sawDrop bool
	for i := 1; i < len(card.Timeline); i++ {
		if card.Timeline[i].Event == string(belief.Contradict) && card.Timeline[i].Confidence < card.Timeline[i-1].Confidence {
			sawDrop = true
		}
	}
	if !sawDrop {
		t.Errorf("timeline %+v shows no drop at the contradiction", card.Timeline)
	}
	text := h.ok("why", id)
	for _, want := range []string{"Confidence over time", "1.0 │", "0.0 │", "c+", "MANUAL", "I live in Tokyo"} {
		if !strings.Contains(text, want) {
			t.Errorf("why output lacks %q:\n%s", want, text)
		}
	}
}

func TestDrawTimeline(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   []string
	}{
		{"full column reaches the top row", []float64{1}, []string{"1.0 │█"}},
		{"half confidence fills the lower half", []float64{0.5, 0}, []string{"0.5 │█", "0.0 │█▁"}},
		{"empty history", nil, []string{"(no history)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pts []store.TimelinePoint
			for _, v := range tt.values {
				pts = append(pts, store.TimelinePoint{Confidence: v})
			}
			var b strings.Builder
			drawTimeline(&b, pts)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("chart lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}

func TestConfidenceSpark(t *testing.T) {
	if got := confidenceSpark([]float64{0, 0.5, 1, 2, -1}); got != "▁▅██▁" {
		t.Errorf("confidenceSpark = %q, want ▁▅██▁", got)
	}
}
