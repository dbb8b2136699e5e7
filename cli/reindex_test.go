package cli

import (
	"context"
	"slices"
	"testing"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// TestReindex moves a database made before static-v1 was the default (its
// vectors by offline-v1, embedder.kind "hashed" today) to the default
// embedder: every episode and belief gets a static-v1 vector equal to what
// the embedder makes of its text, --missing then has nothing to do, and
// --drop-old drops the old spaces.
func TestReindex(t *testing.T) {
	h := newCmdHarness(t)
	h.vars["CREDENCE_EMBEDDER_KIND"] = "hashed"
	h.ok("remember", "I prefer tabs over spaces")
	h.ok("remember", "we use pnpm as the package manager")
	db := h.db()
	ctx := t.Context()
	retired, err := db.EnsureSpace(ctx, "retired-embedder-v0", 8)
	if err != nil {
		t.Fatal(err)
	}
	var rep reindexReport
	h.json(&rep, "reindex")
	if old := embed.NewOffline(); rep.Embedder != old.ID() || rep.Episodes != 2 || rep.Beliefs != 2 {
		t.Fatalf("reindex with kind hashed = %+v, want 2 episodes and 2 beliefs with %s", rep, old.ID())
	}

	delete(h.vars, "CREDENCE_EMBEDDER_KIND")
	h.json(&rep, "reindex")
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embedder != embed.StaticID || rep.Dim != static.Dim() || rep.Episodes != 2 || rep.Beliefs != 2 {
		t.Fatalf("reindex with the default = %+v, want 2 episodes and 2 beliefs with %s", rep, embed.StaticID)
	}
	sp, err := db.EnsureSpace(ctx, embed.StaticID, static.Dim())
	if err != nil {
		t.Fatal(err)
	}
	for id, text := range reindexedTexts(t, db) {
		got, err := db.GetVector(ctx, sp, id)
		if err != nil {
			t.Fatalf("GetVector(%s): %v", id, err)
		}
		want, err := static.Embed(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[0]) {
			t.Errorf("%s (%q): stored vector is not static-v1's", id, text)
		}
	}

	h.json(&rep, "reindex", "--missing")
	if rep.Episodes+rep.Beliefs != 0 {
		t.Errorf("reindex --missing re-embedded %+v, want nothing", rep)
	}
	h.json(&rep, "reindex", "--drop-old")
	slices.Sort(rep.Dropped)
	if want := []string{embed.NewOffline().ID(), retired.EmbedderID}; !slices.Equal(rep.Dropped, want) {
		t.Errorf("dropped %v, want %v", rep.Dropped, want)
	}
	spaces, err := db.Spaces(ctx)
	if err != nil || len(spaces) != 1 || spaces[0].EmbedderID != embed.StaticID {
		t.Errorf("spaces after --drop-old = %+v, %v; want only %s", spaces, err, embed.StaticID)
	}
}

// reindexedTexts maps every episode and belief ID to the text reindex embeds.
func reindexedTexts(t *testing.T, db *store.DB) map[string]string {
	t.Helper()
	items, _, err := reindexItems(context.Background(), db, store.Space{}, false)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range items {
		out[it.id] = it.text
	}
	if len(out) != 4 {
		t.Fatalf("reindex items %v, want 2 episodes and 2 beliefs", out)
	}
	return out
}
