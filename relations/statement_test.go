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
