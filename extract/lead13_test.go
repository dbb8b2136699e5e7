package extract

import (
	"strings"
	"testing"
)

// TestNamedNounIsNoSlot: "my cat Pepper is 14" gives the cat's name, not
// a slot "cat pepper"; "my cat food is Purina" keeps its open slot.
func TestNamedNounIsNoSlot(t *testing.T) {
	for _, tc := range []struct {
		text, slot string
		want       bool
	}{
		{"my cat Pepper is 14 and getting slow", "pepper", false},
		{"my cat Pepper is 14 and getting slow", "name_is", true},
		{"my cat food is Purina", "cat_food", true},
	} {
		got := false
		for _, f := range Extract(tc.text) {
			if strings.Contains(f.Predicate, tc.slot) {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%q: a predicate with %q %v, want %v: %+v", tc.text, tc.slot, got, tc.want, Extract(tc.text))
		}
	}
}
