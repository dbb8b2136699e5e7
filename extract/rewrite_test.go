package extract

import (
	"strings"
	"testing"
)

// TestSecondReading covers the shapes the second reading (rewrite.go)
// turns into plain statements, each with the triple it must give, and
// near misses that must give nothing.
func TestSecondReading(t *testing.T) {
	tests := []struct {
		text, context string
		want          []triple
	}{
		{"Since two years I am living in Munich", "", []triple{{"user", "lives_in", "munich", false, ""}}},
		{"For the tests we are using Vitest", "", []triple{{"project", "uses_test_runner", "vitest", false, ""}}},
		{"The package manager we use is pnpm", "", []triple{{"project", "uses_package_manager", "pnpm", false, ""}}},
		{"Is deployed on Render our backend", "", []triple{{"project", "deploys_with", "render", false, ""}}},
		{"We are using since many years Jenkins", "", []triple{{"project", "uses_ci", "jenkins", false, ""}}},
		{"tz = CET", "", []triple{{"user", "timezone_is", "cet", false, ""}}},
		{"jest → vitest", "", []triple{{"project", "uses_test_runner", "vitest", false, "jest"}}},
		{"from next sprint we'll deploy from release/", "", []triple{{"project", "deploy_branch_is", "release", false, ""}}},
		{"Starting Monday my manager will be Ines", "", []triple{{"user", "manager_is", "ines", false, ""}}},
		{"From next month on I'll be living in Rotterdam, the contract is signed", "", []triple{{"user", "lives_in", "rotterdam", false, ""}}},
		{"Next month I'm moving to Rotterdam", "", nil}, // a plan with its date after it
		{"Braga, sorry", "I live in Porto", []triple{{"user", "lives_in", "braga", false, "porto"}}},
		{"Pauline*", "My manager is Paul", []triple{{"user", "manager_is", "pauline", false, "paul"}}},
		{"it's Andrej, with a j", "My name is Andrei", []triple{{"user", "name_is", "andrej", false, "andrei"}}},
		{"biome these days", "we use prettier", []triple{{"project", "uses_formatter", "biome", false, "prettier"}}},
		{"it's 1.22 now", "We're on Go 1.21", []triple{{"project", "go_version_is", "1.22", false, "1.21"}}},
		{"Tom was my old manager, now it's Sam", "My manager is Tom", []triple{{"user", "manager_is", "sam", false, "tom"}}},
		{"correction: Madrid", "I'm based in Barcelona|can you help me with a cron job?", []triple{{"user", "lives_in", "madrid", false, "barcelona"}}},
		// near misses: generic uses in passing, states, tasks, plans
		{"the upstream project uses Bazel", "", nil},
		{"this code uses generics", "", nil},
		{"our app uses too much memory", "", nil},
		{"our CI uses a cache", "", nil},
		{"the API uses pagination", "", nil},
		{"db is down", "", nil},
		{"ci is red again", "", nil},
		{"python now", "", nil},
		{"Starting Monday I'll be on vacation", "", nil},
		{"we might deploy to Fly, not sure yet", "", nil},
		{"can you not touch the config file please", "", nil},
		{"would you mind running the tests again?", "", nil},
		{"no more errors after the fix!", "", nil},
		{"don't forget to push the branch when done", "", nil},
		{"I work from home on Mondays and from the office otherwise", "", nil},
		{"my friend lives in Oslo and works at Equinor", "", nil},
	}
	for _, tt := range tests {
		var ctx Context
		if tt.context != "" {
			ctx.Recent = strings.Split(tt.context, "|")
		}
		got := triples(factsOnly(ExtractWith(tt.text, ctx)))
		if len(got) != len(tt.want) {
			t.Errorf("%q: got %v, want %v", tt.text, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: got %v, want %v", tt.text, got[i], tt.want[i])
			}
		}
	}
}

// TestSecondReadingRules: rules said as complaints, questions and team
// habits give the guideline a plain instruction would.
func TestSecondReadingRules(t *testing.T) {
	tests := []struct{ text, want string }{
		{"stop adding comments everywhere", "Never add comments"},
		{"it drives me nuts when you rename variables I didn't ask you to touch", "Never rename variables I did not ask you to touch"},
		{"You keep forgetting to run the linter before committing", "Always run the linter before committing"},
		{"I'm tired of you wrapping everything in try/except", "Never wrap everything in try/except"},
		{"can we not use any in TS please", "Never use any in TS"},
		{"could you stop using var in JavaScript?", "Never use var in JavaScript"},
		{"would you mind keeping answers short going forward?", "Always keep answers short"},
		{"Our team writes an ADR for every architectural decision", "Always write an ADR for every architectural decision"},
		{"no more TODO comments please", "Never add TODO comments"},
		{"our policy is to never store PII in logs", "Never store PII in logs"},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range Extract(tt.text) {
			got = append(got, f.Statement)
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q: got %q, want [%q]", tt.text, got, tt.want)
		}
	}
}

func factsOnly(fs []Fact) []Fact {
	var out []Fact
	for _, f := range fs {
		if f.Kind == KindFact {
			out = append(out, f)
		}
	}
	return out
}
