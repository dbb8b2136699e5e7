package extract

import "testing"

// TestSession10Shapes checks one statement per reading added in session
// 10 (check2026g read as a development set): each case fails when its
// mechanism is taken out. The utterances are not those of the set; they
// are other sentences of the same shape.
func TestSession10Shapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a time zone glossed in parentheses (zoneGlosses)
		{nil, "I'm in the Tokyo timezone (JST)", "timezone_is jst"},
		{nil, "heads up, I'm in BST (london), so mornings are best", "timezone_is bst"},
		{nil, "I'm in Denver time now (MST), moved from Boston", "timezone_is mst"},
		// "she's in <city>" of a person just named (personThereRe)
		{nil, "my boss is Ana, she's in Kraków", "manager_is ana|lives_in kraków"},
		{nil, "my boss is Ana, she's in Finance", "manager_is ana"},
		{nil, "my boss is Ana, she's in a meeting", "manager_is ana"},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}
