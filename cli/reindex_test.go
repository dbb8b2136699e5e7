package cli

import (
	"testing"

	"github.com/credence-mem/credence/embed"
)

func TestReindex(t *testing.T) {
	h := newCmdHarness(t)
	h.ok("remember", "I prefer tabs over spaces")
	h.ok("remember", "we use pnpm as the package manager")
	db := h.db()
	old, err := db.EnsureSpace(t.Context(), "retired-embedder-v0", 8)
	if err != nil {
		t.Fatal(err)
	}
	var rep reindexReport
	h.json(&rep, "reindex")
	id := embed.NewOffline().ID()
	if rep.Embedder != id || rep.Episodes != 2 || rep.Beliefs != 2 {
		t.Fatalf("reindex = %+v, want 2 episodes and 2 beliefs with %s", rep, id)
	}
	sp, err := db.EnsureSpace(t.Context(), id, embed.NewOffline().Dim())
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"episodes", "beliefs"} {
		missing, err := db.Unembedded(t.Context(), sp, kind, 10)
		if err != nil || len(missing) != 0 {
			t.Errorf("%s without vectors after reindex: %v %v", kind, missing, err)
		}
	}
	h.json(&rep, "reindex", "--missing")
	if rep.Episodes+rep.Beliefs != 0 {
		t.Errorf("reindex --missing re-embedded %+v, want nothing", rep)
	}
	h.json(&rep, "reindex", "--drop-old")
	if len(rep.Dropped) != 1 || rep.Dropped[0] != old.EmbedderID {
		t.Errorf("dropped %v, want %s", rep.Dropped, old.EmbedderID)
	}
	spaces, err := db.Spaces(t.Context())
	if err != nil || len(spaces) != 1 || spaces[0].EmbedderID != id {
		t.Errorf("spaces after --drop-old = %+v, %v", spaces, err)
	}
}
