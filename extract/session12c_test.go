package extract

import "testing"

// devFileOFresh is the development set of session 12 (EXT12c): the shapes
// a fresh writer's scenarios (scenarios_dev12b_fresh) lost at extraction,
// said in other words and domains, with near misses. It was committed with
// its baseline (0.83 / 0.28 with context) before the readings of fresh.go
// were built, and tuned on since.
const devFileOFresh = "testdata/dev2026o_fresh.jsonl"

// Floors for dev2026o: its numbers after session 12 less a margin. It is
// small (five corrections), so one case moves a category by a fifth; the
// per-category floors are loose.
const (
	devOPrecision    = 0.88
	devORecall       = 0.9
	devOCatPrecision = 0.75
	devOCatRecall    = 0.75
)

func TestDev2026oFresh(t *testing.T) {
	scoreInContext(t, "development set", devFileOFresh, 60, devOPrecision, devORecall, devOCatPrecision, devOCatRecall)
}

// TestSession12cShapes checks each reading of fresh.go on sentences of the
// same shapes as the sets', in other words: each positive case fails when
// its reading is taken out, and each near miss gives nothing (or only
// what it gave before).
func TestSession12cShapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// data said to end up in a store (storedIn)
		{nil, "fyi all the clickstream data lands in BigQuery", "uses_warehouse bigquery"},
		{nil, "every order we process ends up in Snowflake", "uses_warehouse snowflake"},
		{nil, "our analytics used to land in Redshift", ""},
		{nil, "my luggage always ends up in Lisbon", ""},
		// the board the code targets (targetsBoard)
		{nil, "this firmware targets an nRF52840", "target_chip_is nrf52840"},
		{nil, "context: the board targets an RP2040, 264k of ram", "target_chip_is rp2040"},
		{nil, "does this firmware target an nRF52840?", ""},
		{nil, "this tutorial targets beginners", ""},
		// experiments tracked in a tool (trackedIn)
		{nil, "we track every experiment in neptune", "experiment_tracker_is neptune"},
		{nil, "all our training runs get logged to aim", "experiment_tracker_is aim"},
		{nil, "how do I log runs to wandb?", ""},
		// a switch told as "ditched X for Y" (ditchedFor)
		{nil, "we ditched jenkins for circleci, too slow", "uses_ci circleci <jenkins"},
		{nil, "we ditched the meeting for a walk", ""},
		{nil, "should we ditch yarn for pnpm?", ""},
		// "X is history, everything's on Y" (stillOn)
		{nil, "vercel is history, everything's been on Netlify since june", "not deploys_with vercel|deploys_with netlify <vercel"},
		{nil, "everything's been on Netlify since june", ""},
		// a thing got instead of one given up (gotInstead)
		{[]string{"I drive a Corolla"}, "sold the corolla last week, got a scooter instead", "car_is scooter <corolla"},
		{nil, "sold my old phone, got pasta instead", ""},
		// the car one drives to work (driveTo)
		{nil, "I drive a 2015 Golf to the office", "car_is 2015 golf"},
		{nil, "I drive a hard bargain", ""},
		// someone took over the team (tookOver)
		{[]string{"my manager is Lena"}, "lena moved on :( Omar Haddad took over the team", "manager_is omar haddad <lena"},
		{nil, "Omar took over the project", ""},
		// a place the speaker is in now (inPlaceNow)
		{[]string{"I live in Lyon"}, "big news: we're in Montreal now, still jetlagged", "lives_in montreal <lyon"},
		{nil, "we're in Sprint Review now", ""},
		{nil, "we're in Standup now", ""},
		{nil, "we're in a meeting now", ""},
		// a state concluded with "I guess" (soState)
		{[]string{"I'm vegan"}, "started having cheese again so vegetarian I guess", "diet_is vegetarian <vegan"},
		{nil, "so tired I guess", ""},
		// the star that marks a repair ("typo, the 13th*") is no part of the
		// value (freshFirst)
		{[]string{"my interview with Acme is on the 3rd"}, "typo, the 13th*", "interview_with_acme_is 13th <3rd"},
		{[]string{"the reranker for this is ms-marco-v2"}, "wait no, bge-reranker. ms-marco was the old one", "reranker_is bge-reranker <ms-marco-v2"},
		{nil, "typo in line 17", ""},
		// the date of a journey (tripDate)
		{nil, "my train to Turin leaves on the 21st", "train_is 21st"},
		// an engine named with its version (builtWith) and what alone is
		// used beside it (onlyUse, bare "no X")
		{nil, "we're building this in bevy 0.14, rust only, no unsafe", "uses_framework bevy|should use rust only|should_not use unsafe"},
		{nil, "we're building this in a hurry", ""},
		{nil, "no unsafe", ""},
		// a ban over a part of the codebase (noInScope), with what to use
		// instead
		{nil, "no lodash in this service", "should_not use lodash"},
		// a slot said "for this" or "here" (slotForThis, idSlot)
		{nil, "the tokenizer for this is sentencepiece-v2", "tokenizer_is sentencepiece-v2"},
		{nil, "the embedding model here is gte-small", "embedding_model_is gte-small"},
		{nil, "the weather here is nice-ish", ""},
		{nil, "no ORMs in this backend, raw SQL only", "should_not orms|should use raw sql only"},
		// reply formats listed bare after a rule (terseWishes)
		{nil, "please stop writing essays. numbered steps, concise. ta", "should_not write essays|should use numbered steps|should keep answers concise"},
		{nil, "bullet points, short", ""},
		// a ban on an act on a thing (noGerund); how the tests are run
		// (realInTests)
		{nil, "integration tests here hit a real kafka via testcontainers, no stubbing the broker", "should use a real kafka via testcontainers in integration tests|should_not stub the broker"},
		{nil, "no worries", ""},
		{nil, "tests hit a real snag today", ""},
		// traits said in passing (traits)
		{nil, "heads up i'm asthmatic so the stairs are my enemy", "health_is asthmatic"},
		{nil, "I have asthma questions for my doctor", ""},
		{nil, "my coworker is asthmatic", ""},
		{nil, "my partner and I are heading to Oslo in december", "trip_is oslo in december"},
		{nil, "we went to Oslo in december", ""},
		{nil, "I do school pickup at 3 so nothing after 2:30 please", "work_hours_are until 2:30"},
		{nil, "nothing after line 30 matters", ""},
		{nil, "I'm learning Italian, slowly, for a trip", "is_learning italian"},
		{nil, "my brother is learning Italian", ""},
		{nil, "I'm learning a lot", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestNeedsContextFresh checks that the changes of fresh.go whose old
// value the conversation names ask for it.
func TestNeedsContextFresh(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"sold the corolla, got a scooter instead", true},
		{"life update: we're in Montreal now, still jetlagged", true},
		{"I got pasta", false},
		{"we're in Montreal", false},
	} {
		if got := NeedsContext(c.text); got != c.want {
			t.Errorf("NeedsContext(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
