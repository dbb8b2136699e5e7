package extract

import (
	"strings"
	"testing"
)

// TestBareCorrectionByKind: a bare correction two sessions after the value
// it corrects finds the slot through the believed values of its kind (the
// pretrained vectors), and finds none when no believed value is of its kind.
func TestBareCorrectionByKind(t *testing.T) {
	slots := []SlotValue{{SubjectUser, "manager_is", "kevin"}, {SubjectUser, "lives_in", "lisbon"}}
	got := ExtractWith("sorry, I meant Porto", Context{Slots: slots})
	if len(got) != 1 || got[0].Predicate != "lives_in" || got[0].Object != "porto" || got[0].Replaces != "lisbon" {
		t.Errorf("sorry, I meant Porto after Lisbon: got %+v", got)
	}
	if got := ExtractWith("sorry, I meant Madrid", Context{Slots: slots[:1]}); len(got) != 0 {
		t.Errorf("a city corrects no manager: got %+v", got)
	}
}

// TestShapes checks one statement per shape read in session 5: what a
// text must give (predicate, object and, where named, the value replaced),
// or nothing.
func TestShapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		{nil, "Whatever you do, leave third_party/ alone.", "should_not touch third_party/"},
		{[]string{"we use MariaDB"}, "ugh no, it's Postgres", "uses_database postgres <mariadb"},
		{[]string{"we use MariaDB"}, "no, it's Postgres, I was thinking of my other job", "uses_database postgres <mariadb"},
		{nil, "whenever the API changes, regenerate the openapi spec with `make openapi`", "should_when_api_changes regenerate the openapi spec with make openapi"},
		{nil, "when you open a PR, always make it a draft first", "should_when_open_pr make the pr a draft first"},
		{nil, "In this project we are always writing the test first.", "should write the test first"},
		{nil, "use rg instead of grep when you search this monorepo, grep takes minutes here", "should use rg <use grep"},
		{nil, "logging goes through slog", "should use slog for logging"},
		{nil, "one logical change per commit", "should keep one logical change per commit"},
		{nil, "you can drop the apologies. just answer", "should_not add the apologies"},
		{nil, "in Go code, wrap errors with %w", "should wrap errors with %w in go code"},
		{nil, "Since the reorg I'm officially a staff engineer", "role_is staff engineer"},
		{nil, "Tom left, so my manager these days is Aisha Khan", "manager_is aisha khan <tom"},
		{nil, "started at Datadog on monday, still finding my way around", "works_at datadog"},
		{nil, "since moving to Berlin I'm on CET", "lives_in berlin|timezone_is cet"},
		{nil, "i don't use sublime anymore, zed is my daily driver", "not uses_editor sublime text|uses_editor zed <sublime text"},
		{[]string{"The project is on Python 3.9."}, "We upgraded to 3.12 last sprint.", "python_version_is 3.12 <3.9"},
		{nil, "this service runs on node 16... no wait, that's the old repo. this one is on node 20", "uses_runtime node|node_version_is 20 <16"},
		{[]string{"My manager is Kevin Park."}, "scratch what I told you about my manager yesterday, it's Dana Liu", "manager_is dana liu <kevin park"},
		{[]string{"I'm based in Amsterdam"}, "Amsterdam, I mean Rotterdam.", "lives_in rotterdam <amsterdam"},
		{[]string{"we deploy from the staging branch"}, "sorry, I meant the prod branch", "deploy_branch_is prod <staging"},
		{nil, "I left Google for Meta", "works_at meta"},
		{nil, "I got a new manager, it's Priya", "manager_is priya"},
		// nothing
		{nil, "should we switch from yarn to pnpm?", ""},
		{nil, "make it a draft", ""},
		{nil, "oh sorry, I meant to paste the other stack trace", ""},
	} {
		var parts []string
		for _, f := range ExtractWith(c.text, Context{Recent: c.recent}) {
			p := f.Predicate + " " + f.Object
			if f.Negated {
				p = "not " + p
			}
			if f.Replaces != "" {
				p += " <" + f.Replaces
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, "|"); got != c.want {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

// TestReplyFormIsARule: a plain imperative on the language or length of
// answers is a rule said once ("respond in British English please"); a
// plain imperative on anything else may be a one-off request and counts
// for less.
func TestReplyFormIsARule(t *testing.T) {
	for text, want := range map[string]float64{
		"Respond in British English please — colour, organise, etc.": 0.9,
		"keep answers short please":                                  0.9,
		"respond with the JSON only":                                 0.7,
	} {
		got := Extract(text)
		if len(got) != 1 || got[0].Kind != KindGuideline || got[0].Reliability != want {
			t.Errorf("%q: got %+v, want one guideline of reliability %.1f", text, got, want)
		}
	}
}
