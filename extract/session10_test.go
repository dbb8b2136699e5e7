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
		// a team's act on every thing of a kind, whatever the verb (weEvery)
		{nil, "we cherry-pick every fix onto the release branch", "should cherry-pick every fix onto the release branch"},
		{nil, "we run the smoke tests after each deploy", "should run the smoke tests after each deploy"},
		{nil, "we fixed all the flaky tests", ""},
		{nil, "we have fixtures for every handler", "should have fixtures for every handler"},
		// one way of writing over another, said with "we use" (waysOfWriting)
		{nil, "we use spaces, not tabs, in the python code", "should use spaces <use tabs"},
		{nil, "we use async functions instead of callbacks", "should use async functions <use callbacks"},
		{nil, "we use Bitbucket, not Trello", "uses bitbucket <trello"},
		// a kind of place things are kept in (kindOfPlace)
		{nil, "we keep GraphQL in .graphql files, not inline strings", "should keep graphql in .graphql files, not inline strings"},
		{nil, "we keep HTML in .html files", "should keep html in .html files"},
		{nil, "we keep the uploads in S3", "uploads_is s3"},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}
