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
	passiveConvention = lazyRegexp(`^(?:all |our |the )?((?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+) (?:are|is|get|gets) (always |never )?([a-z-]+ed\b.*)$`)
	// weHabit: "we name branches feature/<ticket>", "we squash commits
	// before merging", "we keep functions under 50 lines".
	weHabit = lazyRegexp(`^we ` + adv + `(name|write|keep|put|prefix|tag|squash|rebase|review|document|version|store|log|structure|organize|organise|split|group|indent|wrap|comment|format|lint|test|merge|pin|sign|label|title|sort|order|avoid|prefer|require|enforce|follow|stick to) (.+)$`)
)

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
		sql css styles styling output markup copy strings i18n translations fixtures mocks assets`) {
		m[w] = true
	}
	return m
})

// matchConvention reads a convention stated as how things are done.
func matchConvention(c *clause) []Fact {
	t := c.text
	if m := passiveConvention().FindStringSubmatch(t); m != nil && artifacts()[lastOf(m[1])] && (c.standing || m[2] != "") {
		// "in this codebase, errors are wrapped with %w": how things are
		// done here, said in the passive
		modal := "must"
		if m[2] == "never " {
			modal = "must never"
		}
		t = m[1] + " " + modal + " be " + m[3]
	}
	if m := ruleThat().FindStringSubmatch(t); m != nil {
		t = m[1]
	} else if m := conventionIs().FindStringSubmatch(t); m != nil {
		obj := m[1]
		if !startsWithVerb(obj) {
			obj = "use " + obj
		}
		return guidelineFact(c, obj, false, 0)
	}
	if m := weHabit().FindStringSubmatch(t); m != nil && !strings.HasPrefix(m[2], "it ") {
		verb := m[1]
		if verb == "write" || verb == "structure" {
			if i := strings.LastIndex(m[2], " in "); i >= 0 {
				if tl, ok := lookupTool(strings.TrimSpace(m[2][i+4:])); ok && slices.Contains(tl.Categories, "language") {
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
	if m := deonticAdj().FindStringSubmatch(t); m != nil && !badStart()[firstWord(m[1])] && firstWord(m[1]) != "i" && firstWord(m[1]) != "we" &&
		len(strings.Fields(m[1])) <= 4 {
		// "code review is mandatory for all changes", "force pushes are
		// forbidden": a rule said with an adjective of obligation
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
		return nil
	}
	det, subject, modal, adverb, rest := m[1], m[2], m[3], strings.TrimSpace(m[4]), m[5]
	// a strong modal makes a rule of any subject under a standing frame
	// ("keep in mind that the API must stay backwards compatible")
	framed := (c.directive || c.standing) && strongModal()[modal]
	if !framed && !artifacts()[lastOf(subject)] && !artifacts()[lastOf(subject)+"s"] || badStart()[firstWord(subject)] || firstWord(subject) == "i" || firstWord(subject) == "we" {
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
	// deonticAdj: "X is mandatory (for Y)", "X are not allowed".
	deonticAdj = lazyRegexp(`^((?:[a-z0-9_.-]+ ){0,3}[a-z0-9_.-]+) (?:is|are) (mandatory|required|compulsory|obligatory|a must|non-negotiable|forbidden|banned|not allowed|prohibited|a no-go|off limits|off-limits)(?: (for|on|in) (.+))?$`)
)

// forbidden are the adjectives of deonticAdj that forbid.
var forbidden = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"forbidden": true, "banned": true, "not allowed": true, "prohibited": true, "a no-go": true,
		"off limits": true, "off-limits": true}
})
