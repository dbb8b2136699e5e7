package card

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestOfShowsTheCard checks the shape people and tools read from `credence
// why --json` and memory_why: snake_case keys, confidences to four places,
// times in RFC 3339 UTC, unset times and empty lineage left out, and
// evidence and events as [] rather than null.
func TestOfShowsTheCard(t *testing.T) {
	at := time.Date(2025, 3, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	parent := store.Belief{State: belief.State{ID: "bl_parent", Spec: belief.Spec{Statement: "User lives in Porto"}, Status: belief.Revised}}
	c := store.Card{
		Belief: store.Belief{State: belief.State{ID: "bl_x", Spec: belief.Spec{Statement: "User lives in Lisbon",
			Subject: "user", Predicate: "lives_in", Object: "lisbon", Kind: belief.KindFact, Scope: belief.ScopeGlobal},
			Status: belief.Active, Alpha: 3, Beta: 1, CreatedAt: at.UnixMilli(), UpdatedAt: at.UnixMilli()}},
		Confidence: 2.0 / 3, Normalized: 2.0 / 3, Alpha: 2, Beta: 1,
		Parent: &parent,
	}
	got := Of(c)
	if got.Confidence != 0.6667 || got.StoredAlpha != 3 {
		t.Errorf("Confidence=%v StoredAlpha=%v, want 0.6667 and 3", got.Confidence, got.StoredAlpha)
	}
	if got.CreatedAt != "2025-03-01T08:30:00Z" || got.ValidAt != "" {
		t.Errorf("CreatedAt=%q ValidAt=%q, want RFC 3339 UTC and empty", got.CreatedAt, got.ValidAt)
	}
	if got.Parent == nil || *got.Parent != (Related{ID: "bl_parent", Statement: "User lives in Porto", Status: "revised"}) {
		t.Errorf("Parent=%+v", got.Parent)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{`"normalized_confidence":0.6667`, `"evidence":[]`, `"events":[]`, `"parent":{"id":"bl_parent"`} {
		if !strings.Contains(text, want) {
			t.Errorf("JSON lacks %s:\n%s", want, text)
		}
	}
	for _, absent := range []string{`"valid_at"`, `"merged_into"`, `"children"`, `"timeline"`} {
		if strings.Contains(text, absent) {
			t.Errorf("JSON has %s, which is unset:\n%s", absent, text)
		}
	}
}
