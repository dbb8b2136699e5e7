package extract

import (
	"slices"
	"strings"
	"sync"
)

// Bare imperatives that state a standard rather than a task: "Be
// concise.", "Keep answers short", "Respond in English", "Write commit
// messages in English". Without a standing marker they are trusted less
// than an instruction with "always".

// styleVerbs open a bare instruction about how to work rather than what to
// do next: "Be concise.", "Keep answers short", "Respond in English".
var styleVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"be": true, "keep": true, "use": true, "respond": true, "make": true,
		"answer": true, "reply": true, "speak": true, "talk": true, "stay": true, "write": true}
})

// mannerVerbs say how work is done; with a word that makes their object
// a kind ("all", "every", "as", "instead of") a bare one is a standard.
var mannerVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`treat favor favour default name indent wrap sort prefix suffix format document comment
		validate sanitize sanitise escape log handle return raise throw pin squash rebase sign annotate type-hint
		cover quote prefer`) {
		m[w] = true
	}
	return m
})

// mannerStandard marks the object of a manner verb as a kind: a
// quantifier, a role ("as errors") or an alternative.
//
// A measure the manner is given in ("indent with 4 spaces", "wrap lines
// at 100") names no particular thing either.
var mannerStandard = lazyRegexp(`^\S+(?: [a-z_-]+s)? (?:with|at|to|using|by) (?:\d+|two|three|four|eight|tabs|spaces)\b|\b(?:all|every|each|any) (?:(?:new|public|private|exported|internal|external|user|incoming|outgoing)\s)?[a-z0-9_-]+s?\b(?: [a-z_-]+)?$|\b(?:every|each|any) [a-z0-9_-]+\b|\ball (?:[a-z0-9_-]+ )?[a-z0-9_-]+ (?:at|in|on|from|before|after) (?:the |our )?[a-z0-9_ -]+$|^\S+ [a-z0-9_-]+(?: [a-z0-9_-]+)? as [a-z]|\b(?:instead of|rather than|over)\b`)

// styleAdjectives end a "keep ..." instruction that states a standard.
var styleAdjectives = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"short": true, "small": true, "simple": true, "concise": true,
		"brief": true, "focused": true, "minimal": true, "clean": true, "tidy": true, "readable": true,
		"lean": true, "consistent": true, "terse": true, "tight": true, "pure": true, "flat": true,
		"sorted": true, "alphabetical": true, "private": true, "immutable": true}
})

// manners end a "be ..." instruction: "Be concise", "be more direct".
var manners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"concise": true, "brief": true, "direct": true, "terse": true,
		"honest": true, "thorough": true, "explicit": true, "precise": true, "blunt": true,
		"critical": true, "skeptical": true, "pragmatic": true, "specific": true, "consistent": true,
		"careful": true, "patient": true, "proactive": true, "succinct": true, "clear": true,
		"formal": true, "informal": true, "casual": true, "polite": true, "friendly": true,
		"objective": true, "conservative": true, "verbose": true, "detailed": true, "short": true}
})

var contextual = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true,
		"these": true, "those": true, "it": true, "my": true, "your": true, "our": true, "them": true,
		"other": true, "same": true}
})

// styleInstruction accepts a bare imperative only when it reads as a
// standard: short, about no particular thing in this conversation, with no
// "to <purpose>" (a task), trusted less than one with "always".
func styleInstruction(t string) (guideline, bool) {
	if namedConvention(t) {
		// "follow semver", "use conventional commits": a way of working
		// by its name
		g, ok := instruction(t, false, "should")
		g.plain = true
		return g, ok
	}
	if !strings.Contains(t, " to ") {
		// no purpose
	} else if m := purposeOfKind().FindStringSubmatch(t); m != nil && (isConvention(m[2]) || codePractice(m[2]) || pluralKind(m[2])) {
		// "use early returns to reduce nesting": a kind of code, and what
		// it is for; the purpose is the reason, the rule is the use
		t = m[1] + " " + m[2]
	}
	if practiceStart(t) {
		// "use the repository pattern for data access": "the" before a
		// pattern, approach or style names a practice, not a thing of
		// this task; "put new utilities in lib/utils": where every new
		// one goes
		g, ok := instruction(t, false, "should")
		g.plain = true
		return g, ok
	}
	ws := strings.Fields(t)
	if len(ws) < 2 || len(ws) > 10 || strings.Contains(t, " to ") || strings.ContainsAny(t, "/") {
		return guideline{}, false
	}
	if mannerVerbs()[ws[0]] && !styleVerbs()[ws[0]] && !contextual()[ws[1]] && !oneOff().MatchString(t) && mannerStandard().MatchString(t) &&
		!strings.Contains(t, " all the ") && !strings.Contains(t, " and ") {
		// "Treat warnings as errors", "Document all public APIs", "Rebase
		// instead of merge": how a kind of work is done, not a task
		g, ok := instruction(t, false, "should")
		g.plain = true
		return g, ok
	}
	if !styleVerbs()[ws[0]] || contextual()[ws[1]] || oneOff().MatchString(t) {
		return guideline{}, false
	}
	switch ws[0] {
	case "be":
		if len(ws) > 4 || !manners()[strings.TrimSuffix(ws[len(ws)-1], ",")] {
			return guideline{}, false
		}
	case "make":
		// "make commits small", "make error messages actionable": a kind
		// of artifact, made to a standard
		kind := strings.Join(ws[1:len(ws)-1], " ")
		if len(ws) < 3 || len(ws) > 4 || !artifacts()[ws[len(ws)-2]] || !pluralNoun(ws[len(ws)-2]) || !standardAdjective(ws[len(ws)-1]) {
			return guideline{}, false
		}
		t = "keep " + kind + " " + ws[len(ws)-1]
	case "keep":
		last := ws[len(ws)-1]
		kindBefore := len(ws) >= 3 && artifacts()[ws[len(ws)-2]] && pluralNoun(ws[len(ws)-2])
		if !styleAdjectives()[last] && !slices.Contains(ws, "under") && !slices.Contains(ws, "below") &&
			!(kindBefore && (standardAdjective(last) || strings.HasSuffix(last, "ed"))) {
			// "keep logs structured", "keep migrations reversible": a
			// kind of artifact kept in a state
			return guideline{}, false
		}
	case "respond", "answer", "reply", "speak", "talk":
		if !slices.Contains([]string{"in", "with", "using", "briefly", "concisely", "like", "as", "only"}, ws[1]) {
			return guideline{}, false
		}
	case "stay":
		if ws[1] != "within" && ws[1] != "away" && ws[1] != "consistent" {
			return guideline{}, false
		}
	case "write":
		// "write commit messages in English": a standard for a kind of text
		if !writeStandard().MatchString(t) {
			return guideline{}, false
		}
	}
	g, ok := instruction(t, false, "should")
	g.plain = true
	return g, ok
}

var (
	// purposeOfKind: "use early returns to reduce nesting".
	purposeOfKind = lazyRegexp(`^(use|prefer|write|add) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) (?:to|so as to|in order to) [a-z]+\b.*$`)
	// namedPractice: "use the repository pattern", "follow the
	// functional core, imperative shell approach".
	namedPractice = lazyRegexp(`^(?:use|follow|apply|stick to) the (?:[a-z0-9_-]+ ){1,3}(?:pattern|approach|style|convention|idiom|architecture)\b(?: (?:for|in|when) [a-z0-9 _-]+)?$`)
	// newKindPath: "put new utilities in lib/utils", "add new hooks under
	// src/hooks".
	newKindPath = lazyRegexp(`^(?:put|place|add|keep|create) (?:all |any )?new (?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s (?:in|into|under|inside) [a-z0-9_.~@-]*/[a-z0-9_./~@-]*$`)
)

// pluralKind is a plural noun phrase without a determiner: a kind of
// thing ("early returns", "guard clauses").
func pluralKind(np string) bool {
	ws := strings.Fields(np)
	return len(ws) > 0 && !contextual()[ws[0]] && !determiner().MatchString(ws[0]) && pluralNoun(ws[len(ws)-1])
}

// standardAdjective is an adjective a kind of artifact is kept to: one of
// styleAdjectives, or one by its form ("actionable", "descriptive",
// "meaningful", "idempotent").
func standardAdjective(w string) bool {
	if styleAdjectives()[w] {
		return true
	}
	for _, suf := range []string{"able", "ible", "ive", "ful", "ent", "ant", "ous"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+3 {
			return true
		}
	}
	return false
}
