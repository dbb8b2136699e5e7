package consolidate

import (
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// Seed 001's scenario walkthrough, A to D, in both modes.

func TestScenarioARepeatedMention(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		e.say("", "I like Rust")
		e.run()
		e.say("", "I like Rust")
		e.run()
		bs := e.beliefs("user", "likes")
		if len(bs) != 1 {
			t.Fatalf("beliefs about likes=%v, want one (the mention deduplicated)", objects(bs))
		}
		if bs[0].EvidenceCount != 2 || bs[0].Supports != 2 {
			t.Errorf("evidence=%d supports=%d, want 2 and 2 (both episodes as sources)", bs[0].EvidenceCount, bs[0].Supports)
		}
	})
}

func TestScenarioBAdditivePreferences(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		e.say("", "I like Rust")
		e.run()
		e.say("", "I like TypeScript")
		e.run()
		got := objects(e.beliefs("user", "likes"))
		if got["rust"] != belief.Active || got["typescript"] != belief.Active || len(got) != 2 {
			t.Errorf("likes=%v, want rust and typescript both active", got)
		}
		if n := e.beliefs("user", "likes")[0].Contradictions; n != 0 {
			t.Errorf("rust contradictions=%d, want 0: liking two things is no conflict", n)
		}
	})
}

func TestScenarioCResidenceChange(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		e.say("", "I live in Beijing")
		e.run()
		before := e.db.Now()
		e.say("", "I moved to Tokyo")
		e.run()
		got := objects(e.beliefs("user", "lives_in"))
		if got["tokyo"] != belief.Active || got["beijing"] != belief.Superseded {
			t.Fatalf("lives_in=%v, want tokyo active and beijing superseded", got)
		}
		for _, b := range e.beliefs("user", "lives_in") {
			if b.Object == "beijing" {
				if b.InvalidAt == 0 {
					t.Error("beijing has no invalid_at")
				}
				was, err := e.db.AsOf(e.ctx, b.ID, before)
				if err != nil || was.Status != belief.Active {
					t.Errorf("AsOf(before the move)=%v, %v; want beijing active then", was.Status, err)
				}
			}
		}
		if top, _ := e.top("user", "lives_in"); top.Object != "tokyo" {
			t.Errorf("top lives_in=%q, want tokyo", top.Object)
		}
	})
}

func TestScenarioDNameCorrection(t *testing.T) {
	modes(t, func(t *testing.T, opts ...envOption) {
		e := newEnv(t, opts...)
		e.say("", "My name is Bob")
		e.run()
		e.say("", "Sorry, my name is actually Alice")
		e.run()
		got := objects(e.beliefs("user", "name_is"))
		if got["alice"] != belief.Active || got["bob"] != belief.Superseded || len(got) != 2 {
			t.Errorf("name_is=%v, want alice active, bob superseded, not merged", got)
		}
	})
}

// TestPersonalToolsHoldEverywhere: "I use Neovim" said in one project is
// the person's editor in every project, while the project's package
// manager stays the project's.
func TestPersonalToolsHoldEverywhere(t *testing.T) {
	e := newEnv(t)
	e.say("/code/a", "I use Neovim as my editor.", "My shell is fish.", "We use pnpm for this repo.")
	e.run()
	for _, pred := range []string{"uses_editor", "uses_shell"} {
		bs := e.beliefs("user", pred, belief.Active)
		if len(bs) != 1 || bs[0].Scope != belief.ScopeGlobal {
			t.Errorf("%s: %+v; want one global belief", pred, bs)
		}
	}
	pm := append(e.beliefs("project", "uses_package_manager", belief.Active), e.beliefs("user", "uses_package_manager", belief.Active)...)
	if len(pm) != 1 || pm[0].Scope != belief.ScopeProject || pm[0].ProjectPath != "/code/a" {
		t.Errorf("package manager: %+v; want one belief of /code/a", pm)
	}
}

// TestGuidelineForThePersonHoldsEverywhere: an instruction about how to
// treat the person ("for me") follows them into every project; a rule of
// the repository stays the repository's.
func TestGuidelineForThePersonHoldsEverywhere(t *testing.T) {
	e := newEnv(t)
	e.say("/code/a", "When you write docs for me, use British spelling.", "Always run go test with -race in this repo.",
		"Respond in Portuguese please.")
	e.run()
	var personal, repo, answers []store.Belief
	for _, b := range e.beliefs("assistant", "", belief.Active) {
		if strings.Contains(strings.ToLower(b.Statement), "british") {
			personal = append(personal, b)
		}
		if strings.Contains(b.Statement, "Portuguese") {
			answers = append(answers, b)
		}
		if strings.Contains(b.Statement, "-race") {
			repo = append(repo, b)
		}
	}
	if len(personal) != 1 || personal[0].Scope != belief.ScopeGlobal {
		t.Errorf("British spelling: %+v; want one global belief", personal)
	}
	if len(answers) != 1 || answers[0].Scope != belief.ScopeGlobal {
		t.Errorf("answers in Portuguese: %+v; want one global belief (how to answer the person holds everywhere)", answers)
	}
	if len(repo) != 1 || repo[0].Scope != belief.ScopeProject || repo[0].ProjectPath != "/code/a" {
		t.Errorf("go test -race: %+v; want one belief of /code/a", repo)
	}
}

// TestSwitchEndsAnAdditiveTool: a cache may be one of several, but "we
// switched the cache over to Memcached" ends Redis; "we also use X" ends
// nothing.
func TestSwitchEndsAnAdditiveTool(t *testing.T) {
	e := newEnv(t)
	e.say("/code/a", "we use Redis for caching")
	e.run()
	e.say("/code/a", "switched the cache over to Memcached")
	e.run()
	if got := objects(e.beliefs("project", "uses_cache")); got["memcached"] != belief.Active || got["redis"] != belief.Superseded {
		t.Errorf("uses_cache=%v; want memcached active, redis superseded", got)
	}
	e.say("/code/a", "we lint with ruff")
	e.run()
	e.say("/code/a", "we also lint with mypy")
	e.run()
	if got := objects(e.beliefs("project", "uses_linter")); got["ruff"] != belief.Active {
		t.Errorf("uses_linter=%v; want ruff still active", got)
	}
}
