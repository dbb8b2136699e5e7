package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// Task prompts and the guideline each needs though they share no word
// with it, and prompts that name a topic without asking for work on it.
var topicCases = []struct {
	prompt, guideline string
	want              bool
}{
	{"write the README intro for this project", "When you write docs for me, always use British spelling", true},
	{"add a column for the user's last login time", "Always use snake_case for all database columns", true},
	{"create a new React component for the avatar", "Never use default exports in this codebase, named exports only", true},
	{"write the commit message for this fix", "Always follow Conventional Commits", true},
	{"add some debug output to this handler", "Never use fmt.Println; use the logger package for output", true},
	{"bump react to the latest version", "Never bump dependencies by hand", true},
	{"I'm done with the feature, what else do I need before the PR?", "Always add a CHANGELOG entry for user-facing changes", true},
	{"scaffold a new vite app", "Never use npx; use pnpm dlx", true},
	{"hide the new checkout page behind a flag", "Always use LaunchDarkly for feature flags", true},
	{"where should I put the API key for the mail service?", "Never put secrets in config files; they come from Vault", true},
	{"write a debounce helper for the search box", "Never add semicolons", true},
	{"fix the typo in the header component", "Never reformat files you are not changing", true},
	// General questions and tasks on something else get nothing.
	{"how do I undo the last git commit but keep the changes?", "Always follow Conventional Commits", false},
	{"what does the --no-verify flag do in git?", "Always run make lint before you commit", false},
	{"write a function that reverses a linked list", "Always run go test with -race", false},
	{"what's the best way to learn SQL joins?", "Always use Testcontainers for database tests", false},
	{"implement an LRU cache in Java", "Always use snake_case for all database columns", false},
	{"explain the difference between == and is in Python", "Always follow Conventional Commits", false},
	{"write a haiku about autumn leaves", "When you write docs for me, always use British spelling", false},
	{"what is the difference between a struct and a class in C#?", "Always ensure every PR has two approvals before merging", false},
}

func TestPromptTopics(t *testing.T) {
	for _, c := range topicCases {
		got := guideTopics(c.guideline, promptTopics(c.prompt)) > 0
		if got != c.want {
			t.Errorf("%q governs %q: got %v, want %v (prompt topics %v)", c.guideline, c.prompt, got, c.want, topicNames(promptTopics(c.prompt)))
		}
	}
}

func topicNames(idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, taskTopics[i].name)
	}
	return out
}

// TestTopicGuidelinesThroughRecall stores guidelines and a fact and checks
// that a task prompt is given the guideline that governs it, from its own
// project only, and that a general question is given nothing.
func TestTopicGuidelinesThroughRecall(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	specs := []belief.Spec{
		{Statement: "Always follow Conventional Commits", Subject: "assistant", Predicate: "should", Object: "follow conventional commits",
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/a"},
		{Statement: "Never use npx; use pnpm dlx", Subject: "assistant", Predicate: "should_not", Object: "use npx",
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/b"},
		{Statement: "User lives in Lisbon", Subject: "user", Predicate: "lives_in", Object: "lisbon", Scope: belief.ScopeGlobal},
	}
	supportedBeliefs(t, db, specs)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for _, c := range []struct {
		prompt, project, want string
	}{
		{"write the commit message for this fix", "/a", "Conventional Commits"},
		{"write the commit message for this fix", "/b", ""},
		{"scaffold a new vite app", "/b", "pnpm dlx"},
		{"scaffold a new vite app", "/a", ""},
		{"how do I undo the last git commit but keep the changes?", "/a", ""},
	} {
		res, err := r.Recall(ctx, Query{Text: c.prompt, Project: c.project})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range res.Beliefs {
			got = append(got, b.Statement)
		}
		joined := strings.Join(got, " | ")
		if c.want == "" && len(got) > 0 || c.want != "" && !strings.Contains(joined, c.want) {
			t.Errorf("%q in %s: beliefs %q, want %q", c.prompt, c.project, joined, c.want)
		}
	}
}

// TestTopicCasesThroughRecall stores each guideline of topicCases in a
// project of its own and asks each prompt there: the guideline is found
// through the index by its topic's words and given to the prompt exactly
// when the case says so.
func TestTopicCasesThroughRecall(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var specs []belief.Spec
	for i, c := range topicCases {
		specs = append(specs, belief.Spec{Statement: c.guideline, Subject: "assistant", Predicate: "should",
			Object: strings.ToLower(c.guideline), Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: fmt.Sprintf("/c%d", i)})
	}
	supportedBeliefs(t, db, specs)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for i, c := range topicCases {
		res, err := r.Recall(ctx, Query{Text: c.prompt, Project: fmt.Sprintf("/c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Beliefs) > 0 && res.Beliefs[0].Statement == c.guideline
		if got != c.want {
			t.Errorf("%q given %q: got %v, want %v (%d beliefs)", c.prompt, c.guideline, got, c.want, len(res.Beliefs))
		}
	}
}

// supportedBeliefs creates each belief with one piece of supporting
// evidence.
func supportedBeliefs(t *testing.T, db *store.DB, specs []belief.Spec) {
	t.Helper()
	ctx := context.Background()
	err := db.Write(ctx, func(tx *store.Tx) error {
		for _, sp := range specs {
			id, err := tx.CreateBelief(ctx, sp)
			if err != nil {
				return err
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Label: belief.Supports, Support: 1, Reliability: 1, Source: "t"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
