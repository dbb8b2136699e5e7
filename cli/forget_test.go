package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/internal/testkit"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

// seedPromptAndExchange stores a prompt, the exchange that answers it and a
// belief whose only evidence is the prompt, the way capture and
// consolidation leave them.
func seedPromptAndExchange(t *testing.T, h *cmdHarness, prompt string) (beliefID, promptID, exchangeID string) {
	t.Helper()
	db := h.db()
	ctx := t.Context()
	err := db.Write(ctx, func(tx *store.Tx) error {
		p := store.Episode{SessionID: "s1", ProjectPath: "/work/app", Kind: store.EpisodePrompt, Content: prompt}
		if _, err := tx.AddEpisode(ctx, &p); err != nil {
			return err
		}
		x := store.Episode{SessionID: "s1", ProjectPath: "/work/app", Kind: store.EpisodeExchange,
			Content: "User: " + prompt + "\n\nAssistant: Noted, I will keep that in mind."}
		if _, err := tx.AddEpisode(ctx, &x); err != nil {
			return err
		}
		other := store.Episode{SessionID: "s2", ProjectPath: "/work/app", Kind: store.EpisodePrompt, Content: "run the linter please"}
		if _, err := tx.AddEpisode(ctx, &other); err != nil {
			return err
		}
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "User's codename is " + prompt[len(prompt)-14:],
			Subject: "user", Predicate: "codename_is", Object: strings.ToLower(prompt[len(prompt)-14:]), Scope: belief.ScopeGlobal})
		if err != nil {
			return err
		}
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: p.ID, Source: "heuristic",
			Label: belief.Supports, Note: "said " + prompt}); err != nil {
			return err
		}
		beliefID, promptID, exchangeID = id, p.ID, x.ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return beliefID, promptID, exchangeID
}

func TestForgetWithEvidenceLeavesNoByte(t *testing.T) {
	h := newCmdHarness(t)
	const codename = "Zanzibarquokka"
	prompt := "for the record my codename is " + codename
	beliefID, promptID, exchangeID := seedPromptAndExchange(t, h, prompt)
	if hits := testkit.FilesContaining(t, h.home, codename); len(hits) == 0 {
		t.Fatal("the codename is nowhere on disk before forgetting; the test would prove nothing")
	}
	var rep forgetReport
	h.json(&rep, "forget", "--with-evidence", beliefID)
	if len(rep.Beliefs) != 1 || len(rep.Episodes) != 2 {
		t.Fatalf("forgot %+v, want the belief, the prompt %s and the exchange %s", rep, promptID, exchangeID)
	}
	for _, text := range []string{codename, strings.ToLower(codename), "my codename is"} {
		if hits := testkit.FilesContaining(t, h.home, text); len(hits) > 0 {
			t.Errorf("%q still on disk after forget --with-evidence: %v", text, hits)
		}
	}
	e, err := h.db().Episode(t.Context(), promptID)
	if err != nil || !e.Forgotten || e.Content != "" {
		t.Errorf("prompt episode after forget = %+v, %v; want forgotten and empty", e, err)
	}
	if hits := testkit.FilesContaining(t, h.home, "run the linter please"); len(hits) == 0 {
		t.Error("an unrelated episode was purged too")
	}
}

func TestForget(t *testing.T) {
	tests := []struct {
		name       string
		args       func(beliefID, promptID string) []string
		wantBelief int
		wantEpisod int
		wantKept   int
		code       int
	}{
		{"a belief takes the episodes that say it", func(b, _ string) []string { return []string{b} }, 1, 2, 0, 0},
		{"a belief alone with --keep-episodes", func(b, _ string) []string { return []string{"--keep-episodes", b} }, 1, 0, 1, 0},
		{"an episode", func(_, p string) []string { return []string{p} }, 0, 1, 0, 0},
		{"a short belief ID", func(b, _ string) []string { return []string{b[:12]} }, 1, 2, 0, 0},
		{"an unknown ID", func(_, _ string) []string { return []string{"bl_01ZZZZZZZZZZZZZZZZZZZZZZZZ"} }, 0, 0, 0, 1},
		{"not an ID", func(_, _ string) []string { return []string{"tokyo"} }, 0, 0, 0, 1},
		{"contradictory flags", func(b, _ string) []string { return []string{"--keep-episodes", "--with-evidence", b} }, 0, 0, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newCmdHarness(t)
			beliefID, promptID, _ := seedPromptAndExchange(t, h, "for the record my codename is Zanzibarquokka")
			code, out, errs := h.run(append([]string{"forget", "--json"}, tt.args(beliefID, promptID)...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errs)
			}
			if code != 0 {
				return
			}
			var rep forgetReport
			decodeJSON(t, out, &rep)
			if len(rep.Beliefs) != tt.wantBelief || len(rep.Episodes) != tt.wantEpisod || len(rep.EpisodesKept) != tt.wantKept {
				t.Errorf("forgot %+v, want %d beliefs and %d episodes, %d kept", rep, tt.wantBelief, tt.wantEpisod, tt.wantKept)
			}
			// Forgetting twice is harmless and says so.
			var again forgetReport
			h.json(&again, append([]string{"forget"}, tt.args(beliefID, promptID)...)...)
			if len(again.Beliefs)+len(again.Episodes) != 0 || len(again.AlreadyForgotten) != 1 {
				t.Errorf("second forget = %+v, want the named ID already forgotten", again)
			}
		})
	}
}

func TestForgetRemovesMemoryBullet(t *testing.T) {
	h := newCmdHarness(t)
	project := filepath.Join(h.home, "code", "shop")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.vars["CLAUDE_PROJECT_DIR"] = project
	var r struct{ Beliefs []struct{ ID string } }
	for range 3 {
		h.json(&r, "remember", "we use pnpm as the package manager")
	}
	cfg := h.config()
	db := h.db()
	if _, err := promote.New(db, cfg, promote.Options{}).Promote(t.Context()); err != nil {
		t.Fatal(err)
	}
	memory := markdown.ProjectMemoryPath(h.home, project, "")
	if !strings.Contains(readFile(t, memory), "pnpm") {
		t.Fatalf("the belief was not promoted; MEMORY.md:\n%s", readFile(t, memory))
	}
	var rep forgetReport
	h.json(&rep, "forget", r.Beliefs[0].ID)
	if rep.MemoryFilesWritten != 1 || strings.Contains(readFile(t, memory), "pnpm") {
		t.Errorf("after forget (%d files written) MEMORY.md still says:\n%s", rep.MemoryFilesWritten, readFile(t, memory))
	}
}

// TestForgetSaysWhatItRemoved checks the words: every ID forgotten is
// named, a purge is claimed only for what was forgotten, and episodes kept
// are named as kept.
func TestForgetSaysWhatItRemoved(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		want   func(beliefID, promptID, exchangeID string) []string
		reject []string
	}{
		{"default", nil, func(b, p, x string) []string {
			return []string{"forgot belief " + b, "forgot episode " + p, "forgot episode " + x, "their text is purged"}
		}, []string{"kept"}},
		{"keep episodes", []string{"--keep-episodes"}, func(b, p, _ string) []string {
			return []string{"forgot belief " + b, "kept 1 episode it was learned from (--keep-episodes: what they say can still be recalled): " + p}
		}, []string{"forgot episode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newCmdHarness(t)
			beliefID, promptID, exchangeID := seedPromptAndExchange(t, h, "for the record my codename is Zanzibarquokka")
			out := h.ok(append(append([]string{"forget"}, tt.flags...), beliefID)...)
			for _, w := range tt.want(beliefID, promptID, exchangeID) {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(out, r) {
					t.Errorf("output says %q:\n%s", r, out)
				}
			}
		})
	}
}
