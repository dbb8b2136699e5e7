package relations

import (
	"slices"
	"strings"
	"testing"
)

func TestNeeds(t *testing.T) {
	tests := []struct {
		prompt string
		want   string // the predicate that must be among the needs; "" for none
	}{
		{"Where do I live these days?", "lives_in"},
		{"Who is my manager?", "manager_is"},
		{"who's my boss again", "manager_is"},
		{"Which branch do we deploy from?", "deploy_branch_is"},
		{"Which package manager do we use?", "uses_package_manager"},
		{"How should I install the dependencies?", "uses_package_manager"},
		{"add lodash", "uses_package_manager"},
		{"format the meeting time for me", "timezone_is"},
		{"what's my name?", "name_is"},
		{"run the tests please", "uses_test_runner"},
		{"should I use npm here?", "uses_package_manager"},
		{"install express", "uses_package_manager"},
		{"Where should we deploy the new service?", "deploys_with"},
		{"add a cart store", "uses_state_management"},
		{"style the pricing card", "uses_styling"},
		{"add a relation between posts and authors", "uses_orm"},
		{"add a nullable nickname column to users", "uses_orm"},
		{"how do I look at the data locally?", "uses_database"},
		{"write an upsert for the users table", "uses_database"},
		{"cache the product list for five minutes", "uses_cache"},
		{"format the due date as 'Mar 3'", "uses_date_library"},
		{"set up my global git config user name for this new laptop", "name_is"},
		{"send the welcome email asynchronously instead of in the request", "uses_queue"},
		{"the deploy window is 14:00 UTC, what's that on my clock?", "timezone_is"},
		{"put me as the author in package.json", "name_is"},
		{"publish an event when an order ships", "uses_queue"},
		{"add an S3 bucket for logs", "uses_iac"},
		{"resize the thumbnails off the request so upload doesn't hang, without blocking the user", "uses_queue"},
		{"the footer feels cramped, add some spacing", "uses_styling"},
		{"guard the tax rounding against a regression", "uses_test_runner"},
		{"we need a package for reading excel sheets", "uses_package_manager"},
		{"hit the health check and tell me what it returns", "port_is"},
		{"type-check on each pull request", "uses_ci"},
		{"keep track of which filters were open when the user comes back", "uses_state_management"},
		{"any hiking trails worth it this time of year?", "lives_in"},
		{"the demo is at 11am pacific, when is that for me?", "timezone_is"},
		{"ask for the afternoon off next thursday", "manager_is"},
		{"I'd like red squiggles as I type", "uses_editor"},
		{"what skills should I pick up for my career path?", "role_is"},
		{"why do these two updates deadlock under load?", "uses_database"},
		{"do we need a row lock when two workers grab the same job?", "uses_database"},
		{"add a CI check for code style", "uses_linter"},
		{"fill in the author name in setup.py", "name_is"},
		{"create an object storage container for the exports", "uses_cloud"},
		{"any good cafes where i'm based?", "lives_in"},
		{"keep the selected filters in shared state across pages", "uses_state_management"},
		{"the link should turn darker on hover", "uses_styling"},
		{"add a build step that checks the licence headers", "uses_ci"},
		{"tail the logs of the api pod in staging", "k8s_namespace_is"},
		{"which branch should I open the PR against?", "default_branch_is"},
		{"build the server binary", "uses_build_tool"},
		{"which warehouse do we run dbt against?", "uses_warehouse"},
		{"put the new checkout flow behind a flag", "uses_feature_flags"},
		{"where can I see the p99 latency?", "uses_observability"},
		{"where do I put the new API key?", "uses_secrets_store"},
		{"translate the button labels", "uses_i18n"},
		{"page whoever is on call", "uses_oncall"},
		{"how do I install postgres locally?", "uses_os"},
		{"how long have I been at my job?", "works_at"},
		{"write a quick script to dedupe this csv", "preferred_language_is"},
		{"prep notes for my next 1:1", "has_meeting"},
		{"how much time do we have until the launch?", "deadline_is"},
		{"who's the tech lead?", "tech_lead_is"},
		{"add a GET route for health", "uses_framework"},
		{"is there anything fun to do around here on a rainy sunday?", "lives_in"},
		{"rewrite my bio for the conference talk", "works_at"},
		{"what's the repo called again? I need to clone it", "name_is"},
		{"ship the latest changes", "deploys_with"},
		{"how do I ship this hotfix?", "deploy_branch_is"},
		{"write the code to save a new user record", "uses_database"},
		{"what time should I propose for a call with someone in London?", "timezone_is"},
		{"can I use range-over-func iterators here?", "go_version_is"},
		{"can I use a match statement in the parser?", "python_version_is"},
		// new code is written in the project's language and framework
		{"add an endpoint that returns the version", "uses_framework"},
		{"add a new HTTP handler for /status", "uses_language"},
		{"add a composable that fetches the current user", "uses_framework"},
		{"add an endpoint that returns the current user's API quota", "uses_framework"},
		// the request's own verb asks for its tool's work (Acts)
		{"format the whole src folder", "uses_formatter"},
		{"ok so pls lint the api package", "uses_linter"},
		{"build only the packages that changed since main", "uses_build_tool"},
		{"add jackson-datatype-jsr310 to the build", "uses_build_tool"},
		{"can you sign off this email as me: thanks for the quick turnaround", "name_is"},
		// what it takes to build or run the project, whichever language
		{"what's the minimum toolchain someone needs to build this repo?", "go_version_is"},
		{"update the CI setup step so it uses the right runtime", "node_version_is"},
		// texts about the person need who they are
		{"help me write a two-line bio for my conference talk", "works_at"},
		{"update the header of my cv", "role_is"},
		{"write a short bio for me for the conference page", "pronouns_are"},
		{"write a short intro of me for the meetup page", "name_is"},
		{"roughly what time does the sun set here today?", "lives_in"},
		{"set up an .editorconfig for the repo", "indentation_is"},
		{"how do I jump to the definition of this function?", "uses_editor"},
		{"the db is at 95% disk, who do I page?", "uses_oncall"},
		{"add a form to let users change their display name, front and back", "uses_framework"},
		{"set up a new node project for the cli tool", "uses_package_manager"},
		{"scaffold a fresh app for the landing page", "uses_framework"},
		{"what's new in the project since friday?", ""},
		{"the build is slow", ""},
		{"how do I format a float with two decimals in Go?", ""},
		{"why does this endpoint return 500?", ""},
		{"implement an LRU cache in Java", ""},
		{"what's the default port for SSH?", ""},
		{"explain the difference between == and is in Python", ""},
		{"explain how binary search works", ""},
		{"what does the --no-verify flag do in git?", ""},
		{"what's a good name for a variable holding a retry count", ""},
		{"write a regex that matches email addresses", ""},
		{"how do regular expressions handle greedy matching?", ""},
		{"explain this regex", ""},
		{"thanks, that worked", ""},
		{"rename the variable to something clearer", ""},
		// a package known by its shape alone
		{"pull in python-dateutil for the parser module", "uses_package_manager"},
		{"can you bring in react-hook-form for the signup page", "uses_package_manager"},
		{"add @tanstack/react-query", "uses_package_manager"},
		{"install pydantic-settings", "uses_package_manager"},
		{"add follow-up notes to the summary", ""},
		{"pull in the latest changes from main", ""},
		// a build target, a review of one's work
		{"add a python library target for the billing package", "uses_build_tool"},
		{"make a new test target for the parser", "uses_build_tool"},
		{"help me write my self-assessment for this year's review", "role_is"},
		{"what's a good target heart rate for running?", ""},
		// data kept means the data layer; a new instance the infra code
		{"every order should remember which coupon was applied", "uses_orm"},
		{"create a new bucket for the uploads in staging", "uses_iac"},
		{"who should sign off on the architecture doc?", "tech_lead_is"},
		{"make me a weekly practice schedule for my instrument", "hobby_is"},
		{"translate the signup button label to german", "uses_i18n"},
		{"suggest a snack to bring on a long hike tomorrow", "health_is"},
		{"make me a packing list for our trip", "trip_is"},
		{"add a check after the nightly load that fails loudly if the orders table came in empty", "uses_warehouse"},
		{"add a hitbox to the player sprite", "uses_framework"},
		{"who was the best player in the 1998 world cup?", ""},
		{"help me work out why this query is slow", "uses_database"},
		{"estimate how long my 6km commute to the office takes now", "car_is"},
		{"write the config to fine-tune with lora rank 16", "base_model_is"},
		{"how many days do I have before my trip?", "flight_is"},
		{"give me 10 flashcards for this week's study session", "is_learning"},
		{"log the confusion matrix at the end of each epoch", "experiment_tracker_is"},
		{"write a linker script section that reserves a 16k bootloader at the start of flash", "target_chip_is"},
		{"add a cart badge count that updates when items are added", "uses_state_management"},
		{"install the postgres client tools for me", "uses_os"},
		{"write the job spec for the new thumbnail worker", "deploys_with"},
		{"set up preview environments for pull requests", "deploys_with"},
		{"schedule the customer churn export to run every monday at 6am", "uses_data_pipeline"},
		{"suggest some vim keybindings that are comfortable for me", "keyboard_layout_is"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			needs := Needs(tt.prompt)
			var got []string
			for _, n := range needs {
				got = append(got, n.Relation.Predicate)
			}
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("Needs(%q)=%v, want none", tt.prompt, got)
				}
				return
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("Needs(%q)=%v, want %s among them", tt.prompt, got, tt.want)
			}
		})
	}
}

func TestNeedsSubjects(t *testing.T) {
	n := Needs("which package manager does our repo use?")
	if len(n) == 0 || !slices.Equal(n[0].Subjects, []string{Project}) {
		t.Fatalf("Needs()=%+v, want the project's package manager", n)
	}
	n = Needs("where do I live?")
	if len(n) == 0 || !slices.Equal(n[0].Subjects, []string{User}) {
		t.Fatalf("Needs()=%+v, want the person's home", n)
	}
	// "my branch" is the person's work in the project: the project's CI
	// answers; "my editor" is the person's own.
	n = Needs("why is the pipeline red on my branch?")
	if len(n) == 0 || n[0].Relation.Predicate != "uses_ci" || !slices.Contains(n[0].Subjects, Project) {
		t.Fatalf("Needs()=%+v, want the project's CI", n)
	}
	n = Needs("why does my editor freeze on big files?")
	if len(n) == 0 || n[0].Relation.Predicate != "uses_editor" || !slices.Equal(n[0].Subjects, []string{User}) {
		t.Fatalf("Needs()=%+v, want the person's editor only", n)
	}
}

func TestStatement(t *testing.T) {
	r, _ := ByPredicate("uses_package_manager")
	if got, want := r.Statement(Project, "pnpm"), "Project uses pnpm as its package manager"; got != want {
		t.Errorf("Statement()=%q, want %q", got, want)
	}
	r, _ = ByPredicate("lives_in")
	if got, want := r.Statement(User, "Lisbon"), "User lives in Lisbon"; got != want {
		t.Errorf("Statement()=%q, want %q", got, want)
	}
}

// TestNeedsOfWork: tasks name the slot they depend on by the work, not by
// the slot's words: a one-liner is run in the person's shell, an editor
// feature is the editor's, a time-off request goes to the manager.
func TestNeedsOfWork(t *testing.T) {
	tests := []struct {
		prompt, want, not string
	}{
		{"give me a one-liner to loop over every .log file in this dir and gzip it", "uses_shell", ""},
		{"how do I find the 10 biggest files in a folder?", "uses_shell", ""},
		{"how do I get jump-to-definition working for Go?", "uses_editor", ""},
		{"how do I turn on format on save?", "uses_editor", ""},
		{"who needs to approve my time off request?", "manager_is", "timezone_is"},
		{"write me a multi-stage Dockerfile for the service", "go_version_is", ""},
		{"write me a multi-stage Dockerfile for the service", "uses_language", ""},
		{"how can I find all the 500s from yesterday afternoon?", "uses_observability", ""},
		{"add a nightly job that runs the slow tests", "uses_ci", "role_is"},
		{"where do I set environment variables for production?", "deploys_with", ""},
		{"how do I roll back the last release?", "deploys_with", ""},
		{"how much would it cost us to add another server?", "deploys_with", ""},
		{"write the playwright config baseURL for local runs", "port_is", ""},
		{"my local run of the integration suite keeps failing with connection refused", "port_is", "timezone_is"},
		{"draft a short hello message from me for the team channel", "name_is", ""},
		{"how do I gradually roll the new search out to 10% of users first?", "uses_feature_flags", ""},
		{"help me update the current position section of my CV", "works_at", ""},
		{"make sure failures in the refund endpoint get reported somewhere we'll see them", "uses_error_tracker", ""},
		{"add a cron job that runs the cleanup script every night at 3", "deploys_with", ""},
		{"how often should I rotate my tires?", "car_is", ""},
		{"what should I order at a thai place tonight?", "diet_is", ""},
		{"what should I order the imports by?", "", "diet_is"},
		{"what mouse should I buy for my home office?", "health_is", ""},
		{"find the mouse click handler and fix it", "", "health_is"},
		{"find a time for a 1h sync with the sydney team this week", "work_hours_are", ""},
		{"can I double the context length for the next run?", "gpu_is", ""},
		{"why does this request run out of memory?", "", "gpu_is"},
		{"who should approve my terraform plan?", "reviewer_is", ""},
		{"add a simple camera shake when the player gets hit", "uses_framework", ""},
		{"give me the exact build command for the rev C board", "uses_build_tool", ""},
		{"can I use NavigationStack without #available checks?", "minimum_deployment_target_is", ""},
		{"I want two hours of deep work tomorrow morning, which slot makes sense?", "has_meeting", ""},
		{"which time slot tomorrow works for me and my teammate in Sydney?", "timezone_is", "works_at"},
		{"draft my weekly status update, short please", "manager_is", ""},
		{"the inlay hints vanished after I updated the plugin", "uses_editor", ""},
		{"put ~/go/bin on my PATH for good", "uses_shell", ""},
		{"the build agent keeps timing out on checkout", "uses_ci", ""},
		{"set the git author on this commit to me", "name_is", ""},
		{"add my email signature to the newsletter template", "works_at", ""},
		{"who can review my change to the billing module?", "reviewer_is", ""},
		{"is it too late to get this into the next release?", "release_schedule_is", ""},
		{"ssh into the staging box and restart the worker", "server_is", ""},
		{"is structuredClone available in this project?", "node_version_is", ""},
		{"is StrEnum available in this codebase?", "uses_framework", ""},
		{"the last deploy broke checkout, roll it back", "deploys_with", ""},
		{"suggest a weekend side project that isn't another todo app", "hobby_is", ""},
		// a cue's inflections read as the cue; a phrase only as said
		{"the css keeps getting reformatted on every commit, why?", "uses_formatter", ""},
		{"that fix works for me, thanks", "", "works_at"},
		{"compute the shipping cost for the cart", "", "deploys_with"},
		{"will my PR clear the coverage gate at 78%?", "coverage_threshold_is", ""},
		{"how many parallel requests can the sync job make before we get throttled?", "rate_limit_is", ""},
		{"read the payment provider key from the environment", "env_var_is", ""},
		{"who owns the billing module?", "reviewer_is", ""},
		{"show the created date as '3 days ago' on the card", "uses_date_library", ""},
		// formatting a value of the program is no work for the code formatter
		{"format the due date as 'Mar 3'", "uses_date_library", "uses_formatter"},
		{"format the price with two decimals", "", "uses_formatter"},
		{"format the whole src folder", "uses_formatter", ""},
		{"add structured logging to the importer", "uses_logger", ""},
		{"how do I spin up the local dev environment on a brand new laptop?", "uses_local_env", ""},
	}
	for _, tc := range tests {
		var got []string
		for _, n := range Needs(tc.prompt) {
			got = append(got, n.Relation.Predicate)
		}
		if tc.want != "" && !slices.Contains(got, tc.want) {
			t.Errorf("Needs(%q) = %v, want %s among them", tc.prompt, got, tc.want)
		}
		if tc.not != "" && slices.Contains(got, tc.not) {
			t.Errorf("Needs(%q) = %v, want no %s", tc.prompt, got, tc.not)
		}
	}
}

func TestDistinctive(t *testing.T) {
	for name, want := range map[string]bool{"uv": true, "nx": true, "go": false, "pnpm": true, "x": false, "": false} {
		if got := Distinctive(name); got != want {
			t.Errorf("Distinctive(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestNeedsToolAsCommonNoun: a tool's name after "a" that ends its noun
// phrase is the thing, not the tool: "a semaphore in concurrency" asks
// nothing of Semaphore CI; "a Redis cache" and "our CI on Semaphore" do.
func TestNeedsToolAsCommonNoun(t *testing.T) {
	tests := []struct {
		prompt, predicate string
		want              bool
	}{
		{"what's a semaphore in concurrency and when would I use one instead of a mutex?", "uses_ci", false},
		{"what's the difference between a mutex and a semaphore?", "uses_ci", false},
		{"why is our CI on Semaphore so slow", "uses_ci", true},
		{"is semaphore green on main?", "uses_ci", true},
		{"add a Redis cache", "uses_cache", true},
		{"set up a Jenkins job for this", "uses_ci", true},
		{"set up a Jenkins job for this", "role_is", false},
	}
	for _, tc := range tests {
		got := slices.ContainsFunc(Needs(tc.prompt), func(n Need) bool { return n.Relation.Predicate == tc.predicate })
		if got != tc.want {
			t.Errorf("Needs(%q) has %s: %v, want %v", tc.prompt, tc.predicate, got, tc.want)
		}
	}
}

// TestNeedsOfTraits: tasks that depend on what a person says of
// themselves in passing need those slots; the words that state the trait
// ("cat") are no cue.
func TestNeedsOfTraits(t *testing.T) {
	tests := []struct {
		prompt, want string
	}{
		{"suggest a dinner recipe I can cook in 30 minutes tonight", "diet_is"},
		{"pick a color scheme for the new status output so pass/fail is easy to tell apart", "accessibility_is"},
		{"when should I schedule the sprint demo so I'm still around?", "work_hours_are"},
		{"give me a fun name for my side project, maybe something to do with my pet", "pet_is"},
		{"translate this error into my mother tongue", "native_language_is"},
		{"build me a weekly training plan for my hobby", "hobby_is"},
		{"cat the access log and count the 404s", ""},
		{"write a regex that validates a hex color like #a1b2c3", ""},
	}
	for _, tc := range tests {
		var got []string
		for _, n := range Needs(tc.prompt) {
			if len(n.Relation.States) > 0 {
				got = append(got, n.Relation.Predicate)
			}
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && !slices.Contains(got, tc.want) {
			t.Errorf("Needs(%q) traits = %v, want %q", tc.prompt, got, tc.want)
		}
	}
}

// TestCommonNouns: a tool's name after "a" and before no other noun is
// the thing, not the tool.
func TestCommonNouns(t *testing.T) {
	for prompt, want := range map[string]string{
		"what's a semaphore in concurrency and when would I use one instead of a mutex?": "semaphore",
		"our CI runs on Semaphore":             "",
		"set up a Redis cache for sessions":    "",
		"know a funny jest about compilers?":   "jest",
		"add a good jest config":               "",
		"recommend some poetry by Mary Oliver": "poetry",
		"add some jest tests for the parser":   "",
	} {
		if got := strings.Join(CommonNouns(prompt), ","); got != want {
			t.Errorf("%q: common nouns %q, want %q", prompt, got, want)
		}
	}
}
