package extract

import (
	"strings"
	"testing"
)

// TestSession13Shapes holds the readings of session 13 (mend13.go,
// precision13.go): sentences written for the session, none from a set,
// each with near misses that must give nothing or keep their old reading.
// Each case lists the facts wanted as "predicate object" (with "<old"
// for a replaced value, "not " for a negation), joined by "|".
func TestSession13Shapes(t *testing.T) {
	oslo := SlotValue{Subject: SubjectUser, Predicate: "lives_in", Object: "oslo"}
	spotify := SlotValue{Subject: SubjectUser, Predicate: "works_at", Object: "spotify"}
	name := SlotValue{Subject: SubjectUser, Predicate: "name_is", Object: "jon"}
	for _, c := range []struct {
		recent []string
		slots  []SlotValue
		text   string
		want   string
	}{
		// a home told as settling in (settledInRe)
		{nil, []SlotValue{oslo}, "finally settled into the new flat in Glasgow", "lives_in glasgow <oslo"},
		{nil, nil, "we just moved into a house in Leeds", "lives_in leeds"},
		{nil, nil, "settled in Porto at last", "lives_in porto"},
		{nil, nil, "finally moved into the new place in Berlin, boxes everywhere", "lives_in berlin"},
		{nil, nil, "my sister finally settled into her flat in Leeds", ""},
		{nil, nil, "finally settled into the new job at Stripe", ""},
		// a finished change told as the change (swapDoneRe, swappedToRe)
		{[]string{"we're on MySQL 8"}, nil, "the MariaDB swap is done", "uses_database mariadb <mysql"},
		{nil, nil, "postgres migration complete", "uses_database postgres"},
		{nil, nil, "swapped over to biome", "uses_linter biome"},
		{nil, nil, "the MariaDB swap is almost done", ""},
		{nil, nil, "the big refactor is done", ""},
		// where the person works, said before a question (inToolNowRe)
		{nil, nil, "in Zed right now, how do I split the pane?", "uses_editor zed"},
		{nil, nil, "on fedora atm - how do I install docker", "uses_os fedora"},
		{nil, nil, "in Zed right now", ""},
		{nil, nil, "in vim, how do I quit?", ""},
		{nil, nil, "in Lisbon right now, what time is it in Tokyo?", ""},
		// a project named by a letter or an identifier (namedProjectRe)
		{nil, nil, "B uses biome", "uses_linter biome"},
		{nil, nil, "billing-api deploys to fly.io", "deploys_with fly.io"},
		{nil, nil, "Alice uses biome", ""},
		{nil, nil, "B uses vim", ""},
		// an environment's address (envAtRe)
		{nil, nil, "staging is at staging.harborlight.dev", "staging_url_is staging.harborlight.dev"},
		{nil, nil, "the docs site is at docs.example.com", "docs_url_is docs.example.com"},
		{nil, nil, "staging is at capacity", ""},
		// a port keyed by what listens (listenerPortRe, auxListenerIn)
		{nil, nil, "metrics on 9090", "metrics_port_is 9090"},
		{nil, nil, "the metrics endpoint is exposed on port 9091", "metrics_port_is 9091"},
		{nil, nil, "the api runs on port 3000", "port_is 3000"},
		{nil, nil, "the app runs on port 3000", "port_is 3000"},
		{nil, nil, "the app runs on 3000 and metrics on 9090", "port_is 3000|metrics_port_is 9090"},
		{nil, nil, "metrics on 9090, app on 3000", "metrics_port_is 9090|port_is 3000"},
		// the person's commute, best hours, allergy, a language learned
		{nil, nil, "I commute by train", "commute_is by train"},
		{nil, nil, "i bike to work most days", "commute_is by bike"},
		{nil, nil, "my wife commutes by train", ""},
		{nil, nil, "I do my best coding early mornings", "prefers coding early mornings"},
		{nil, nil, "I'm most productive late at night", "prefers working late at night"},
		{nil, nil, "I do my best", ""},
		// (an allergy is the diet's: buried13.go)
		{nil, nil, "I'm allergic to peanuts", "diet_is allergic to peanuts"},
		{nil, nil, "fyi i have a shellfish allergy, so no prawn recipes", "diet_is shellfish allergy"},
		{nil, nil, "I'm learning Japanese in the evenings", "is_learning japanese"},
		// a past state ends a value only when it was held (usedTo)
		{nil, nil, "I used to live in Oslo", ""},
		{nil, []SlotValue{oslo}, "I used to live in Oslo", "not lives_in oslo"},
		{[]string{"I live in Oslo"}, nil, "I used to live in Oslo", "not lives_in oslo"},
		{nil, nil, "we no longer use yarn", "not uses_package_manager yarn"},
		{nil, nil, "now I live in Bergen", "lives_in bergen"},
		// an absence with nothing believed ends nothing (changeMarker)
		{nil, nil, "We don't use Kafka.", ""},
		{nil, []SlotValue{{Subject: SubjectProject, Predicate: "uses_queue", Object: "kafka"}}, "We don't use Kafka.", "not uses_queue kafka"},
		{nil, nil, "We don't use Kafka anymore", "not uses_queue kafka"},
		{nil, nil, "I don't like ORMs", "not likes orms"},
		// "Name: Jon" said by the person (speakerName)
		{nil, nil, "Name: Jon", "name_is jon"},
		{nil, nil, "Name: credence", "name_is credence"},
		// a compile target is no branch (compileTarget)
		{nil, nil, "we target ES2020", "should target es2020"},
		{nil, nil, "we merge everything into develop", "default_branch_is develop|should merge everything into develop"},
		// a rule for this one piece of work (thisTime)
		{nil, nil, "don't bother with tests for this one", ""},
		{nil, nil, "skip the linter this time", ""},
		{nil, nil, "never skip the linter", "not should skip the linter"},
		// an alternative a ban names is part of it (absorbed)
		{nil, nil, "pls dont use `any` in typescript, use unknown instead", "not should use any in typescript"},
		{nil, nil, "always use pnpm, never npm", "should use pnpm|not should use npm"},
		// a taste for how the work is made is a soft rule (likedWork)
		{nil, nil, "I like error messages lowercase with no trailing period", "should prefer error messages lowercase with no trailing period"},
		{nil, nil, "I like comments that explain why", "should prefer comments that explain why"},
		{nil, nil, "I like answers short and to the point", "should prefer answers short"},
		{nil, nil, "I like dark mode", "likes dark mode"},
		{nil, nil, "I love long walks", "likes long walks"},
		{nil, nil, "I like writing code at night", "likes writing code at night"},
		{nil, nil, "I like having types everywhere", "should prefer to have types"},
		// a remark after what is liked is no part of it (likeAside)
		{nil, nil, "I love Elixir, honestly the nicest language I've used", "likes elixir"},
		{nil, nil, "I really like property-based testing, it caught so many bugs for us", "likes property-based testing"},
		// a ban of the place or manner a rule rules out is that rule (elidedContrast)
		{nil, nil, "we always run migrations through the makefile, never by hand", "should run migrations through the makefile"},
		{nil, nil, "secrets go in env vars, never in the code", "should put secrets in env vars"},
		{nil, nil, "never run migrations by hand", "not should run migrations by hand"},
		// "not" after a modal sets no alternative (modalBefore)
		{nil, nil, "remember, tests must not hit the network", "not should let tests hit the network"},
		{nil, nil, "remember: tabs, not spaces", "should use tabs"},
		// what follows "just" after a denial is used (justAfter)
		{nil, nil, "I don't use vscode, just neovim", "not uses_editor vscode|uses_editor neovim"},
		{nil, nil, "I don't use vscode anymore, it got slow", "not uses_editor vscode"},
		// a kind of work's tool told as it is (kindUsesTool)
		{nil, nil, "remember: unit tests use vitest", "uses_test_runner vitest"},
		{nil, nil, "e2e tests use playwright", "uses_e2e_framework playwright"},
		{nil, nil, "e2e tests must use playwright", "should ensure e2e tests use playwright"},
		// a statement remembered without "that" (rememberClause)
		{nil, nil, "remember Dana is our tech lead", "tech_lead_is dana"},
		{nil, nil, "remember to run the linter", "should run the linter"},
		// a breed names the pet's kind (breedCalled)
		{nil, nil, "please remember I have a border collie called Juno", "name_is juno"},
		{nil, nil, "my neighbour has a border collie called Juno", ""},
		// a slot scoped to the house (houseScopedSlot)
		{nil, nil, "keep in mind the tech lead on this repo is Aurelio", "tech_lead_is aurelio"},
		{nil, nil, "the tech lead on the other repo is Aurelio", ""},
		// a kind the speaker names for a tool filed under another (kindNounIs)
		{nil, nil, "The build tool is Vite", "uses_build_tool vite"},
		{nil, nil, "the IaC is all CDK in TypeScript", "uses_iac aws cdk"},
		{nil, nil, "the plan is vite", ""},
		// a language's version said bare (toolIsVersion)
		{nil, nil, "Ruby is 3.2.2 on this repo", "ruby_version_is 3.2.2"},
		{nil, nil, "the answer is 42", ""},
		// the second of two tastes at a comma remarks on the first (tasteAside)
		{nil, nil, "I dislike ORMs, honestly", "dislikes orms"},
		{nil, nil, "I prefer mechanical keyboards, brown switches", "prefers mechanical keyboards"},
		{nil, nil, "I like Rust, Go", "likes rust|likes go"},
		// a subjectless ditch and a tool doing both (ditchedBare, doesBoth)
		{nil, nil, "Ditched eslint + prettier, Biome does both now", "not uses_linter eslint|not uses_formatter prettier|uses_linter biome <eslint|uses_formatter biome <prettier"},
		{nil, nil, "Biome does both now", ""},
		// an environment moved between hosts (envMoved)
		{nil, nil, "staging moved from Heroku to Render", "deploys_with render <heroku"},
		{nil, nil, "staging moved from the old box to the new one", ""},
		// repairs: a starred value against the old, the value then why, a
		// cleft, a short form set against (starredNot, valueThenReason,
		// cleftBranch, valueNotShort)
		{[]string{"the api runs on port 8000"}, nil, "8080* not 8000", "port_is 8080 <8000"},
		{[]string{"i work at Siemens"}, nil, "siemens healthineers actually, its a separate company", "works_at siemens healthineers <siemens"},
		{[]string{"i work at Siemens"}, nil, "err, actually its a separate company", ""},
		{[]string{"We deploy from the main branch."}, nil, "err, actually its the production branch that deploys, main is just for integration", "deploy_branch_is production <main"},
		{[]string{"I'm a product manager"}, nil, "not PM — product designer. people confuse those all the time", "role_is product designer <product manager"},
		{[]string{"I'm a product manager"}, nil, "coffee, not tea", ""},
		// dev2026p shapes (movedOff, leadStar, swappedPair, sinceDate,
		// reachFirst, sinceDoing, leadOn, talksTo)
		{nil, nil, "we moved off Jenkins onto CircleCI last month and nobody misses it", "uses_ci circleci <jenkins"},
		{nil, nil, "we moved off the old office onto the new floor", ""},
		{[]string{"The API runs on port 8000"}, nil, "*8001, 8000 is the docs server", "port_is 8001 <8000"},
		{nil, nil, "we swapped eslint+prettier for biome", "uses_linter biome <eslint|uses_formatter biome <prettier"},
		{nil, nil, "since the 1st we're a Gradle shop, maven is gone", "uses_build_tool gradle <maven"},
		{nil, nil, "where possible, composition over inheritance", "should prefer composition"},
		{nil, nil, "i'm on SGT now since moving to the singapore office", "timezone_is sgt"},
		{nil, nil, "make a note: Hideo is tech lead on the renderer", "tech_lead_is hideo"},
		{nil, nil, "The app talks to Postgres through Prisma.", "uses_database postgres|uses_orm prisma"},
		{nil, nil, "the app talks to the payments team", ""},
		// a bare number corrects a measuring slot (numericSlot)
		{[]string{"line length is 120"}, nil, "100, sorry. 120 was the old rule", "line_length_is 100 <120"},
		// where a person just named is based (fullName, personBased)
		{nil, nil, "my boss is Gwendolyn Asare, she sits in Accra so our 1:1s are early", "manager_is gwendolyn asare|lives_in accra"},
		{nil, nil, "my boss is Priya, she sits in Pune", "manager_is priya|lives_in pune"},
		{nil, nil, "she sits in Accra", ""},
		// a verbless wish for a code practice everywhere, with its reason after
		{nil, nil, "type hints everywhere, mypy strict is on in CI", "should use type hints"},
		{nil, nil, "errors everywhere, the build is broken", ""},
		// a role's qualifier repaired, a degree being done (modifierRepair, doingDegree)
		{[]string{"I'm a frontend developer"}, nil, "well, fullstack really. mostly frontend though", "role_is fullstack developer <frontend developer"},
		{[]string{"I'm a frontend developer"}, nil, "no, thanks", ""},
		{nil, nil, "I am doing PhD in computational linguistics, third year now", "role_is phd student"},
		// a judgement is no open slot's value
		{nil, nil, "keep in mind the staging server is slow", ""},
		// a repaired date keeps the statement's shape (keepShape)
		{[]string{"my flight to Osaka is on the 14th"}, nil, "typo, the 17th*", "flight_is 17th <14th"},
		// a bare correction naming a company in a new session (companyLike)
		{nil, []SlotValue{spotify}, "lol no I mean Deezer", "works_at deezer <spotify"},
		{nil, []SlotValue{spotify, name}, "lol no I mean Deezer", ""},
		{nil, []SlotValue{{Subject: SubjectUser, Predicate: "uses_for_music", Object: "spotify"}, oslo}, "lol no I mean Deezer", "uses_for_music deezer <spotify"},
		{nil, []SlotValue{oslo}, "lol no I mean Deezer", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			var parts []string
			for _, f := range ExtractWith(c.text, Context{Recent: c.recent, Slots: c.slots}) {
				p := f.Predicate + " " + strings.ToLower(f.Object)
				if f.Kind == KindGuideline {
					p = strings.TrimPrefix(p, "should_not ")
					if strings.HasPrefix(f.Predicate, "should_not") || f.Negated {
						p = "not should " + p
					}
				} else if f.Negated {
					p = "not " + p
				}
				if f.Replaces != "" && f.Kind == KindFact {
					p += " <" + strings.ToLower(f.Replaces)
				}
				parts = append(parts, p)
			}
			if got := strings.Join(parts, "|"); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestSession13Statements checks the sentences of the new readings.
func TestSession13Statements(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		{[]string{"my flight to Osaka is on the 14th"}, "typo, the 17th*", "User's flight is on the 17th, to Osaka"},
		{nil, "Name: Jon", "User's name is Jon"},
		{nil, "Name: credence", "Project's name is Credence"},
		{nil, "I commute by train", "User's commute is by train"},
		{nil, "pls dont use `any` in typescript, use unknown instead", "Never use any in typescript; use unknown"},
		{nil, "don't commit directly to main, open a PR", "Never commit directly to main; open a PR"},
		{nil, "we don't use docker, only podman", "Never use docker; use only podman"},
		{nil, "we always run migrations through the makefile, never by hand", "Always run migrations through the makefile, never by hand"},
		{nil, "I like error messages lowercase with no trailing period", "Prefer error messages lowercase with no trailing period"},
	} {
		fs := ExtractWith(c.text, Context{Recent: c.recent})
		if len(fs) == 0 || fs[0].Statement != c.want {
			t.Errorf("ExtractWith(%q) = %v, want the statement %q", c.text, fs, c.want)
		}
	}
}

// TestSession13NeedsContext checks that the changes of session 13 whose
// old value only the conversation names ask the consolidator for it.
func TestSession13NeedsContext(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"the MariaDB swap is done", true},
		{"well, fullstack really", true},
		{"since the 1st we're a Gradle shop", true},
		{"now I live in Bergen", true},
		{"I used to live in Oslo", true},
		{"finally settled into the new flat in Glasgow", true},
		{"lol no I mean Deezer", true},
		{"the big refactor is done", false},
		{"thanks", false},
	} {
		if got := NeedsContext(c.text); got != c.want {
			t.Errorf("NeedsContext(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
