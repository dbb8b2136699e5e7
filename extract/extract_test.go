package extract

import (
	"fmt"
	"strings"
	"testing"
)

// triple is the part of a Fact the table tests compare.
type triple struct {
	subject, predicate, object string
	negated                    bool
	replaces                   string
}

func (tr triple) String() string {
	return fmt.Sprintf("(%s, %s, %s, negated=%v, replaces=%q)", tr.subject, tr.predicate, tr.object, tr.negated, tr.replaces)
}

func triples(facts []Fact) []triple {
	out := make([]triple, len(facts))
	for i, f := range facts {
		out[i] = triple{f.Subject, f.Predicate, f.Object, f.Negated, f.Replaces}
	}
	return out
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []triple
	}{
		{"preference for a tool lands on its category", "I prefer pnpm over npm",
			[]triple{{"user", "uses_package_manager", "pnpm", false, ""}}},
		{"general preference stays additive", "I like tabs",
			[]triple{{"user", "likes", "tabs", false, ""}}},
		{"dislike", "I hate semicolons",
			[]triple{{"user", "dislikes", "semicolons", false, ""}}},
		{"negated like", "I don't like long functions",
			[]triple{{"user", "likes", "long functions", true, ""}}},
		{"deploy platform alias", "We deploy with Fly",
			[]triple{{"project", "deploys_with", "fly.io", false, ""}}},
		{"version dropped from the object", "this repo uses Postgres 16",
			[]triple{{"project", "uses_database", "postgres", false, ""}}},
		{"slot subject", "our CI runs on GitHub Actions",
			[]triple{{"project", "uses_ci", "github actions", false, ""}}},
		{"entity location", "the API lives in services/api",
			[]triple{{"api", "located_in", "services/api", false, ""}}},
		{"purpose predicate", "we use Zod for validation",
			[]triple{{"project", "uses_for_validation", "zod", false, ""}}},
		{"switch replaces the old value", "we switched from pnpm to bun",
			[]triple{{"project", "uses_package_manager", "bun", false, "pnpm"}}},
		{"bun beside node is a runtime", "we switched from node to bun",
			[]triple{{"project", "uses_runtime", "bun", false, "node"}}},
		{"no longer", "we no longer use yarn",
			[]triple{{"project", "uses_package_manager", "yarn", true, ""}}},
		{"move without an old value", "I moved to Tokyo",
			[]triple{{"user", "lives_in", "tokyo", false, ""}}},
		{"move with an old value", "I moved from Beijing to Tokyo",
			[]triple{{"user", "lives_in", "tokyo", false, "beijing"}}},
		{"name", "my name is Bob", []triple{{"user", "name_is", "bob", false, ""}}},
		{"employer", "I work at Acme", []triple{{"user", "works_at", "acme", false, ""}}},
		{"role", "I'm a backend engineer", []triple{{"user", "role_is", "backend engineer", false, ""}}},
		{"age", "I'm 34", []triple{{"user", "age_is", "34", false, ""}}},
		{"always", "Always run the tests before committing.",
			[]triple{{"assistant", "should", "run the tests before committing", false, ""}}},
		{"never", "never use npm", []triple{{"assistant", "should_not", "use npm", false, ""}}},
		{"instead of", "use pnpm instead of npm",
			[]triple{{"assistant", "should", "use pnpm", false, "use npm"}}},
		{"from now on", "From now on, answer in English.",
			[]triple{{"assistant", "should", "answer in english", false, ""}}},
		{"conditional guideline", "When writing tests, use table-driven tests.",
			[]triple{{"assistant", "should_when_writing_tests", "use table-driven tests", false, ""}}},
		{"negative conditional guideline", "If the build fails, don't push.",
			[]triple{{"assistant", "should_not_when_build_fails", "push", false, ""}}},
		{"two clauses", "I like Rust but I hate Java.",
			[]triple{{"user", "likes", "rust", false, ""}, {"user", "dislikes", "java", false, ""}}},
		{"bare correction revises the previous fact, which the speaker took back", "I live in Berlin. Sorry, I meant Munich.",
			[]triple{{"user", "lives_in", "munich", false, "berlin"}}},
		{"a repair set off by commas takes the value back", "I'm in Porto, no, sorry, Coimbra.",
			[]triple{{"user", "lives_in", "coimbra", false, "porto"}}},
		{"a change keeps no retracted value", "we moved from Heroku to Render",
			[]triple{{"project", "deploys_with", "render", false, "heroku"}}},
		{"default branch slot", "our default branch is main",
			[]triple{{"project", "default_branch_is", "main", false, ""}}},
		{"list of tools", "we use Postgres and Redis",
			[]triple{{"project", "uses_database", "postgres", false, ""}, {"project", "uses_cache", "redis", false, ""}}},
		{"bAbI move", "Mary journeyed to the bathroom.",
			[]triple{{"mary", "located_in", "bathroom", false, ""}}},
		{"code fence is skipped", "```\nwe use yarn\n```\nwe use pnpm",
			[]triple{{"project", "uses_package_manager", "pnpm", false, ""}}},
		{"block quote is skipped", "> I prefer tabs\nI prefer spaces",
			[]triple{{"user", "prefers", "spaces", false, ""}}},
		{"quoted speech is skipped", `the README says "we deploy with Heroku" but we deploy with Render`,
			[]triple{{"project", "deploys_with", "render", false, ""}}},
		{"single-word inline code is kept", "we use `pnpm`",
			[]triple{{"project", "uses_package_manager", "pnpm", false, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := triples(Extract(tt.text))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Extract(%q)=%v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestExtractNothing(t *testing.T) {
	tests := []struct{ name, text string }{
		{"question", "should we use pnpm?"},
		{"question without mark", "do you prefer tabs or spaces"},
		{"question to the assistant", "can you always use pnpm"},
		{"hypothetical", "if we switched to bun, would installs be faster?"},
		{"what if", "what if I moved to Tokyo"},
		{"modal", "we could use Redis for caching"},
		{"hedge might", "we might switch to bun"},
		{"hedge maybe", "maybe we should use Deno"},
		{"hedge thinking about", "I'm thinking about moving to Berlin"},
		{"hedge not sure", "not sure if we use Redis"},
		{"future plan", "we're going to migrate to Postgres"},
		{"transient state", "I'm hungry"},
		{"transient today", "I'm tired today"},
		{"transient right now", "the build is failing right now"},
		{"task scoped", "don't push yet"},
		{"reported speech", "my coworker said we should use yarn"},
		{"third party wish", "my manager wants us to use Jira"},
		{"stack trace", "panic: runtime error: index out of range\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x1d"},
		{"code line", "const pm = usePackageManager({name: 'pnpm'});"},
		{"one-off request", "please fix the login bug"},
		{"plain imperative is a task", "use pnpm to install the dependencies"},
		{"one-off reference", "don't change this file"},
		{"not an instruction", "don't worry about the formatting"},
		{"pronoun object", "we use it everywhere"},
		{"pronoun subject", "He went to the kitchen."},
		{"bug location", "the bug is in src/auth/login.go"},
		{"bare correction without a fact to correct", "sorry, I meant Kyoto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Extract(tt.text); len(got) != 0 {
				t.Errorf("Extract(%q)=%v, want nothing", tt.text, triples(got))
			}
		})
	}
}

func TestFactFields(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		kind       string
		exclusive  bool
		correction bool
		support    float64
		rho        float64
		statement  string
	}{
		{"explicit preference", "I prefer pnpm over npm", KindFact, true, false, 1, 0.9, "User uses pnpm as their package manager"},
		{"additive like", "I like Rust", KindFact, false, false, 1, 0.9, "User likes Rust"},
		{"guideline", "use pnpm instead of npm", KindGuideline, false, false, 1, 0.9, "Always use pnpm instead of npm"},
		{"bare don't is trusted less", "don't add comments", KindGuideline, false, false, 1, 0.8, "Never add comments"},
		{"correction", "Actually, my name is Alice", KindFact, true, true, 1, 0.95, "User's name is Alice"},
		{"in-clause correction", "Sorry, my name is actually Alice", KindFact, true, true, 1, 0.95, "User's name is Alice"},
		{"hedged but stated", "I think we use Postgres 15", KindFact, true, false, 0.6, 0.6, "Project uses PostgreSQL as its database"},
		{"residence", "I moved to Tokyo", KindFact, true, false, 1, 0.9, "User lives in Tokyo"},
		{"bAbI statement", "Sandra moved to the garden.", KindFact, true, false, 1, 0.9, "Sandra is in the garden"},
		{"environment in the statement", "we use SQLite in tests", KindFact, false, false, 1, 0.9, "Project uses SQLite in tests"},
		{"deploy slot not repeated", "deploys go through Vercel", KindFact, true, false, 1, 0.9, "Project deploys to Vercel"},
		{"bare style instruction", "Be concise.", KindGuideline, false, false, 1, 0.7, "Be concise"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := Extract(tt.text)
			if len(facts) != 1 {
				t.Fatalf("Extract(%q) returned %d facts, want 1: %v", tt.text, len(facts), triples(facts))
			}
			f := facts[0]
			if f.Kind != tt.kind || f.Exclusive != tt.exclusive || f.Correction != tt.correction {
				t.Errorf("Kind=%q Exclusive=%v Correction=%v, want %q %v %v", f.Kind, f.Exclusive, f.Correction, tt.kind, tt.exclusive, tt.correction)
			}
			if f.Support != tt.support || f.Reliability != tt.rho {
				t.Errorf("Support=%v Reliability=%v, want %v %v", f.Support, f.Reliability, tt.support, tt.rho)
			}
			if f.Statement != tt.statement {
				t.Errorf("Statement=%q, want %q", f.Statement, tt.statement)
			}
			if f.Action != ActionNew {
				t.Errorf("Action=%q, want %q", f.Action, ActionNew)
			}
			if f.Span == "" || !strings.Contains(tt.text, f.Span) {
				t.Errorf("Span=%q, want a clause of %q", f.Span, tt.text)
			}
		})
	}
}

func TestIsExclusive(t *testing.T) {
	tests := []struct {
		predicate string
		want      bool
	}{
		{"lives_in", true}, {"name_is", true}, {"uses_package_manager", true}, {"deploys_with", true},
		{"located_in", true}, {"favorite_color_is", true}, {"timezone_is", true},
		{"prefers", false}, {"likes", false}, {"uses_language", false}, {"uses", false},
		{"should", false}, {"should_when_user_is", false}, {"uses_for_validation", false},
	}
	for _, tt := range tests {
		t.Run(tt.predicate, func(t *testing.T) {
			if got := IsExclusive(tt.predicate); got != tt.want {
				t.Errorf("IsExclusive(%q)=%v, want %v", tt.predicate, got, tt.want)
			}
		})
	}
}

func TestCompetingStatementsShareAPredicate(t *testing.T) {
	texts := []string{"we use pnpm", "I prefer bun", "we switched from pnpm to bun", "our package manager is yarn", "we no longer use npm"}
	for _, text := range texts {
		t.Run(text, func(t *testing.T) {
			facts := Extract(text)
			if len(facts) != 1 || facts[0].Predicate != "uses_package_manager" || !facts[0].Exclusive {
				t.Errorf("Extract(%q)=%v, want one exclusive uses_package_manager fact", text, triples(facts))
			}
		})
	}
}

func TestInputIsCapped(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor sit amet. ", MaxInputBytes/28+10)
	tests := []struct {
		name string
		text string
		want int
	}{
		{"statement before the cap is read", "I like Rust. " + filler, 1},
		{"statement after the cap is ignored", filler + " I like Rust.", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(Extract(tt.text)); got != tt.want {
				t.Errorf("len(Extract)=%d, want %d", got, tt.want)
			}
		})
	}
}

func TestOutputIsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3 * MaxFacts {
		fmt.Fprintf(&b, "I like tool%d. ", i)
	}
	if got := len(Extract(b.String())); got != MaxFacts {
		t.Errorf("len(Extract)=%d, want %d", got, MaxFacts)
	}
}

func TestDuplicatesCollapse(t *testing.T) {
	got := Extract("I like Rust. I really like Rust! i like rust")
	if len(got) != 1 {
		t.Errorf("Extract returned %v, want one fact", triples(got))
	}
}

// TestSeed001Scenarios checks the extraction half of seed 001's scenarios:
// what each episode yields, and whether the values must compete.
func TestSeed001Scenarios(t *testing.T) {
	tests := []struct {
		name      string
		episodes  []string
		want      []triple
		exclusive bool
		corrected bool // the last fact is marked as a correction
	}{
		{"A repeated mention", []string{"I like Rust", "I like Rust"},
			[]triple{{"user", "likes", "rust", false, ""}, {"user", "likes", "rust", false, ""}}, false, false},
		{"B additive preferences", []string{"I like Rust", "I like TypeScript"},
			[]triple{{"user", "likes", "rust", false, ""}, {"user", "likes", "typescript", false, ""}}, false, false},
		{"C residence change", []string{"I live in Beijing", "I moved to Tokyo"},
			[]triple{{"user", "lives_in", "beijing", false, ""}, {"user", "lives_in", "tokyo", false, ""}}, true, false},
		{"D name correction", []string{"My name is Bob", "Sorry, my name is actually Alice"},
			[]triple{{"user", "name_is", "bob", false, ""}, {"user", "name_is", "alice", false, ""}}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Fact
			for _, ep := range tt.episodes {
				got = append(got, Extract(ep)...)
			}
			if fmt.Sprint(triples(got)) != fmt.Sprint(tt.want) {
				t.Fatalf("facts=%v, want %v", triples(got), tt.want)
			}
			for _, f := range got {
				if f.Exclusive != tt.exclusive {
					t.Errorf("Exclusive=%v for %s, want %v", f.Exclusive, f.Predicate, tt.exclusive)
				}
			}
			if last := got[len(got)-1]; last.Correction != tt.corrected {
				t.Errorf("Correction=%v, want %v", last.Correction, tt.corrected)
			}
		})
	}
}
