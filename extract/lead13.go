package extract

import "strings"

// namedNoun reports whether an open slot's noun ends in a name the
// person wrote capitalised inside the sentence: "my cat Pepper is 14 and
// getting slow" describes the cat named Pepper (its name is read
// elsewhere); "cat pepper" is no slot.
func namedNoun(span, noun string) bool {
	words := strings.Fields(noun)
	if len(words) < 2 {
		return false
	}
	last := words[len(words)-1]
	if joiners[words[len(words)-2]] {
		return false // "my interview with Acme" is a slot of its own
	}
	for i, w := range strings.Fields(span) {
		w = strings.Trim(w, ",.;:!?()\"'")
		if i > 0 && strings.EqualFold(w, last) && w != strings.ToLower(w) {
			return true
		}
	}
	return false
}

// joiners put a name after a noun as what it is about, not its name:
// "my interview with Acme", "my flight to Oslo".
var joiners = map[string]bool{"with": true, "at": true, "for": true, "of": true, "in": true, "on": true,
	"to": true, "from": true, "by": true, "about": true, "and": true, "the": true, "a": true, "an": true}
