package recall

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// TestCachedGuidelineSearch: the agent keeps what the beliefs' index
// found for a task's topics, and a guideline added, or one forgotten,
// since is seen by the next prompt.
func TestCachedGuidelineSearch(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rule := func(statement string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: "assistant", Predicate: "should", Object: statement,
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/p"}
	}
	supportedBeliefs(t, db, []belief.Spec{rule("Always write commit messages in the imperative mood")})
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions(), Cache: cache}
	told := func() []string {
		t.Helper()
		res, err := r.Recall(ctx, Query{Text: "save my work, I'm heading out", Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range res.Beliefs {
			out = append(out, b.Statement)
		}
		return out
	}
	if got := told(); !slices.Contains(got, "Always write commit messages in the imperative mood") {
		t.Fatalf("first prompt not given the commit rule: %q", got)
	}
	cache.mu.Lock()
	kept := len(cache.beliefHits)
	cache.mu.Unlock()
	if kept == 0 {
		t.Fatal("the topic search was not kept")
	}

	supportedBeliefs(t, db, []belief.Spec{rule("Always use Conventional Commits")})
	if got := told(); !slices.Contains(got, "Always use Conventional Commits") {
		t.Errorf("a rule added after the search was kept is not given: %q", got)
	}

	bs, err := db.Beliefs(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if b.Statement == "Always write commit messages in the imperative mood" {
			if err := db.ForgetBelief(ctx, b.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := told(); slices.Contains(got, "Always write commit messages in the imperative mood") {
		t.Errorf("a forgotten rule is still given: %q", got)
	}
}
