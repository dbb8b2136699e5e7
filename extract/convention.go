package extract

import (
	"slices"
	"strings"
	"sync"
)

// Conventions stated as how things are done rather than as instructions:
// "our convention is snake_case for columns", "commit messages should be
// in the present tense", "all public functions need doc comments", "we
// name branches feature/<ticket>", "it's a rule here that every PR needs a
// review". Each is a guideline for the assistant, rendered as an
// instruction ("Always ensure commit messages are in the present tense").

var (
	conventionIs = lazyRegexp(`^(?:our|the|my) (?:house |team |coding |code |naming |commit |git )?(?:convention|rule|standard|policy|style|norm|practice|preference)\s*(?:here |in this repo |for this repo )?(?:is\s|:\s*)(?:to )?(.+)$`)
	ruleThat     = lazyRegexp(`^(?:it is )?(?:a|the|our) (?:hard |strict |house |team )?(?:rule|convention|policy|norm) (?:here |in this repo |on this team |in our team )?(?:is )?that (.+)$`)
	// artifactModal: "commit messages should be in present tense", "errors
	// must be wrapped", "every PR needs a review", "PR titles follow
	// Conventional Commits".
	artifactModal = lazyRegexp(`^(?:(all|every|each|our|the|any|no) )?((?:[a-z0-9_.-]+ ){0,3}[a-z0-9_.-]+?) (should|must|need to|needs to|have to|has to|are to|is to|shall|need|needs|follow|follows|go|goes|live|lives|sit|sits|belong|belongs|stay|stays|gets|get|requires|require) (never |not |always )?(.+)$`)
	// passiveConvention: "errors are wrapped with %w", "PRs are always
	// squash-merged".
	passiveConvention = lazyRegexp(`^(?:all |our |the )?((?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+) (?:are|is|get|gets) (always |never )?((?:[a-z-]+ed|done|kept|written|built|run|made|set|put|sent|held|taken|given|shown|split|read|bound|found|drawn|hidden)\b.*)$`)
	// weHabit: "we name branches feature/<ticket>", "we squash commits
	// before merging", "we keep functions under 50 lines".
	weHabit = lazyRegexp(`^we ` + adv + `(name|write|keep|put|prefix|tag|squash|rebase|review|document|version|store|log|structure|organize|organise|split|group|indent|wrap|comment|format|lint|test|merge|pin|sign|label|title|sort|order|avoid|prefer|require|enforce|follow|stick to) (.+)$`)
)

// languageName says whether a phrase names a programming language: a way
// of writing said for one ("camelCase for js") is a rule for its code.
func languageName(np string) bool {
	t, ok := lookupTool(np)
	return ok && slices.Contains(t.Categories, "language")
}

// everyHas: "every function has a docstring", "each PR includes a test
// plan".
var everyHas = lazyRegexp(`^(every|each) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) (has|includes|contains|carries|references|uses|starts with|ends with|links to|mentions) (.+)$`)

// wayWeDo: "the way we do errors is to wrap them …", "we handle errors by
// wrapping them …".
var wayWeDo = lazyRegexp(`^(?:(?:the|our) way (?:we|to) (do|handle|write|name|structure|log|test|format|manage) ([a-z0-9_ -]+?)(?: here)? is (?:to |by )?|(?:we|i) (handle|do|manage|treat|write|test|log) ([a-z0-9_ -]+?) by )([a-z]+) (?:them|it)\b(.*)$`)

// nothingWithout: "nothing merges without review", "no PR gets merged
// without two approvals".
var nothingWithout = lazyRegexp(`^(?:nothing|no (?:code|change|changes|pr|prs|pull request|commit|commits|migration|release|deploy)) (?:ever )?(?:gets |is |can be |may be )?([a-z]+) (?:to [a-z]+ )?without (.+)$`)

// weEvery is a team's act on every thing of a kind: "we squash-merge
// every PR", "we run the e2e suite on every push".
var weEvery = lazyRegexp(`^we ` + adv + `([a-z]+(?:-[a-z]+)?) ((?:.+ )?(?:every|each|all|any) (?:(?:new|single|public|open|merged|outgoing|incoming|[a-z]+-[a-z]+) )?([a-z]+)\b.*)$`)

// workEvents are the moments of the work a habit is tied to: "on every
// push", "before each release".
var workEvents = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"push": true, "merge": true, "deploy": true, "deployment": true, "build": true,
		"pr": true, "prs": true, "change": true, "sprint": true, "review": true, "fix": true, "hotfix": true,
		"bugfix": true, "patch": true, "ticket": true, "story": true, "task": true}
})

// waysOfWorking says whether a team's verb is a way of working: a verb in its
// base form ("squash-merge", "run", "tag"), not a state or a past event
// ("have", "love", "fixed").
func waysOfWorking(v string) bool {
	switch v {
	case "have", "are", "were", "had", "do", "did", "love", "like", "hate", "need", "want", "get", "got", "see", "know", "think", "lose", "break":
		return false
	}
	return !strings.HasSuffix(v, "ed") && !strings.HasSuffix(v, "ing") && startsWithVerb(v)
}

// artifacts are the things a convention is about: what a person or the
// assistant writes and keeps in a repository.
var artifacts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`commit commits messages message titles title branches branch names
		functions function methods method classes class errors error exceptions tests test files file
		comments comment docstrings variables variable constants types interfaces imports exports modules
		prs pr requests columns tables migrations endpoints routes components hooks logs logging secrets
		changes release releases tags versions dependencies deps packages queries strings lines code docs
		documentation readme changelog keys fields structs enums configs config endpoint route component
		handler handlers service services table schema schemas feature features pull responses response
		dockerfiles dockerfile images screenshots scripts jobs workflows models props states stores
		sql css styles styling output markup copy strings i18n translations fixtures mocks assets
		descriptions names params parameters arguments values dates timestamps amounts ids urls paths flags
		money prices times payloads headers query`) {
		m[w] = true
	}
	return m
})

var (
	// ubiquitous: "type hints on every function signature", "docstrings
	// everywhere please": a kind of thing wanted wherever it fits, said
	// without a verb.
	ubiquitous = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) ((?:on|in|for) (?:every|each|all) [a-z0-9_ -]+|everywhere|throughout|always|across the (?:board|codebase|repo))(,? please)?$`)
	// troubleNouns name what goes wrong, never what is wanted: "errors
	// everywhere", "warnings on every build".
	troubleNouns = sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for w := range strings.FieldsSeq(`errors bugs warnings failures issues problems crashes typos exceptions timeouts leaks conflicts flakes regressions complaints
			bug issue problem conflict error failure crash typo leak regression`) {
			m[w] = true
		}
		return m
	})
)

// conventionVerbs say how things of a kind are made, not how they fare:
// "error messages start lowercase", but not "PRs take forever".
var conventionVerbs = map[string]bool{"start": true, "end": true, "begin": true, "follow": true, "use": true,
	"include": true, "contain": true, "live": true, "go": true, "stay": true, "match": true, "mirror": true,
	"return": true, "wrap": true, "extend": true, "implement": true, "import": true, "export": true,
	"log": true, "throw": true, "raise": true, "accept": true, "expose": true, "carry": true, "reference": true,
	"have": true}

// kindVerbs say what every thing of a kind has or does by rule, said
// without a scope: "public functions have docstrings", "PR descriptions
// include a testing section".
var kindVerbs = map[string]bool{"have": true, "include": true, "contain": true, "follow": true, "start": true,
	"end": true, "use": true, "return": true, "carry": true, "reference": true, "live": true}

// stateParticiples say how things fare, not how they are made: "tests are
// skipped", "builds are broken".
var stateParticiples = map[string]bool{"broken": true, "failed": true, "stuck": true, "blocked": true, "outdated": true,
	"deprecated": true, "missing": true, "skipped": true, "disabled": true, "cached": true, "delayed": true, "paused": true,
	"merged": true, "deployed": true, "released": true, "done": true, "finished": true, "fixed": true, "reverted": true,
	"cancelled": true, "canceled": true, "timed": true, "red": true, "flaky": true, "slowed": true, "queued": true, "ignored": true}

// happenedTail ends a statement of what happened, not of how things are done.
var happenedTail = lazyRegexp(`\b(?:today|yesterday|again|now|right now|lately|recently|this week|last week|this morning|at the moment|currently)$`)

// bareKind says whether the subject of t is a kind of thing stated
// generically: no article or possessive other than "all"/"our"/"every".
func bareKind(t, subject string) bool {
	first := firstWord(t)
	return first != "the" && first != "this" && first != "that" && first != "my" && first != "these" && first != "those" &&
		first != "some" && first != "a" && first != "an" && (pluralNoun(subject) || massNoun(subject))
}

// genericPassive says whether a passive with no scope marker states how a
// kind of thing is made ("errors are wrapped with %w", "dates are stored
// as UTC"), not how it fares ("tests are skipped today").
func genericPassive(t, subject, pred string) bool {
	part := firstWord(pred)
	return bareKind(t, subject) && !stateParticiples[part] && !happenedTail().MatchString(pred) && len(strings.Fields(pred)) >= 2 &&
		!troubleNouns()[lastOf(pred)]
}

// matchUbiquitous reads a verbless wish for a kind of thing everywhere it
// fits ("type hints on every function signature, no exceptions"): use it.
func matchUbiquitous(c *clause) []Fact {
	m := ubiquitous().FindStringSubmatch(c.text)
	if m == nil && strings.Count(c.text, " ") <= 3 && strings.Count(c.span, " ") <= 8 {
		// the trailing "everywhere please" may have been cut as a scope
		m = ubiquitous().FindStringSubmatch(strings.TrimRight(lowerNormalize(c.span), ".! "))
	}
	if m == nil || troubleNouns()[lastOf(m[1])] || badStart()[firstWord(m[1])] || strings.Contains(m[1], "ing ") {
		return nil
	}
	if kind, ok := strings.CutPrefix(m[1], "we have "); ok {
		// "we have tests for every endpoint": the team keeps one for each
		return guidelineFact(c, "have "+kind+" "+m[2], false, 0)
	}
	if w := firstWord(m[1]); w == "we" || w == "i" || w == "you" || w == "they" {
		return nil // a clause with its own subject is no kind of thing
	}
	if w := firstWord(m[1]); (w == "use" || w == "add" || w == "write" || w == "keep" || w == "put" || w == "prefer" || w == "include" || w == "avoid") && strings.Contains(m[1], " ") {
		return nil // "use structured logs for every service" is an imperative, read as one
	}
	if _, verb := thirdPersonBase(lastOf(m[1])); verb && strings.Contains(m[1], " ") && !artifacts()[lastOf(m[1])] {
		// "the CI runs on every push": a clause with its verb, saying when
		// something happens, is no wish for a kind of thing
		return nil
	}
	if m[2] == "always" {
		return guidelineFact(c, "use "+m[1], false, 0) // "Semicolons always"
	}
	if m[2] == "everywhere" || m[2] == "throughout" || strings.HasPrefix(m[2], "across") {
		if m[3] == "" && !c.standing && !c.directive && !codePractice(m[1]) {
			return nil // "errors everywhere", "cats everywhere" say how things are; "type hints everywhere" asks (session 13)
		}
	}
	return guidelineFact(c, "use "+m[1]+" "+m[2], false, 0)
}

// matchConvention reads a convention stated as how things are done.
func matchConvention(c *clause) []Fact {
	if strings.Contains(c.text, ", ") {
		if cut := cutReasonClause(c.text); cut != c.text {
			// "SQL keywords are always lowercase in this repo, sqlfluff
			// enforces it in CI": the clause after the comma says why
			sub := *c
			sub.text = cut
			c = &sub
		}
	}
	if m := artifactLabel().FindStringSubmatch(c.text); m != nil && (artifacts()[lastOf(m[1])] || practices()[lastOf(m[1])]) &&
		!startsWithVerb(m[2]) && !badStart()[firstWord(m[2])] && len(strings.Fields(m[2])) <= 4 && !notValues()[m[2]] && !placeholderWords[m[2]] {
		// "Docstrings: Google style", "commit messages: imperative mood":
		// a kind of artifact, then how it is written
		return guidelineFact(c, "use "+m[2]+" for "+m[1], false, 0)
	}
	if m := valueForKind().FindStringSubmatch(c.text); m != nil && (artifacts()[lastOf(m[2])] || lastOf(m[2]) == "indentation" || languageName(m[2])) &&
		(!startsWithVerb(m[1]) || formattingChoice().MatchString(m[1])) && !badStart()[firstWord(m[1])] && !determiner().MatchString(m[1]) && firstWord(m[1]) != "a" && firstWord(m[1]) != "an" &&
		!notValues()[m[1]] && !placeholderWords[m[1]] && !troubleNouns()[lastOf(m[1])] &&
		(isConvention(m[1]) || m[1] == "tabs" || m[1] == "spaces" || strings.HasSuffix(m[1], "case") || strings.HasSuffix(m[1], "quotes")) {
		if _, tool := lookupTool(m[1]); !tool {
			// "single quotes for strings", "kebab-case for file names": a
			// way of writing said of a kind of artifact, without a verb
			return guidelineFact(c, "use "+m[1]+" for "+m[2], false, 0)
		}
	}
	asked := firstPart(c.text)
	if pleaseEnd().MatchString(c.span) && !strings.Contains(c.span, ",") {
		asked += " please" // the trailing "please" was cut as a filler
	}
	if m := practicePlease().FindStringSubmatch(asked); m != nil && (codePractice(m[1]) || isConvention(m[1])) && !determiner().MatchString(m[1]+m[2]) && !startsWithVerb(m[1]) {
		// "early returns please", "snake_case for files please": a way of
		// writing code asked for without a verb
		return guidelineFact(c, "use "+m[1]+m[2], false, 0) // asked for, not a taste: always
	}
	if m := orderRule().FindStringSubmatch(c.text); m != nil && (artifacts()[lastOf(m[1])] || practices()[lastOf(m[1])]) {
		// "tests first, then implementation": an order of work
		return guidelineFact(c, "write "+m[1]+" first, then "+m[2], false, 0)
	}
	if m := styleStandard().FindStringSubmatch(c.text); m != nil && artifacts()[m[3]] && !determiner().MatchString(c.text) {
		// "write small, focused commits", "use descriptive variable
		// names": a kind of artifact, described, is how to make every one
		return guidelineFact(c, c.text, false, 0)
	}
	houseRule := false // said where the house's rules hold, not just "here"
	if loc := houseScope().FindStringIndex(c.text); loc != nil && loc[0] > 0 {
		houseRule = !strings.HasSuffix(c.text, "here")
		// "mocking the database in tests is banned here", "error messages
		// start lowercase in this codebase": a statement of how things are
		// done where the person works is a standing one
		sub := *c
		sub.text, sub.standing = strings.TrimSpace(c.text[:loc[0]]), true
		c = &sub
	}
	t := c.text
	if m := contrastTail().FindStringSubmatch(t); m != nil && passiveConvention().MatchString(m[1]) && instrumented().MatchString(m[1]) {
		// "logging is done with slog, not log.Printf": saying what it is
		// not done with makes the how a rule
		sub := *c
		sub.text, sub.standing = m[1], true
		c, t = &sub, m[1]
	}
	if m := universalIs().FindStringSubmatch(t); m != nil && !stateWords()[lastOf(m[3])] && !strings.HasSuffix(firstWord(m[3]), "ing") &&
		!prepositions()[firstWord(m[3])] && !strings.HasSuffix(firstWord(m[3]), "ed") && !badStart()[firstWord(m[2])] {
		// "all dates in the API are ISO 8601 strings", "every handler is a
		// pure function": what each thing of a kind is, a rule for new ones
		return guidelineFact(c, "ensure "+m[1]+" "+m[2]+" "+agree("be", m[1] == "all")+" "+m[3], false, 0)
	}
	if m := kindIsAdj().FindStringSubmatch(t); m != nil && (c.standing || m[3] != "") && bareKind(t, m[1]) && !deonticWords()[m[4]] &&
		!stateWords()[m[4]] && !troubleNouns()[lastOf(m[1])] && !stateParticiples[m[4]] && !strings.HasSuffix(m[4], "ing") && !strings.HasSuffix(m[4], "ed") {
		// "SQL keywords are always lowercase in this repo": what every
		// thing of a kind is, said with "always" or where the house's
		// rules hold, is a rule for new ones
		neg := m[3] == "never "
		return guidelineFact(c, "ensure "+m[1]+" "+m[2]+" "+map[bool]string{true: "not ", false: ""}[neg]+m[4]+m[5], false, 0)
	}
	if m := dislikeThings().FindStringSubmatch(t); m != nil && artifacts()[lastOf(m[1])] {
		// "I hate when PRs touch unrelated files": never let them
		return guidelineFact(c, "let "+m[1]+" "+m[2], true, 0)
	}
	if m := passiveConvention().FindStringSubmatch(t); m != nil && artifacts()[lastOf(m[1])] && (c.standing || m[2] != "" || genericPassive(t, m[1], m[3]) ||
		strings.Contains(t, " get "+m[3]) && bareKind(t, m[1]) && pluralNoun(m[1]) && !stateParticiples[m[3]] && !strings.Contains(m[3], " ")) {
		// "dependencies get pinned": "get" says it is done to every one
		// "in this codebase, errors are wrapped with %w": how things are
		// done here, said in the passive
		modal := "must"
		if m[2] == "never " {
			modal = "must never"
		}
		t = m[1] + " " + modal + " be " + m[3]
	}
	ruled := false
	if m := ruleThat().FindStringSubmatch(t); m != nil {
		t, ruled = m[1], true
	}
	if m := everyHas().FindStringSubmatch(t); m != nil && artifacts()[lastOf(m[2])] && !happenedTail().MatchString(t) && !troubleNouns()[lastOf(m[4])] {
		// "every function has a docstring": what each one of a kind
		// carries, said as how things are, is the rule for new ones
		return guidelineFact(c, "ensure "+m[1]+" "+m[2]+" "+m[3]+" "+m[4], false, 0)
	}
	if m := wayWeDo().FindStringSubmatch(t); m != nil {
		// "the way we do errors is to wrap them with fmt.Errorf", "we
		// handle errors by wrapping them with context": the act, on the
		// kind named
		kind, verb := m[2]+m[4], m[5]
		if base, ok := baseVerb(verb); ok && strings.HasSuffix(verb, "ing") {
			verb = base
		}
		if isVerb(verb) || imperativeVerbs()[verb] {
			return guidelineFact(c, verb+" "+kind+m[6], false, 0)
		}
	}
	if m := nothingWithout().FindStringSubmatch(t); m != nil {
		// "nothing merges without review", "no PR gets merged without two
		// approvals": never do it without that
		verb, ok := thirdPersonBase(m[1])
		if !ok {
			verb, ok = participleBase(m[1])
		}
		if ok {
			return guidelineFact(c, verb+" anything without "+m[2], true, 0)
		}
	}
	if ruled {
		// the rule's clause is read below
	} else if m := conventionIs().FindStringSubmatch(t); m != nil {
		obj := strings.TrimPrefix(m[1], "for ") // "my preference is for functional style"
		if !startsWithVerb(obj) {
			obj = "use " + obj
		}
		return guidelineFact(c, obj, false, 0)
	}
	if m := weHabit().FindStringSubmatch(t); m != nil && !strings.HasPrefix(m[2], "it ") {
		verb := m[1]
		if verb == "write" || verb == "structure" {
			if i := strings.LastIndex(m[2], " in "); i >= 0 {
				lang, _, _ := splitAlternative(strings.TrimSpace(m[2][i+4:])) // "in rust instead of python"
				if tl, ok := lookupTool(strings.TrimSpace(lang)); ok && slices.Contains(tl.Categories, "language") {
					// "we write the services in Ruby" says what the code is
					// written in, a fact, not a rule
					sub := *c
					sub.text = "we use " + strings.TrimSpace(m[2][i+4:])
					return matchUse(&sub)
				}
			}
		}
		switch verb {
		case "avoid":
			return guidelineFact(c, doPhrase(m[2]), true, 0)
		case "require", "enforce":
			return guidelineFact(c, "ensure "+m[2], false, 0)
		}
		return guidelineFact(c, verb+" "+m[2], false, 0)
	}
	if m := weEvery().FindStringSubmatch(t); m != nil && waysOfWorking(m[1]) && (artifacts()[m[3]] || workEvents()[m[3]] || workEvents()[strings.TrimSuffix(strings.TrimSuffix(m[3], "s"), "e")]) {
		// "we squash-merge every PR", "we run the full suite on every
		// push": what the team does to every thing of a kind, whatever the
		// verb, is how it is done
		return guidelineFact(c, m[1]+" "+m[2], false, 0)
	}
	if m := preferredAdj().FindStringSubmatch(t); m != nil && (artifacts()[lastOf(m[1])] || practices()[lastOf(m[1])] || isConvention(m[1])) &&
		!badStart()[firstWord(m[1])] && !determiner().MatchString(firstWord(m[1])) {
		// "named exports are preferred", "default exports are
		// discouraged": a kind of thing judged by the house
		if preferredNeg()[m[2]] {
			return guidelineFact(c, "use "+m[1], true, 0)
		}
		return guidelineFact(c, "prefer "+m[1], false, 0)
	}
	if m := inKind().FindStringSubmatch(t); m != nil && (artifacts()[lastOf(m[2])] || lastOf(m[2]) == "times") && (m[1] != "" || m[4] != "" || pleaseEnd().MatchString(c.span)) &&
		!determiner().MatchString(firstWord(m[2])) && !startsWithVerb(m[2]) {
		// "all times in UTC", "timestamps in UTC please": a kind of thing
		// wanted in a form, without a verb
		return guidelineFact(c, "write "+m[1]+m[2]+" in "+m[3], false, 0)
	}
	if m := deonticAdj().FindStringSubmatch(t); m != nil && !badStart()[firstWord(m[1])] && firstWord(m[1]) != "i" && firstWord(m[1]) != "we" &&
		(len(strings.Fields(m[1])) <= 4 || strings.HasSuffix(firstWord(m[1]), "ing")) {
		// "code review is mandatory for all changes", "force pushes are
		// forbidden": a rule said with an adjective of obligation
		subject := strings.TrimPrefix(m[1], "the ")
		if v, rest, ok := strings.Cut(subject, " "); ok && strings.HasSuffix(v, "ing") && forbidden()[m[2]] {
			if base, ok := gerundBase(v); ok {
				// "mocking the database in tests is banned": never mock it
				return guidelineFact(c, base+" "+rest, true, 0)
			}
		}
		obj := "ensure " + strings.TrimPrefix(m[1], "the ")
		if m[3] != "" {
			obj += " " + m[3] + " " + m[4]
		}
		neg := forbidden()[m[2]]
		if neg {
			obj = "use " + strings.TrimPrefix(m[1], "the ")
			if m[3] != "" {
				obj += " " + m[3] + " " + m[4]
			}
		}
		return guidelineFact(c, obj, neg, 0)
	}
	m := artifactModal().FindStringSubmatch(t)
	if m == nil {
		if g := genericPresent().FindStringSubmatch(t); g != nil && (houseRule || bareKind(t, g[1]) && (kindVerbs[g[2]] || strings.HasPrefix(t, "all ")) &&
			!happenedTail().MatchString(strings.TrimRight(lowerNormalize(c.span), ".!")) && !troubleNouns()[lastOf(g[3])]) &&
			artifacts()[lastOf(g[1])] && !strings.HasSuffix(g[3], "ly") && !stateWords()[lastOf(g[3])] && conventionVerbs[g[2]] {
			// "error messages start lowercase in this codebase"
			return guidelineFact(c, "ensure "+g[1]+" "+g[2]+" "+g[3], false, 0)
		}
		return nil
	}
	det, subject, modal, adverb, rest := m[1], m[2], m[3], strings.TrimSpace(m[4]), m[5]
	// a strong modal makes a rule of any subject under a standing frame
	// ("keep in mind that the API must stay backwards compatible")
	framed := (c.directive || c.standing) && strongModal()[modal]
	if !framed && !artifacts()[lastOf(subject)] && !artifacts()[lastOf(subject)+"s"] || badStart()[firstWord(subject)] || firstWord(subject) == "i" || firstWord(subject) == "we" {
		return nil
	}
	if !c.directive && !houseRule && (det == "the" || det == "this" || det == "that") && !pluralNoun(subject) && !massNoun(subject) &&
		(det != "the" || codeAtHand()[lastOf(subject)]) {
		// "the function should return an error instead of panicking":
		// one piece of the code at hand, a task; a rule is about a kind
		// ("functions should …"), about the project's one API, README or
		// main branch ("the API must stay backwards compatible"), or said
		// under a standing frame
		return nil
	}
	noun := subject
	if det == "all" || det == "every" || det == "each" || det == "no" {
		noun = det + " " + subject
	}
	negative := adverb == "never" || adverb == "not" || det == "no"
	pl := pluralNoun(subject) && det != "every" && det != "each"
	verb, tail, _ := strings.Cut(rest, " ")
	switch modal {
	case "need", "needs", "get", "gets", "require", "requires":
		// "every PR needs a review", "every new endpoint gets an OpenAPI
		// entry": it has one
		if (modal == "get" || modal == "gets") && det != "every" && det != "each" && det != "all" {
			return nil // "the build gets slow" is no rule
		}
		return guidelineFact(c, "ensure "+noun+" "+agree("have", pl)+" "+rest, negative, 0)
	case "follow", "follows", "go", "goes", "live", "lives", "sit", "sits", "belong", "belongs", "stay", "stays":
		generic := pl || det == "all" || det == "every" || det == "each" || det == "" && massNoun(subject)
		if modal != "follow" && modal != "follows" && (!generic || det == "the" || det == "our") {
			return nil // "the deploy key lives in vault" says where one thing is
		}
		base := map[string]string{"follows": "follow", "goes": "go", "lives": "live", "sits": "sit", "belongs": "belong", "stays": "stay"}[modal]
		if base == "" {
			base = modal
		}
		return guidelineFact(c, "ensure "+noun+" "+agree(base, pl)+" "+rest, false, 0)
	}
	if negative && verb == "be" {
		// "secrets must never be committed": never commit secrets
		if base, ok := participleBase(firstWord(tail)); ok {
			_, after, _ := strings.Cut(tail, " ")
			obj := strings.TrimSpace(base + " " + strings.TrimPrefix(subject, "the ") + " " + after)
			return guidelineFact(c, obj, true, 0)
		}
		return nil
	}
	if negative {
		switch modal {
		case "must", "should", "shall", "need to", "needs to", "have to", "has to", "are to", "is to":
			if verb != "have" && verb != "be" && !strings.HasSuffix(verb, "ed") && det != "no" {
				// "tests must not hit the network": never let them
				return guidelineFact(c, "let "+noun+" "+verb+" "+tail, true, 0)
			}
		}
		return nil
	}
	switch verb {
	case "be":
		return guidelineFact(c, "ensure "+noun+" "+agree("be", pl)+" "+tail, false, 0)
	case "have":
		return guidelineFact(c, "ensure "+noun+" "+agree("have", pl)+" "+tail, false, 0)
	}
	if !imperativeVerbs()[verb] && !moreVerbs()[verb] && verb != "start" && verb != "end" && verb != "include" && verb != "stay" &&
		!(strongModal()[modal] && !strings.HasSuffix(verb, "ing") && !strings.HasSuffix(verb, "ed") && (det == "" && pl || det == "all" || det == "every" || det == "each" || det == "any")) {
		return nil // after "must" or "should" the word is a verb: "tests must pass"
	}
	return guidelineFact(c, "ensure "+noun+" "+agree(verb, pl)+" "+tail, false, 0)
}

// codeAtHand are the pieces of code a task points at with "the": the
// function, the handler, the test being worked on (not the project's one
// API, README or changelog).
var codeAtHand = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`function method handler class test file query endpoint component variable
		loop module script route hook struct field button page form response request call helper
		migration job worker parser function's test's`) {
		m[w] = true
	}
	return m
})

// placeholderWords stand where a value is still to come.
var placeholderWords = map[string]bool{"todo": true, "tbd": true, "tba": true, "none": true, "n/a": true, "na": true, "wip": true, "pending": true, "unknown": true, "?": true, "see below": true}

// firstPart is what comes before the first comma.
func firstPart(t string) string {
	head, _, _ := strings.Cut(t, ", ")
	return head
}

// agree conjugates a verb for a plural or singular subject.
func agree(verb string, plural bool) string {
	switch verb {
	case "be":
		if plural {
			return "are"
		}
		return "is"
	case "have":
		if plural {
			return "have"
		}
		return "has"
	case "go":
		if plural {
			return "go"
		}
		return "goes"
	}
	if plural {
		return verb
	}
	return verb + "s"
}

func pluralNoun(noun string) bool {
	last := lastOf(noun)
	return strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss")
}

// participleBase turns a past participle into its verb: "committed" →
// "commit", "stored" → "store", "pushed" → "push".
func participleBase(p string) (string, bool) {
	stem, ok := strings.CutSuffix(p, "ed")
	if !ok {
		return "", false
	}
	return verbOfStem(stem)
}

// guidelineFact validates and builds one guideline; rho 0 leaves the
// default reliability.
func guidelineFact(c *clause, object string, negative bool, rho float64) []Fact {
	verb := "should"
	if negative {
		verb = "should not"
	}
	g, ok := instruction(object, negative, verb)
	if !ok {
		return nil
	}
	f := g.fact("", "", c.span)
	if rho != 0 {
		f.Reliability = rho
	}
	return []Fact{f}
}

// massNoun: a subject without article that names a kind of work or
// material, not one thing: "logging goes through slog", "SQL goes through
// the query builder".
func massNoun(subject string) bool {
	last := lastOf(subject)
	return strings.HasSuffix(last, "ing") || last == "sql" || last == "css" || last == "code" || last == "output" ||
		last == "documentation" || last == "styling" || last == "markup" || last == "copy"
}

// strongModal are the modals of obligation: the word after one is a verb,
// and what they say of a kind of thing is a rule.
var strongModal = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"must": true, "should": true, "shall": true, "need to": true, "needs to": true,
		"have to": true, "has to": true, "are to": true, "is to": true}
})

var (
	// houseScope: where a convention holds, at the end of it.
	houseScope = lazyRegexp(`,?\s+(?:here|around here|in this (?:repo|repository|project|codebase|team|company|shop|org|house)|on this (?:team|project)|in our (?:team|repo|codebase|company|shop)|across the (?:repo|codebase|board)|(?:with )?no exceptions|without exceptions?|no matter what)$`)
	// instrumented: a passive that says what it is done with.
	instrumented = lazyRegexp(` (?:with|by|via|through|using|in|on) [a-z0-9]`)
	// genericPresent: "error messages start lowercase", what things of a
	// kind do, under a scope that makes it the house's way.
	genericPresent = lazyRegexp(`^(?:all (?:of )?(?:our |the )?|our )?((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) (?:always |never )?([a-z]+) (.+)$`)
	// contrastTail: "…, not log.Printf", "… instead of moment".
	contrastTail = lazyRegexp(`^(.+?),?\s+(?:not|never|instead of|rather than) [a-z0-9_.+#/-]+(?:\s[a-z0-9_.+#/-]+)?$`)
	// universalIs: "all dates in the API are ISO 8601 strings".
	universalIs = lazyRegexp(`^(all|every|each) ((?:our |new )?[a-z0-9_-]+(?: [a-z0-9_-]+){0,2}(?: (?:in|of|from|for) (?:the |our )?[a-z0-9_-]+(?: [a-z0-9_-]+)?)?) (?:is|are|must be|should be) (?:always )?((?:a |an )?[a-z0-9_-]+(?: [a-z0-9_-]+){0,3})$`)
	// valueForKind: "single quotes for strings", "tabs for indentation".
	valueForKind = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) for (?:all )?((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+)$`)
	// artifactLabel: "docstrings: google style".
	artifactLabel = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+)\s*:\s*([a-z0-9][a-z0-9 ._+#-]*)$`)
	// practicePlease: "early returns please", "smaller commits, please".
	practicePlease = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+)((?: (?:for|in|on) (?:all )?[a-z0-9_-]+(?: [a-z0-9_-]+)?)?),? please$`)
	pleaseEnd      = lazyRegexp(`(?i)\bplease[.!]*$`)
	// orderRule: "tests first, then implementation".
	orderRule = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) first,? (?:then|and then|after that|implementation after) ([a-z][a-z0-9 _-]*)$`)
	// styleStandard: "write small, focused commits", "use descriptive
	// variable names": a verb of making, adjectives, a plural artifact.
	styleStandard = lazyRegexp(`^(write|keep|make|use|name|prefer|give) ((?:[a-z-]+,? (?:and )?){1,3})([a-z]+s)$`)
	// kindIsAdj: "SQL keywords are always lowercase", "table names are
	// singular": an adjective said of a kind of thing.
	kindIsAdj = lazyRegexp(`^(?:all |our )?((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) (are|is) (always |never )?([a-z][a-z0-9_-]+)((?: (?:with|without) (?:no )?[a-z0-9_-]+(?: [a-z0-9_-]+){0,2})?)$`)
	// dislikeThings: "I hate when PRs touch unrelated files".
	dislikeThings = lazyRegexp(`^i ` + adv + `(?:hate|dislike|cannot stand|can not stand|do not like) (?:it )?when ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) ([a-z]+ [^,]+)(?:,.*)?$`)
	// preferredAdj: "named exports are preferred", "default exports are
	// discouraged", "globals are a no-no".
	preferredAdj = lazyRegexp(`^((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) (?:is|are) (?:generally |strongly |highly |heavily |usually )?(preferred|encouraged|recommended|favou?red|the way to go|discouraged|frowned upon|frowned on|a no-no|a no go|not recommended|not welcome|to be avoided|an anti-pattern|an antipattern|a code smell)(?: here| in this (?:repo|codebase|project|team))?$`)
	// inKind: "all times in UTC", "timestamps in UTC please".
	inKind = lazyRegexp(`^(all |every |each )?((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) in ([a-z0-9][a-z0-9 _.-]*?)(,? please)?$`)
	// deonticAdj: "X is mandatory (for Y)", "X are not allowed".
	deonticAdj = lazyRegexp(`^((?:[a-z0-9_.-]+ ){0,3}[a-z0-9_.-]+|[a-z]+ing(?: [a-z0-9_.-]+){1,5}) (?:is|are) (mandatory|required|compulsory|obligatory|a must|non-negotiable|forbidden|banned|not allowed|prohibited|a no-go|off limits|off-limits)(?: (for|on|in) (.+))?$`)
)

// preferredNeg are the judgements of preferredAdj that advise against.
var preferredNeg = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"discouraged": true, "frowned upon": true, "frowned on": true, "a no-no": true, "a no go": true,
		"not recommended": true, "not welcome": true, "to be avoided": true, "an anti-pattern": true, "an antipattern": true,
		"a code smell": true}
})

// deonticWords are the one-word adjectives of deonticAdj: "globals are
// forbidden in this codebase" is read by it (a ban), never as what every
// global is.
var deonticWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"mandatory": true, "required": true, "compulsory": true, "obligatory": true, "forbidden": true,
		"banned": true, "prohibited": true}
})

// forbidden are the adjectives of deonticAdj that forbid.
var forbidden = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"forbidden": true, "banned": true, "not allowed": true, "prohibited": true, "a no-go": true,
		"off limits": true, "off-limits": true}
})

// gerundBase turns a gerund into its verb: "mocking" → "mock", "using" →
// "use", "committing" → "commit".
func gerundBase(g string) (string, bool) {
	stem, ok := strings.CutSuffix(g, "ing")
	if !ok || len(stem) < 2 {
		return "", false
	}
	return verbOfStem(stem)
}
