package consolidate

import (
	"testing"

	"github.com/credence-mem/credence/belief"
)

// A change or correction read in a later session than the value it ends:
// the extractor sees that value only through the beliefs the consolidator
// passes it, so those must include every slot the new words can speak to.

func TestChangeAcrossSessions(t *testing.T) {
	tests := []struct {
		name      string
		project   string
		first     string
		later     string
		subject   string
		predicate string
		now, was  string
	}{
		{"an open single-valued slot of the project",
			"/app", "the app's minimum deployment target is iOS 15",
			"product finally agreed to drop iOS 15, min target is 16 from the next release",
			"project", "minimum_deployment_target_is", "ios 16", "ios 15"},
		{"a meeting moved to a new time",
			"", "I have standup at 9:30 every day so mornings are choppy",
			"they moved standup to 10:15, ugh, even worse",
			"user", "has_meeting", "standup at 10:15 every day", "standup at 9:30 every day so mornings are choppy"},
		{"a named person's date corrected by name alone",
			"", "my sister Hannah's birthday is March 14, I always forget",
			"I got Hannah's birthday wrong earlier, it's March 4 not the 14th",
			"user's sister hannah", "birthday_is", "march 4", "march 14"},
		{"a pet's name corrected in the next session",
			"", "my dog is called Pickle",
			"oh earlier i said pickle but thats my sisters dog. mine is Noodle",
			"user's dog", "name_is", "noodle", "pickle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sayIn("s1", tt.project, tt.first)
			e.run()
			e.sayIn("s2", tt.project, "write a bash loop that renames these files")
			e.run()
			e.sayIn("s3", tt.project, tt.later)
			e.run()
			got := objects(e.beliefs(tt.subject, tt.predicate))
			if got[tt.now] != belief.Active || got[tt.was] != belief.Superseded {
				t.Errorf("%s %s beliefs=%v, want %q active and %q superseded", tt.subject, tt.predicate, got, tt.now, tt.was)
			}
		})
	}
}

// TestMovedMeetingLeavesTheOthers: the second reading passes a many-valued
// slot's values, and only the value naming the same thing is replaced.
func TestMovedMeetingLeavesTheOthers(t *testing.T) {
	e := newEnv(t)
	e.sayIn("s1", "", "I have standup at 9:30 every day", "I have retro at 3pm on fridays")
	e.run()
	e.sayIn("s2", "", "they moved retro to 4pm")
	e.run()
	got := objects(e.beliefs("user", "has_meeting"))
	if got["standup at 9:30 every day"] != belief.Active {
		t.Errorf("has_meeting beliefs=%v, want the standup left active", got)
	}
	superseded := 0
	for _, s := range got {
		if s == belief.Superseded {
			superseded++
		}
	}
	if superseded != 1 {
		t.Errorf("has_meeting beliefs=%v, want the retro alone superseded", got)
	}
}
