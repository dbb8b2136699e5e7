package cli

import (
	"strings"
	"testing"
)

func TestConflicts(t *testing.T) {
	h := newCmdHarness(t)
	if out := h.ok("conflicts"); !strings.Contains(out, "no contested beliefs") {
		t.Errorf("empty database: %q", out)
	}
	h.ok("remember", "I prefer tabs over spaces")
	h.ok("remember", "I live in Tokyo")
	h.ok("remember", "I live in Kyoto") // one contradiction each way: a clear winner
	var groups []conflictJSON
	h.json(&groups, "conflicts")
	if len(groups) != 0 {
		t.Fatalf("groups = %+v, want none contested yet", groups)
	}
	h.json(&groups, "conflicts", "--all")
	if len(groups) != 1 || groups[0].Predicate != "lives_in" || len(groups[0].Members) != 2 {
		t.Fatalf("--all groups = %+v, want the lives_in group of two", groups)
	}
	if groups[0].Members[0].Object != "kyoto" {
		t.Errorf("strongest member %q, want kyoto (the latest statement)", groups[0].Members[0].Object)
	}
	// Two firm statements of one employer and one of another leave both
	// above 0.55: contested.
	h.ok("remember", "I work at Acme")
	h.ok("remember", "I work at Acme")
	h.ok("remember", "I work at Globex")
	h.json(&groups, "conflicts")
	if len(groups) != 1 || !groups[0].Contested || groups[0].Predicate != "works_at" {
		t.Fatalf("groups = %+v, want the works_at group contested", groups)
	}
	var sum float64
	for _, m := range groups[0].Members {
		sum += m.Normalized
	}
	if sum > 1.0001 {
		t.Errorf("normalized confidences sum to %v, want at most 1", sum)
	}
	if out := h.ok("conflicts"); !strings.Contains(out, "user works_at (global) — contested") {
		t.Errorf("text output:\n%s", out)
	}
}
