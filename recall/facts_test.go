package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

func anchorStems(text string) []string {
	var out []string
	for _, a := range readEpisodeFacts(text).anchors {
		out = append(out, a.stem)
	}
	return out
}

// TestEpisodeAnchors reads what the facts stated in an episode are about,
// and nothing from a task that only says "my".
func TestEpisodeAnchors(t *testing.T) {
	for text, want := range map[string]string{
		"my wife is called Ingrid, she's a nurse":                                 "wif",
		"btw sorry if I'm slow today, my daughter Mila has chickenpox":            "daughter",
		"I have a beagle named Waffles who eats literally everything":             "beagl",
		"We've got two cats, Pixel and Nori.":                                     "cat",
		"add a retry. my commute is like 50 minutes on the train":                 "commut",
		"Mila is my daughter, she's 6":                                            "daughter",
		"Sam and Priya are the code owners for the billing module":                "bill",
		"search is backed by Meilisearch, we reindex nightly":                     "search",
		"we use Redis for caching and as the session store":                       "session",
		"fix the flaky test in payments_test — oh and btw our CI is on Buildkite": "ci",
		"our environments are dev, qa and prod":                                   "environ",
		"User: we keep the sessions in Redis\n\nAssistant: OK.":                   "session",
		// a statement about a part of the project, opened by "the"
		"the docs site is built with Docusaurus":               "doc",
		"the backend here is FastAPI with SQLAlchemy 2":        "backend",
		"the monorepo has three services: api, worker and web": "servic",
		"the public API is versioned under /v3":                "api",
		"the release is on Friday":                             "releas",
		"the worker is called ingestor":                        "worker",
	} {
		if got := anchorStems(text); !slices.Contains(got, want) {
			t.Errorf("%q: anchors %v, want %q among them", text, got, want)
		}
	}
	for _, text := range []string{"fix my test, it is failing", "rename my variable to buffer", "what's the difference between a mutex and a semaphore?",
		"the build is red again, can you look?", "the test is flaky on CI", "why is the build so slow", "the file is too long"} {
		if got := anchorStems(text); len(got) > 0 {
			t.Errorf("%q: anchors %v, want none", text, got)
		}
	}
}

// TestLinked: a prompt word links to a slot when it is the same word or
// a close neighbour, and not otherwise.
func TestLinked(t *testing.T) {
	cases := []struct {
		prompt, episode string
		want            bool
	}{
		{"what should I get my wife for our anniversary?", "my wife is called Ingrid", true},
		{"the login sessions keep getting lost after a restart, why?", "we use Redis for caching and as the session store", true},
		{"what are good names for a third cat?", "We've got two cats, Pixel and Nori.", true},
		{"add the new feature flag config for each environment", "our environments are dev, qa and prod", true},
		{"rename the variable tmp to buffer in this function", "fix the flaky test — btw our CI is on Buildkite now", false},
		{"what's the difference between a mutex and a semaphore?", "my wife is called Ingrid", false},
		{"write a regex that matches semantic version strings", "I have a beagle named Waffles", false},
		{"add a docs page for the CLI", "the docs site is built with Docusaurus", true},
		{"add a healthcheck to every service", "the monorepo has three services: api, worker and web", true},
		{"why is the build so slow?", "the build is red again, can you look?", false},
	}
	for _, c := range cases {
		if got := linked(promptLinkWords(c.prompt), readEpisodeFacts(c.episode).anchors); got != c.want {
			t.Errorf("%q / %q: linked %v, want %v", c.prompt, c.episode, got, c.want)
		}
	}
}

// TestAnswerKinds: a who-question meets a fact that names a person for
// something it names; a when-question a time.
func TestAnswerKinds(t *testing.T) {
	if asksFor("who should review my PR?") != answerPerson || asksFor("when does the cleanup job run?") != answerTime ||
		asksFor("where do I look at the logs?") != answerPlace || asksFor("add a unit test for slugify") != 0 {
		t.Error("asksFor misread a question")
	}
	if readEpisodeFacts("Oskar is the maintainer of this repo, he reviews everything").answers&answerPerson == 0 {
		t.Error("a maintainer named is no person answer")
	}
	if readEpisodeFacts("The monorepo layout: apps/ has the frontends, services/ the go backends, and libs/ shared code.").answers&answerPlace == 0 {
		t.Error("a layout of paths is no place answer")
	}
	if readEpisodeFacts("fix the bug in src/parser.go").answers != 0 {
		t.Error("one path in a task is a place answer")
	}
	if readEpisodeFacts("fix the bug in the parser").answers != 0 {
		t.Error("a task gives an answer")
	}
	b := store.Belief{}
	b.Subject, b.Predicate, b.Object = "project", "ingestion_pipeline_owner_is", "marta"
	if beliefAnswers(b)&answerPerson == 0 {
		t.Error("an owner is no person answer")
	}
	b.Predicate, b.Object = "nightly_cleanup_cron_is", "2:30 utc"
	if beliefAnswers(b)&answerTime == 0 {
		t.Error("2:30 is no time answer")
	}
	s := &search{links: promptLinkWords("who should review my PR?"), asks: answerPerson}
	if !s.episodeLinked("ep_1", "Oskar is the maintainer of this repo, he reviews everything") {
		t.Error("who-question not linked to the maintainer who reviews")
	}
	s = &search{links: promptLinkWords("who should review my PR?"), asks: answerPerson}
	if s.episodeLinked("ep_2", "Oskar fixed the login bug yesterday") {
		t.Error("who-question linked to a person with no role")
	}
}

// BenchmarkFactLinks measures what the fact links add to one recall with
// no memo (a one-shot hook): the prompt's words, and twelve episodes read
// and checked.
func BenchmarkFactLinks(b *testing.B) {
	eps := []string{
		"User: fix the flaky test in payments_test — oh and btw our CI is on Buildkite now\n\nAssistant: OK.",
		"User: my wife is called Ingrid, she's a nurse, works nights mostly\n\nAssistant: OK.",
		"User: we use Redis for caching and as the session store. it runs in the same docker compose\n\nAssistant: OK.",
		"User: Sam and Priya are the code owners for the billing module\n\nAssistant: OK.",
		"User: can you add a retry to the http client. my commute is like 50 minutes on the train each way\n\nAssistant: OK.",
		"User: rename getUser to fetchUser everywhere and update the tests that import it\n\nAssistant: OK.",
	}
	for b.Loop() {
		s := &search{links: promptLinkWords("the login sessions keep getting lost after a restart, why?"), asks: asksFor("who do I ask about the billing module?")}
		for i := range 12 {
			s.episodeLinked(fmt.Sprint("ep_", i), eps[i%len(eps)])
		}
	}
}

// TestAmbiguousSlots: a slot noun with other common senses links only
// when the prompt says whose it is, and a known relation's predicate
// words do not link at all.
func TestAmbiguousSlots(t *testing.T) {
	cases := []struct {
		prompt, episode string
		want            bool
	}{
		{"what's a region in Rust's borrow checker?", "our region is eu-west-1", false},
		{"which region do we deploy to? set up our region in the terraform", "our region is eu-west-1", true},
		{"write a connection pool manager class in Python", "My manager is Priya.", false},
		{"implement an LRU cache in Java", "we use Redis for caching", false},
		{"put the product endpoint behind our cache", "we use Redis for caching", true},
		// a slot noun led by another noun is a compound of another sense,
		// though the prompt says "I"
		{"how do I write a context manager in python?", "my manager is Lena Fischer", false},
		{"how do I rename the file name in my script?", "my name is Oluwaseun", false},
		{"can I draft a note for my manager about the outage?", "my manager is Lena Fischer", true},
		{"do I ask my line manager or HR?", "my manager is Lena Fischer", true},
		{"which port do I open the api on locally?", "our port is 8081", true},
	}
	for _, c := range cases {
		if got := linked(promptLinkWords(c.prompt), readEpisodeFacts(c.episode).anchors); got != c.want {
			t.Errorf("%q / %q: linked %v, want %v", c.prompt, c.episode, got, c.want)
		}
	}
	b := store.Belief{}
	b.Kind, b.Subject, b.Predicate, b.Object = "fact", "user", "lives_in", "lisbon"
	if s := (&search{links: promptLinkWords("explain live reload in webpack")}); s.beliefLinked(b) {
		t.Error("live reload linked to where the person lives")
	}
	b.Subject, b.Predicate = "project", "python_version_is"
	if s := (&search{links: promptLinkWords("explain the difference between == and is in Python")}); s.beliefLinked(b) {
		t.Error("a Python question linked to the project's Python version")
	}
}

// TestKinClasses: "my kid" is the daughter and "my dog" the beagle, but a
// child node is nobody's child.
func TestKinClasses(t *testing.T) {
	cases := []struct {
		prompt, episode string
		want            bool
	}{
		{"any ideas for a quiet indoor activity to do with my kid while she recovers?", "my daughter Mila has chickenpox", true},
		{"write a short funny poem about my dog for a birthday card", "I have a beagle named Waffles", true},
		{"write a function that returns the first child node of a tree", "my daughter Mila has chickenpox", false},
	}
	for _, c := range cases {
		if got := linked(promptLinkWords(c.prompt), readEpisodeFacts(c.episode).anchors); got != c.want {
			t.Errorf("%q / %q: linked %v, want %v", c.prompt, c.episode, got, c.want)
		}
	}
	b := store.Belief{}
	b.Kind, b.Subject, b.Predicate, b.Object = "fact", "user's beagle", "name_is", "waffles"
	if s := (&search{links: promptLinkWords("write a short funny poem about my dog")}); !s.beliefLinked(b) {
		t.Error("my dog not linked to the beagle")
	}
}

// TestAmbiguousInOurPrompt: an ambiguous slot noun links in a prompt about
// the project ("curl the api on its port locally"), not in a question
// about the world.
func TestAmbiguousInOurPrompt(t *testing.T) {
	b := store.Belief{}
	b.Kind, b.Subject, b.Predicate, b.Object = "fact", "project", "port_is", "8443"
	if s := (&search{links: promptLinkWords("curl the api's health endpoint on its port locally")}); !s.beliefLinked(b) {
		t.Error("a port in a prompt about our api not linked")
	}
	if s := (&search{links: promptLinkWords("what's the default port for SSH?")}); s.beliefLinked(b) {
		t.Error("the default port for SSH linked to the project's port")
	}
}

// TestPersonalStatement: what the person says of themselves is theirs in
// every project; a message that speaks of the project, or only asks for
// work, stays the project's.
func TestPersonalStatement(t *testing.T) {
	for _, text := range []string{
		"before you start: the person who reviews all my work is my lead, Farah Haddad. now, can you look at the failing migration?",
		"heads up I'm on IST (india), so if you suggest meeting times keep that in mind",
		"my laptop is a Framework 13 with 32gb ram running Arch",
		"fix the flaky test, btw I moved to Porto last month",
		"I work at Spotify now",
		// traits said in passing (relations.Relation.States)
		"I'm vegetarian, have been for 10 years, and I'm also lactose intolerant",
		"(I only work 6am–1pm btw, school pickup after that, so anything that pages me later is useless)",
	} {
		if !PersonalStatement(text) {
			t.Errorf("%q: not read as the person's", text)
		}
	}
	for _, text := range []string{
		"can you add a retry to the S3 upload? also fyi our CI is on Buildkite now",
		"I'm seeing a flaky test in checkout_test.go",
		"this repo deploys to Fly.io",
		"my code is broken, fix it",
		"I moved to Oslo but we deploy from this repo to Fly",
		"cat the log file and grep for the vegetarian menu items",
	} {
		if PersonalStatement(text) {
			t.Errorf("%q: read as the person's", text)
		}
	}
}

// TestRuleEpisodeLinks: a rule the person set ("mocking the database in
// tests is banned here") reaches a task on what it names, though the
// extractor did not read it and the two share one word; a statement
// sharing the word is no rule.
func TestRuleEpisodeLinks(t *testing.T) {
	s := &search{q: Query{Text: "write tests for the OrderRepository"}, links: promptLinkWords("write tests for the OrderRepository")}
	if !s.episodeLinked("a", "mocking the database in tests is banned here, spin up the testcontainer instead") {
		t.Error("the rule on tests does not reach a task writing tests")
	}
	s = &search{q: Query{Text: "write tests for the OrderRepository"}, links: promptLinkWords("write tests for the OrderRepository")}
	if s.episodeLinked("b", "the tests took ages on my laptop yesterday") {
		t.Error("a statement about tests reached the task as a rule")
	}
	s = &search{q: Query{Text: "fix the off by one in this loop"}, links: promptLinkWords("fix the off by one in this loop")}
	if s.episodeLinked("c", "every new endpoint needs a rate limit, never skip it") {
		t.Error("a rule on endpoints reached an unrelated task")
	}
}

// TestSpeaksOfNeededSlot: a statement in the words of a slot the prompt
// needs is kept though no fact was read from it; a question, a task, or
// a tool slot's words are not enough.
func TestSpeaksOfNeededSlot(t *testing.T) {
	s := &search{needs: relations.Needs("is there anything fun to do around here this weekend?")}
	if s.speaksOfNeededSlot("ok so I'm based in Wellington these days, the build is green") == "" {
		t.Error("a statement of where the person is based is not kept for a prompt about around here")
	}
	for _, text := range []string{"where are you based?", "fix the flaky test in checkout_test.go"} {
		if s.speaksOfNeededSlot(text) != "" {
			t.Errorf("%q kept for a prompt about around here", text)
		}
	}
	s = &search{needs: relations.Needs("which package manager should I use to add lodash?")}
	if s.speaksOfNeededSlot("update the dependencies in the lockfile") != "" {
		t.Error("a tool slot's cue words kept an episode that names no tool")
	}
}

// TestNewestPerSlot: of the episodes kept only by a slot's words, the
// newest speaks for the slot; the others stay.
func TestNewestPerSlot(t *testing.T) {
	old, newer, other := ep("old", "I'm based in Austin", 1), ep("new", "we moved up to Portland", 2), ep("x", "the build is red", 3)
	old.slotOnly, newer.slotOnly = "lives_in", "lives_in"
	if got := hitIDs(newestPerSlot([]EpisodeHit{old, other, newer})); got != "x,new" {
		t.Errorf("kept %s; want the unrelated one and the newest of the slot", got)
	}
}

// TestOwnedThingLinks: a message in which the person says "my" of the
// thing a prompt says is theirs is about it, whatever the extractor read
// of the message ("my master thesis" for "… in my thesis?"); the things of
// the work at hand ("my code") link nothing.
func TestOwnedThingLinks(t *testing.T) {
	junk := belief.Spec{Statement: "User's manager is Prof", Subject: "user", Predicate: "manager_is", Object: "prof", Kind: belief.KindFact}
	for _, tc := range []struct {
		said, prompt string
		want         bool
	}{
		{"I am writing my master thesis in LaTeX, with biblatex and biber, my supervisor is very strict about the references", "how should I cite a software package in my thesis?", true},
		{"I am writing my master thesis in LaTeX, with biblatex and biber, my supervisor is very strict about the references", "how should I cite a software package in my blog post?", false},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, junk}})
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(res.Episodes, func(e EpisodeHit) bool { return strings.Contains(e.Text, "biblatex") })
		if got != tc.want {
			t.Errorf("%q after %q: the message shown %v, want %v", tc.prompt, tc.said, got, tc.want)
		}
	}
}

// TestNeededSlotInAMessageThatAsks: a message that states a needed slot's
// value before its closing question ("… our single A100 80GB … what
// should I look at first?") is kept for a prompt that needs the slot,
// though the extractor read nothing from it; a tool of the slot that
// answers for the needed one counts (a warehouse for a query).
func TestNeededSlotInAMessageThatAsks(t *testing.T) {
	junk := belief.Spec{Statement: "User's manager is Prof", Subject: "user", Predicate: "manager_is", Object: "prof", Kind: belief.KindFact}
	for _, tc := range []struct {
		said, prompt, shows string
		want                bool
	}{
		{"loss spikes around step 12k. this is on our single A100 80GB, bs 32 is the max that fits at 2k ctx. what should I look at first?",
			"can I double the context length for the next run?", "A100", true},
		{"is an A100 worth it for fine-tuning?", "can I double the context length for the next run?", "A100", false},
		{"For context the job is scheduled in Airflow and it writes into the ANALYTICS schema in Snowflake. Why is it failing on the second partition only?",
			"write me a query to check how many rows landed in yesterday's rollup", "Snowflake", true},
	} {
		r := recallerOver(t, []saidBelief{{tc.said, junk}})
		res, err := r.Recall(context.Background(), Query{Text: tc.prompt, Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(res.Episodes, func(e EpisodeHit) bool { return strings.Contains(e.Text, tc.shows) })
		if got != tc.want {
			t.Errorf("%q after %q: the message shown %v, want %v", tc.prompt, tc.said, got, tc.want)
		}
	}
}

func TestStatedPart(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"we build it with west. can you look at why the ADC drifts?", "we build it with west."},
		{"why does the ADC drift?", ""},
		{"I live in Lyon", "I live in Lyon"},
		{"config below\nthis is on our A100\nwhat now?", "config below\nthis is on our A100"},
	} {
		if got := statedPart(tc.in); got != tc.want {
			t.Errorf("statedPart(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
