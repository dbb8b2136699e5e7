package consolidate

import (
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// Issue 14, items 1 and 3, through the pipeline: a person who corrects
// their assistant once is believed, whether the correction names the slot
// or only the new value, and a belief's sentence follows its triple.

// sayIn stores prompt episodes of one session in project (global when "").
func (e *testEnv) sayIn(session, project string, texts ...string) {
	e.t.Helper()
	for _, text := range texts {
		ep := store.Episode{Kind: store.EpisodePrompt, Content: text, ProjectPath: project, SessionID: session}
		if _, err := e.db.AddEpisode(e.ctx, &ep); err != nil {
			e.t.Fatal(err)
		}
	}
}

// only returns the one active belief about (subject, predicate), failing
// the test when there is not exactly one.
func (e *testEnv) only(subject, predicate string) store.Belief {
	e.t.Helper()
	bs := e.beliefs(subject, predicate, belief.Active)
	if len(bs) != 1 {
		e.t.Fatalf("active %s %s beliefs=%v, want exactly one", subject, predicate, objects(bs))
	}
	return bs[0]
}

func TestCorrectionNamingOnlyTheValue(t *testing.T) {
	tests := []struct {
		name      string
		sessions  [][]string // each session's prompts, consolidated after each session
		project   string
		subject   string
		predicate string
		now, was  string
		statement string
	}{
		{"a name stated three times, corrected once in a new session",
			[][]string{{"My name is Jon."}, {"It's Jon, sign the emails with my name."}, {"my name is Jon"}, {"Actually it's John, with an h."}},
			"", "user", "name_is", "john", "jon", "User's name is John"},
		{"a tool corrected in the same session",
			[][]string{{"Our CI is CircleCI.", "sorry, I meant GitHub Actions"}},
			"/p", "project", "uses_ci", "github actions", "circleci", "Project uses GitHub Actions for CI"},
		{"a tool corrected in a later session, the old value named",
			[][]string{{"Our CI is CircleCI."}, {"sorry, I meant GitHub Actions, not CircleCI"}},
			"/p", "project", "uses_ci", "github actions", "circleci", "Project uses GitHub Actions for CI"},
		{"a place corrected with a bare value",
			[][]string{{"I live in Austin.", "no, Dallas"}},
			"", "user", "lives_in", "dallas", "austin", "User lives in Dallas"},
		{"a manager who left",
			[][]string{{"My manager is Tom."}, {"Tom wants weekly reports."}, {"Tom left; Sara is my manager now."}},
			"", "user", "manager_is", "sara", "tom", "User's manager is Sara"},
		{"a version bumped",
			[][]string{{"We're on Node 18."}, {"we bumped node to 22 today"}},
			"/p", "project", "node_version_is", "22", "18", "Project uses Node.js 22"},
		{"a port to another framework ends the one it left",
			[][]string{{"We use Flask."}, {"We ported the app to FastAPI."}},
			"/p", "project", "uses_framework", "fastapi", "flask", "Project uses FastAPI"},
		{"a switch states the current value",
			[][]string{{"We use pnpm for this repo."}, {"We switched from pnpm to bun this week."}},
			"/p", "project", "uses_package_manager", "bun", "pnpm", "Project uses Bun as its package manager"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for i, prompts := range tt.sessions {
				e.sayIn("s"+string(rune('1'+i)), tt.project, prompts...)
				e.run()
			}
			now := e.only(tt.subject, tt.predicate)
			if now.Object != tt.now || now.Statement != tt.statement {
				t.Errorf("active belief (%s, %q), want (%s, %q)", now.Object, now.Statement, tt.now, tt.statement)
			}
			got := objects(e.beliefs(tt.subject, tt.predicate))
			if got[tt.was] != belief.Superseded {
				t.Errorf("%s beliefs=%v, want %s superseded by the one correction", tt.predicate, got, tt.was)
			}
		})
	}
}

func TestBareValueWithoutASlotSaysNothing(t *testing.T) {
	e := newEnv(t)
	e.sayIn("s1", "", "can you rerun the flaky test?", "Actually it's fine.", "sorry, wrong window")
	e.run()
	if bs := e.beliefs("", ""); len(bs) != 0 {
		t.Errorf("beliefs=%v, want none", objects(bs))
	}
}

// TestRestateOutOfStepStatement: a belief whose sentence says how the value
// came about ("User moved to Lisbon", as an older extractor wrote it) is
// rendered again from its triple when new evidence states the triple, and
// the change is an event in its log, so a rebuild keeps it.
func TestRestateOutOfStepStatement(t *testing.T) {
	e := newEnv(t)
	id := e.makeBelief(belief.Spec{Statement: "User moved to Lisbon", Subject: "user", Predicate: "lives_in", Object: "lisbon",
		Scope: belief.ScopeGlobal}, belief.Supports)
	guide := e.makeBelief(belief.Spec{Statement: "Assistant should run make lint before you commit", Subject: "assistant",
		Predicate: "should", Object: "run make lint before you commit", Kind: belief.KindGuideline, Scope: belief.ScopeGlobal},
		belief.Supports)
	pinned := e.makeBelief(belief.Spec{Statement: "I'm in lovely Lisbon", Subject: "user", Predicate: "likes", Object: "lisbon",
		Scope: belief.ScopeGlobal, Pinned: true}, belief.Supports)
	e.sayIn("s1", "", "I live in Lisbon", "Always run make lint before you commit", "I like Lisbon")
	st := e.run()
	for _, c := range []struct{ id, want string }{
		{id, "User lives in Lisbon"},
		{guide, "Always run make lint before you commit"},
		{pinned, "I'm in lovely Lisbon"}, // the person's own words stay
	} {
		b, err := e.db.Belief(e.ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if b.Statement != c.want {
			t.Errorf("statement %q, want %q", b.Statement, c.want)
		}
	}
	if st.Restated != 2 {
		t.Errorf("Stats.Restated=%d, want 2", st.Restated)
	}
	events, err := e.db.Events(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	restates := 0
	for _, ev := range events {
		if ev.Kind == belief.Restate {
			restates++
		}
	}
	if restates != 1 {
		t.Errorf("restate events=%d, want 1", restates)
	}
	if _, err := e.db.Rebuild(e.ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := e.db.Belief(e.ctx, id); b.Statement != "User lives in Lisbon" {
		t.Errorf("after rebuild: %q, want the restated sentence", b.Statement)
	}
	// A second mention in step changes nothing.
	e.sayIn("s2", "", "I live in Lisbon")
	if st := e.run(); st.Restated != 0 {
		t.Errorf("second cycle Restated=%d, want 0", st.Restated)
	}
	if b, _ := e.db.Belief(e.ctx, id); strings.Contains(b.Statement, "moved") {
		t.Errorf("statement %q still says how the value came about", b.Statement)
	}
}
