package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/credence-mem/credence/relations"
)

// TestSession12Shapes checks one statement per reading added in session
// 12 (the losses of the retired scenario set scenarios_check10, and
// dev2026m written before the tuning): each case fails when its
// mechanism is taken out. The utterances are neither the scenario set's
// nor dev2026m's; they are other sentences of the same shapes, with
// near misses that must give nothing.
func TestSession12Shapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a kind of tool named by a noun with a digit (slotIsRe, slotBare)
		{nil, "l10n is lingui, catalogs in src/locales", "uses_i18n lingui"},
		{nil, "our i18n is formatjs", "uses_i18n react-intl"},
		{nil, "i18n is broken on the settings page", ""},
		// "'s" for "is" after a kind of tool (categoryIs)
		{nil, "formatting's handled by prettier", "uses_formatter prettier"},
		{nil, "the bundler's vite", "uses_bundler vite"},
		{nil, "ci's config is a mess", ""},
		{nil, "the linter's output is noisy", ""},
		// a kind of work done with a named thing the tool table does not
		// know (managedWith, toolShaped)
		{nil, "our packages are managed with pip-tools here", "uses_package_manager pip-tools"},
		{nil, "deps are pinned with poetry2nix", "uses_package_manager poetry2nix"},
		{nil, "deps are managed by hand", "should keep deps managed by hand"},
		{nil, "deps are managed in pyproject.toml", "should keep deps managed in pyproject.toml"},
		{nil, "deps are handled by Renovate", "should keep deps handled by renovate"},
		// work "done with" something that is no tool (doneWith)
		{nil, "builds are done with care", ""},
		{nil, "testing is done by hand", ""},
		{nil, "builds are done with bazel", "uses_build_tool bazel"},
		// dates and logging libraries named by their kind (stackNouns,
		// kinCategory)
		{nil, "dates are handled with luxon", "uses_date_library luxon"},
		{nil, "dates are a pain in this codebase", ""},
		{nil, "logging is pino", "uses_logger pino"},
		{nil, "logging is datadog", "uses_observability datadog"},
		{nil, "logging is too noisy", ""},
		// a port things are exposed on (devServerOn)
		{nil, "health checks are exposed on port 8086", "health_port_is 8086"}, // session 13: a port keyed by what listens,
		{nil, "metrics are exposed to the whole org", ""},
		// an instrument or a game the person plays (playsRe, playerRe)
		{nil, "I play the trumpet in a brass band, so my lips hurt", "hobby_is playing trumpet"},
		{nil, "been playing ukulele for a year, anyway how do i reverse a list", "hobby_is playing ukulele"},
		{nil, "i'm a drummer in a punk band", "hobby_is playing drums"},
		{nil, "I play badminton on tuesdays", "hobby_is playing badminton"},
		{nil, "I used to play the trumpet", ""},
		{nil, "my sister plays cello", ""},
		{nil, "I play around with wasm at night", ""},
		{nil, "i'd love to play piano one day", ""},
		{nil, "I play go", ""},
		// the keyboard layout the person types on (layoutRe, layoutUser)
		{nil, "i type on workman so vim keys are odd for me", "keyboard_layout_is workman"},
		{nil, "heads up: I use a QWERTZ keyboard", "keyboard_layout_is qwertz"},
		{nil, "i'm a colemak typist", "keyboard_layout_is colemak"},
		{[]string{"i type on qwerty"}, "switched my layout to dvorak last month", "keyboard_layout_is dvorak <qwerty"},
		{nil, "my coworker types on colemak", ""},
		{nil, "is dvorak worth learning?", ""},
		{nil, "I never type on azerty", ""},
		// a fix written "Value*" (starredValue)
		{[]string{"hi, I'm Jakob"}, "Jacob* sorry, autocorrect", "name_is jacob <jakob"},
		{[]string{"we host on render"}, "railway* not render", "deploys_with railway <render"},
		{[]string{"hi, I'm Jakob"}, "Jacob* is my brother", ""},
		{[]string{"hi, I'm Jakob"}, "fix the **kwargs parsing please", ""},
		// a value held since a time is a change where the slot held
		// another (droppedSubject, heldAdverb, heldSince, oldValue)
		{[]string{"I write everything in emacs"}, "been using zed full time since the summer", "uses_editor zed <emacs"},
		{[]string{"I write everything in emacs"}, "i've been on zed exclusively for a few weeks now", "uses_editor zed <emacs"},
		{nil, "been using zed since 2021", "uses_editor zed"},
		{[]string{"I write everything in emacs"}, "been using this regex wrong all along", ""},
		{[]string{"I write everything in emacs"}, "have you been using zed?", ""},
		// a house's habit held up to now (perfectProgressive); a value
		// that "has been" its slot since (slotReversed, sinceTail)
		{[]string{"our database is mongodb"}, "we've been running mysql since the rewrite", "uses_database mysql <mongodb"},
		{[]string{"we host on heroku"}, "been deploying to render for a couple of months", "deploys_with render <heroku"},
		{[]string{"we format with prettier"}, "biome has been our formatter since march", "uses_formatter biome <prettier"},
		{nil, "we have been running into timeouts since monday", ""},
		// "I" and "we" fill one tool slot: the person's old value is the
		// one the house's new one replaces (oldValue)
		{[]string{"I deploy my side projects to heroku"}, "been deploying to render for a couple of months", "deploys_with render <heroku"},
		// a kind of tool moved, said without an owner (kindMoved)
		{[]string{"our queue is rabbitmq"}, "messaging moved to kafka after the outage", "uses_queue kafka <rabbitmq"},
		{nil, "the meeting moved to friday", ""},
		// a repair's "no" after its opener
		{[]string{"I live in Ghent"}, "hold on no it's Bruges", "lives_in bruges <ghent"},
		{[]string{"I live in Ghent"}, "hold on no it's fine", ""},
		// check2026h's change and correction shapes, in other words
		// (movedWhole, relocated, agoTail, goingThrough, notPlain,
		// machineRuns, workingAs, toFromVersion, forNowSlot, didISay,
		// the job-change rewording)
		{[]string{"i use sublime"}, "ported my entire workflow over to zed, bye sublime", "uses_editor zed <sublime text"},
		{nil, "moved my desk to the window", ""},
		{[]string{"I live in Leeds"}, "relocated to Porto a couple of months ago", "lives_in porto <leeds"},
		{nil, "moved to pdm last sprint", "uses_package_manager pdm"},
		{[]string{"we deploy with heroku"}, "deployments are going through argo cd now", "deploys_with argocd <heroku"},
		{nil, "we are going through a rough patch", ""},
		{[]string{"I use bash"}, "zsh really, not plain bash", "uses_shell zsh <bash"},
		{nil, "my desktop runs fedora", "uses_os fedora"},
		{nil, "my laptop runs hot", ""},
		{nil, "i'm working as data engineer at a bank", "role_is data engineer"},
		{nil, "i am working as fast as i can", ""},
		{[]string{"we're on python 3.10"}, "upgraded the service to python 3.12 from 3.10", "python_version_is 3.12 <3.10"},
		{[]string{"my manager is Rosa"}, "Rosa is on parental leave, so Tom is my manager for the time being", "manager_is tom <rosa"},
		{[]string{"we use mariadb"}, "did i say mariadb? it's cockroachdb", "uses_database cockroachdb <mariadb"},
		{[]string{"we use mariadb"}, "did i say that out loud? it's late", ""},
		{[]string{"I work at Klarna"}, "switched companies, now at Spotify", "works_at spotify <klarna"},
		{nil, "changed jobs, now at home more", ""},
		{[]string{"my manager is Rosa"}, "Rosa went on leave", ""},
		// scenario losses of the retired scenario sets, in other words:
		// a branch given up and the one everything goes out from
		// (notDeployedFrom, allGoesOutFrom, branchName)
		{[]string{"we deploy from the release-v1 branch"}, "we don't deploy from release-v1 anymore, everything ships from main now", "not deploy_branch_is release-v1|deploy_branch_is main <release-v1"},
		{nil, "everything goes out from the office", ""},
		// a zone said as what follows from a place (soZone, in asides)
		{nil, "I'm in Perth, so AWST, no DST here", "lives_in perth|timezone_is awst"},
		{nil, "the build broke, so WTF", ""},
		// a language spoken natively (oldSlot, naturalLanguages,
		// nativeSpeaker)
		{nil, "Polish is my first language, so excuse typos", "native_language_is polish"},
		{nil, "i'm a native Portuguese speaker", "native_language_is portuguese"},
		{nil, "Java was my first language", ""},
		{nil, "Rust is my first language", ""},
		{nil, "German is my second language", ""},
		// a change after giving in (gaveIn)
		{[]string{"I use vim"}, "eventually caved and switched to vscode", "uses_editor vscode <vim"},
		{nil, "i gave up and went home", ""},
		// the project named "this one" (thisOne, bareToolHere)
		{nil, "this one is hosted on render", "deploys_with render"},
		{nil, "emotion in this one", "uses_styling emotion"},
		{nil, "more tests in this one", ""},
		// the project said to be run with, or be, a tool
		// (projectManagedWith, projectIsTool, goesOutVia, deployThis,
		// kindBehind); pipelines are CI
		{nil, "heads up, this repo is managed with pnpm workspaces", "uses_package_manager pnpm"},
		{[]string{"this service uses pip"}, "this one is managed with poetry, not pip", "uses_package_manager poetry <pip"},
		{nil, "this repo is managed by the platform team", ""},
		{nil, "this one's pure deno", "uses_runtime deno"},
		{nil, "this one's a mess", ""},
		{nil, "the marketing site goes out via vercel", "deploys_with vercel"},
		{nil, "it goes out via email", ""},
		{nil, "we host this app on fly.io", "deploys_with fly.io"},
		{nil, "we host this thing on railway, just so you know", "deploys_with railway"},
		{nil, "the queue behind this service is sqs", "uses_queue sqs"},
		{nil, "the pipelines run on circleci", "uses_ci circleci"},
		// a version the project cannot leave (stuckOn); a return to a
		// tool (backTo); a new employer with when (startedAt, lastDayAt);
		// a kind moved from one tool to another (movedKindFrom)
		{nil, "still stuck on python 3.8 until the vendor updates their sdk", "uses_language python|python_version_is 3.8"},
		{nil, "stuck on this bug for hours", ""},
		{[]string{"we use pnpm"}, "we gave up on pnpm, back to npm", "uses_package_manager npm <pnpm"},
		{nil, "back to the tests, why do they fail", ""},
		{nil, "my last day at Zalando was monday, started at Wolt today", "works_at wolt"},
		{nil, "started at 9 today", ""},
		{nil, "started at noon today", ""},
		{[]string{"we use github actions"}, "moved ci from github actions to buildkite last week", "uses_ci buildkite <github actions"},
		{nil, "moved hosting from render to fly.io over the weekend", "deploys_with fly.io <render"},
		{nil, "moved the meeting from monday to friday", ""},
		// a value set against one this text just denied holds (candidate.own)
		{nil, "no no, we don't use jest here, it's vitest", "not uses_test_runner jest|uses_test_runner vitest <jest"},
		// a tool ripped out (gaveUpOn), everything on a tool with a detail
		// after it (everythingIs)
		{[]string{"we use webpack"}, "ripped out webpack, everything is vite now with a tiny config", "not uses_bundler webpack|uses_bundler vite <webpack"},
		// a tool bid farewell after a whole setup moved (goodbyeTail); an
		// owned kind moved (movedKindFrom); a slot renamed without an
		// owner (kindMoved, slotChanged)
		{nil, "moved my whole setup to zed, bye sublime", "uses_editor zed <sublime text"},
		{nil, "we moved our cache from memcached to redis", "uses_cache redis <memcached"},
		{nil, "we've moved our infra from cdk to pulumi", "uses_iac pulumi <aws cdk"},
		{nil, "deploy branch got renamed from prod to release", "deploy_branch_is release <prod"},
		{nil, "the file got renamed to main.go", ""},
		// a person of the speaker's named in apposition (kinNamed, in
		// asides)
		{nil, "my husband Tariq is a teacher, help me plan his birthday", "name_is tariq"},
		{nil, "My boss Lena wants the report by monday", "manager_is lena"},
		{nil, "is my manager Lena or Leni? I always forget", ""},
		{nil, "my dog Is sick today", ""},
		// a statement with its reason after it (rewordings)
		{nil, "we use mysql because the ops team knows it", "uses_database mysql"},
		{nil, "we went with vitest cause jest was slow for us", "uses_test_runner vitest"},
		{nil, "we use mysql since it is what the ops team knows", "uses_database mysql"},
		{nil, "we use mysql since the ops team is used to it", "uses_database mysql"},
		{nil, "i quit because the pay was bad", ""},
		{nil, "we would use rust because it is fast", ""},
		// a licence or a tool the person's work rules out (rewordings)
		{nil, "heads up, we can't pull in any AGPL packages here", "should_not use agpl-licensed code"},
		{nil, "I'm not permitted to install homebrew on my work laptop", "should_not install homebrew"},
		{nil, "we cannot use moment in this repo, it's banned", "should_not use moment"},
		{nil, "I can't use the profiler, it segfaults", ""},
		{nil, "can we use GPL libs in a closed product?", ""},
		{nil, "i'm not allowed to use my own laptop at the client", ""},
		// a ban over everything Claude writes, or "ever" (rewordings)
		{nil, "no exclamation marks in anything you write for me", "should_not exclamation marks"},
		{nil, "zero buzzwords anywhere in your answers", "should_not buzzwords"},
		{nil, "no emoji, ever", "should_not add emoji"},
		{nil, "zero downtime deploys please", ""},
		{nil, "no idea, whatever works", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestCategoryNounShapes reads every noun the relations table gives a
// kind of tool in four shapes ("<noun> is <tool>", "our <noun> is
// <tool>", "<noun>'s <tool>", "<noun> is handled by <tool>") with a tool
// of that kind, so a reading of a category noun holds for all of them,
// not for the nouns a set happened to use. At the start of session 12,
// 197 of the 768 missed the kind's predicate (nouns with a digit, "'s"
// for "is"); the few left are nouns that read oddly in a shape ("e2e
// tests's").
func TestCategoryNounShapes(t *testing.T) {
	const allowed = 10
	missed, total := 0, 0
	for _, r := range relations.All() {
		if r.Category == "" {
			continue
		}
		names := relations.PrimaryToolNames(r.Category)
		if len(names) == 0 {
			names = relations.ToolNames(r.Category)
		}
		if len(names) == 0 {
			continue
		}
		tool := names[len(names)/2]
		for _, n := range r.Nouns {
			for _, form := range []string{"%s is %s", "our %s is %s", "%s's %s", "%s is handled by %s"} {
				s := fmt.Sprintf(form, n, tool)
				total++
				if !slices.ContainsFunc(Extract(s), func(f Fact) bool { return f.Predicate == r.Predicate }) {
					missed++
					t.Logf("Extract(%q) has no %s", s, r.Predicate)
				}
			}
		}
	}
	if missed > allowed {
		t.Errorf("%d of %d category-noun statements missed their predicate, want at most %d", missed, total, allowed)
	}
}

// TestBareCorrectionInNewSession checks that a bare correction said in a
// new session, with only the beliefs as context, corrects the one
// believed slot of its value's kind (onlyOfKind), and that it says
// nothing when two slots are of that kind or nothing marks a correction.
// It also reads a value a file is said to hold (sourceSays) and tools
// said bare in a correction (toolsHere).
func TestBareCorrectionInNewSession(t *testing.T) {
	manager := SlotValue{Subject: SubjectUser, Predicate: "manager_is", Object: "ines"}
	python := SlotValue{Subject: SubjectProject, Predicate: "python_version_is", Object: "3.10"}
	port := SlotValue{Subject: SubjectProject, Predicate: "port_is", Object: "8080"}
	node := SlotValue{Subject: SubjectProject, Predicate: "node_version_is", Object: "18"}
	runner := SlotValue{Subject: SubjectProject, Predicate: "uses_test_runner", Object: "jest"}
	for _, c := range []struct {
		slots      []SlotValue
		text, want string
	}{
		{[]SlotValue{manager}, "sorry, it's Agnes, wrong name", "manager_is agnes <ines"},
		{[]SlotValue{manager}, "it's Agnes", ""},
		{[]SlotValue{python}, "oops, pyproject.toml says 3.12", "python_version_is 3.12 <3.10"},
		{[]SlotValue{port}, "oops, the config says 9090", "port_is 9090 <8080"},
		{[]SlotValue{port, node}, "oops, the config says 22", ""},
		{[]SlotValue{runner}, "no sorry, vitest + testing-library here", "uses_test_runner vitest <jest|uses testing-library"},
		{[]SlotValue{runner}, "the readme says hello", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			var parts []string
			for _, f := range ExtractWith(c.text, Context{Slots: c.slots}) {
				p := f.Predicate + " " + f.Object
				if f.Replaces != "" {
					p += " <" + f.Replaces
				}
				parts = append(parts, p)
			}
			if got := strings.Join(parts, "|"); got != c.want {
				t.Errorf("ExtractWith(%q, slots %v) = %q, want %q", c.text, c.slots, got, c.want)
			}
		})
	}
}
