package mcpserver

import (
	"strings"
	"testing"
)

// TestStatusTextCounts: counts of one are written in the singular.
func TestStatusTextCounts(t *testing.T) {
	got := statusText(StatusOutput{Episodes: 1, Beliefs: map[string]int{"active": 1}, Mode: "offline", Embedder: "offline",
		LastCycle: &CycleStatus{Status: "done", Episodes: 1}})
	for _, want := range []string{"1 episode, 1 belief (1 active)", "done, 1 episode,"} {
		if !strings.Contains(got, want) {
			t.Errorf("statusText()=%q, want it to contain %q", got, want)
		}
	}
}
