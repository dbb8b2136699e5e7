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
var mannerStandard = lazyRegexp(`^\S+(?: [a-z_-]+s)? (?:with|at|to|using|by) (?:\d+|two|three|four|eight|tabs|spaces)\b|\b(?:all|every|each|any) (?:(?:new|public|private|exported|internal|external|user|incoming|outgoing)\s)?[a-z0-9_-]+s?\b(?: [a-z_-]+)?$|\b(?:every|each|any) [a-z0-9_-]+\b|^\S+ [a-z0-9_-]+(?: [a-z0-9_-]+)? as [a-z]|\b(?:instead of|rather than|over)\b`)

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
		// "make commits small": a kind of artifact, made to a standard
		if len(ws) != 3 || !artifacts()[ws[1]] || !pluralNoun(ws[1]) || !styleAdjectives()[ws[2]] {
			return guideline{}, false
		}
		t = "keep " + ws[1] + " " + ws[2]
	case "keep":
		last := ws[len(ws)-1]
		if !styleAdjectives()[last] && !slices.Contains(ws, "under") && !slices.Contains(ws, "below") {
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
