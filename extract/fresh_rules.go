package extract

import "strings"

// The rules of fresh.go: reply formats said in clipped chat beside a
// complaint, and how the tests are run.

var (
	// "bullet points, short", "plain text, concise", "numbered steps, short
	// please": reply formats listed without a verb
	terseWishRe = lazyRegexp(`^(?:and\s+)?((?:(?:bullet\s+points|bullets|numbered\s+(?:steps|lists?)|plain\s+text|short|shorter|concise|brief|terse|code\s+only|one\s+paragraph|headings|minimal\s+diffs|small\s+diffs)(?:\s*,\s*|\s+and\s+|\s+)?)+)(?:please|pls|thanks|thx|ta|cheers)?$`)
	terseItem   = lazyRegexp(`bullet\s+points|bullets|numbered\s+(?:steps|lists?)|plain\s+text|short|shorter|concise|brief|terse|code\s+only|one\s+paragraph|headings|minimal\s+diffs|small\s+diffs`)
	// "no mocking the db", "no faking the cache", "no hand-editing the
	// generated files": a ban on an act on a thing
	noGerundRe = lazyRegexp(`^no\s+([a-z][a-z-]*ing)\s+((?:the|any|our|your|a|an)\s+[\w./-]+(?:\s[\w./-]+)?)(?:\s+(?:here|please|ever|in\s+tests|in\s+this\s+repo))?$`)
	// "tests in this repo hit a real postgres via testcontainers", "e2e
	// tests run on a real browser via playwright"
	realInTests = lazyRegexp(`^(?:the\s+|our\s+|all\s+)?((?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|api\s+)?(?:tests|specs))(?:\s+(?:in\s+this\s+repo|in\s+this\s+project|here|in\s+here))?\s+(?:always\s+)?(?:hit|run\s+against|talk\s+to|use|run\s+on|go\s+against|run\s+in)\s+(an?\s+real\s+[\w.-]+(?:\s+in\s+docker)?(?:\s+(?:via|through|with|using)\s+[\w.-]+)?)$`)
)

// terseWishes reads reply formats listed bare after a rule on replies in
// the same text: "i hate when you give me a wall of text. bullet points,
// short. thanks" asks for bullet points and short answers. Without such a
// rule before it the list is no instruction ("bullet points, short" alone
// could answer a question).
func (r *reading) terseWishes(c *clause) []Fact {
	m := terseWishRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	ruled := false
	for _, f := range r.facts {
		ruled = ruled || f.Kind == KindGuideline
	}
	if !ruled {
		return nil
	}
	var out []Fact
	for _, item := range terseItem().FindAllString(m[1], -1) {
		obj := "use " + strings.Join(strings.Fields(item), " ")
		switch item {
		case "short", "shorter", "concise", "brief", "terse":
			obj = "keep answers " + item
		case "minimal diffs", "small diffs":
			obj = "keep " + item
		case "code only":
			obj = "answer with code only"
		}
		out = append(out, Fact{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: obj})
	}
	return out
}

// noGerund reads "no mocking the db" as the ban "Never mock the db".
func noGerund(c *clause) []Fact {
	m := noGerundRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	v, ok := gerundBase(m[1])
	if !ok {
		return nil
	}
	return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should_not", Object: v + " " + m[2]}}
}
