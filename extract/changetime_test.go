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
