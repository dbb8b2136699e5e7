package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestBeliefs lists beliefs through every filter, in JSON and as a table.
func TestBeliefs(t *testing.T) {
	h := newCmdHarness(t)
	if out := h.ok("beliefs"); !strings.Contains(out, "no beliefs match") {
		t.Errorf("empty database: %q", out)
	}
	project := filepath.Join(h.home, "code", "app")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.vars["CLAUDE_PROJECT_DIR"] = project // the current project, for remember and --here
	for _, text := range []string{"I prefer tabs over spaces", "I live in Tokyo", "I live in Kyoto",
		"I work at Acme", "I work at Acme", "I work at Globex", "Always run make lint before committing"} {
		h.ok("remember", text)
	}
	h.ok("remember", "--project", "We use pnpm as the package manager")

	// statements lists the statements of `credence beliefs --json args…`,
	// checking they come strongest first.
	statements := func(args ...string) []string {
		t.Helper()
		var rows []beliefRow
		h.json(&rows, append([]string{"beliefs"}, args...)...)
		var out []string
		for i, r := range rows {
			if i > 0 && rows[i-1].Normalized < r.Normalized && !slices.Contains(args, "--sort") {
				t.Errorf("beliefs %v: %q (%.2f) after %q (%.2f); want strongest first", args, r.Statement,
					r.Normalized, rows[i-1].Statement, rows[i-1].Normalized)
			}
			out = append(out, r.Statement)
		}
		return out
	}
	byText := func(want string, got []string) bool { return slices.Contains(got, want) }

	all := statements()
	if len(all) != 7 {
		t.Fatalf("beliefs = %q, want the 7 active beliefs", all)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"kind", []string{"--kind", "guideline"}, []string{"Always run make lint before committing"}},
		{"contested", []string{"--contested"}, []string{"User works at Globex", "User works at Acme"}},
		{"text", []string{"ACME"}, []string{"User works at Acme"}},
		{"two words", []string{"lives", "kyoto"}, []string{"User lives in Kyoto"}},
		{"project scope", []string{"--here", "--scope", "project"}, []string{"Project uses pnpm as its package manager"}},
		{"global scope", []string{"--scope", "global", "pnpm"}, nil},
		{"limit", []string{"--limit", "1", "tabs"}, []string{"User prefers tabs over spaces"}},
		{"no match", []string{"haskell"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := statements(tt.args...); !slices.Equal(got, tt.want) {
				t.Errorf("beliefs %v = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
	t.Run("min confidence", func(t *testing.T) {
		var rows []beliefRow
		h.json(&rows, "beliefs", "--min-confidence", "0.6")
		if len(rows) == 0 || len(rows) == len(all) {
			t.Fatalf("--min-confidence 0.6 kept %d of %d", len(rows), len(all))
		}
		for _, r := range rows {
			if r.Normalized < 0.6 {
				t.Errorf("%q at %.2f passed --min-confidence 0.6", r.Statement, r.Normalized)
			}
		}
	})

	// Archive one belief and promote another, as the agent would.
	db := h.db()
	ctx := context.Background()
	bs, err := db.Beliefs(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	id := func(statement string) string {
		for _, b := range bs {
			if b.Statement == statement {
				return b.ID
			}
		}
		t.Fatalf("no belief %q", statement)
		return ""
	}
	if err := db.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.Mark(ctx, id("User prefers tabs over spaces"), belief.Archive)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetPromotion(ctx, id("Project uses pnpm as its package manager"), 1, 0); err != nil {
		t.Fatal(err)
	}
	if got := statements("tabs"); len(got) != 0 {
		t.Errorf("an archived belief is listed by default: %q", got)
	}
	if got := statements("--status", "archived"); !slices.Equal(got, []string{"User prefers tabs over spaces"}) {
		t.Errorf("--status archived = %q", got)
	}
	if got := statements("--status", "all"); len(got) != len(all) || !byText("User prefers tabs over spaces", got) {
		t.Errorf("--status all = %q, want all %d", got, len(all))
	}
	if got := statements("--promoted"); !slices.Equal(got, []string{"Project uses pnpm as its package manager"}) {
		t.Errorf("--promoted = %q", got)
	}
	if got := statements("--sort", "created", "--limit", "2"); !slices.Equal(got,
		[]string{"Project uses pnpm as its package manager", "Always run make lint before committing"}) {
		t.Errorf("--sort created --limit 2 = %q, want the two newest, newest first", got)
	}

	out := h.ok("beliefs", "--limit", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "CONF  STATUS") || !strings.Contains(out, "showing 3 of 6 beliefs") {
		t.Errorf("table:\n%s\nwant a header, 3 rows and a note that 3 more are hidden", out)
	}
	if out := h.ok("beliefs", "--contested"); !strings.Contains(out, "active, contested") || !strings.Contains(out, "bl_") {
		t.Errorf("contested table:\n%s", out)
	}
}

// TestBeliefsBadFlags: a value a flag does not take is a usage error.
func TestBeliefsBadFlags(t *testing.T) {
	h := newCmdHarness(t)
	for _, args := range [][]string{
		{"--status", "bogus"}, {"--kind", "opinion"}, {"--scope", "team"}, {"--min-confidence", "2"},
		{"--sort", "age"}, {"--limit", "-1"},
	} {
		code, out, errs := h.run(append([]string{"beliefs"}, args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, args[0]) {
			t.Errorf("beliefs %v: exit %d, stdout %q, stderr %q; want 2 and an error naming %s", args, code, out, errs, args[0])
		}
	}
}
