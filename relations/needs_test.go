package relations

import (
	"slices"
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
		{"explain this regex", ""},
		{"thanks, that worked", ""},
		{"rename the variable to something clearer", ""},
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
