package extract

import (
	"strings"
	"testing"
)

// statementsOf is the statements ExtractWith gives for text, joined by
// "|": what MEMORY.md and the context would show.
func statementsOf(text string, recent []string) string {
	var parts []string
	for _, f := range ExtractWith(text, Context{Recent: recent}) {
		parts = append(parts, f.Statement)
	}
	return strings.Join(parts, "|")
}

// TestSession11bRules checks one statement per reading of the second
// round of session 11 (rules read and stated as English imperatives,
// dev2026l_rules): each case fails when its mechanism is taken out. The
// sentences are not those of the set; near misses must give nothing.
func TestSession11bRules(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a convention said as how things are, stated plainly
		// (plainImperative)
		{nil, "every form field must be sanitized", "Always keep every form field sanitized"},
		{nil, "every job must be retryable", "Always make every job retryable"},
		{nil, "all durations in the API are ISO 8601 strings", "Always use ISO 8601 strings for all durations in the API"},
		{nil, "all error messages go through the translator", "Always pass all error messages through the translator"},
		{nil, "merge requests go to develop, rebase merge only", "Always open merge requests against develop; rebase merge only"},
		// a ban with a house scope keeps its never (deonticWords)
		{nil, "singletons are forbidden in this repo", "Never use singletons"},
		// a piece of work that needs a thing made with it (rewrite.go)
		{nil, "every hotfix needs a postmortem", "Always include a postmortem with every hotfix"},
		{nil, "Tom says every hotfix needs a postmortem", ""},
		// a way of working said for every case is trusted as a rule
		// (everyCase)
		{nil, "rename foo everywhere", ""},
		{nil, "use the test db for everything today", ""},
		// a wish due by a time is this task's (dueBy)
		{nil, "i want the numbers by friday", ""},
		{nil, "we need a fix asap", ""},
		// an elided never names what it keeps out (keptIn)
		{nil, "credentials are stored in vault, never in env files", "Project keeps secrets in Vault|Never keep credentials in env files"},
		{nil, "my bike lives in the shed, never in the hall", ""},
		// "them" names the things placed before it, or the rule is
		// dropped (pronounRules)
		{nil, "the snapshots are in tests/__snapshots__, never edit them by hand", "The snapshots are in tests/__snapshots__|Never edit the snapshots by hand"},
		{nil, "never delete them", ""},
		// a rule on "the" part of something names the kind (partOfKind)
		{nil, "every endpoint needs auth, always add the rate limit header", "Always ensure every endpoint has auth|Always add the rate limit header for every endpoint"},
		// a banned part of a reply keeps its article and place
		{nil, "no recap at the end", "Never add a recap at the end"},
		{nil, "drop the intro at the start", "Never add an intro at the start"},
		// "just" before the verb, "please" off a neighbour's detail
		{nil, "please explain the tradeoffs, don't just paste code", "Never just paste code; explain the tradeoffs"},
		// a conditional rule with the speaker's own setup after it
		// (notMineTail)
		{nil, "when you give me commands use powershell syntax, i dont use bash", "When you give me commands, always use powershell syntax instead of bash"},
		// a spelling tail is no part of a name (spellingTail)
		{[]string{"my son's name is Jon"}, "sorry, Jonn with two ns", "User's son's name is Jonn"},
		{nil, "i live in Bath with my wife", "User lives in Bath"},
		// data kept in a named store, with its preposition (storedIn,
		// openGoesTo)
		{nil, "we keep jobs in Redis", "Project's jobs are in Redis"},
		{nil, "page views go to ClickHouse", "Project's page views are in ClickHouse"},
		{nil, "the kids go to school", ""},
		// reply manners, complaints, preferences, requests without "?"
		{nil, "explain your thinking step by step", "Always explain your thinking step by step"},
		{nil, "explain the diff step by step", ""},
		{nil, "why do you always write such verbose log messages? keep them short", "Always keep log messages short"},
		{nil, "my kids keep fighting, keep them apart", ""},
		{nil, "can you rewrite the loader; keep it synchronous, that's a hard rule", "Always keep the loader synchronous"},
		{nil, "I'd rather you check than assume", "Always check rather than assume"},
		{nil, "don't guess file names", "Never guess file names"},
		{nil, "I like my functions well documented", "Always keep functions well documented"},
		{nil, "can you always add a docstring", "Always add a docstring"},
		{nil, "can you always add a docstring?", ""},
		{nil, "numbered lists please", "Always use numbered lists"},
		// what to do past a limit does not make the limit hypothetical
		// (overflowTail)
		{nil, "keep handlers under 50 lines, if they get longer split them", "Always keep handlers under 50 lines"},
		{nil, "the file is under 40 lines, if it is longer tell me", ""},
		{nil, "tables", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := statementsOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestEveryCaseIsTrusted checks that a bare imperative said for every case
// it fits is trusted as a rule (ρ 0.9, which the consolidator takes from
// one mention), and a bare one without that scope is trusted less.
func TestEveryCaseIsTrusted(t *testing.T) {
	for _, c := range []struct {
		text string
		rho  float64
	}{
		{"use decimal types for anything money", 0.9},
		{"use tabs everywhere in the frontend", 0.9},
		{"use decimal types", 0.7},
	} {
		fs := Extract(c.text)
		if len(fs) != 1 || fs[0].Reliability != c.rho {
			t.Errorf("Extract(%q) = %v, want one rule with Reliability %v", c.text, fs, c.rho)
		}
	}
}

func TestDev2026lRules(t *testing.T) {
	scoreRetiredCheck(t, devFileLRules, 48, devLPrecision, devLRecall, devScenCatPrecision, devScenCatRecall)
}

// devFileLRules holds the rules and open-slot facts the scenario dev sets
// lost or stated badly, listed for the second round of session 11, with
// sentences of the same shapes and near misses (docs/EXTRACTION.md
// "Session 11, second round"): 0.56 / 0.49 with context at the round's
// start, 1.00 / 1.00 after.
const devFileLRules = "testdata/dev2026l_rules.jsonl"

// Floors for dev2026l: its numbers at the end of the round less a margin.
const (
	devLPrecision = 0.9
	devLRecall    = 0.9
)

// TestInStepWithPreposition checks that a value shown with its
// preposition ("Project's events are in Cassandra") is in step with its
// triple, so the consolidator does not take it for an older sentence.
func TestInStepWithPreposition(t *testing.T) {
	if !InStep("Project's events are in Cassandra", SubjectProject, "events_is", "cassandra", false) {
		t.Error(`InStep("Project's events are in Cassandra") = false, want true`)
	}
	if InStep("Project's events are in Kafka", SubjectProject, "events_is", "cassandra", false) {
		t.Error(`InStep("Project's events are in Kafka") for cassandra = true, want false`)
	}
}
