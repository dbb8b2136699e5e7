package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// Task prompts and the guideline each needs though they share no word
// with it, and prompts that name a topic without asking for work on it.
var topicCases = []struct {
	prompt, guideline string
	want              bool
}{
	{"write the README intro for this project", "When you write docs for me, always use British spelling", true},
	{"add a column for the user's last login time", "Always use snake_case for all database columns", true},
	{"create a new React component for the avatar", "Never use default exports in this codebase, named exports only", true},
	{"write the commit message for this fix", "Always follow Conventional Commits", true},
	{"add some debug output to this handler", "Never use fmt.Println; use the logger package for output", true},
	{"bump react to the latest version", "Never bump dependencies by hand", true},
	{"I'm done with the feature, what else do I need before the PR?", "Always add a CHANGELOG entry for user-facing changes", true},
	{"scaffold a new vite app", "Never use npx; use pnpm dlx", true},
	{"hide the new checkout page behind a flag", "Always use LaunchDarkly for feature flags", true},
	{"where should I put the API key for the mail service?", "Never put secrets in config files; they come from Vault", true},
	{"write a debounce helper for the search box", "Never add semicolons", true},
	{"fix the typo in the header component", "Never reformat files you are not changing", true},
	// General questions and tasks on something else get nothing.
	{"how do I undo the last git commit but keep the changes?", "Always follow Conventional Commits", false},
	{"what does the --no-verify flag do in git?", "Always run make lint before you commit", false},
	{"write a function that reverses a linked list", "Always run go test with -race", false},
	{"what's the best way to learn SQL joins?", "Always use Testcontainers for database tests", false},
	{"implement an LRU cache in Java", "Always use snake_case for all database columns", false},
	{"explain the difference between == and is in Python", "Always follow Conventional Commits", false},
	{"write a haiku about autumn leaves", "When you write docs for me, always use British spelling", false},
	{"the retry banner works now, let's wrap it up and get it merged", "Always add a changelog entry for user-facing changes", true},
	{"write a parser for the shipping manifests", "Keep functions under 30 lines", true},
	{"what is a parser combinator?", "Keep functions under 30 lines", false},
	{"model cars and bikes as kinds of vehicles", "Prefer composition over inheritance", true},
	{"the export works now I think, confirm and wrap things up", "Always run the linter before saying a task is done", true},
	{"hook the invoicing job up to our payments api: connect it to the api", "Never hard-code credentials; read them from the environment", true},
	{"this parser module is 900 lines, split it up", "Keep functions small", true},
	{"save my work, I'm heading out", "Always use Conventional Commits", true},
	{"record when the parcel was delivered", "Store every timestamp in UTC", true},
	{"add a Manager subclass of Employee", "Prefer composition over inheritance", true},
	{"what is multiple inheritance in C++?", "Prefer composition over inheritance", false},
	{"what is the difference between a struct and a class in C#?", "Always ensure every PR has two approvals before merging", false},
	// a rule on what to say with a suggestion governs a request for one,
	// a general question included
	{"what's a good library for generating PDFs in Go?", "When you suggest a library, always tell me the license too", true},
	{"any packages for parsing ical files?", "When you suggest a library, always tell me the license too", true},
	{"recommend a charting library for react", "Always check the license before you recommend a library", true},
	{"what's a good name for this variable?", "When you suggest a library, always tell me the license too", false},
	{"what's the history of the GPL license?", "When you suggest a library, always tell me the license too", false},
	{"what's a good library for generating PDFs in Go?", "Always follow Conventional Commits", false},
	{"how much should I budget for a mid-range laptop?", "Always give prices in KES", true},
	{"how much should I budget for a mid-range laptop?", "Always follow Conventional Commits", false},
	{"how many legs does a spider have?", "Always give prices in KES", false},
	{"why do we spend so long in GC pauses?", "Always store money amounts as integer cents", false},
}

func TestPromptTopics(t *testing.T) {
	for _, c := range topicCases {
		got := guideTopics(c.guideline, promptTopics(c.prompt)) > 0
		if got != c.want {
			t.Errorf("%q governs %q: got %v, want %v (prompt topics %v)", c.guideline, c.prompt, got, c.want, topicNames(promptTopics(c.prompt)))
		}
	}
}

func topicNames(idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, taskTopics[i].name)
	}
	return out
}

// TestTopicGuidelinesThroughRecall stores guidelines and a fact and checks
// that a task prompt is given the guideline that governs it, from its own
// project only, and that a general question is given nothing.
func TestTopicGuidelinesThroughRecall(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	specs := []belief.Spec{
		{Statement: "Always follow Conventional Commits", Subject: "assistant", Predicate: "should", Object: "follow conventional commits",
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/a"},
		{Statement: "Never use npx; use pnpm dlx", Subject: "assistant", Predicate: "should_not", Object: "use npx",
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/b"},
		{Statement: "User lives in Lisbon", Subject: "user", Predicate: "lives_in", Object: "lisbon", Scope: belief.ScopeGlobal},
	}
	supportedBeliefs(t, db, specs)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for _, c := range []struct {
		prompt, project, want string
	}{
		{"write the commit message for this fix", "/a", "Conventional Commits"},
		{"write the commit message for this fix", "/b", ""},
		{"scaffold a new vite app", "/b", "pnpm dlx"},
		{"scaffold a new vite app", "/a", ""},
		{"how do I undo the last git commit but keep the changes?", "/a", ""},
	} {
		res, err := r.Recall(ctx, Query{Text: c.prompt, Project: c.project})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range res.Beliefs {
			got = append(got, b.Statement)
		}
		joined := strings.Join(got, " | ")
		if c.want == "" && len(got) > 0 || c.want != "" && !strings.Contains(joined, c.want) {
			t.Errorf("%q in %s: beliefs %q, want %q", c.prompt, c.project, joined, c.want)
		}
	}
}

// TestTopicCasesThroughRecall stores each guideline of topicCases in a
// project of its own and asks each prompt there: the guideline is found
// through the index by its topic's words and given to the prompt exactly
// when the case says so.
func TestTopicCasesThroughRecall(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var specs []belief.Spec
	for i, c := range topicCases {
		specs = append(specs, belief.Spec{Statement: c.guideline, Subject: "assistant", Predicate: "should",
			Object: strings.ToLower(c.guideline), Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: fmt.Sprintf("/c%d", i)})
	}
	supportedBeliefs(t, db, specs)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for i, c := range topicCases {
		res, err := r.Recall(ctx, Query{Text: c.prompt, Project: fmt.Sprintf("/c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Beliefs) > 0 && res.Beliefs[0].Statement == c.guideline
		if got != c.want {
			t.Errorf("%q given %q: got %v, want %v (%d beliefs)", c.prompt, c.guideline, got, c.want, len(res.Beliefs))
		}
	}
}

// supportedBeliefs creates each belief with one piece of supporting
// evidence.
func supportedBeliefs(t *testing.T, db *store.DB, specs []belief.Spec) {
	t.Helper()
	ctx := context.Background()
	err := db.Write(ctx, func(tx *store.Tx) error {
		for _, sp := range specs {
			id, err := tx.CreateBelief(ctx, sp)
			if err != nil {
				return err
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Label: belief.Supports, Support: 1, Reliability: 1, Source: "t"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// broadCases are rules that govern more than one kind of work: the form
// of replies governs every request, how code is written every code task.
// A rule of a particular kind of work, or a rule to run something, does
// not reach a task of another kind; a general question gets no code rule.
var broadCases = []struct {
	prompt, guideline string
	want              bool
}{
	{"how do I debounce a function in JavaScript?", "Always keep your explanations short", true},
	{"what's the difference between a process and a thread?", "Always answer me in German", true},
	{"why does my useEffect run twice in dev?", "Never add the apologies and the 'great question' stuff", true},
	{"refactor validateOrder, it's a mess", "Prefer early returns over nested ifs", true},
	{"rename users.email to email_address everywhere", "Never touch the files under db/migrations", true},
	{"the build fails with an undefined symbol, can you fix it?", "Never touch third_party/", true},
	{"add a function that parses ISO 8601 durations", "Always write the test first", true},
	{"load the user's orders from /api/orders on the profile page", "Never call axios directly; go through the fetch wrapper", true},
	{"find every place that still calls legacyFetch", "Always use rg instead of grep", true},
	{"how do I get postgres and redis running locally for this service?", "Never suggest docker-compose for local setup", true},
	{"add an optional limit query param to GET /orders", "Whenever the API changes, always regenerate the openapi spec", true},
	{"ship this to production", "Never deploy on Fridays", true},
	{"add a loading spinner to the checkout component", "Prefer early returns over nested ifs", true},
	// a rule to ask first guards every code task, whatever it names
	{"add retries with exponential backoff to the http client", "Never add new dependencies without asking me first", true},
	{"refactor the billing module into smaller files", "Check with me before touching the schema", true},
	{"refactor the billing module into smaller files", "Ask me first before changing anything under billing/", true},
	{"explain how exponential backoff works", "Never add new dependencies without asking me first", false},
	{"I need to parse cron expressions in the scheduler, go ahead and add that", "Avoid new dependencies without asking me first", true},
	// the form of the examples a reply shows governs every reply
	{"explain how a linked list works with an example", "Prefer code examples in Rust", true},
	{"write a haiku about autumn leaves", "Prefer examples from the test suite when writing docs", false},
	// work said to be done needs the rules on saying so and handing it over
	{"I've finished the parser change, is it good to go?", "Always run cargo clippy with -D warnings before you tell me something compiles", true},
	{"ok my fix is done, what now?", "Never push straight to develop, open a PR and tag @ana-platform for review", true},
	{"the server crashed again, what now?", "Never push straight to develop, open a PR and tag @ana-platform for review", false},
	{"fix looks good, ship it", "Never push directly to main", true},
	{"lgtm, land it", "Always squash before merging a PR", true},
	// asking who reviews is the pull-request work
	{"who do I request a review from?", "Send backend PRs to @dmitri", true},
	{"who do I request a review from?", "Never deploy on Fridays", false},
	{"bump the api instances to m6i.xlarge and roll it out", "Never run terraform apply yourself; plan is fine", true},
	{"refactor the session store to use redis", "Never run the migrations yourself, I run them by hand", true},
	{"recommend a good book on distributed systems", "Never run terraform apply yourself; plan is fine", false},
	{"what's the capital of Peru?", "Never use emojis in commit messages", false},
	{"how do I center a div?", "Always write commit messages in English", false},
	{"write a haiku about autumn leaves", "Prefer early returns over nested ifs", false},
	{"recommend a good book on distributed systems", "Never touch the generated protobuf files", false},
	// not governed
	{"what's the difference between TCP and UDP?", "Always run the linter before you commit", false},
	{"write a function that reverses a linked list", "Always run go test with -race", false},
	{"refactor validateOrder, it's a mess", "Always follow Conventional Commits", false},
	{"explain the CAP theorem briefly", "Prefer early returns over nested ifs", false},
	{"thanks, that works", "Always answer me in German", false},
	{"add a column for the last login time", "Never deploy on Fridays", false},
	{"fix the off by one in this loop: for i in range(len(xs)+1)", "Always ensure every new endpoint has a rate limit", false},
	{"add a GET /invoices endpoint", "Always ensure every new endpoint has a rate limit", true},
	{"add retries with backoff to the payments client", "Always set a timeout on outbound HTTP calls", true},
	// a time a person picks is a timestamp to store
	{"save the appointment time the user picked in the booking form", "Always store timestamps in UTC in the db, convert to local only in the UI", true},
	{"save the appointment time the user picked in the booking form", "Always write commit messages in English", false},
	{"add a created_at field to the event payload", "Always store timestamps in UTC as unix millis", true},
	// a rule's exception names where it does not hold, not what it governs
	{"refactor the report module into smaller functions", "Never add docstrings to every tiny function, only the public api needs them", true},
	{"rewrite the csv exporter so it streams rows", "Always keep functions under 40 lines, except the generated api clients", true},
	{"add a GET /invoices endpoint", "Never add docstrings to every tiny function, only the public api needs them", true},
	{"what's a public api?", "Never add docstrings to every tiny function, only the public api needs them", false},
	// code that looks stored records up queries the store
	{"write a function that searches products by name", "Always use parametrized queries", true},
	{"write a helper that looks up customers by email", "Always use prepared statements for all sql", true},
	{"add a function that fetches all orders for a given user", "Always paginate db queries", true},
	{"write a function that sorts a list of pairs by their second element", "Always use parametrized queries", false},
	// getting commits up on the remote is pushing
	{"commit these changes and get them up on the remote", "Never run git push yourself", true},
	// storing when something happens stores a time
	{"store when the reminder should fire", "Always use UTC everywhere in the backend", true},
	{"keep the time the user last logged in", "Always store timestamps in UTC", true},
	{"store the reminder text", "Always use UTC everywhere in the backend", false},
	// a rule on the form of replies, said as a complaint
	{"explain how a TLS handshake works", "Never give me a wall of text", true},
	// a step before saying a task is done governs every code task
	{"fix the off-by-one in the pagination helper", "Always run make lint before you say you are done", true},
	{"what's the difference between TCP and UDP?", "Always run make lint before you say you are done", false},
	// a rule to ask first guards every code task, a UI piece included
	{"add the new photo picker for image uploads", "Never bump the android minSdk without asking me", true},
	{"what does minSdk mean on android?", "Never bump the android minSdk without asking me", false},
	{"sort the rows by name in the csv export", "Always use parametrized queries", false},
}

func TestBroadGuides(t *testing.T) {
	for _, c := range broadCases {
		got := guideTopics(c.guideline, promptTopics(c.prompt)) > 0 ||
			request(c.prompt) && broadGuide(c.guideline, codeTask(c.prompt)) > 0
		if got != c.want {
			t.Errorf("%q governs %q: got %v, want %v (topics %v, task %v, request %v)", c.guideline, c.prompt, got, c.want,
				topicNames(promptTopics(c.prompt)), codeTask(c.prompt), request(c.prompt))
		}
	}
}

// TestBroadGuidesThroughRecall stores each rule of broadCases in a project
// of its own and asks its prompt there.
func TestBroadGuidesThroughRecall(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var specs []belief.Spec
	for i, c := range broadCases {
		specs = append(specs, belief.Spec{Statement: c.guideline, Subject: "assistant", Predicate: "should",
			Object: strings.ToLower(c.guideline), Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: fmt.Sprintf("/b%d", i)})
	}
	supportedBeliefs(t, db, specs)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for i, c := range broadCases {
		res, err := r.Recall(ctx, Query{Text: c.prompt, Project: fmt.Sprintf("/b%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Beliefs) > 0 && res.Beliefs[0].Statement == c.guideline
		if got != c.want {
			t.Errorf("%q given %q: got %v, want %v (%d beliefs)", c.prompt, c.guideline, got, c.want, len(res.Beliefs))
		}
	}
}

// saidBelief is a message and the belief it supports.
type saidBelief struct {
	said string
	spec belief.Spec
}

// recallerOver stores each message of project /p with the belief it
// supports, a day apart, in a fresh database, and returns a recaller of it.
func recallerOver(t *testing.T, pairs []saidBelief) *Recaller {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, p := range pairs {
		err := db.Write(ctx, func(tx *store.Tx) error {
			sp := p.spec
			if sp.ProjectPath == "" { // said in /p unless the spec says where
				sp.ProjectPath = "/p"
			}
			sp.Scope = belief.ScopeProject
			ep := &store.Episode{ProjectPath: sp.ProjectPath, Kind: store.EpisodePrompt, Content: p.said}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			id, err := tx.CreateBelief(ctx, sp)
			if err != nil {
				return err
			}
			_, err = tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: ep.ID, Label: belief.Supports, Support: 1, Reliability: 1, Source: "episode"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(24 * time.Hour)
	}
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	return &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
}

// rule is the spec of a project guideline.
func rule(statement string) belief.Spec {
	return belief.Spec{Statement: statement, Subject: "assistant", Predicate: "should", Object: strings.ToLower(statement), Kind: belief.KindGuideline}
}

// TestRuleShownWithWhatWasSaid: a rule whose statement keeps one clause of
// the message it rests on ("Never use ORMs" of "… raw sql through sqlc
// only") is shown with the message in the person's words; one whose
// statement says it all is shown alone.
func TestRuleShownWithWhatWasSaid(t *testing.T) {
	r := recallerOver(t, []saidBelief{
		{"we never use ORMs in this codebase. raw sql through sqlc only", rule("Never use ORMs")},
		{"always keep answers short", rule("Always keep answers short")},
	})
	res, err := r.Recall(context.Background(), Query{Text: "add an endpoint that lists a user's saved searches", Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	told := Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)
	said := map[string]string{}
	for _, b := range res.Beliefs {
		said[b.Statement] = b.Said
	}
	if s, ok := said["Never use ORMs"]; !ok || !strings.Contains(s, "sqlc") {
		t.Errorf("the ORM rule: shown %v, said %q; want the message beside it\n%s", ok, s, told)
	}
	if !strings.Contains(told, `as said: "we never use ORMs`) {
		t.Errorf("the context does not give the person's words:\n%s", told)
	}
	if s := said["Always keep answers short"]; s != "" {
		t.Errorf("a rule that says all its message says was given it again: %q", s)
	}
}
