package extract

import (
	"slices"
	"strings"
	"testing"
)

// TestSession12Precision holds the precision readings of session 12
// (precision.go, mend.go, and the config and narration filters): for each,
// sentences written for the round that must give nothing or a mended
// value, and near misses of the same shape that must still extract. None
// is taken from a development or check set. A fact is written
// "predicate(subject, object)", with "not " before a negated one; a rule
// as its statement.
func TestSession12Precision(t *testing.T) {
	tests := []struct {
		name    string
		context []string
		text    string
		want    []string
	}{
		// a past frame: the setup of a job or a time left behind
		{"past job", nil, "in my last job we deployed with capistrano", nil},
		{"past job, after", nil, "we deployed with capistrano at my previous company", nil},
		{"current job", nil, "in my current job we deploy with kamal", []string{"deploys_with(project, kamal)"}},
		{"past job then now", nil, "previously I worked at Meta, now I'm at Stripe", []string{"works_at(user, stripe)"}},
		{"change years ago", nil, "I moved from vim to neovim years ago", []string{"uses_editor(user, neovim)"}},

		// another person's possession
		{"his editor", nil, "his editor is neovim", nil},
		{"their backend", nil, "their backend is written in java", nil},
		{"named owner", nil, "Sarah's editor is vim", nil},
		{"my editor", nil, "my editor is neovim", []string{"uses_editor(user, neovim)"}},
		{"contracted is after a name", nil, "Tom's my manager", []string{"manager_is(user, tom)"}},
		{"contracted it is", []string{"Our database is MySQL."}, "It's actually MariaDB, not MySQL.", []string{"uses_database(project, mariadb)"}},
		{"contracted it is, a tool after", []string{"my shell is bash"}, "It's zsh, not bash", []string{"uses_shell(user, zsh)"}},

		// a person's setup read as their name
		{"teammate on a mac", nil, "my teammate is on a mac", nil},
		{"client on azure", nil, "our client is on azure", nil},
		{"teammate named", nil, "my teammate is Alex", []string{"name_is(user's teammate, alex)"}},
		{"client named", nil, "our client is Acme", []string{"client_is(project, acme)"}},

		// a rule in someone else's mouth
		{"says our CEO", nil, "Always check with legal before launch, says our CEO", nil},
		{"as my prof used to say", nil, "Always check your assumptions, as my prof used to say", nil},
		{"my mentor always said", nil, "never trust user input, my mentor always said", nil},
		{"as the style guide says", nil, "always use tabs, as the style guide says", []string{"Always use tabs"}},
		{"the style guide says so", nil, "always run the linter, the style guide says so", []string{"Always run the linter"}},
		{"a greeting reported before", nil, "Tom says hi. always run the linter before pushing", []string{"Always run the linter before pushing"}},

		// a value asked to be set
		{"set the port", nil, "set the port to 5050 in the test config", nil},
		{"we set the port", nil, "we set the port to 5050", []string{"port_is(project, 5050)"}},
		{"bumped the port", nil, "bumped the api port to 9090", []string{"port_is(project, 9090)"}},
		{"make it", []string{"the db runs on port 5432"}, "make it 5433", []string{"port_is(project, 5433)"}},

		// "never" narrating the past
		{"we never got", nil, "we never got the staging deploy working", nil},
		{"we never deploy", nil, "we never deploy on fridays", []string{"Never deploy on fridays"}},

		// pasted configuration and code
		{"yaml paste", nil, "port: 8080\nhost: 0.0.0.0\ndatabase: postgres", nil},
		{"code line", nil, "const PORT = 4000", nil},
		{"package pins", nil, "engines:\n  node: 18\npackageManager: yarn@3.6.1", nil},
		{"own nested list", nil, "Stack:\n  backend: go\n  db: postgres", []string{"uses_language(project, go)", "uses_database(project, postgres)"}},
		{"own settings list", nil, "editor: neovim\nshell: fish", []string{"uses_editor(user, neovim)", "uses_shell(user, fish)"}},

		// another project
		{"upstream repo", nil, "the upstream repo deploys with netlify", nil},
		{"sample app", nil, "the sample app runs on port 3000", nil},
		{"the api", nil, "the api runs on port 3000", []string{"port_is(project, 3000)"}},

		// "always" and "never" with no rule
		{"a life told", nil, "always been a vim guy", nil},
		{"a place never been", nil, "never been to Lisbon", nil},
		{"a judgement", nil, "never a good sign", nil},
		{"a frequency", nil, "not always, only sometimes", nil},
		{"a rule with be", nil, "always be polite", []string{"Be polite"}},
		{"a rule with an article", nil, "always use a linter", []string{"Always use a linter"}},

		// a rule for this piece of work
		{"for this refactor", nil, "for this refactor, never change the public api", nil},
		{"here, with what may happen", nil, "always check err here, it can be nil", nil},
		{"in this repo", nil, "use tabs in this repo", []string{"Always use tabs"}},
		{"here, with the house's way", nil, "never use var here, we use const", []string{"Never use var; use const"}},

		// complaints about the assistant's habits
		{"you always, no fault", nil, "you always add semicolons", nil},
		{"you never", nil, "you never run the tests", []string{"Always run the tests"}},
		{"you always forget", nil, "you always forget the imports", []string{"Always include the imports"}},
		{"you always skip", nil, "you always skip the linter", []string{"Never skip the linter"}},
		{"you always forget to", nil, "you always forget to close the file", []string{"Always close the file"}},

		// values mended
		{"clause after a deploy target", nil, "we deploy to fly.io using their cli", []string{"deploys_with(project, fly.io)"}},
		{"team after an employer", nil, "I work at Stripe on payments infra", []string{"works_at(user, stripe)"}},
		{"last word of the sentence", nil, "whatever, i live in toronto anyway", []string{"lives_in(user, toronto)"}},
		{"please in a rule", nil, "use tabs please, not spaces", []string{"Always use tabs instead of spaces"}},
		{"thanks in advance", nil, "always write tests, thanks in advance", []string{"Always write tests"}},
		{"please and thanks", nil, "always add types please and thanks", []string{"Always add types"}},
		{"a value ends before 'done'; a judgement is no tool", nil, "first week at Datadog done!! new laptop is nice, help me set up ssh keys", []string{"works_at(user, datadog)"}},
		{"a preposition before a tool", nil, "formatting is via black, don't fight it", []string{"uses_formatter(project, black)"}},
		{"please before a second clause keeps its comma", nil, "don't write a comment above every getter please, only the tricky http handlers deserve one",
			[]string{"Never write a comment above every getter, only the tricky http handlers deserve one"}},
		{"a last word after a comma", nil, "never commit secrets, seriously", []string{"Never commit secrets"}},
		{"seriously inside", nil, "always review PRs seriously", []string{"Always review PRs seriously"}},

		// a clause or a word read as a value or a slot
		{"another's clause as a value", nil, "I prefer tabs, Bob prefers spaces", []string{"prefers(user, tabs)"}},
		{"a preference over", nil, "I prefer tabs over spaces", []string{"prefers(user, tabs)"}},
		{"now as a slot", nil, "I used to live in Oslo and now I live in Bergen", []string{"not lives_in(user, oslo)", "lives_in(user, bergen)"}}, // session 13 reads the present after "now",
		{"an open slot", nil, "our office is in Berlin", []string{"office_is(project, berlin)"}},

		// a scope put on the value before it
		{"scope of its own", nil, "we use postgres 16 in prod but sqlite in tests", []string{"uses_database(project, postgres)"}},
		{"scope alone", nil, "we use sqlite in tests", []string{"uses_database_in_tests(project, sqlite)"}},

		// a port with more said after it
		{"a port and another", nil, "the frontend runs on 5173, the backend on 8000", []string{"port_is(project, 5173)"}},
		{"a port where, and another", nil, "the api runs on 8081 locally and 8080 in docker", []string{"port_is(project, 8081)"}},
		{"a sprint is no port", nil, "our sprint is 2 weeks", []string{"sprint_is(project, 2 weeks)"}},

		// where a fault is
		{"a fault's place", nil, "the namespace collision is in utils.py", nil},
		{"a failing test's place", nil, "the failing test is in auth_test.go", nil},
		{"a thing's place", nil, "the config is in config.yaml", []string{"located_in(config, config.yaml)"}},

		// a plan as a slot, a place of use as a value
		{"a target", nil, "our target is python 3.13 by summer", nil},
		{"what is", nil, "our database is postgres", []string{"uses_database(project, postgres)"}},
		{"a place of use", nil, "at home I use arch, at work macOS", []string{"uses_os(user, arch linux)"}},

		// values in the wrong slot
		{"tool naming a team", nil, "I'm on the mac app store team", nil},
		{"tool beside a team", nil, "I use a mac on the ios team", []string{"uses_os(user, macos)"}},
		{"stay with its end", nil, "I'm in Lisbon until friday", nil},
		{"home", nil, "I'm in Lisbon now", []string{"lives_in(user, lisbon)"}},
		{"region hosted in", nil, "the app is hosted in Ireland", nil},
		{"host hosted on", nil, "the app is hosted on Render", []string{"deploys_with(project, render)"}},
		{"person worked with", nil, "I work with Tom", nil},
		{"tool worked with", nil, "I work with react", []string{"uses_framework(user, react)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range ExtractWith(tt.text, Context{Recent: tt.context}) {
				got = append(got, described(f))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ExtractWith(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// described is a fact as the precision tests compare it.
func described(f Fact) string {
	if f.Kind == KindGuideline {
		return f.Statement
	}
	neg := ""
	if f.Negated {
		neg = "not "
	}
	return neg + f.Predicate + "(" + f.Subject + ", " + strings.ToLower(f.Object) + ")"
}

// devFileNPrecision is the precision set of session 12 (EXT12b): 97
// utterances that state nothing of the person's and 60 true facts and
// rules shaped like them, written before the round's tuning. 0.90 / 0.83
// with context at the start (25cabc4), 0.98 / 0.83 after; the floors
// keep a margin, and each category's recall floor is low because the
// change and directive categories hold seven and two cases.
const devFileNPrecision = "testdata/dev2026n_precision.jsonl"

func TestDev2026nPrecision(t *testing.T) {
	scoreRetiredCheck(t, devFileNPrecision, 150, 0.95, 0.8, 0.9, 0.45)
}
