package cli

import (
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/internal/testkit"
)

func TestRemember(t *testing.T) {
	tests := []struct {
		name          string
		args          []string
		wantStatement string
		wantScope     string
		wantSubject   string
	}{
		{"preference about the user is global", []string{"I prefer tabs over spaces"}, "User prefers tabs over spaces", belief.ScopeGlobal, "user"},
		{"statement about the project is project-scoped", []string{"we use pnpm as the package manager"}, "Project uses pnpm as its package manager", belief.ScopeProject, "project"},
		{"--global overrides", []string{"--global", "we use pnpm as the package manager"}, "Project uses pnpm as its package manager", belief.ScopeGlobal, "project"},
		{"--project overrides", []string{"--project", "I prefer tabs over spaces"}, "User prefers tabs over spaces", belief.ScopeProject, "user"},
		{"text without a pattern is kept whole", []string{"the deploy key lives in vault"}, "the deploy key lives in vault", belief.ScopeGlobal, "user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newCmdHarness(t)
			var res struct {
				Beliefs []struct {
					ID         string
					Statement  string
					Created    bool
					Confidence float64
				}
			}
			h.json(&res, append([]string{"remember"}, tt.args...)...)
			if len(res.Beliefs) != 1 || !res.Beliefs[0].Created {
				t.Fatalf("beliefs = %+v, want one created", res.Beliefs)
			}
			b, err := h.db().Belief(t.Context(), res.Beliefs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if b.Statement != tt.wantStatement || b.Scope != tt.wantScope || b.Subject != tt.wantSubject {
				t.Errorf("belief = (%q, %s, %s), want (%q, %s, %s)", b.Statement, b.Scope, b.Subject, tt.wantStatement, tt.wantScope, tt.wantSubject)
			}
			if b.Source != "user" || b.EvidenceCount != 1 || b.Supports != 1 {
				t.Errorf("source %q, evidence %d, supports %d; want user, 1, 1", b.Source, b.EvidenceCount, b.Supports)
			}
			evs, err := h.db().Evidence(t.Context(), b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 || evs[0].Label != belief.Manual || evs[0].Reliability != 1 || evs[0].Support != 1 || evs[0].EpisodeID == "" {
				t.Errorf("evidence = %+v, want one MANUAL ρ=1 s=+1 from a note episode", evs)
			}
		})
	}
}

func TestRememberReinforcesAndContradicts(t *testing.T) {
	h := newCmdHarness(t)
	var first, again, moved struct {
		Beliefs []struct {
			ID           string
			Created      bool
			Confidence   float64
			Contradicted []string
		}
	}
	h.json(&first, "remember", "I live in Tokyo")
	h.json(&again, "remember", "I live in Tokyo")
	if again.Beliefs[0].ID != first.Beliefs[0].ID || again.Beliefs[0].Created {
		t.Fatalf("second remember created %+v, want the first belief %s reinforced", again.Beliefs[0], first.Beliefs[0].ID)
	}
	if again.Beliefs[0].Confidence <= first.Beliefs[0].Confidence {
		t.Errorf("confidence %v after reinforcing, want above %v", again.Beliefs[0].Confidence, first.Beliefs[0].Confidence)
	}
	h.json(&moved, "remember", "I live in Kyoto")
	if len(moved.Beliefs[0].Contradicted) != 1 || moved.Beliefs[0].Contradicted[0] != first.Beliefs[0].ID {
		t.Fatalf("contradicted %v, want the Tokyo belief %s (lives_in is exclusive)", moved.Beliefs[0].Contradicted, first.Beliefs[0].ID)
	}
	tokyo, err := h.db().Belief(t.Context(), first.Beliefs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if tokyo.Contradictions != 1 {
		t.Errorf("Tokyo contradictions = %d, want 1", tokyo.Contradictions)
	}
}

func TestRememberRedactsSecrets(t *testing.T) {
	h := newCmdHarness(t)
	secret := "sk-proj-" + strings.Repeat("Ab3dEf9hIj", 4)
	code, out, errs := h.run("remember", "remember that the staging key is "+secret)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if !strings.Contains(errs, "secret") {
		t.Errorf("stderr %q does not say a secret was removed", errs)
	}
	if strings.Contains(out, secret) {
		t.Errorf("stdout repeats the secret: %s", out)
	}
	h.db().Checkpoint(t.Context())
	if hits := testkit.FilesContaining(t, h.home, secret); len(hits) > 0 {
		t.Errorf("secret found on disk in %v", hits)
	}
}

func TestRememberUsage(t *testing.T) {
	h := newCmdHarness(t)
	for _, args := range [][]string{{"remember"}, {"remember", "--project", "--global", "x"}} {
		if code, _, _ := h.run(args...); code != 2 {
			t.Errorf("credence %v: exit %d, want 2", args, code)
		}
	}
}
