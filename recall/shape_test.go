package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestRecallValueOfTheSlotsShape: "everything runs in eu-west-1 btw",
// "we're pinned to Python 3.10" and "the admin app serves on 8501" were
// read as no fact and share no word with the prompts that need them; the
// value's own shape (a cloud region, a language and its version, a port)
// says which slot they state. A prompt that needs none is told none.
func TestRecallValueOfTheSlotsShape(t *testing.T) {
	toldEach(t, "/a", []string{
		"fwiw everything runs in eu-west-1 btw, the bucket names are prefixed with acme-",
		"heads up we're pinned to Python 3.10 because the lab cluster is ancient",
		"the admin app serves on 8501, it's a streamlit thing",
		"can you tidy up the imports in the reports module",
	}, []toldCase{
		{"create an S3 bucket for the nightly exports in our region", "eu-west-1", "8501"},
		{"can I use match statements in this repo?", "3.10", "eu-west-1"},
		{"what url do I open to see the admin app?", "8501", "3.10"},
		{"explain how a bloom filter works", "", "eu-west-1"},
	})
}

// TestRecallNotesWhichShapedValueIsCurrent: a correction that names the
// new region and the old one says which is current; so does a move
// "from 8080 to 9090".
func TestRecallNotesWhichShapedValueIsCurrent(t *testing.T) {
	for _, tc := range []struct {
		said, prompt, note string
	}{
		{"correction: eu-central-1, Frankfurt. eu-west-1 is our old account, ignore it",
			"create an S3 bucket for the export files in our region", "now: eu-central-1; earlier: eu-west-1"},
		{"moved the api from port 8080 to port 9090 because of the proxy",
			"what url do I open to see the api locally?", "now: 9090; earlier: 8080"},
	} {
		clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
		out := toldAfter(t, &clock, tc.prompt, func(ctx context.Context, tx *store.Tx) error {
			_, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: tc.said})
			return err
		})
		if !strings.Contains(out, tc.note) {
			t.Errorf("%q: not noted %q:\n%s", tc.said, tc.note, out)
		}
	}
}

// TestRecallSlotOfManyValuesMovesOn: a project listens on several ports,
// so "starting this week the api listens on 8090, 8080 clashed with the
// proxy" supersedes no belief; recall leaves the older port out (marked,
// when the prompt asks about the past). A message that names both without
// a change keeps both.
func TestRecallSlotOfManyValuesMovesOn(t *testing.T) {
	port := func(p string) belief.Spec {
		return belief.Spec{Statement: "Project listens on port " + p, Subject: "project", Predicate: "port_is", Object: p, Kind: belief.KindFact}
	}
	for _, tc := range []struct {
		newer, prompt string
		want, not     string
	}{
		{"starting this week the api listens on 8090, 8080 clashed with the proxy", "curl the health endpoint on my machine", "8090", "port 8080"},
		{"starting this week the api listens on 8090, 8080 clashed with the proxy", "which port did the api listen on before?", "no longer current", ""},
		{"the admin listens on 8090 and the api on 8080", "curl the health endpoint on my machine", "port 8080", ""},
		// the older value unnamed, but the same thing moved
		{"we moved the api behind caddy, so it's on 8090 now", "curl the health endpoint on my machine", "8090", "port 8080"},
		{"we moved the admin panel to its own process on 8090", "curl the health endpoint on my machine", "port 8080", ""},
	} {
		r := recallerOver(t, []saidBelief{{"the api listens on 8080", port("8080")}, {tc.newer, port("8090")}})
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, b := range res.Beliefs {
			lines = append(lines, BeliefLine(b))
		}
		told := strings.Join(lines, "\n")
		if !strings.Contains(told, tc.want) {
			t.Errorf("after %q, %q: beliefs do not say %q:\n%s", tc.newer, tc.prompt, tc.want, told)
		}
		if tc.not != "" && strings.Contains(told, tc.not) {
			t.Errorf("after %q, %q: beliefs say %q:\n%s", tc.newer, tc.prompt, tc.not, told)
		}
	}
}

// TestRecallNotesWhichToolIsCurrent: "we finally killed teamcity,
// everything runs on GitHub Actions since tuesday" was read as the CI
// being GitHub Actions, no change; shown beside that belief, the message
// says which of the two tools it names is current. Without a word of
// change ("GitHub Actions runs the tests, TeamCity the nightly builds")
// it says nothing of the kind.
func TestRecallNotesWhichToolIsCurrent(t *testing.T) {
	for _, tc := range []struct {
		said string
		want bool
	}{
		{"news: we finally killed teamcity, everything runs on GitHub Actions since tuesday", true},
		{"GitHub Actions runs the tests here, teamcity only the nightly builds", false},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, belief.Spec{Statement: "Project uses GitHub Actions for CI", Subject: "project",
			Predicate: "uses_ci", Object: "GitHub Actions", Kind: belief.KindFact}}})
		res, err := r.Recall(context.Background(), Query{Text: "add a nightly CI job that runs the e2e suite", Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		told := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
		if !strings.Contains(strings.ToLower(told), "teamcity") {
			t.Fatalf("%q is not shown:\n%s", tc.said, told)
		}
		if got := strings.Contains(told, "earlier: TeamCity"); got != tc.want {
			t.Errorf("%q: marked %v, want %v:\n%s", tc.said, got, tc.want, told)
		}
	}
}
