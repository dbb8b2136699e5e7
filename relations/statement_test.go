package relations

import "testing"

func TestRenderNoLonger(t *testing.T) {
	for _, c := range []struct{ pred, obj, want string }{
		{"lives_in", "Paris", "User no longer lives in Paris"},
		{"uses_editor", "Sublime Text", "User no longer uses Sublime Text as their editor"},
		{"manager_is", "Kim", "User's manager is no longer Kim"},
	} {
		if got := RenderNoLonger("User", c.pred, c.obj); got != c.want {
			t.Errorf("RenderNoLonger(User, %s, %s)=%q, want %q", c.pred, c.obj, got, c.want)
		}
	}
}

// TestRenderPlurals: a plural possessor takes an apostrophe alone, and a
// plural open slot takes "are".
func TestRenderPlurals(t *testing.T) {
	for _, c := range []struct{ subject, pred, obj, want string }{
		{"user's cats", "name_is", "Mochi", "User's cats' name is Mochi"},
		{"user's cat", "name_is", "Mochi", "User's cat's name is Mochi"},
		{Project, "tickets_is", "Linear", "Project's tickets are Linear"},
		{Project, "staging_url_is", "stg.acme.dev", "Project's staging url is stg.acme.dev"},
		{Project, "status_is", "beta", "Project's status is beta"},
		{Project, "billing_basis_is", "monthly", "Project's billing basis is monthly"},
		{Project, "schemas_is", "protobuf", "Project's schemas are protobuf"},
		{Project, "cache_redis_is", "redis-7", "Project's cache redis is redis-7"},
	} {
		if got := Render(c.subject, c.pred, c.obj); got != c.want {
			t.Errorf("Render(%q, %s, %s)=%q, want %q", c.subject, c.pred, c.obj, got, c.want)
		}
	}
}

// TestArticleBySound: the article follows how the word is said, an
// initialism letter by letter.
func TestArticleBySound(t *testing.T) {
	for _, c := range []struct{ obj, want string }{
		{"SRE", "User is an SRE"},
		{"MLE at a bank", "User is an MLE at a bank"},
		{"QA engineer", "User is a QA engineer"},
		{"UX designer", "User is a UX designer"},
		{"engineer", "User is an engineer"},
		{"unix admin", "User is a unix admin"},
		{"data engineer", "User is a data engineer"},
		{"hourly contractor", "User is an hourly contractor"},
	} {
		if got := Render(User, "role_is", c.obj); got != c.want {
			t.Errorf("Render(User, role_is, %q)=%q, want %q", c.obj, got, c.want)
		}
	}
}
