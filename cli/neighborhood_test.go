package cli

import (
	"math"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

func TestNeighborhoodScoring(t *testing.T) {
	mk := func(id, subj, pred, obj string, turn int64) store.Belief {
		var b store.Belief
		b.ID, b.Subject, b.Predicate, b.Object, b.Statement = id, subj, pred, obj, subj+" "+pred+" "+obj
		b.CountsAt = belief.Moment{Turn: turn}
		return b
	}
	active := []store.Belief{
		mk("bl_direct", "user", "lives_in", "tokyo", 10),
		mk("bl_old", "tokyo", "located_in", "japan", 0),
		mk("bl_hop", "user", "prefers", "tabs", 10),
		mk("bl_far", "japan", "uses", "yen", 10),
		mk("bl_words", "assistant", "should", "mention tokyo weather", 10),
	}
	view := &confidenceView{Turn: 10, Effective: map[string]float64{
		"bl_direct": 0.8, "bl_old": 0.9, "bl_hop": 0.8, "bl_far": 0.9, "bl_words": 0.5}}
	got := neighborhood(active, view, "tokyo", 20)
	want := map[string]struct {
		hop   int
		score float64
	}{
		"bl_direct": {0, 0.64},                      // 0.8² · e⁰ · 1
		"bl_old":    {0, 0.81 * math.Exp(-0.05*10)}, // ten turns old
		"bl_words":  {0, 0.25},                      // "tokyo" as a whole word of the object
		"bl_hop":    {1, 0.64 * 0.7},                // via user
		"bl_far":    {1, 0.81 * 0.7},                // via japan
	}
	if len(got) != len(want) {
		t.Fatalf("got %d beliefs %+v, want %d", len(got), got, len(want))
	}
	for i, n := range got {
		w, ok := want[n.ID]
		if !ok {
			t.Errorf("unexpected %s", n.ID)
			continue
		}
		if n.Hop != w.hop || math.Abs(n.Score-w.score) > 1e-5 {
			t.Errorf("%s: hop %d score %v, want hop %d score %v", n.ID, n.Hop, n.Score, w.hop, w.score)
		}
		if i > 0 && got[i-1].Score < n.Score {
			t.Errorf("not sorted by score at %d", i)
		}
	}
	if top := neighborhood(active, view, "tokyo", 2); len(top) != 2 || top[0].ID != "bl_direct" {
		t.Errorf("top 2 = %+v, want bl_direct first", top)
	}
}

func TestNeighborhoodCommand(t *testing.T) {
	h := newCmdHarness(t)
	h.ok("remember", "I live in Tokyo")
	h.ok("remember", "I prefer tabs over spaces")
	var out struct {
		Entity  string
		Beliefs []neighbor
	}
	h.json(&out, "neighborhood", "Tokyo")
	if out.Entity != "tokyo" || len(out.Beliefs) != 2 || out.Beliefs[0].Object != "tokyo" || out.Beliefs[1].Hop != 1 {
		t.Errorf("neighborhood = %+v, want the Tokyo belief directly and the tabs one via user", out)
	}
	if code, _, _ := h.run("neighborhood"); code != 2 {
		t.Errorf("no entity: exit %d, want 2", code)
	}
}
