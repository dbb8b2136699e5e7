package extract

import (
	"strings"
	"testing"
)

// TestBuried13Shapes checks each reading of buried13.go on sentences of the
// shapes a fresh writer's scenarios (scenarios_dev13_fresh) lost, in other
// words and domains: each positive case fails when its reading is taken
// out, and each near miss gives nothing (or only what it gave before).
func TestBuried13Shapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a statement before a question in one sentence (questionHead)
		{nil, "I drive a 2019 Civic, how often should I change the oil", "car_is 2019 civic"},
		{nil, "I'm on a Galaxy S23, why does the screen flicker", "phone_is galaxy s23"},
		{nil, "the app crashes, can you look", ""},
		{nil, "if we used kafka, what would change", ""},
		// a statement with its consequence (soCut)
		{nil, "I'm the only frontend dev at Lumen Labs so every review lands on me", "role_is frontend dev|works_at lumen labs"},
		{nil, "I'm in Lagos btw so prices in NGN please", "lives_in lagos|should give prices in ngn"},
		{nil, "it's late so keep it short", ""},
		// a rule said as the consequence of a standing statement (soRule)
		{nil, "I'm new to Haskell, so explain each step", "should explain each step"},
		{nil, "nobody on my team reads Perl so never suggest it", "should_not suggest perl"},
		{nil, "we use poetry so add the dependency with poetry add", "uses_package_manager poetry"},
		{nil, "the build is broken so fix it", ""},
		{nil, "nobody knows why it fails so do not touch it", ""},
		{nil, "I'm in a hurry so keep it short", ""},
		// a person named with their role in an aside (asides13)
		{nil, "ugh Baptiste (our tech lead) rejected the design doc", "tech_lead_is baptiste"},
		{nil, "Sam (my neighbour) lent me a drill", ""},
		{nil, "is Lena (my manager) around today?", ""},
		{nil, "Ngozi, our tech lead, wants tests for everything", "tech_lead_is ngozi"},
		{nil, "our tech lead Ngozi wants tests for everything", "tech_lead_is ngozi"},
		{nil, "is our tech lead Ngozi or Nkechi?", ""},
		// the store a data job runs against or writes into (dataSink)
		{nil, "the nightly export writes into the RAW schema in Redshift, any idea why it stalls?", "uses_warehouse redshift"},
		{nil, "tests run against ClickHouse (a local container)", "uses_database clickhouse"},
		{nil, "our analytics used to write into Redshift", ""},
		{nil, "the job runs against the staging env", ""},
		{nil, "they run against bigquery in the tutorial", ""},
		{nil, "the backfill runs against prod mysql, is that risky?", "uses_database mysql"},
		// a build tool the taxonomy does not know, glossed or tool-shaped
		// (buildsWith)
		{nil, "we build it with idf.py (esp-idf)", "uses_build_tool idf.py"},
		{nil, "we build it with pride (mostly)", ""},
		{nil, "we build it with care", ""},
		// traits said in passing (passingTraits13)
		{nil, "my son Teo has a bad egg allergy, keep that in mind for recipes", "name_is teo|diet_is egg allergy"},
		{nil, "fyi I'm allergic to shellfish", "diet_is allergic to shellfish"},
		{nil, "my coworker has a peanut allergy", ""},
		{nil, "I've got tendonitis in my left elbow so typing hurts", "health_is tendonitis in left elbow"},
		{nil, "my friend has RSI", ""},
		{nil, "I'm doing keto this month and it's brutal", "diet_is keto"},
		{nil, "I'm doing low-level work today", ""},
		{nil, "I'm a paramedic on night shifts", "role_is paramedic|work_hours_are night shifts"},
		{nil, "my brother is a nurse", ""},
		{nil, "i go bouldering mon and wed evenings", "hobby_is bouldering on mon and wed evenings"},
		{nil, "I do yoga mon and fri mornings so dont book anything there", "hobby_is yoga on mon and fri mornings|work_hours_are not on mon and fri mornings (yoga)"},
		{nil, "I go shopping on saturdays", ""},
		{nil, "she goes climbing tue and thu", ""},
		{nil, "my partner is pregnant, due in June, so plan around that", "due_date_is june"},
		{nil, "we train on four H100s, fp8", "gpu_is h100"},
		{nil, "this is on our roadmap", ""},
		{nil, "I work nights as a bartender", "role_is bartender|work_hours_are nights"},
		{nil, "I'm a pharmacist at Boots on night shifts", "role_is pharmacist|work_hours_are night shifts|works_at boots"},
		{nil, "I've got a bad knee so no running plans", "health_is a bad knee"},
		{nil, "I go swimming every evening at 7", "hobby_is swimming every evening at 7"},
		// changes told without a word of change
		{[]string{"I'm on the search team"}, "got moved to the growth team as of monday", "team_is growth <search"},
		{nil, "I'm on the identity team at work", "team_is identity"},
		{nil, "I'm on the fence", ""},
		{nil, "I work at Stripe on the payments team", "works_at stripe"},
		{[]string{"I'm on a Pixel 7"}, "switched to an iPhone 16 pro, don't laugh", "phone_is iphone 16 pro <pixel 7"},
		{nil, "I'm on the phone", ""},
		{nil, "got myself a Pixel 9 pro", "phone_is pixel 9 pro"},
		{nil, "retro got moved to 2pm", "has_meeting retro at 2pm"},
		{[]string{"our retro is at 4pm on fridays"}, "they moved retro to 3pm", "has_meeting retro at 3pm"},
		{[]string{"I have planning at 11 every monday"}, "they moved planning to 13:30, annoying", "has_meeting planning at 13:30 every monday <planning at 11 every monday"},
		{nil, "they moved the meeting to the big room", ""},
		{nil, "we moved the meeting to 3 but it got cancelled", ""},
		{[]string{"my cat is Mochi"}, "no, Mochi was my old cat. the current one is Luna", "name_is luna <mochi"},
		{nil, "the current one is broken", ""},
		{nil, "nah, Rex was the old dog, the new one is called Bruno", "name_is bruno <rex"},
		{[]string{"my brother Tomas's birthday is June 3"}, "I got Tomas's birthday wrong, it's June 13", "birthday_is june 13 <june 3"},
		{nil, "I got Aiko's birthday wrong, it's May 2 not the 12th", "birthday_is may 2"},
		{nil, "I got the joke wrong", ""},
		{[]string{"I drive a 2011 Golf"}, "sold the golf at last! bought a used Ioniq 5 yesterday", "car_is ioniq 5 <2011 golf"},
		{nil, "sold the idea to my boss, got a raise", ""},
		{nil, "on this project Ingrid handles releases", "reviewer_is ingrid"},
		{nil, "terraform handles infra", "uses_iac terraform"},
		{nil, "who handles infra?", ""},
		{[]string{"the app's minimum api level is android 12"}, "we're dropping old phones, min api level is 13 from now on", "minimum_api_level_is android 13 <android 12"},
		{nil, "the model is 16", ""},
		// the project named by the tool it is built on (toolThing)
		{nil, "this is the godot port in gdscript", "uses_framework godot|uses_language gdscript"},
		{nil, "A is the old prototype in rust", ""},
		// rules under a condition, one by one (condRules), a phrase quoted
		// to be left out
		{nil, "when you write release notes for me keep them short and skip the 'we are excited to announce' fluff", "should_when_write_release_notes_for_me keep the release notes short|should_not_when_write_release_notes_for_me use the 'we are excited to announce' fluff"},
		{nil, "when you write emails, you always forget the subject", ""},
		// "X only" beside the stack (onlyBeside)
		{nil, "we're on unity 6, c# only", "uses_framework unity|should use c# only"},
		{nil, "weekdays only, no weekends", "should_not weekends"},
		{nil, "we are on godot 4.2, tabs only", "uses_framework godot"},
		// writing said with its tools (writtenWith)
		{nil, "I am writing my phd thesis in typst, with hayagriva", "thesis_is in typst with hayagriva"},
		{nil, "I am writing my cv in a hurry", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestBuried13Statements checks the sentences the buried readings give,
// where recall and the reader see them: a title keeps its name, a rule
// keeps the quoted phrase as written.
func TestBuried13Statements(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"my supervisor is prof. Lindqvist and she wants a draft by May", "User's manager is Prof. Lindqvist"},
		{"when you write emails for me skip the 'Hope you are well' opener", "'Hope you are well' opener"},
		{"I'm in Nairobi btw so prices in KES if you can", "Always give prices in KES"},
	} {
		var got []string
		for _, f := range Extract(c.text) {
			got = append(got, f.Statement)
		}
		if !strings.Contains(strings.Join(got, "|"), c.want) {
			t.Errorf("Extract(%q) = %q, want a statement %q", c.text, got, c.want)
		}
	}
}

// TestNeedsContextBuried checks that the changes of buried13.go whose old
// value the conversation names ask for it, and that plain sentences do
// not.
func TestNeedsContextBuried(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"they moved standup to 10:15", true},
		{"switched to an iPhone 15 last week", true},
		{"sold the golf finally, got a used Ioniq", true},
		{"wait, Rex was my old dog. the current one is Bo", true},
		{"product agreed, min target is 16 from the next release", true},
		{"I got pasta", false},
		{"the tests are slow", false},
	} {
		if got := NeedsContext(c.text); got != c.want {
			t.Errorf("NeedsContext(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
