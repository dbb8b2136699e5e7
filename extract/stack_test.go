package extract

import "testing"

// TestStack checks the forms matchStack reads and the near misses it must
// leave alone.
func TestStack(t *testing.T) {
	tests := []struct {
		text      string
		subject   string
		predicate string // "" when no fact of the stack may come out
		object    string
	}{
		{"infra is managed with Terraform", SubjectProject, "uses_iac", "terraform"},
		{"Exceptions are reported to Sentry.", SubjectProject, "uses_error_tracker", "sentry"},
		{"we track errors in Rollbar", SubjectProject, "uses_error_tracker", "rollbar"},
		{"Pinia handles state in the Vue app", SubjectProject, "uses_state_management", "pinia"},
		{"CSS modules for styling, nothing fancy", SubjectProject, "uses_styling", "css modules"},
		{"we style everything with styled-components", SubjectProject, "uses_styling", "styled-components"},
		{"the staging namespace is payments-stg", SubjectProject, "k8s_namespace_is", "payments-stg"},
		{"staging runs in the payments-staging namespace", SubjectProject, "k8s_namespace_is", "payments-staging"},
		{"PRs go against the next branch", SubjectProject, "default_branch_is", "next"},
		{"I'm on a ThinkPad running Fedora", SubjectUser, "uses_os", "fedora"},
		{"I'm much more comfortable in Python than in Go.", SubjectUser, "preferred_language_is", "python"},
		{"I've been at Stripe for three years now.", SubjectUser, "works_at", "stripe"},
		{"We relocated to Vienna over the summer", SubjectUser, "lives_in", "vienna"},
		{"it's GMT for me", SubjectUser, "timezone_is", "gmt"},
		{"the dev server runs on 8081", SubjectProject, "port_is", "8081"},
		{"we cap lines at 88 characters", SubjectProject, "line_length_is", "88"},
		{"Mei is our tech lead", SubjectProject, "tech_lead_is", "mei"},
		{"we target Python 3.11", SubjectProject, "python_version_is", "3.11"},
		{"my 1:1 with my manager is on Tuesdays at 2pm", SubjectUser, "has_meeting", "1:1 with their manager on tuesdays at 2pm"},
		{"the cluster is down again", "", "", ""},
		{"Sentry sent me 200 emails overnight", "", "", ""},
		{"my 1:1 is going badly", "", "", ""},
		{"we moved to GitHub last year", "", "", ""},
		{"our dashboard is React", "", "", ""},
		{"list the pods in the default namespace", "", "", ""},
		{"the store page needs a new banner", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			fs := Extract(tt.text)
			if tt.predicate == "" {
				for _, f := range fs {
					switch f.Predicate {
					case "k8s_cluster_is", "k8s_namespace_is", "uses_error_tracker", "has_meeting", "lives_in", "uses_observability", "uses_state_management":
						t.Errorf("Extract(%q) = %s(%s, %q), want no such fact", tt.text, f.Predicate, f.Subject, f.Object)
					}
				}
				return
			}
			for _, f := range fs {
				if f.Subject == tt.subject && f.Predicate == tt.predicate && f.Object == tt.object && !f.Negated {
					return
				}
			}
			t.Errorf("Extract(%q) = %+v, want %s(%s, %q)", tt.text, fs, tt.predicate, tt.subject, tt.object)
		})
	}
}
