package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/store"
)

// behindDatabase builds the HOME's database as the previous credence left
// it, one schema version behind this one, holding n episodes, and returns
// the version it is at.
func (e *hookEnv) behindDatabase(n int) int {
	e.t.Helper()
	ctx := context.Background()
	latest, err := store.LatestSchemaVersion()
	if err != nil {
		e.t.Fatal(err)
	}
	db, err := store.OpenAtVersion(ctx, e.dbPath(), latest-1)
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	err = db.Write(ctx, func(tx *store.Tx) error {
		for i := range n {
			ep := &store.Episode{SessionID: "old", ProjectPath: e.project, Kind: store.EpisodeExchange,
				Content: fmt.Sprintf("User: note %d about the deploy pipeline\n\nAssistant: noted %d", i, i)}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := db.SchemaVersion(ctx)
	if err != nil || v != latest-1 {
		e.t.Fatalf("built database at version %d (%v), want %d", v, err, latest-1)
	}
	return v
}

// schemaVersion reads the database's schema version without migrating it.
func (e *hookEnv) schemaVersion() int {
	e.t.Helper()
	db, err := store.Open(context.Background(), e.dbPath(), store.Options{ReadOnly: true})
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	v, err := db.SchemaVersion(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// TestHookLeavesUpgradeToAgent: with a database one schema version behind
// and no agent, a hook process does not start the migration (one that
// rebuilds a large table cannot finish in a hook's budget, and each hook
// used to start it, roll it back and inject nothing): it spools the
// prompt, logs one line saying who upgrades the database, and exits at
// once. The agent then upgrades the database and stores the spooled
// prompt.
func TestHookLeavesUpgradeToAgent(t *testing.T) {
	e := newHookEnv(t)
	behind := e.behindDatabase(500)

	prompt := "which branch do we deploy the storefront from"
	start := time.Now()
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": prompt}))
	elapsed := time.Since(start)
	if got := checkOutput(t, EventUserPromptSubmit, r); got != "" {
		t.Errorf("context from a database awaiting its upgrade: %q", got)
	}
	if v := e.schemaVersion(); v != behind {
		t.Errorf("after the hook the schema is at %d, want %d: the hook ran the migration", v, behind)
	}
	if n := len(e.spooled()); n != 1 {
		t.Fatalf("spool holds %d records, want the prompt's 1\nlog:\n%s", n, e.log())
	}
	log := e.log()
	if n := strings.Count(log, "\n"); n != 1 {
		t.Errorf("hook.log holds %d lines, want 1:\n%s", n, log)
	}
	wantLog(t, log, "stored once the database is upgraded")
	wantLog(t, log, "credence agent")
	// Generous for a loaded test machine: the point is that nothing heavy
	// ran (the migration of the bench database took 1.27 s, then failed).
	if elapsed > 5*time.Second {
		t.Errorf("the hook took %v", elapsed)
	}

	// The agent upgrades the database and stores the prompt.
	e.serve()
	e.waitDrained()
	latest, _ := store.LatestSchemaVersion()
	if v := e.schemaVersion(); v != latest {
		t.Errorf("after the agent started the schema is at %d, want %d", v, latest)
	}
	var found bool
	for _, c := range e.episodes(store.EpisodePrompt) {
		found = found || c == prompt
	}
	if !found {
		t.Errorf("the spooled prompt was not stored after the upgrade\nlog:\n%s", e.log())
	}
	if n := len(e.episodes(store.EpisodeExchange)); n != 500 {
		t.Errorf("%d exchanges after the upgrade, want the 500 the old database held", n)
	}
}

// TestHookCreatesNewDatabase: a hook with no database yet creates it at the
// current schema (migrating empty tables takes milliseconds) and stores
// the prompt there, not in the spool.
func TestHookCreatesNewDatabase(t *testing.T) {
	e := newHookEnv(t)
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "we use bun now"}))
	checkOutput(t, EventUserPromptSubmit, r)
	latest, _ := store.LatestSchemaVersion()
	if v := e.schemaVersion(); v != latest {
		t.Errorf("new database at schema %d, want %d", v, latest)
	}
	if n := len(e.spooled()); n != 0 {
		t.Errorf("spool holds %d records, want none", n)
	}
	if got := e.episodes(store.EpisodePrompt); len(got) != 1 || got[0] != "we use bun now" {
		t.Errorf("prompt episodes %q", got)
	}
}

// TestHookFallsBackToCredence: installed without credence-hook-local (an
// older install, or a hand-copied pair), credence-hook handles the event
// through `credence hook`, as before.
func TestHookFallsBackToCredence(t *testing.T) {
	e := newHookEnv(t)
	bin := t.TempDir()
	for _, name := range []string{"credence-hook", "credence"} {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(hookBin), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	saved := hookBin
	hookBin = filepath.Join(bin, "credence-hook")
	defer func() { hookBin = saved }()
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "we deploy from the release branch"}))
	checkOutput(t, EventUserPromptSubmit, r)
	if got := e.episodes(store.EpisodePrompt); len(got) != 1 || got[0] != "we deploy from the release branch" {
		t.Errorf("prompt episodes %q\nlog:\n%s", got, e.log())
	}
}
