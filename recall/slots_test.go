package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestHabitFromAnotherProject: "I always use pnpm", said in one
// repository, is how the person sets up a project in another that holds
// nothing of the slot; a project that has its own value keeps it, and a
// project's own tool stays in its project, said with "I" ("I use yarn in
// this repo") or without a word of habit.
func TestHabitFromAnotherProject(t *testing.T) {
	pm := func(subject, object, project string) belief.Spec {
		who := "User"
		if subject == "project" {
			who = "Project"
		}
		return belief.Spec{Statement: who + " uses " + object + " as their package manager", Subject: subject,
			Predicate: "uses_package_manager", Object: object, Kind: belief.KindFact, ProjectPath: project}
	}
	for _, tc := range []struct {
		name  string
		said  []saidBelief
		query string
		want  string
		not   string
	}{
		{"the person's habit", []saidBelief{{"I always use pnpm, npm is way too slow for me", pm("user", "pnpm", "/b")}},
			"/a", "pnpm", ""},
		{"the project's own value", []saidBelief{{"I always use pnpm, npm is way too slow for me", pm("user", "pnpm", "/b")},
			{"this repo uses yarn", pm("project", "yarn", "/a")}}, "/a", "yarn", "pnpm"},
		{"a repository's, said with I", []saidBelief{{"I use yarn in this repo, the lockfile is yarn.lock", pm("user", "yarn", "/b")}},
			"/a", "", "yarn"},
		{"said once, no habit", []saidBelief{{"I use yarn", pm("user", "yarn", "/b")}}, "/a", "", "yarn"},
		{"another project's tool", []saidBelief{{"this repo uses yarn", pm("project", "yarn", "/b")}}, "/a", "", "yarn"},
	} {
		r := recallerOver(t, tc.said)
		res, err := r.Recall(context.Background(), Query{Text: "set up a new node project for the cli tool", Project: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		var told []string
		for _, b := range res.Beliefs {
			told = append(told, b.Statement)
		}
		all := strings.Join(told, "\n")
		if tc.want != "" && !strings.Contains(all, tc.want) {
			t.Errorf("%s: beliefs do not say %q:\n%s", tc.name, tc.want, all)
		}
		if tc.not != "" && strings.Contains(all, tc.not) {
			t.Errorf("%s: beliefs say %q:\n%s", tc.name, tc.not, all)
		}
	}
}

// TestORMFallsBackToDatabase: a change to a table needs the ORM; with none
// known, the database it runs on answers, once.
func TestORMFallsBackToDatabase(t *testing.T) {
	db := belief.Spec{Statement: "Project uses PostgreSQL as its database", Subject: "project", Predicate: "uses_database", Object: "postgres", Kind: belief.KindFact}
	r := recallerOver(t, []saidBelief{{"we're fully on postgres now, mysql is gone", db}})
	for _, prompt := range []string{"add a nullable nickname column to users", "write an upsert for the users table"} {
		res, err := r.Recall(context.Background(), Query{Text: prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range res.Beliefs {
			if strings.Contains(b.Statement, "PostgreSQL") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q: the database shown %d times, want once: %+v", prompt, n, res.Beliefs)
		}
	}
}

// TestFrameworkAnswersForItsModels: a model or a migration in a
// full-stack framework's app is written the framework's way: with no ORM
// known, the framework is what the task needs.
func TestFrameworkAnswersForItsModels(t *testing.T) {
	fw := belief.Spec{Statement: "Project uses Rails", Subject: "project", Predicate: "uses_framework", Object: "rails", Kind: belief.KindFact}
	r := recallerOver(t, []saidBelief{{"the api is rails 7", fw}})
	for _, prompt := range []string{"generate a model for coupons", "add a migration that adds a nickname column to users"} {
		res, err := r.Recall(context.Background(), Query{Text: prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.Beliefs, func(b BeliefHit) bool { return strings.Contains(b.Statement, "Rails") }) {
			t.Errorf("%q: the framework not told: %+v", prompt, res.Beliefs)
		}
	}
}

// TestToolNameAsCommonNoun: "what's a semaphore in concurrency?" asks of
// the thing, not of the CI the project runs on, though the words match.
func TestToolNameAsCommonNoun(t *testing.T) {
	ci := belief.Spec{Statement: "Project uses Semaphore for CI", Subject: "project", Predicate: "uses_ci", Object: "semaphore", Kind: belief.KindFact}
	r := recallerOver(t, []saidBelief{{"our CI runs on Semaphore", ci}})
	for prompt, want := range map[string]bool{
		"what's a semaphore in concurrency and when would I use one instead of a mutex?": false,
		"why is semaphore so slow on this branch?":                                       true,
	} {
		res, err := r.Recall(context.Background(), Query{Text: prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, b := range res.Beliefs {
			got = got || strings.Contains(b.Statement, "Semaphore")
		}
		for _, e := range res.Episodes {
			got = got || strings.Contains(e.Text, "Semaphore")
		}
		if got != want {
			t.Errorf("%q: Semaphore told %v, want %v", prompt, got, want)
		}
	}
}

// TestWorldQuestions: a question about the world (no "I", "my", "we",
// "here") gets the person's facts, rules and messages only where it names
// the thing they are about in particular — not where it shares a word in
// another sense ("the surface of mercury"), names a kind ("a product
// manager", "cats") or names their value ("the double helix").
func TestWorldQuestions(t *testing.T) {
	fact := func(statement, subject, predicate, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: subject, Predicate: predicate, Object: object, Kind: belief.KindFact}
	}
	for _, tc := range []struct {
		said   string
		spec   belief.Spec
		prompt string
		want   bool
	}{
		{"never use emojis in commit messages", rule("Never use emojis in commit messages"), "what's the unicode range for emojis?", false},
		{"my cat is named Docker", fact("User's cat's name is Docker", "user's cat", "name_is", "docker"), "why do cats knead blankets?", false},
		{"the product manager is Lena", fact("Project's product manager is Lena", "project", "product_manager_is", "lena"), "what does a product manager do all day?", false},
		{"I work at Mercury Bank", fact("User works at Mercury Bank", "user", "works_at", "mercury bank"), "how hot is the surface of mercury?", false},
		{"my editor is helix", fact("User uses Helix as their editor", "user", "uses_editor", "helix"), "explain the double helix structure of dna", false},
		{"our region is eu-west-1", fact("Project's region is eu-west-1", "project", "region_is", "eu-west-1"), "what is the region of convergence of a power series?", false},
		{"our region is eu-west-1", fact("Project's region is eu-west-1", "project", "region_is", "eu-west-1"), "which region is the bucket in?", true},
		// a name before a kind, or a kind of words and knowledge
		{"we're on python 3.11", fact("Project uses Python 3.11", "project", "uses_language", "python 3.11"), "what does the python walrus operator do?", false},
		{"I use neovim with a custom config", fact("User uses Neovim as their editor", "user", "uses_editor", "neovim"), "where does the expression 'full of vim' come from?", false},
		{"I live in Phoenix", fact("User lives in Phoenix", "user", "lives_in", "phoenix"), "how does the phoenix framework do pubsub?", false},
		{"I'm on Pacific time", fact("User's timezone is Pacific time", "user", "timezone_is", "pacific time"), "how cold is the pacific ocean's floor?", false},
		{"tests run on pytest here", fact("Project uses pytest for tests", "project", "uses_test_runner", "pytest"), "what is a regression in statistics?", false},
		{"I'm a backend engineer", fact("User's role is backend engineer", "user", "role_is", "backend engineer"), "which careers pay best these days?", false},
		{"we use Django for the backend", fact("Project uses Django", "project", "uses_framework", "django"), "why is the web framework so slow on cold start?", true},
		// the same words of a particular thing
		{"standup is at 9:30", fact("User has a standup at 9:30", "user", "has_meeting", "standup at 9:30"), "When is standup?", true},
		{"the product manager is Lena", fact("Project's product manager is Lena", "project", "product_manager_is", "lena"), "who is the product manager?", true},
		{"my editor is helix", fact("User uses Helix as their editor", "user", "uses_editor", "helix"), "which editor do I use?", true},
		// "the" points at a particular thing of the person's world
		{"sorry, I mixed them up: Anika is the DBA, Ravi is in security", fact("Project's dba is Anika", "project", "dba_is", "anika"), "who's the DBA?", true},
		{"we moved the build to Vite", fact("Project bundles with Vite", "project", "uses_bundler", "vite"), "why is the bundler so slow?", true},
		// the world's places and a tool's name as a plural or mass noun
		{"this backend is Spring Boot", fact("Project uses Spring Boot", "project", "uses_framework", "spring boot"), "when does spring start in the southern hemisphere?", false},
		{"the worker pool is written in Python", fact("Project uses Python", "project", "uses_language", "python"), "how big do pythons get in the wild?", false},
		{"poetry manages deps here", fact("Project uses Poetry as its package manager", "project", "uses_package_manager", "poetry"), "recommend some poetry by Mary Oliver", false},
		{"this backend is Spring Boot", fact("Project uses Spring Boot", "project", "uses_framework", "spring boot"), "why does spring fail to start the app?", true},
		// a title and the people who made the world's works
		{"our event queue is Kafka", fact("Project uses Kafka as its message queue", "project", "uses_queue", "kafka"), "who wrote The Metamorphosis, was it Kafka?", false},
		{"our event queue is Kafka", fact("Project uses Kafka as its message queue", "project", "uses_queue", "kafka"), "why does the Kafka consumer lag?", true},
		{"the service is written in Rust", fact("Project uses Rust", "project", "uses_language", "rust"), "who designed Rust, was it Graydon Hoare?", false},
		// a name the world gives: "the Berlin Wall", "the board game Go"
		{"I live in Berlin, Neukölln", fact("User lives in Berlin, Neukölln", "user", "lives_in", "berlin, neukölln"), "why was the Berlin Wall built?", false},
		{"I live in Berlin, Neukölln", fact("User lives in Berlin, Neukölln", "user", "lives_in", "berlin, neukölln"), "what's the weather like in Berlin today?", true},
		{"we're on Node 20 LTS here", fact("Project uses Node.js 20", "project", "uses_runtime", "node.js 20"), "what base image should the Dockerfile use?", true},
		{"we're on go 1.21 here", fact("Project uses Go 1.21", "project", "uses_language", "go 1.21"), "in the board game Go, what is a ko?", false},
		{"we're on go 1.21 here", fact("Project uses Go 1.21", "project", "uses_language", "go 1.21"), "in Go, what is a goroutine leak?", true},
		// words that cannot name a thing of the person's
		{"postgres is on 5432, standard", fact("Project listens on port 5432", "project", "port_is", "5432"), "convert 5432 seconds into hours and minutes", false},
		{"postgres is on 5432, standard", fact("Project listens on port 5432", "project", "port_is", "5432"), "what is running on 5432 here?", true},
		{"main branch is main, protected, needs 2 approvals", fact("Project's default branch is main", "project", "default_branch", "main"), "explain the main() function signature in C", false},
		{"my editor is Helix", fact("User uses Helix as their editor", "user", "uses_editor", "helix"), "how do I become a book editor?", false},
		{"my editor is Helix", fact("User uses Helix as their editor", "user", "uses_editor", "helix"), "how do I get a good editor setup for rust?", true},
		// a name of theirs, which the prompt writes as a common word
		{"I work at Apple as a product designer", fact("User works at Apple", "user", "works_at", "apple"), "best apple varieties for a pie?", false},
		{"I work at Apple as a product designer", fact("User works at Apple", "user", "works_at", "apple"), "write my bio for the Apple design team page", true},
		{"my name is Rose", fact("User's name is Rose", "user", "name_is", "rose"), "how often should I water a rose bush?", false},
		{"my name is Rose", fact("User's name is Rose", "user", "name_is", "rose"), "what's my name again?", true},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, tc.spec}})
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		if got := !res.Empty(); got != tc.want {
			t.Errorf("%q after %q: told something %v, want %v: %+v %+v", tc.prompt, tc.said, got, tc.want, res.Beliefs, res.Episodes)
		}
	}
}

// TestChangeIdiomsRetireTheBelief: a newer message in the idioms people
// use for leaving one thing for another, which the extractor may not read
// as a change, keeps the older belief from being shown as current and is
// shown itself.
func TestChangeIdiomsRetireTheBelief(t *testing.T) {
	fact := func(statement, subject, predicate, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: subject, Predicate: predicate, Object: object, Kind: belief.KindFact}
	}
	for _, tc := range []struct {
		said, later, prompt string
		spec                belief.Spec
		want                string
	}{
		{"I live in Leeds", "finally settled into the new flat in Glasgow", "any good climbing gyms near me?",
			fact("User lives in Leeds", "user", "lives_in", "leeds"), "Glasgow"},
		{"I work at Shopify", "last day at Shopify was friday, starting at Linear on monday", "update my email signature with my new company",
			fact("User works at Shopify", "user", "works_at", "shopify"), "Linear"},
		{"I use vscode", "gave zed a try and never looked back", "set up format on save in my editor",
			fact("User uses VS Code as their editor", "user", "uses_editor", "vscode"), "zed"},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, tc.spec}})
		err := r.DB.Write(context.Background(), func(tx *store.Tx) error {
			_, err := tx.AddEpisode(context.Background(), &store.Episode{ProjectPath: "/p", Kind: store.EpisodePrompt, Content: tc.later})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		told := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
		if !strings.Contains(told, tc.want) {
			t.Errorf("after %q, %q: not told %q:\n%s", tc.later, tc.prompt, tc.want, told)
		}
		for _, b := range res.Beliefs {
			if b.Statement == tc.spec.Statement && !b.Doubted && b.SupersededBy == "" {
				t.Errorf("after %q, %q: %q shown as current:\n%s", tc.later, tc.prompt, b.Statement, told)
			}
		}
	}
}

// TestRuleOnAReplacedMessage: a rule whose message a newer one replaced
// ("actually, switch to British English for the docs") is shown as
// possibly out of date, though no new rule was read from the correction.
func TestRuleOnAReplacedMessage(t *testing.T) {
	r := recallerOver(t, []saidBelief{{"write the docs in American English", rule("Always write the docs in American English")}})
	err := r.DB.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.AddEpisode(context.Background(), &store.Episode{ProjectPath: "/p", Kind: store.EpisodePrompt, Content: "actually, switch to British English for the docs"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Recall(context.Background(), Query{Text: "write the docs for the export feature", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	told := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
	for _, line := range strings.Split(told, "\n") {
		if strings.Contains(line, "American") && !strings.Contains(line, "out of date") && !strings.Contains(line, "no longer current") {
			t.Errorf("the replaced rule is shown as current: %q\n%s", line, told)
		}
	}
	if !strings.Contains(told, "British") {
		t.Errorf("the correction is not shown:\n%s", told)
	}
}

// afterLater stores a later message, said in project where, then recalls
// prompt from /p: whether the belief of the statement is shown as current
// (shown, and not as possibly out of date or replaced), and what is told.
func afterLater(t *testing.T, r *Recaller, later, where, prompt, statement string) (current bool, told string) {
	t.Helper()
	err := r.DB.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.AddEpisode(context.Background(), &store.Episode{ProjectPath: where, Kind: store.EpisodePrompt, Content: later, CreatedAt: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Recall(context.Background(), Query{Text: prompt, Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Beliefs {
		if b.Statement == statement {
			current = !b.Doubted && b.SupersededBy == ""
		}
	}
	return current, Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
}

// TestRivalToolSaidAsOurs: a newer message that names another tool of the
// kind as the person's or the project's own, with no word of change,
// leaves the older belief shown as possibly out of date, beside the
// message; another person's tool, a page about one, a plan or a question
// leaves it as it is.
func TestRivalToolSaidAsOurs(t *testing.T) {
	runner := belief.Spec{Statement: "Project uses Mocha for tests", Subject: "project", Predicate: "uses_test_runner", Object: "mocha", Kind: belief.KindFact}
	for _, tc := range []struct {
		later  string
		doubts bool
	}{
		{"vitest runs our whole suite in four seconds now that it is set up", true},
		{"the vitest watcher keeps eating the CPU on big branches", true},
		{"our vitest run fails on the date tests, can you look at the output?", true},
		{"our vitest run fails on the snapshot tests, could you look at the output?", true},
		{"we could try vitest for the new package", false},
		{"a friend says vitest is much faster than what we have", false},
		{"the vitest docs have a nice section on snapshots", false},
		{"is vitest any good for a monorepo?", false},
		{"we might try vitest next quarter", false},
	} {
		r := recallerOver(t, []saidBelief{{"tests here run on mocha", runner}})
		current, told := afterLater(t, r, tc.later, "/p", "write a test for the slugify helper", runner.Statement)
		if current == tc.doubts {
			t.Errorf("after %q: the mocha belief shown as current %v, want %v:\n%s", tc.later, current, !tc.doubts, told)
		}
		if tc.doubts && !strings.Contains(told, tc.later) {
			t.Errorf("after %q: the message is not shown:\n%s", tc.later, told)
		}
	}
}

// TestRivalToolFoundWithoutSharedWords: a newer message that takes up
// another editor shares no word with the prompt or the belief, has no
// word of change and leaves out its "I" ("been using Helix full time");
// it doubts the older belief. Another person's tool does not.
func TestRivalToolFoundWithoutSharedWords(t *testing.T) {
	editor := belief.Spec{Statement: "User uses Sublime Text as their editor", Subject: "user", Predicate: "uses_editor", Object: "sublime text", Kind: belief.KindFact}
	for _, tc := range []struct {
		later  string
		doubts bool
	}{
		{"been using Helix full time since spring, the modal stuff finally clicked", true},
		{"a coworker swears by helix, is it any good?", false},
		{"my friend uses helix and loves it", false},
	} {
		r := recallerOver(t, []saidBelief{{"I code in Sublime Text mostly", editor}})
		// a history in which the message is far from the prompt: it is
		// found by the editors' names (neededTools), not by its words
		err := r.DB.Write(context.Background(), func(tx *store.Tx) error {
			for i := range 80 {
				_, err := tx.AddEpisode(context.Background(), &store.Episode{ProjectPath: "/p", Kind: store.EpisodePrompt,
					Content:   fmt.Sprintf("the jump to definition in my editor hangs on the file parser_%d.go", i),
					CreatedAt: time.Date(2026, 11, 22, 12, 0, i, 0, time.UTC)})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		current, told := afterLater(t, r, tc.later, "/p", "how do i jump to definition in my editor", editor.Statement)
		if current == tc.doubts {
			t.Errorf("after %q: the Sublime belief shown as current %v, want %v:\n%s", tc.later, current, !tc.doubts, told)
		}
		if tc.doubts && !strings.Contains(told, "Helix") {
			t.Errorf("after %q: the message is not shown:\n%s", tc.later, told)
		}
	}
}

// TestSuggestionRuleOnAGeneralQuestion: a question for a library is a
// request for a suggestion, which the rule on suggestions governs, though
// it asks for knowledge and names nothing of the person's.
func TestSuggestionRuleOnAGeneralQuestion(t *testing.T) {
	spec := rule("When you suggest a library, always tell me the license too")
	for prompt, want := range map[string]bool{
		"what's a good library for generating PDFs in Go?": true,
		"what's the capital of Peru?":                      false,
	} {
		r := recallerOver(t, []saidBelief{{"when you suggest a library, tell me the license too", spec}})
		res, err := r.Recall(context.Background(), Query{Text: prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(res.Beliefs, func(b BeliefHit) bool { return b.Statement == spec.Statement })
		if got != want {
			t.Errorf("%q: the rule told %v, want %v: %+v", prompt, got, want, res.Beliefs)
		}
	}
}

// TestNamedSlotLeftOrMovedElsewhere: a newer message says the person in a
// named slot left ("priyanka left for a startup"), without the slot's
// words, or says where the person lives now in another project's session;
// either doubts the belief and is shown. A project's own named slot is not
// told by another project's messages.
func TestNamedSlotLeftOrMovedElsewhere(t *testing.T) {
	fact := func(statement, subject, predicate, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: subject, Predicate: predicate, Object: object, Kind: belief.KindFact}
	}
	for _, tc := range []struct {
		said, later, where, prompt string
		spec                       belief.Spec
		doubts                     bool
	}{
		{"my lead is Priyanka, she's great", "priyanka left for a startup :( Dmitri Volkov took over the team", "/p",
			"write a short note asking my boss for friday off", fact("User's manager is Priyanka", "user", "manager_is", "priyanka"), true},
		{"my lead is Priyanka, she's great", "priyanka left the standup early, can you summarise it?", "/p",
			"write a short note asking my boss for friday off", fact("User's manager is Priyanka", "user", "manager_is", "priyanka"), false},
		{"I'm based in Porto", "moving update: we're in Valencia now, boxes still everywhere lol. can you bump this dependency", "/other",
			"find me a climbing gym near where I live", fact("User lives in Porto", "user", "lives_in", "porto"), true},
		{"Kofi is the tech lead here", "Kofi left for a startup, Hana leads that team now", "/other",
			"who should sign off on the architecture doc?", fact("Project's tech lead is Kofi", "project", "tech_lead_is", "kofi"), false},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, tc.spec}})
		current, told := afterLater(t, r, tc.later, tc.where, tc.prompt, tc.spec.Statement)
		if current == tc.doubts {
			t.Errorf("after %q: %q shown as current %v, want %v:\n%s", tc.later, tc.spec.Statement, current, !tc.doubts, told)
		}
		if tc.doubts && !strings.Contains(told, tc.later) {
			t.Errorf("after %q: the message is not shown:\n%s", tc.later, told)
		}
	}
}

// TestChangeMessageMarksWhatItRemoved: the message a belief rests on names
// the value it removed, its name inside the verb ("we ripped redux out"):
// shown, it says which value is the earlier one.
func TestChangeMessageMarksWhatItRemoved(t *testing.T) {
	spec := belief.Spec{Statement: "Project uses Zustand for state management", Subject: "project", Predicate: "uses_state_management", Object: "zustand", Kind: belief.KindFact}
	said := "these days it's Zustand, we ripped redux out in october. why does this selector rerender so much"
	r := recallerOver(t, []saidBelief{{said, spec}})
	res, err := r.Recall(context.Background(), Query{Text: "add a cart badge count that updates when items are added", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	told := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
	for _, line := range strings.Split(told, "\n") {
		if strings.Contains(strings.ToLower(line), "redux") && !strings.Contains(line, "earlier") {
			t.Errorf("the old value is shown without saying it is the earlier one:\n%s", told)
		}
	}
	if !strings.Contains(told, "Zustand") {
		t.Errorf("the current value is not told:\n%s", told)
	}
}

// TestPersonalMessageFromAnotherProject: what the person says of
// themselves in one repository's session ("had to walk Biscuit (my
// beagle)") is found for a prompt elsewhere that needs it ("a name for my
// dog"), though no belief was read from it; another project's messages
// about its own work, or a need of the project's, stay in their project.
func TestPersonalMessageFromAnotherProject(t *testing.T) {
	for _, tc := range []struct {
		said, prompt string
		want         bool
	}{
		{"sorry for the slow reply, had to walk Biscuit (my beagle)", "help me come up with a funny instagram handle for my dog", true},
		{"the dog-walking app stores walks in postgres", "help me come up with a funny instagram handle for my dog", false},
		{"deps here are managed with pip-tools", "add httpx as a dependency", false},
	} {
		ctx := context.Background()
		r := recallerOver(t, nil)
		if err := r.DB.Write(ctx, func(tx *store.Tx) error {
			_, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/work/app", Kind: store.EpisodePrompt, Content: tc.said})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		res, err := r.Recall(ctx, Query{Text: tc.prompt, Project: "/home/scratch"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(res.Episodes, func(e EpisodeHit) bool { return e.Text == tc.said })
		if got != tc.want {
			t.Errorf("%q after %q in another project: told %v, want %v: %+v", tc.prompt, tc.said, got, tc.want, res.Episodes)
		}
	}
}

// TestEverydaySenseOfToolNames: a tool's name that is an everyday word,
// in lower case, in a prompt that says nothing of software, is the word:
// "rust off a cast iron pan" tells nothing of the project's Rust. The
// same word beside software, or capitalised, is the tool.
func TestEverydaySenseOfToolNames(t *testing.T) {
	fact := func(statement, subject, predicate, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: subject, Predicate: predicate, Object: object, Kind: belief.KindFact}
	}
	rust := fact("Project uses Rust", "project", "uses_language", "rust")
	fish := fact("User uses fish as their shell", "user", "uses_shell", "fish")
	black := fact("Project uses Black to format code", "project", "uses_formatter", "black")
	for _, tc := range []struct {
		said   string
		spec   belief.Spec
		prompt string
		want   bool
	}{
		{"the service is written in Rust", rust, "how do I get rust off a cast iron pan?", false},
		{"my shell is fish", fish, "how long should I bake a fish fillet at 200C?", false},
		{"the service is written in Rust", rust, "why does the rust borrow checker reject this?", true},
		{"the service is written in Rust", rust, "is Rust a good fit here?", true},
		{"my shell is fish", fish, "how do I add an alias in fish?", true},
		// a colour in talk of colours, even in a code task
		{"formatting is via black, don't fight it", black, "make the navbar background black and the text white", false},
		{"formatting is via black, don't fight it", black, "reformat the models with black", true},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, tc.spec}})
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(res.Beliefs, func(b BeliefHit) bool { return b.Statement == tc.spec.Statement })
		if got != tc.want {
			t.Errorf("%q after %q: the belief told %v, want %v: %+v", tc.prompt, tc.said, got, tc.want, res.Beliefs)
		}
	}
}

// TestNamesOnly: a memory that shares with a prompt of no one's own only
// a name the prompt writes as a common word is about something else; a
// tool's name is the tool however it is written.
func TestNamesOnly(t *testing.T) {
	for _, tc := range []struct {
		prompt, text string
		want         bool
	}{
		{"best apple varieties for a pie?", "I work at Apple as a product designer", true},
		{"why is jest so slow on big snapshots?", "Project uses Jest for tests", false},
		{"why is my apple tree not fruiting?", "I work at Apple as a product designer", false},
		{"best apple varieties for a pie?", "apple pie is my favourite", false},
	} {
		s := search{terms: queryTerms(tc.prompt), common: commonTerms(tc.prompt)}
		if got := s.namesOnly(tc.text); got != tc.want {
			t.Errorf("namesOnly(%q) for %q = %v, want %v", tc.text, tc.prompt, got, tc.want)
		}
	}
}
