package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/credence-mem/credence/recall"
)

// TestRecallK: `credence recall -k N` returns N episodes when N candidates
// exist, relevant to the prompt or not, each saying whether a prompt would
// be given it; without -k it shows only what a prompt would be given, at
// most recall.max_episode_bites.
func TestRecallK(t *testing.T) {
	h := newCmdHarness(t)
	db := h.db()
	var texts []string
	for i := range 12 {
		texts = append(texts, fmt.Sprintf("the garden hose on shelf %d leaks a little", i))
	}
	h.say(db, "", texts...)
	var res recall.Result
	h.json(&res, "recall", "--project", "", "-k", "8", "which garden hose leaks")
	if len(res.Episodes) != 8 {
		t.Fatalf("recall -k 8: %d episodes, want 8", len(res.Episodes))
	}
	relevant := 0
	for _, e := range res.Episodes {
		if !strings.Contains(e.Text, "garden hose") {
			t.Errorf("recall -k 8 returned %q", e.Text)
		}
		if e.Relevant {
			relevant++
		}
	}
	if relevant == 0 {
		t.Error("recall -k 8: no episode marked relevant, though each names the garden hose")
	}
	var def recall.Result
	h.json(&def, "recall", "--project", "", "which garden hose leaks")
	if n := h.config().Recall.MaxEpisodeBites; len(def.Episodes) == 0 || len(def.Episodes) > n {
		t.Errorf("recall without -k: %d episodes, want 1 to %d", len(def.Episodes), n)
	}
	if code, _, stderr := h.run("recall", "-k", "-2", "hose"); code == 0 || !strings.Contains(stderr, "-k -2") {
		t.Errorf("recall -k -2: exit %d, stderr %q; want an error naming -k", code, stderr)
	}
}
