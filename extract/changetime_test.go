package extract

import "testing"

// TestChangeWithTrailingTime: a change that says when it happened ("over
// the weekend", "last quarter", "in May") is still a change (issue 13's
// scenario suite: these left the old value standing).
func TestChangeWithTrailingTime(t *testing.T) {
	for _, tc := range []struct{ text, pred, obj string }{
		{"we migrated to pnpm over the weekend", "uses_package_manager", "pnpm"},
		{"we moved to GCP last quarter", "uses_cloud", "gcp"},
		{"I moved to Tokyo in May", "lives_in", "tokyo"},
		{"we switched to bun a few weeks ago", "uses_package_manager", "bun"},
	} {
		var found bool
		for _, f := range Extract(tc.text) {
			found = found || f.Predicate == tc.pred && f.Object == tc.obj
		}
		if !found {
			t.Errorf("Extract(%q) = %+v; want %s %s", tc.text, Extract(tc.text), tc.pred, tc.obj)
		}
	}
	// A time that is not about a change still marks a passing state.
	for _, f := range Extract("I'm in Tokyo this week") {
		if f.Predicate == "lives_in" {
			t.Errorf("a week's stay read as residence: %+v", f)
		}
	}
}

// TestChangesSaidInPassing: ends, arrivals, residences, time zones,
// pronoun hand-overs and renames said in passing are read (issue 14 item
// 1); each with the beliefs in play where it needs them.
func TestChangesSaidInPassing(t *testing.T) {
	slots := []SlotValue{{SubjectUser, "manager_is", "grace"}, {SubjectProject, "name_is", "ledgerd"}, {SubjectProject, "port_is", "5432"}}
	for _, tc := range []struct {
		text, pred, obj, replaces string
		negated                   bool
	}{
		{"Got a new Mac, goodbye Windows!", "uses_os", "macos", "windows", false},
		{"goodbye Jenkins", "uses_ci", "jenkins", "", true},
		{"yarn is gone", "uses_package_manager", "yarn", "", true},
		{"npm is gone, we're all-in on pnpm", "uses_package_manager", "pnpm", "npm", false},
		{"We relocated to Oslo in March, still getting used to the cold.", "lives_in", "oslo", "", false},
		{"Just got settled in Denver after the move.", "lives_in", "denver", "", false},
		{"starting this week I'm working remotely from Lisbon", "lives_in", "lisbon", "", false},
		{"I'm in London now, so it's GMT for me.", "timezone_is", "gmt", "", false},
		{"moved to nushell last week, loving the structured data", "uses_shell", "nushell", "", false},
		{"Finally gave in and went with fish as my shell.", "uses_shell", "fish", "", false},
		{"bumped the api port to 9090 to avoid clashing with the proxy", "port_is", "9090", "5432", false},
		{"she left, it's Omar now", "manager_is", "omar", "grace", false},
		{"she's gone actually, it's Tobias now", "manager_is", "tobias", "grace", false},
		{"he's gone, Ravi is in charge of me now", "manager_is", "ravi", "grace", false},
		{"we renamed ledgerd to bookkeeper", "name_is", "bookkeeper", "ledgerd", false},
		{"We renamed the default branch to trunk", "default_branch_is", "trunk", "", false},
		{"typo above, port 5433 not 5432", "port_is", "5433", "5432", false},
		{"can you review this PR? still unpacking after the move to Manchester", "lives_in", "manchester", "", false},
		{"I'm on CET now since the move to Berlin.", "timezone_is", "cet", "", false},
		{"can you review this PR? sorry for the slow replies, still unpacking after the move to Manchester", "lives_in", "manchester", "", false},
		{"Handed in my badge at Hooli on Friday, I'm at Pied Piper from Monday.", "works_at", "pied piper", "", false},
		{"Everything runs on GCP these days.", "uses_cloud", "gcp", "", false},
		{"Swapped Prettier out for Biome", "uses_formatter", "biome", "prettier", false},
		{"actually the default branch is trunk, develop was retired", "default_branch_is", "trunk", "", false},
	} {
		got := ExtractWith(tc.text, Context{Slots: slots})
		found := false
		for _, f := range got {
			if f.Predicate == tc.pred && f.Object == tc.obj && f.Negated == tc.negated && (tc.replaces == "" || f.Replaces == tc.replaces) {
				found = true
			}
		}
		if !found {
			t.Errorf("ExtractWith(%q) = %+v; want %s %q (replaces %q, negated %v)", tc.text, got, tc.pred, tc.obj, tc.replaces, tc.negated)
		}
	}
	// Near misses: questions, hypotheticals, code edits, other people.
	for _, text := range []string{"should we switch to bun?", "what if we moved to Lisbon next year?", "I switched the tab and the page reloaded",
		"the goodbye message should say 'See you soon'", "the old manager class is gone, use the new factory", "my friend just moved to Berlin",
		"goodbye cruel world, as the test prints", "we renamed the column user_id to account_id in the migration", "I'm working from home today",
		"she left the meeting early", "it's fine for me", "after the move to Postgres the tests got slow",
		"everything runs on my laptop"} {
		for _, f := range ExtractWith(text, Context{Slots: slots}) {
			t.Errorf("ExtractWith(%q) read %s(%s, %q)", text, f.Predicate, f.Subject, f.Object)
		}
	}
}
