package extract

import (
	"strings"
	"testing"
)

// TestOpenSlots reads facts whose slot no relation names from the grammar
// that states them, and leaves alone what only looks like one.
func TestOpenSlots(t *testing.T) {
	cases := []struct {
		text string
		want string // "subject|predicate|object", "" for nothing
	}{
		{"my wife is called Ingrid, she's a nurse", "user's wife|name_is|ingrid"},
		{"I have a beagle named Waffles who eats literally everything", "user's beagle|name_is|waffles"},
		{"We've got two cats, Pixel and Nori.", "user's cat|name_is|pixel and nori"},
		{"my sister, Ana, is visiting next week so I'll be slower to reply", "user's sister|name_is|ana"},
		{"Mila is my daughter, she's 6", "user's daughter|name_is|mila"},
		{"my teammate Arjun wrote that component", "user's teammate|name_is|arjun"},
		{"can you add a retry? my commute is like 50 minutes on the train each way", "user|commute_is|50 minutes"},
		{"quick thing, my partner's birthday is on March 3rd", "user's partner|birthday_is|march 3rd"},
		{"My phone is a Pixel 8", "user|phone_is|pixel 8"},
		{"search is backed by Meilisearch", "project|search_is|meilisearch"},
		{"we keep the sessions in Redis", "project|sessions_is|redis"},
		{"Our images are pushed to GHCR", "project|images_is|ghcr"},
		{"staging lives at staging.tideline.dev", "project|staging_is|staging.tideline.dev"},
		{"the public api base url is https://api.tideline.io/v2", "project|public_api_base_url_is|https://api.tideline.io/v2"},
		{"the nightly cleanup cron runs at 2:30 UTC", "project|nightly_cleanup_cron_is|2:30 utc"},
		{"Marta owns the ingestion pipeline", "project|ingestion_pipeline_owner_is|marta"},
		{"customer support tickets live in Linear, not Jira", "project|customer_support_tickets_is|linear"},
		{"our python is 3.11", "project|python_version_is|3.11"},
		{"api runs on port 8443 locally", "project|port_is|8443"},
		// near misses
		{"my build is failing again", ""},
		{"my laptop is slow today", ""},
		{"my question is why this fails", ""},
		{"our tests are slow and flaky", ""},
		{"my build is on fire", ""},
		{"my point is Redis is faster", ""},
		{"the answer is 42", ""},
		{"what's my wife's name again?", ""},
		{"if I had a dog I'd call it Waffles", ""},
		{"my friend lives in Rotterdam and loves it there", ""},
		{"my colleague's dog is named Biscuit", ""},
		{"the error is ECONNREFUSED", ""},
	}
	for _, c := range cases {
		var got []string
		for _, f := range Extract(c.text) {
			if f.Kind == KindFact && !f.Negated {
				got = append(got, f.Subject+"|"+f.Predicate+"|"+f.Object)
			}
		}
		if c.want == "" {
			if len(got) > 0 {
				t.Errorf("%q: got %v, want nothing", c.text, got)
			}
			continue
		}
		found := false
		for _, g := range got {
			if g == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: got %v, want %s", c.text, got, c.want)
		}
	}
}

// TestOpenSlotStatements: an open slot's sentence reads as English.
func TestOpenSlotStatements(t *testing.T) {
	for text, want := range map[string]string{
		"We've got two cats, Pixel and Nori.": "User's cat's name is Pixel and Nori",
		"my commute is about 50 minutes":      "User's commute is 50 minutes",
		"search is backed by Meilisearch":     "Project's search is Meilisearch",
	} {
		fs := Extract(text)
		if len(fs) != 1 || !strings.EqualFold(fs[0].Statement, want) {
			var got []string
			for _, f := range fs {
				got = append(got, f.Statement)
			}
			t.Errorf("%q: got %q, want %q", text, got, want)
		}
	}
}

// TestOpenSlotTaskArtifacts: the artifacts of the task at hand are no
// standing facts.
func TestOpenSlotTaskArtifacts(t *testing.T) {
	for _, text := range []string{"my test file is test_parser.py", "my PR is #123", "my branch is feature/login",
		"our version is 2.3.1", "the output is 404"} {
		for _, f := range Extract(text) {
			if f.Kind == KindFact && strings.HasSuffix(f.Predicate, "_is") && f.Predicate != "port_is" {
				t.Errorf("%q: got %s(%s, %q), want no open slot", text, f.Predicate, f.Subject, f.Object)
			}
		}
	}
}

// TestSlotOfPart: a known slot said of a part of the project is the
// project's.
func TestSlotOfPart(t *testing.T) {
	for text, want := range map[string]string{
		"the datastore for this service is CockroachDB": "uses_database",
		"the CI for this repo is GitHub Actions":        "uses_ci",
		"the port for the api is 8080":                  "port_is",
	} {
		fs := Extract(text)
		if len(fs) == 0 || fs[0].Predicate != want || fs[0].Subject != SubjectProject {
			t.Errorf("%q: got %v, want project %s", text, fs, want)
		}
	}
}

// TestOpenSlotOtherPeople: what the person's friends and coworkers do, and
// a rule stated as "that's the rule", are no open slots.
func TestOpenSlotOtherPeople(t *testing.T) {
	for _, text := range []string{"my coworker Dan prefers spaces, but whatever", "my friend Sam uses vim",
		"Our staging DB is a copy of prod from last night", "Feature flags for everything user-facing, that's the rule"} {
		for _, f := range Extract(text) {
			if f.Kind == KindFact && (f.Predicate == "name_is" || strings.HasSuffix(f.Predicate, "rule_is")) {
				t.Errorf("%q: got %s(%s, %q)", text, f.Predicate, f.Subject, f.Object)
			}
		}
	}
}
