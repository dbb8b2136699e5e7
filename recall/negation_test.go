package recall

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// seedJestEnded tells "test runner is jest", then, deny minutes later (or
// before, when deny is negative), "jest is gone"; each message supports
// its belief, consolidated an hour after the last.
func seedJestEnded(clock *time.Time, deny time.Duration) func(ctx context.Context, tx *store.Tx) error {
	return func(ctx context.Context, tx *store.Tx) error {
		start := *clock
		said := func(at time.Time, text string) (*store.Episode, error) {
			*clock = at
			e := &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: text}
			_, err := tx.AddEpisode(ctx, e)
			return e, err
		}
		affirm, err := said(start.Add(time.Minute), "test runner is jest, the config is in jest.config.ts")
		if err != nil {
			return err
		}
		denyAt := start.Add(time.Minute + deny)
		ended, err := said(denyAt, "heads up: jest is gone from this repo, fix the leftover jest.fn calls in utils.test.ts")
		if err != nil {
			return err
		}
		*clock = start.Add(2 * time.Hour)
		for _, b := range []struct {
			statement, predicate string
			from                 *store.Episode
		}{
			{"Project uses Jest for tests", "uses_test_runner", affirm},
			{"Project no longer uses Jest for tests", "not_uses_test_runner", ended},
		} {
			id, err := tx.CreateBelief(ctx, belief.Spec{Statement: b.statement, Subject: "project", Predicate: b.predicate,
				Object: "jest", Scope: belief.ScopeProject, ProjectPath: "/a"})
			if err != nil {
				return err
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: b.from.ID, Label: belief.Supports,
				Support: 1, Reliability: 1, Source: "episode"}); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestRecallLeavesOutAValueANewerDenialEnded: "test runner is jest", then
// "jest is gone" (its replacement not read). The denial is a belief of
// its own, never exclusive, so both stay active; shown together they
// would tell Claude both. The affirmation, and the older message stating
// jest, are left out of a prompt that needs the test runner, kept and
// marked when it asks about the past, and kept as they are when the
// denial is older than the affirmation.
func TestRecallLeavesOutAValueANewerDenialEnded(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "which test runner do we use? write a unit test for slugify", seedJestEnded(&clock, time.Hour))
	if strings.Contains(out, "Project uses Jest for tests") {
		t.Errorf("the ended affirmation is shown:\n%s", out)
	}
	if strings.Contains(out, "jest.config.ts") {
		t.Errorf("the older message stating jest is shown:\n%s", out)
	}
	if !strings.Contains(out, "no longer uses Jest") {
		t.Errorf("the denial is not shown:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "jest is gone") && !strings.Contains(line, "no longer: Jest") {
			t.Errorf("the message the denial rests on does not say what it ended: %q", line)
		}
	}

	clock = time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out = toldAfter(t, &clock, "which test runner did we use before?", seedJestEnded(&clock, time.Hour))
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Project uses Jest for tests") && !strings.Contains(line, "no longer current") {
			t.Errorf("asked about the past, the ended affirmation is shown unmarked: %q\n%s", line, out)
		}
	}

	// "jest is gone", then an hour later "test runner is jest": back on it
	clock = time.Date(2025, 5, 1, 14, 0, 0, 0, time.UTC)
	out = toldAfter(t, &clock, "which test runner do we use? write a unit test for slugify", seedJestEnded(&clock, -time.Hour))
	if !strings.Contains(out, "Project uses Jest for tests") {
		t.Errorf("an affirmation newer than the denial is left out:\n%s", out)
	}
}

// TestDropToldDenials: a denial whose value a shown belief of its slot
// gives as the earlier one is left out; one the shown beliefs do not tell
// (another value, another subject) stays.
func TestDropToldDenials(t *testing.T) {
	states := map[string]store.Belief{
		"zed":     {State: belief.State{Spec: belief.Spec{Subject: "user", Predicate: "uses_editor", Object: "Zed"}}},
		"nosub":   {State: belief.State{Spec: belief.Spec{Subject: "user", Predicate: relations.NotPrefix + "uses_editor", Object: "sublime text"}}},
		"novim":   {State: belief.State{Spec: belief.Spec{Subject: "user", Predicate: relations.NotPrefix + "uses_editor", Object: "vim"}}},
		"projsub": {State: belief.State{Spec: belief.Spec{Subject: "project", Predicate: relations.NotPrefix + "uses_editor", Object: "Sublime Text"}}},
	}
	in := []BeliefHit{{ID: "zed", Earlier: "Sublime Text"}, {ID: "nosub"}, {ID: "novim"}, {ID: "projsub"}}
	var got []string
	for _, b := range dropToldDenials(in, states) {
		got = append(got, b.ID)
	}
	if want := []string{"zed", "novim", "projsub"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// TestVersionSaysTheLanguage: "Project uses Go 1.21" says the language;
// "Project uses Go" beside it is left out. Without the version it stays.
func TestVersionSaysTheLanguage(t *testing.T) {
	fact := func(statement, predicate, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: "project", Predicate: predicate, Object: object, Kind: belief.KindFact}
	}
	for _, tc := range []struct {
		said []saidBelief
		want []string
	}{
		{[]saidBelief{{"we're on go 1.21 here", fact("Project uses Go", "uses_language", "go")}, {"we're on go 1.21 here", fact("Project uses Go 1.21", "go_version_is", "1.21")}},
			[]string{"Project uses Go 1.21"}},
		{[]saidBelief{{"we're on Node 20 LTS here", fact("Project runs on Node.js", "uses_runtime", "node")}, {"we're on Node 20 LTS here", fact("Project uses Node.js 20", "node_version_is", "20")}},
			[]string{"Project uses Node.js 20"}},
		{[]saidBelief{{"the service is written in Go", fact("Project uses Go", "uses_language", "go")}},
			[]string{"Project uses Go"}},
	} {
		r := recallerOver(t, tc.said)
		res, err := r.Recall(context.Background(), Query{Text: "which go or node version should the Dockerfile base image use?", Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range res.Beliefs {
			got = append(got, b.Statement)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("after %v: told %v, want %v", tc.said, got, tc.want)
		}
	}
}
