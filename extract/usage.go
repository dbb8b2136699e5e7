package extract

import (
	"strings"
	"sync"
	"unicode"
)

// Tool and practice usage: "we use pnpm", "this repo uses Postgres 16",
// "our CI runs on GitHub Actions", "we deploy with Fly". With "I prefer bun"
// (preference.go) and "we switched from pnpm to bun" (change.go), known tools
// land on their category's predicate so all of these compete; other objects
// use "uses" or "uses_for_<purpose>".

var (
	deployVerb = lazyRegexp(`^` + subj + ` ` + adv + `(deploy|deploys|deployed|are deploying|is deploying|ship|ships|host|hosts|are hosting|is hosting|are deployed|is deployed|are hosted|is hosted|get deployed|gets deployed|run|runs|are running|is running|live|lives|happen|happens|go|goes|go out)(?: everything| it| things| stuff| the app| our app| the site| our site| the api| our api| the service| our services| our code| the code| the backend| the frontend| to production| to prod| prod| production)? (with|to|on|via|using|through|onto|in) (.+)$`)

	useVerb = lazyRegexp(`^` + subj + ` ` + adv + `(run (?:the |our |all )?tests (?:with|using|on|in)|use|uses|are using|is using|am using|have been using|has been using|been using|have been on|has been on|been on|rely on|relies on|are relying on|work with|works with|build with|builds with|are built with|is built with|are built on|is built on|standardi[sz]ed on|settled on|went with|chose|picked|opted for|run on|runs on|run with|runs with|run|runs|are running|talk to|talks to|connect to|connects to|depend on|depends on|is backed by|are backed by|are run with|is run with|are on|is on|am on|code in|code mostly in|code mainly in|write in|write mostly in|write everything in|write all our code in|write our code in|write most of our code in|program in|program mostly in|develop in|develop with|write|test with|tests with|lint with|format with|manage packages with|install dependencies with|install packages with|install deps with) (.+)$`)

	purposeTail = lazyRegexp(`^(.+?)\s+(?:for|as)\s+(.+)$`)
	toTail      = lazyRegexp(`^(.+?)\s+to\s+(\w.*)$`)
	objectTail  = lazyRegexp(`\s+(?:with|on|across|via|inside|in)\s+.*$`)
	envTail     = lazyRegexp(`^(.+?)\s+(?:in|for)\s+(production|prod|tests|testing|ci|dev|development|staging|local development|local dev|locally)$`)
	hasLetter   = lazyRegexp(`[a-z]`)
	// withItem: ", with Jest for unit tests" after a list of tools.
	withItem = lazyRegexp(`,\s+(?:with|plus|along with|and also)\s+`)
	// withTool: "Ruby 3.3 with Rails", a tool used with another.
	withTool = lazyRegexp(`^([a-z0-9.+# -]+?)(?: v?\d+(?:\.\d+)*)? (?:with|and|plus|\+|on top of|against) ([a-z0-9.+# -]+)$`)
)

// conventionWords name ways of working rather than tools: "we use
// conventional commits" is a convention to follow.
var conventionWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"conventional commits", "semver", "semantic versioning", "snake_case", "snake case",
		"camelcase", "camel case", "kebab-case", "kebab case", "pascalcase", "pascal case", "trunk-based development",
		"feature flags", "tdd", "bdd", "pair programming", "squash merges", "squash merging", "rebase merges",
		"gitflow", "git flow", "code reviews", "strict mode", "type hints", "early returns", "named exports",
		"default exports", "absolute imports", "relative imports", "atomic commits", "signed commits",
		"feature branches", "short-lived branches", "table-driven tests", "dependency injection"} {
		m[w] = true
	}
	return m
})

// isConvention reports whether a used object is a way of working.
func isConvention(obj string) bool {
	head := obj
	if p := purposeTail().FindStringSubmatch(head); p != nil {
		head = p[1]
	}
	head, _ = usageObject(strings.TrimPrefix(strings.TrimSpace(head), "the "))
	if _, tool := lookupTool(head); tool {
		return false
	}
	return conventionWords()[head] || codePractice(head) || formattingChoice().MatchString(head)
}

// waysOfWriting reads "tabs, not spaces": both sides plural kinds in lower
// case and neither a tool, so the choice is a way of writing ("we use
// Linear, not Jira" names products; "we use ward, not pytest" a tool).
func waysOfWriting(span, obj, alt string) (string, string, bool) {
	x, _ := usageObject(strings.TrimSpace(obj))
	y, _, _ := strings.Cut(strings.TrimSpace(alt), ",")
	if p := purposeTail().FindStringSubmatch(y); p != nil {
		y = p[1]
	}
	y, _ = usageObject(y)
	for _, w := range []string{x, y} {
		n := strings.Fields(w)
		if len(n) == 0 || len(n) > 3 || !pluralNoun(n[len(n)-1]) || determiner().MatchString(n[0]) || capitalized(span, n[0]) {
			return "", "", false
		}
		if _, tool := lookupTool(w); tool {
			return "", "", false
		}
	}
	return x, y, true
}

// wayForKind says whether "X for Y" is a way of making a kind of artifact:
// Y a plural artifact ("commit messages", "ids"), X no tool and no
// product's name (lower case, or an acronym: "UUIDs", "ISO dates").
func wayForKind(span, x, y string) bool {
	y = strings.TrimPrefix(strings.TrimPrefix(y, "all "), "our ")
	if !artifacts()[lastOf(y)] || !pluralNoun(lastOf(y)) || len(strings.Fields(x)) > 4 {
		return false
	}
	if _, tool := lookupTool(x); tool {
		return false
	}
	if h, _ := usageObject(x); h != x {
		return false
	}
	for _, w := range strings.Fields(x) {
		if _, tool := lookupTool(w); tool {
			return false
		}
		if shown := display(span, w); len(shown) > 1 && unicode.IsUpper(rune(shown[0])) && shown[1:] == strings.ToLower(shown[1:]) {
			return false // "we use Zod for schemas": a product's name ("UUIDs", "ISO" are acronyms)
		}
	}
	return true
}

// formattingChoice is a choice of how code is laid out: "4 spaces",
// "double quotes", "trailing commas" ("tabs" alone is the indentation
// slot).
var formattingChoice = lazyRegexp(`^(?:(?:\d|two|four|eight) spaces|(?:single|double) quotes|trailing commas|semicolons|crlf|lf line endings|(?:\d{2,3}|eighty) (?:chars|characters|columns))$`)

// timeWords follow "deploy on" without naming a platform.
var timeWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"fridays": true, "friday": true, "mondays": true, "monday": true,
		"tuesdays": true, "tuesday": true, "wednesdays": true, "wednesday": true, "thursdays": true,
		"thursday": true, "saturdays": true, "saturday": true, "sundays": true, "sunday": true,
		"weekends": true, "weekdays": true, "weekend": true, "night": true, "nights": true,
		"mornings": true, "evenings": true, "merge": true, "release": true, "tag": true, "green": true,
		"schedule": true, "demand": true, "every commit": true, "every merge": true, "every push": true}
})

// verbHint is the category a verb asks for.
var verbHint = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"test with": catTestRunner, "tests with": catTestRunner, "run tests with": catTestRunner,
		"run tests using": catTestRunner, "run the tests with": catTestRunner, "run our tests with": catTestRunner,
		"run all tests with": catTestRunner, "run tests on": catTestRunner, "run tests in": catTestRunner, "lint with": catLinter,
		"format with": catFormatter, "manage packages with": catPackageManager,
		"install dependencies with": catPackageManager, "install packages with": catPackageManager,
		"install deps with": catPackageManager, "code in": catLanguage, "code mostly in": catLanguage,
		"code mainly in": catLanguage, "write mostly in": catLanguage, "program mostly in": catLanguage,
		"write everything in": catLanguage, "write all our code in": catLanguage, "write our code in": catLanguage,
		"write most of our code in": catLanguage, "write in": catLanguage,
		"program in": catLanguage, "develop in": catLanguage, "write": catLanguage,
	}
})

// toolOnlyVerbs need a known tool as object: "we write tests" and "I am on
// vacation" are not about tools.
var toolOnlyVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"write": true, "are on": true, "is on": true, "am on": true, "code in": true, "code mostly in": true,
		"code mainly in": true, "write mostly in": true, "program mostly in": true, "write everything in": true,
		"write all our code in": true, "write our code in": true, "write most of our code in": true,
		"run on": true, "runs on": true, "run": true, "runs": true, "are running": true, "talk to": true,
		"talks to": true, "connect to": true, "connects to": true, "depend on": true, "depends on": true,
		"is backed by": true, "are backed by": true,
	}
})

// usedObject is one object of a usage statement, resolved against the
// taxonomy.
type usedObject struct {
	obj  string // canonical object
	pred string // predicate
	tool *tool  // nil for objects outside the taxonomy
}

// resolveUse maps a cleaned object to its predicate: a known tool to its
// category predicate, anything else to uses_for_<purpose> or uses.
func resolveUse(obj, hint, purpose string, other *tool) usedObject {
	if t, ok := lookupTool(obj); ok {
		return usedObject{obj: t.Name, pred: categoryPredicate()[pickCategory(t, other, hint)], tool: t}
	}
	switch {
	case hint != "":
		return usedObject{obj: obj, pred: categoryPredicate()[hint]}
	case purpose != "":
		if p, ok := slotPredicate()[strings.ReplaceAll(purpose, "_", " ")]; ok {
			return usedObject{obj: obj, pred: p} // "tabs for indentation"
		}
		return usedObject{obj: obj, pred: "uses_for_" + purpose}
	}
	return usedObject{obj: obj, pred: "uses"}
}

// usageObject splits an environment off a used object ("SQLite in tests")
// and drops how it is used ("Prettier with the default config", "Go on the
// backend"), unless the whole phrase is a tool.
func usageObject(part string) (obj, env string) {
	if e := envTail().FindStringSubmatch(part); e != nil {
		part, env = e[1], e[2]
	}
	if _, ok := lookupTool(part); ok {
		return part, env
	}
	if loc := objectTail().FindStringIndex(part); loc != nil && loc[0] > 0 {
		part = part[:loc[0]]
	}
	return part, env
}

// shownTool is how a statement names a used object: the tool's own
// spelling ("PostgreSQL"; a version it is named with is a fact of its own,
// see versionFacts), or the words as written.
func shownTool(span, raw string, u usedObject) string {
	if u.tool == nil {
		return display(span, raw)
	}
	return u.tool.Display
}

// purposeOf reads "for validation" / "as our package manager": a category
// hint when the purpose names a slot, else a snake_case purpose.
func purposeOf(p string) (hint, purpose string) {
	p = strings.TrimSpace(p)
	for _, a := range []string{"our ", "the ", "a ", "an ", "my ", "all ", "all our "} {
		p = strings.TrimPrefix(p, a)
	}
	if c, ok := slotCategory()[p]; ok {
		return c, ""
	}
	if n := len(strings.Fields(p)); n == 0 || n > 3 || badStart()[strings.Fields(p)[0]] {
		return "", ""
	}
	if p == "everything" || p == "work" || p == "personal projects" {
		return "", ""
	}
	return "", snake(p, 3)
}

var (
	// teamUsing: "we're a small team using Remix and Postgres".
	teamUsing = lazyRegexp(`^we are (?:a|an) [a-z -]+? (?:using|on|with|running|built on) (.+)$`)
	// doneWith: "linting is done with golangci-lint".
	doneWith = lazyRegexp(`^(linting|formatting|testing|tests|deploys|deploying|deployment|deployments|hosting|ci|bundling|builds|package management) (?:is|are) (?:done|handled|run|managed|taken care of|covered) (?:with|by|via|through|using|in|on) (.+)$`)
	// forSlotUse: "for CI we use GitLab".
	forSlotUse = lazyRegexp(`^for (?:the |our |my )?([a-z /-]+?),? (we|i) ` + adv + `(?:use|run|rely on|went with|chose|picked) (.+)$`)
	// runSlotWith: "we run our tests with pytest", "we build the frontend
	// with Vite".
	runSlotWith = lazyRegexp(`^(we|i) ` + adv + `(?:run|do|handle|manage|build|bundle|deploy|host|write) (?:our|the|all our|all the|my) ([a-z -]+?) (?:with|using|via|through|on) (.+)$`)
)

func matchUse(c *clause) []Fact {
	if m := teamUsing().FindStringSubmatch(c.text); m != nil {
		sub := *c
		sub.text = "we use " + m[1]
		return matchUse(&sub)
	}
	if m := doneWith().FindStringSubmatch(c.text); m != nil && (knownTool(firstWord(m[2])) || knownTool(m[2]) || toolShaped(firstWord(m[2])) || capitalized(c.span, firstWord(m[2]))) {
		// "builds are done with care", "deploys are handled by us" name no tool
		sub := *c
		sub.text = "we use " + m[2] + " for " + m[1]
		return matchUse(&sub)
	}
	if m := forSlotUse().FindStringSubmatch(c.text); m != nil {
		if _, ok := slotCategory()[m[1]]; ok {
			sub := *c
			sub.text = m[2] + " use " + m[3] + " for " + m[1]
			return matchUse(&sub)
		}
	}
	if !opensWithSubject(c.text) {
		return nil
	}
	if m := runSlotWith().FindStringSubmatch(c.text); m != nil {
		if _, ok := slotCategory()[m[2]]; ok {
			sub := *c
			sub.text = m[1] + " use " + m[3] + " for " + m[2]
			return matchUse(&sub)
		}
	}
	m := useVerb().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	ref, verb, rest := parseSubject(m[1]), m[2], m[3]
	if notOurs(m[1]) {
		return nil // "the upstream project uses Bazel", "this code uses generics"
	}
	baseHint := ref.hint()
	if h, ok := verbHint()[verb]; ok {
		baseHint = h
	}
	objPart, alt, kind := splitAlternative(rest)
	objPart = stripScope(objPart) // "we use ward here, not pytest"
	if strings.Contains(objPart, ", ") {
		// "Nx and pnpm, with Jest for unit tests": what comes with the
		// list is one more item, with its own use
		objPart = withItem().ReplaceAllString(objPart, ", ")
	}
	if ref.subject == SubjectProject && isConvention(objPart) {
		// "we use conventional commits", "we use snake_case for file
		// names": how the work is done, a guideline; "we always write
		// tests before the code" keeps its verb
		if verb == "write" {
			return guidelineFact(c, "write "+rest, false, 0)
		}
		return guidelineFact(c, "use "+rest, false, 0)
	}
	if kind == "instead" && (verb == "use" || verb == "write") && (ref.subject == SubjectProject || ref.subject == SubjectUser) {
		if x, y, ok := waysOfWriting(c.span, objPart, alt); ok {
			// "we use tabs, not spaces", "I write single quotes, not
			// double quotes": one way of writing chosen over another is a
			// rule, not a tool
			return guidelineFact(c, "use "+x+" instead of "+y, false, 0)
		}
	}
	if p := purposeTail().FindStringSubmatch(objPart); p != nil && ref.subject == SubjectProject && verb == "use" && alt == "" && wayForKind(c.span, p[1], p[2]) {
		// "we use present tense for commit messages", "we use UUIDs for
		// ids": a way of making a kind of artifact, not a tool
		return guidelineFact(c, "use "+objPart, false, 0)
	}
	if ref.subject == SubjectProject && verb == "use" && strings.Contains(" "+c.text+" ", " only ") {
		// "we only use UTC timestamps in the database": "only" makes a
		// way of working a rule; a tool used only is still the project's
		// tool ("we only use pnpm")
		head, _ := usageObject(strings.TrimPrefix(objPart, "only "))
		if np, ok := nounPhrase(head, 5); ok {
			if _, known := lookupTool(np); !known {
				return guidelineFact(c, "use only "+strings.TrimPrefix(rest, "only "), false, 0)
			}
		}
	}
	var altTool *tool
	altObj := ""
	if p := purposeTail().FindStringSubmatch(alt); p != nil {
		alt = p[1]
	}
	for _, item := range splitList(alt) {
		// "instead of ESLint and Prettier": the first item is what is replaced
		if a, ok := nounPhrase(item, 4); ok && item != "" {
			altObj = a
			if t, ok := lookupTool(a); ok {
				altTool, altObj = t, t.Name
			}
			break
		}
	}
	var out []Fact
	hadPurpose := false
	for _, part := range splitList(objPart) {
		hint, purpose := baseHint, ""
		if p := purposeTail().FindStringSubmatch(part); p != nil {
			var h string
			h, purpose = purposeOf(p[2])
			if h != "" {
				hint = h
			}
			part = p[1]
			hadPurpose = true
		} else if p := toTail().FindStringSubmatch(part); p != nil {
			part = p[1]
		}
		if w := withTool().FindStringSubmatch(part); w != nil {
			if t, ok := lookupTool(w[2]); ok {
				if head, ok := lookupTool(w[1]); ok && !shareCategory(t, head) {
					// "Ruby 3.3 with Rails": the second tool is used too
					out = append(out, Fact{Subject: ref.subject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name, shownObject: t.Display})
				}
			}
		}
		if strings.Contains(part, " is ") || strings.Contains(part, " are ") {
			continue // "…, the backend is NestJS" is a statement of its own
		}
		part, env := usageObject(part)
		obj, ok := nounPhrase(part, 5)
		if !ok {
			continue
		}
		if altTool != nil && hint == "" && kind == "instead" && len(altTool.Categories) > 0 {
			if _, known := lookupTool(obj); !known && !strings.Contains(obj, " ") && !articleStart().MatchString(part) && !determiner().MatchString(firstWord(part)) && !modifierWord(obj) {
				// "we use ward here, not pytest": set against a known tool,
				// an unknown name is a tool of its kind
				hint = pickCategory(altTool, nil, "")
			}
		}
		u := resolveUse(obj, hint, purpose, altTool)
		if u.tool == nil && !stackObject(c.span, part, obj, u.pred) && !(altTool != nil && hint != "" && kind == "instead") {
			continue // "our CI uses a cache", "the API uses pagination"
		}
		if u.tool == nil && (toolOnlyVerbs()[verb] || !hasLetter().MatchString(obj) || hadPurpose && purpose == "" && hint == baseHint) {
			continue // "Zod for validation and testing": "testing" continues the purpose
		}
		if env != "" && env != "production" && env != "prod" {
			u.pred += "_in_" + snake(env, 2)
		}
		f := Fact{Subject: ref.subject, Predicate: u.pred, Object: u.obj, shownObject: shownTool(c.span, obj, u)}
		if altObj != "" && kind == "instead" {
			f.Replaces = altObj
		}
		out = append(out, f)
	}
	return out
}

func matchDeploy(c *clause) []Fact {
	if !opensWithSubject(c.text) || !containsAny(c.text, "deploy", "ship", "host", "run", "live", "happen", " go") {
		return nil
	}
	m := deployVerb().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	ref, verb, prep, rest := parseSubject(m[1]), m[2], m[3], m[4]
	runsOn := strings.HasPrefix(verb, "run") || strings.HasPrefix(verb, "are run") ||
		strings.HasPrefix(verb, "is run") || strings.HasPrefix(verb, "live")
	if runsOn && prep != "on" {
		return nil
	}
	if strings.HasPrefix(verb, "happen") || strings.HasPrefix(verb, "go") {
		if ref.slot != "deploys" && ref.slot != "deployments" && ref.slot != "deployment" {
			return nil // only deploys "go through" a platform
		}
	}
	objPart, alt, kind := splitAlternative(rest)
	alt, _, _ = strings.Cut(alt, ", ") // "to fly, not heroku, postgres on neon": the alternative ends at the comma
	var altTool *tool
	if a, ok := nounPhrase(alt, 4); ok {
		altTool, _ = lookupTool(a)
	}
	if _, target, ok := strings.Cut(objPart, " to "); ok && prep != "to" {
		objPart = target // "via GitHub Actions to Cloudflare": the target is where it runs
	}
	var out []Fact
	for _, part := range splitList(objPart) {
		if clauseOpeners()[firstWord(part)] {
			continue // "…on Fridays and nobody likes it"
		}
		part, _ = usageObject(part)
		obj, ok := nounPhrase(part, 4)
		if !ok || !hasLetter().MatchString(obj) {
			continue
		}
		t, known := lookupTool(obj)
		if runsOn && !known || timeWords()[obj] {
			continue // "we deploy on Fridays" says when, not where
		}
		if !known && len(out) > 0 && len(strings.Fields(obj)) > 2 {
			continue // "…, staging auto-syncs from main" is a clause after the list, no target
		}
		pred := categoryPredicate()[catDeploy]
		raw := obj
		if known {
			obj = t.Name
			pred = categoryPredicate()[pickCategory(t, altTool, catDeploy)]
		}
		f := Fact{Subject: ref.subject, Predicate: pred, Object: obj, shownObject: shownTool(c.span, raw, usedObject{obj: obj, tool: t})}
		if a, ok := nounPhrase(alt, 4); ok && kind == "instead" {
			if at, ok := lookupTool(a); ok {
				a = at.Name
			}
			f.Replaces = a
		}
		out = append(out, f)
	}
	return out
}

// notOurs: a subject that names someone else's code or a piece of the
// code at hand, not the project: "the upstream project", "the other
// team", "this code", "their repo".
var notOursRe = lazyRegexp(`^(?:the|this|that) (?:other|upstream|downstream|old|previous|former|external|third-party|vendor|vendor's|client's|parent|sister|example|sample|demo|original|forked) |^(?:this|that) (?:code|snippet|function|file|method|class|component|test|script|module|line|query|handler|example)$|^(?:their|his|her) `)

func notOurs(subject string) bool { return notOursRe().MatchString(subject) }

// stackObject says whether an object outside the taxonomy is a thing the
// project's stack is made of, which a generic "uses" fact may name: a
// named product ("Temporal", "ccache" with a purpose, "Stripe for
// payments"), not a technique, a quantity or a thing with an article
// ("reflection", "too much memory", "a cache", "a fake clock"). A slot
// ("our tests use …") or a purpose ("… for auth") makes a lower-case name
// count, if it has no article.
func stackObject(span, raw, obj, pred string) bool {
	raw = strings.TrimSpace(raw)
	if quantityRe().MatchString(raw) {
		return false
	}
	if strings.HasPrefix(raw, "a ") || strings.HasPrefix(raw, "an ") || strings.HasPrefix(raw, "some ") {
		return false
	}
	shown := display(span, obj)
	if pred != "uses" {
		// "print statements for debugging" is a habit, not a product
		return !strings.HasPrefix(pred, "uses_for_") || !strings.Contains(obj, " ") || strings.ToLower(shown) != shown
	}
	for _, r := range shown {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '/' {
			return true
		}
	}
	return false
}

var quantityRe = lazyRegexp(`^(?:too much|too many|a lot of|lots of|a ton of|tons of|so much|so many|much|many|more|less|fewer|most of|half|all of|\d+(?:\.\d+)?\s*(?:%|percent|gb|mb|kb|cores?|threads?|ms|seconds?))\b`)

// clauseOpeners begin a clause of their own inside a list of objects.
var clauseOpeners = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq("nobody everyone everybody someone it that this which who we i they he she you there") {
		m[w] = true
	}
	return m
})
