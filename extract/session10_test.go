package extract

import "testing"

// TestSession10Shapes checks one statement per reading added in session
// 10 (check2026g read as a development set): each case fails when its
// mechanism is taken out. The utterances are not those of the set; they
// are other sentences of the same shape.
func TestSession10Shapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a time zone glossed in parentheses (zoneGlosses)
		{nil, "I'm in the Tokyo timezone (JST)", "timezone_is jst"},
		{nil, "heads up, I'm in BST (london), so mornings are best", "timezone_is bst"},
		{nil, "I'm in Denver time now (MST), moved from Boston", "timezone_is mst"},
		// "she's in <city>" of a person just named (personThereRe)
		{nil, "my boss is Ana, she's in Kraków", "manager_is ana|lives_in kraków"},
		{nil, "my boss is Ana, she's in Finance", "manager_is ana"},
		{nil, "my boss is Ana, she's in a meeting", "manager_is ana"},
		// a team's act on every thing of a kind, whatever the verb (weEvery)
		{nil, "we cherry-pick every fix onto the release branch", "should cherry-pick every fix onto the release branch"},
		{nil, "we run the smoke tests after each deploy", "should run the smoke tests after each deploy"},
		{nil, "we fixed all the flaky tests", ""},
		{nil, "we have fixtures for every handler", "should have fixtures for every handler"},
		// one way of writing over another, said with "we use" (waysOfWriting)
		{nil, "we use spaces, not tabs, in the python code", "should use spaces <use tabs"},
		{nil, "we use async functions instead of callbacks", "should use async functions <use callbacks"},
		{nil, "we use Bitbucket, not Trello", "uses bitbucket <trello"},
		// a kind of place things are kept in (kindOfPlace)
		{nil, "we keep GraphQL in .graphql files, not inline strings", "should keep graphql in .graphql files, not inline strings"},
		{nil, "we keep HTML in .html files", "should keep html in .html files"},
		{nil, "we keep the uploads in S3", "uploads_is s3"},
		// a port that moved (portMoved), a slot changed from one value to
		// another (slotChanged's "from"), a slot noun with a digit and a
		// change with its cause after it (changeCause)
		{nil, "the worker moved from port 9000 to 9100", "port_is 9100 <9000"},
		{nil, "we moved the docs site to port 4400", "port_is 4400"},
		{nil, "the admin port changed from 4000 to 4200", "port_is 4200 <4000"},
		{nil, "we switched the k8s namespace to billing-v3 after the reorg", "k8s_namespace_is billing-v3"},
		// taken out of one place into another, dated after it
		// (outOfInto, changeSuffix)
		{nil, "Moved our secrets out of Vault into Doppler, as of this week", "uses_secrets_store doppler <vault"},
		// the passive names the old tool first (replacedByRe); "traded X
		// for Y"
		{nil, "Mocha got replaced by Jest", "uses_test_runner jest <mocha"},
		{nil, "we traded CircleCI for Buildkite", "uses_ci buildkite <circleci"},
		// a port given by the verb of a server (binds, serves)
		{nil, "the metrics server binds to 9091", "metrics_port_is 9091"}, // session 13: a port keyed by what listens,
		// a degree between the copula and the value ("all", "entirely")
		{nil, "ci is all buildkite", "uses_ci buildkite"},
		{nil, "our queue is all SQS", "uses_queue sqs"},
		// what a parenthesis says of the tool just named (toolGlosses)
		{nil, "our linter is eslint (flat config)", "uses_linter eslint"},
		{nil, "our queue is sqs (fifo queues)", "uses_queue sqs"},
		{nil, "we use Postgres (and Redis for caching)", "uses_database postgres|uses_cache redis"},
		// the house's scope inside a slot's subject (scopedSlot)
		{nil, "max line length in this project is 100", "line_length_is 100"},
		// a slot's values each with its use (purposeTail in slotTools)
		{nil, "our queue is SQS for jobs and Kafka for events", "uses_queue sqs|uses_queue kafka"},
		// work named by its activity, with the tool that does it
		{nil, "the pipelines are airflow", "uses_data_pipeline airflow"},
		// "no it's X" without its comma is a repair
		{[]string{"we're on php 8.2"}, "no it's 8.3, not 8.2", "php_version_is 8.3 <8.2"},
		{[]string{"my editor is vim"}, "no it's helix", "uses_editor helix <vim"},
		{[]string{"is the build green?"}, "no it's red", ""},
		// bare standards in more shapes (style.go): a kind of code and its
		// purpose, a named pattern, where every new one goes, a kind of
		// artifact made to an adjective of its form, "all X" with where
		{nil, "use guard clauses to keep nesting shallow", "should use guard clauses"},
		{nil, "use sed to fix the file", ""},
		{nil, "follow the hexagonal architecture pattern", "should follow the hexagonal architecture pattern"},
		{nil, "put new hooks in src/hooks", "should put new hooks in src/hooks"},
		{nil, "put the new file in src/utils", ""},
		{nil, "make log messages searchable", "should keep log messages searchable"},
		{nil, "make this function testable", ""},
		{nil, "sanitize all input at the edge", "should sanitize all input at the edge"},
		// a state wished for every one of a kind (wantedState)
		{nil, "I want all endpoints protected by auth", "should keep all endpoints protected by auth"},
		{nil, "I want all the tests passing by friday", ""},
		{nil, "I want all endpoints fixed by tomorrow", ""},
		// a team's or a person's stance on a way of working (rewrite.go)
		{nil, "our team likes small diffs", "should prefer small diffs"},
		{nil, "I'm a firm believer in atomic commits", "should prefer atomic commits"},
		{nil, "we try not to use singletons", "should_not use singletons"},
		{nil, "we steer clear of global mutable state", "should_not use global mutable state"},
		{nil, "we're not big fans of god objects", "should_not use god objects"},
		{nil, "I can't stand it when devs push straight to main", "should_not push straight to main"},
		{nil, "I'm picky about naming", ""},
		{nil, "I'm a big believer in luck", ""},
		{nil, "we stay away from the office on mondays", ""},
		{nil, "I hate when people are late", ""},
		// what every one of a kind should carry (likeKindTo)
		{nil, "I want commits to reference the ticket", "should make sure commits reference the ticket"},
		// "nothing X-s without Y" (nothingWithout)
		{nil, "it's a strict rule that no PR merges without CI passing", "should_not merge anything without ci passing"},
		{nil, "nothing works without coffee", ""},
		// "get" with a participle says it is done to every one
		{nil, "tags get signed", "should keep tags signed"},
		{nil, "the build gets slow", ""},
		// the kind a way is for, said first; a way for a kind of artifact
		// (wayForKind); a way of writing for a language, twice
		{nil, "for branch names we use kebab-case", "should use kebab-case for branch names"},
		{nil, "we use lowercase for column names", "should use lowercase for column names"},
		{nil, "we use Joi for payloads", "uses_for_payloads joi"},
		{nil, "spaces for python, tabs for go", "should use spaces for python|should use tabs for go"},
		// a kind of artifact kept in a state named by its form
		{nil, "keep migrations idempotent", "should keep migrations idempotent"},
		{nil, "keep fixtures versioned", "should keep fixtures versioned"},
		{nil, "keep things moving", ""},
		// changes told as a decision, a rewrite, a slot switched "over",
		// a tool ripped out and another gone with
		{nil, "we decided to adopt pnpm", "uses_package_manager pnpm"},
		{nil, "the admin app was rewritten in Svelte", "uses_framework svelte"},
		{nil, "we switched our formatter over to Biome", "uses_formatter biome"},
		{nil, "we moved the k8s namespace over to orders-v3", "k8s_namespace_is orders-v3"},
		{nil, "we ripped out Jest last month and went with Vitest", "uses_test_runner vitest <jest"},
		// "no <convention>" where its first word can be a verb
		{nil, "no default exports", "should_not use default exports"},
		// a reply act at a place in every reply (replyPart's verbs)
		{nil, "never recap at the end", "should_not recap"},
		{nil, "don't summarize at the end", "should_not summarize"},
		// "X is non-negotiable" keeps its predicate
		{nil, "type checking is non-negotiable", "should ensure type checking"},
		// the way the team does a kind of work (wayWeDo)
		{nil, "the way we handle retries is to wrap them in a backoff helper", "should wrap retries in a backoff helper"},
		{nil, "we handle timeouts by retrying them with backoff", "should retry timeouts with backoff"},
		// a condition on every one of a kind is generic
		{nil, "after every merge, delete the branch", "should_when_after_every_merge delete the branch"},
		{nil, "after this merge, delete the branch", ""},
		// a tool that comes ", with" a list is one more item with its own
		// use (withItem); bare tools after a statement of the stack go on
		// listing it (moreOfStack); the alternative of a deploy ends at
		// its comma
		{nil, "Our app uses Vite and React, with Vitest for unit tests", "uses_bundler vite|uses_framework react|uses_test_runner vitest"},
		{nil, "it's a Django app, Python 3.12, Celery 5, deployed on Render", "uses_framework django|uses_language python|python_version_is 3.12|uses_queue celery"},
		{[]string{"we deploy with ansible"}, "uh, not ansible, terraform", "deploys_with terraform <ansible"},
		{nil, "we deploy to fly, not heroku, postgres on neon", "deploys_with fly.io <heroku"},
		// what every one of a kind carries (everyHas)
		{nil, "every endpoint has an integration test", "should ensure every endpoint has an integration test"},
		{nil, "every test has a bug lol", ""},
		// "no more X" after the time a rule holds from
		{nil, "from now on, no more inline styles", "should_not add inline styles"},
		// "you can never …"; a wish about how things of a kind are
		{nil, "you can never push to main directly", "should_not push to main directly"},
		{nil, "it'd be great if tags were signed", "should keep tags signed"},
		// the old value in parentheses (wasGloss); a time "back"; the
		// passive without its auxiliary; a slot that "went" to a value
		{nil, "we now deploy to Render (was Heroku)", "deploys_with render <heroku"},
		{nil, "we moved from Jenkins to Buildkite a few months back", "uses_ci buildkite <jenkins"},
		{nil, "moment replaced with date-fns", "uses_date_library date-fns <moment"},
		{nil, "our python version went from 3.10 to 3.12", "python_version_is 3.12 <3.10"},
		// a second verb of "I'm …" gets its subject, after "and" or "but"
		{nil, "I'm from Kenya but live in Leeds", "is_from kenya|lives_in leeds"},
		{nil, "I'm a designer and work at Figma", "role_is designer|works_at figma"},
		// a title is no manager's name; the name after it is
		{nil, "I report to the VP of engineering, Lucia", "manager_is lucia"},
		{nil, "I report to the CTO", ""},
		{nil, "home base is Accra", "lives_in accra"},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestPoliteStandingConventions checks that a way of working asked for
// politely over an artefact the repository keeps (the docs, commit
// messages, the tests, the database columns) is a rule trusted as one
// said with "always", while a polite request about one thing of this
// task gives nothing (artefactStandard, askPolitely, namedConvention).
func TestPoliteStandingConventions(t *testing.T) {
	for _, c := range []struct {
		text string
		rho  float64 // 0: nothing extracted
	}{
		{"please use Oxford commas in the docs", 0.9},
		{"kindly write the changelog entries in past tense", 0.9},
		{"please keep the docstrings brief", 0.9},
		{"could you please use kebab-case for the file names?", 0.9},
		{"please follow semver", 0.9},
		{"please use 4 spaces in the python files", 0.9},
		{"please fix the typo in the docs", 0},
		{"please use the new logo in the docs", 0},
		{"could you fix the broken link in the readme?", 0},
		{"please write the tests for this feature", 0},
		{"Be concise.", 0.7},
	} {
		t.Run(c.text, func(t *testing.T) {
			fs := Extract(c.text)
			if c.rho == 0 {
				if len(fs) != 0 {
					t.Errorf("Extract(%q) = %v, want nothing", c.text, fs)
				}
				return
			}
			if len(fs) != 1 || fs[0].Kind != KindGuideline {
				t.Fatalf("Extract(%q) = %v, want one guideline", c.text, fs)
			}
			if fs[0].Reliability != c.rho {
				t.Errorf("Extract(%q) Reliability=%v, want %v", c.text, fs[0].Reliability, c.rho)
			}
		})
	}
}
