package consolidate

import (
	"testing"

	"github.com/credence-mem/credence/belief"
)

// TestChangeSaidInPassingSupersedesAtOnce (issue 13 item 3, issue 14 item
// 1): a change said once, in the words people use and in a later session,
// supersedes the old belief in the same cycle — found from the belief in
// play when the change names only the new value or a pronoun.
func TestChangeSaidInPassingSupersedesAtOnce(t *testing.T) {
	tests := []struct {
		name      string
		sessions  [][]string
		project   string
		subject   string
		predicate string
		now, was  string
	}{
		{"a pronoun hand-over", [][]string{{"My manager is Dana."}, {"she left, it's Omar now"}},
			"", "user", "manager_is", "omar", "dana"},
		{"a new machine", [][]string{{"I'm on Windows."}, {"Got a new Mac, goodbye Windows!"}},
			"", "user", "uses_os", "macos", "windows"},
		{"a relocation said with we", [][]string{{"I live in Madrid."}, {"We relocated to Oslo in March, still getting used to the cold."}},
			"", "user", "lives_in", "oslo", "madrid"},
		{"a time zone said in passing", [][]string{{"My timezone is IST, I'm in Bangalore."}, {"I'm in London now, so it's GMT for me."}},
			"", "user", "timezone_is", "gmt", "ist"},
		{"a change said at the head of the sentence", [][]string{{"I'm in CET"}, {"I'm on CET so please no meetings before 9 CET"},
			{"Starting this week I'm working from Singapore for six months, so my timezone is SGT."}},
			"", "user", "timezone_is", "sgt", "cet"},
		{"a port bumped without the old one", [][]string{{"The API listens on port 8080."}, {"bumped the api port to 9090 to avoid clashing with the proxy"}},
			"/p", "project", "port_is", "9090", "8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for i, prompts := range tt.sessions {
				e.sayIn("s"+string(rune('1'+i)), tt.project, prompts...)
				e.run()
			}
			now := e.only(tt.subject, tt.predicate)
			if now.Object != tt.now {
				t.Errorf("active belief %q, want %q", now.Object, tt.now)
			}
			got := objects(e.beliefs(tt.subject, tt.predicate))
			if got[tt.was] != belief.Superseded {
				t.Errorf("%s beliefs=%v, want %s superseded in the cycle that read the change", tt.predicate, got, tt.was)
			}
		})
	}
}
