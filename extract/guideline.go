package extract

import (
	"slices"
	"strings"
	"sync"
)

// Guidelines are standing instructions for the assistant: "always run the
// tests", "never use npm", "don't add comments", "use pnpm instead of npm",
// "from now on, answer in English", "when writing tests, use table tests".
// A bare request ("fix the login bug", "please use pnpm") is a task, not a
// guideline: it needs a standing marker (always, never, don't, avoid, make
// sure, from now on, instead of) to count.

var (
	guidePreamble = lazyRegexp(`^(?:i want you to|i need you to|i expect you to|you should|you must|you need to|you have to|you are to|i prefer (?:that )?you(?: to)?|we prefer (?:that )?you(?: to)?|i rather you|i would rather you|i want)\s+`)
	alwaysRe      = lazyRegexp(`^(?:always|we always|make sure to always|be sure to always|always make sure to|always remember to|always be sure to|make sure you always|consistently)\s+(.+)$`)
	neverRe       = lazyRegexp(`^(never ever|never|do not ever|do not|not|we never|we do not ever|we do not|stop|quit|avoid|refrain from)\s+(.+)$`)
	ensureRe      = lazyRegexp(`^(?:make sure (?:that )?(?:you )?(?:to )?|be sure to |remember to |do not forget to |never forget to |ensure (?:that )?(?:you )?)(.+)$`)
	insteadEndRe  = lazyRegexp(`^(use|prefer|pick|choose|go with|stick with|stick to|default to|write|run|call) (.+?)\s+instead$`)
	insteadRe     = lazyRegexp(`^(use|prefer|pick|choose|go with|stick with|stick to|default to|write|run|call) (.+?)\s*,?\s+(instead of|rather than|in place of|and not|but not|not|over) (.+)$`)
	reasonTail    = lazyRegexp(`\s*,\s*(?:it|this|that|since|because|as|which|so|they)\b.*$|\s+(?:because|since|so that)\b.*$`)
	banRe         = lazyRegexp(`^no ([a-z0-9_.-]+(?: [a-z0-9_.-]+){0,2}) (in|on|for|inside|within) (.+)$`)
	preferImpRe   = lazyRegexp(`^(prefer|favou?r) (.+)$`)
	conditionalRe = lazyRegexp(`^(when|whenever|every time|each time|any time|anytime|if|before|after|once) (.+?)\s*,\s*(.+)$`)
	oneOff        = lazyRegexp(`\b(?:it|this|that|these|those|here|there|line \d+|lines \d+)\b`)
	standingScope = lazyRegexp(`\b(?:this|that) (?:repo|repository|project|codebase|team|language)\b`)
)

// notInstructions follow "don't"/"never" without making a rule: "don't
// worry", "never mind", "don't know".
var notInstructions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"worry": true, "bother": true, "mind": true, "know": true, "care": true, "understand": true,
		"get": true, "hesitate": true, "apologize": true, "apologise": true, "panic": true,
		"stress": true, "sweat": true, "think": true, "see": true, "believe": true, "remember": true,
		"like": true, "love": true, "need": true, "want": true, "have": true, "agree": true,
		"feel": true, "really": true, "mean": true, "recall": true, "exist": true, "work": true,
		"matter": true, "seem": true, "look": true, "sure": true, "forget": true,
	}
})

// imperativeVerbs open an instruction after a condition or a "from now on":
// "from now on, use bun" (but "from now on we use bun" is a fact).
var imperativeVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"use": true, "run": true, "write": true, "add": true, "keep": true, "put": true,
		"prefer": true, "make": true, "call": true, "follow": true, "check": true, "format": true,
		"ask": true, "respond": true, "reply": true, "answer": true, "include": true, "commit": true,
		"push": true, "test": true, "lint": true, "name": true, "document": true, "comment": true,
		"explain": true, "show": true, "give": true, "return": true, "wrap": true, "split": true,
		"mention": true, "default": true, "stick": true, "try": true, "create": true, "update": true,
		"read": true, "log": true, "handle": true, "validate": true, "import": true, "export": true,
		"sort": true, "start": true, "treat": true, "target": true, "assume": true, "pin": true,
		"bump": true, "squash": true, "rebase": true, "merge": true, "open": true, "tag": true,
		"leave": true, "place": true, "set": true, "send": true, "speak": true, "talk": true,
		"be": true, "do": true, "stay": true, "consider": true, "verify": true, "print": true,
		"output": true, "generate": true, "cite": true, "link": true, "review": true, "limit": true,
		"skip": true, "omit": true, "prefix": true, "indent": true, "quote": true, "annotate": true,
		"declare": true, "define": true, "delete": true, "remove": true, "rename": true,
		"refactor": true, "deploy": true, "build": true, "install": true, "save": true, "store": true,
		"summarize": true, "summarise": true, "tell": true, "let": true, "avoid": true, "stop": true,
		"double-check": true, "confirm": true, "wait": true, "think": true, "list": true, "reference": true,
		"escape": true, "lowercase": true, "capitalize": true, "type": true, "describe": true,
		"reuse": true, "favor": true, "favour": true, "pick": true, "choose": true, "go": true,
		"ensure": true, "prioritize": true, "cap": true, "measure": true, "profile": true, "benchmark": true,
		"mock": true, "stub": true, "rerun": true, "re-run": true, "group": true, "order": true,
		"keep,": true, "write,": true,
	}
})

// scopeTails end an instruction by saying where or when it holds, which the
// guideline itself already means.
var scopeTails = []string{"in this repo", "in this repository", "in this project", "in this codebase",
	"for this repo", "for this repository", "for this project", "for this codebase",
	"in all my projects", "in all our projects", "in any of my projects", "in all of my projects",
	"in all my code", "in all our code", "for all projects", "please", "from now on", "going forward",
	"moving forward", "in the future", "in future", "by default", "thanks", "thank you",
	"everywhere", "ever again", "again"}

func stripScope(t string) string {
	for changed := true; changed; {
		changed = false
		t = strings.TrimRight(t, " ,")
		for _, s := range scopeTails {
			rest, ok := strings.CutSuffix(t, s)
			if ok && (rest == "" || rest[len(rest)-1] == ' ' || rest[len(rest)-1] == ',') {
				t, changed = rest, true
				break
			}
		}
	}
	return t
}

// habitVerbs make "when you <verb> ..." a recurring situation ("when you
// write SQL") rather than a moment in this task ("when you are done").
var habitVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"write": true, "add": true, "create": true, "change": true, "touch": true, "modify": true,
		"edit": true, "update": true, "open": true, "commit": true, "review": true, "refactor": true,
		"generate": true, "name": true, "import": true, "log": true, "handle": true, "deploy": true,
		"rename": true, "delete": true, "remove": true, "introduce": true, "design": true, "document": true,
		"test": true, "mock": true, "catch": true, "return": true, "format": true, "explain": true,
	}
})

// guideline is a parsed instruction before it becomes a Fact.
type guideline struct {
	negative bool
	object   string
	verb     string // how the statement says it: "should", "should not", "should avoid", "should stop"
	replaces string
	detail   string // " instead of npm"
	// bare marks a plain "don't X" without never/always/from now on: it is
	// sometimes meant for the task at hand, so it is trusted a little less.
	bare bool
	// plain marks a bare imperative read as a standard ("Be concise."):
	// without a standing marker it is trusted less still.
	plain bool
}

// parseInstruction reads one instruction, with or without a preamble. It
// needs a standing marker unless standing is already known (a "from now on"
// or "whenever" context).
func parseInstruction(t string, standing bool) (guideline, bool) {
	preamble := false
	if loc := guidePreamble().FindStringIndex(t); loc != nil {
		t, preamble = t[loc[1]:], true
	}
	t = strings.TrimPrefix(t, "please ")
	t = strings.Trim(stripScope(t), " ,")
	if m := alwaysRe().FindStringSubmatch(t); m != nil {
		if g, ok := parseInstruction(m[1], true); ok {
			return g, true
		}
		return instruction(m[1], false, "should")
	}
	if m := ensureRe().FindStringSubmatch(t); m != nil {
		obj := m[1]
		if first, _, _ := strings.Cut(obj, " "); !imperativeVerbs()[first] {
			obj = "make sure " + obj // "make sure the linter passes"
		}
		return instruction(obj, false, "should")
	}
	if m := neverRe().FindStringSubmatch(t); m != nil {
		marker, rest := m[1], m[2]
		if marker == "not" && !preamble {
			return guideline{}, false
		}
		verb := "should not"
		switch marker {
		case "avoid", "refrain from":
			verb = "should avoid"
		case "stop", "quit":
			verb = "should stop"
		}
		rest = strings.TrimPrefix(rest, "ever ")
		first, _, _ := strings.Cut(rest, " ")
		if notInstructions()[first] || verb == "should stop" && !strings.HasSuffix(first, "ing") {
			return guideline{}, false
		}
		g, ok := instruction(rest, true, verb)
		g.bare = (marker == "do not" || marker == "not") && !standing
		return g, ok
	}
	if m := insteadRe().FindStringSubmatch(t); m != nil {
		return instruction(t, false, "should")
	}
	if m := banRe().FindStringSubmatch(t); m != nil {
		// "no emojis in commit messages": a ban on using them there
		return instruction("use "+m[1]+" "+m[2]+" "+m[3], true, "should not")
	}
	if m := insteadEndRe().FindStringSubmatch(t); m != nil {
		return instruction(m[1]+" "+m[2], false, "should") // "use named exports instead"
	}
	if m := preferImpRe().FindStringSubmatch(t); m != nil {
		return instruction(t, false, "should")
	}
	if standing || preamble && strings.HasPrefix(t, "not ") {
		first, _, _ := strings.Cut(t, " ")
		if imperativeVerbs()[first] {
			return instruction(t, false, "should")
		}
	}
	return guideline{}, false
}

// instruction validates the object of an instruction: it must say what to
// do, and must not point at something only this conversation can see.
func instruction(obj string, negative bool, verb string) (guideline, bool) {
	obj = reasonTail().ReplaceAllString(strings.TrimSpace(obj), "")
	obj = strings.Trim(stripScope(obj), " ,.")
	if obj == "" || strings.Contains(obj, placeholder) || len(strings.Fields(obj)) > 24 {
		return guideline{}, false
	}
	if oneOff().MatchString(standingScope().ReplaceAllString(obj, "")) {
		return guideline{}, false
	}
	first, _, _ := strings.Cut(obj, " ")
	if badStart()[first] && first != "not" || first == "i" || first == "we" {
		return guideline{}, false
	}
	if m := insteadRe().FindStringSubmatch(obj); m != nil && !negative {
		return alternative(m, verb), true
	}
	return guideline{negative: negative, object: obj, verb: verb}, true
}

// alternative builds "use pnpm instead of npm": the object is "use pnpm" and
// it replaces "use npm", so it meets an older "always use npm" head on.
// "prefer X over Y" only ranks Y lower and replaces nothing.
func alternative(m []string, verb string) guideline {
	obj := strings.TrimSpace(m[2])
	if tl, known := lookupTool(obj); known {
		obj = tl.Name
	}
	g := guideline{object: m[1] + " " + obj, verb: verb}
	alt := m[4]
	if p := purposeTail().FindStringSubmatch(alt); p != nil {
		alt = p[1] // "npm for scripts": the alternative is npm
	}
	a, ok := nounPhrase(alt, 5)
	if !ok {
		return g
	}
	if tl, known := lookupTool(a); known {
		a = tl.Name
	}
	if m[3] == "over" {
		g.detail = " over " + a
		if m[1] != "use" {
			return g
		}
	} else {
		g.detail = " instead of " + a
	}
	g.replaces = m[1] + " " + a
	return g
}

func (g guideline) fact(predicateSuffix, when string) Fact {
	pred := "should"
	if g.negative {
		pred = "should_not"
	}
	stmt := "Assistant " + g.verb + " " + g.object + g.detail
	if when != "" {
		stmt = upperFirst(when) + ", assistant " + g.verb + " " + g.object + g.detail
	}
	f := Fact{Subject: SubjectAssistant, Predicate: pred + predicateSuffix, Object: g.object,
		Replaces: g.replaces, Statement: stmt, Kind: KindGuideline}
	switch {
	case g.plain:
		f.Reliability = 0.7
	case g.bare:
		f.Reliability = 0.8
	}
	return f
}

// matchConditionalGuideline reads "when writing tests, use table tests" as
// should_when_writing_tests. A condition about facts ("if we switched to
// bun, ...") is not a rule: the action needs a standing marker unless the
// condition is generic (a gerund, "whenever", "every time").
func matchConditionalGuideline(c *clause) ([]Fact, bool) {
	m := conditionalRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil, false
	}
	cond, ctx, action := m[1], m[2], m[3]
	if c.question || hedge().in(words(ctx)) || reported().in(words(action)) || transient().in(words(c.text)) {
		return nil, true
	}
	firstCtx, restCtx, _ := strings.Cut(ctx, " ")
	secondCtx, _, _ := strings.Cut(restCtx, " ")
	generic := cond == "whenever" || cond == "every time" || cond == "each time" ||
		cond == "any time" || cond == "anytime" || strings.HasSuffix(firstCtx, "ing") ||
		firstCtx == "you" && habitVerbs()[secondCtx] ||
		firstCtx == "a" || firstCtx == "an" || firstCtx == "any" // "when a test fails"
	g, ok := parseInstruction(action, generic)
	if !ok || g.object == "" {
		return nil, true
	}
	key := snake(ctx, 5)
	if key == "" {
		return nil, true
	}
	if cond == "before" || cond == "after" {
		key = cond + "_" + key
	}
	return []Fact{g.fact("_when_"+key, cond+" "+ctx)}, true
}

// guideStarters open every instruction parseInstruction knows without a
// standing context.
var guideStarters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"always": true, "we": true, "make": true, "be": true,
		"consistently": true, "never": true, "do": true, "not": true, "stop": true, "quit": true,
		"avoid": true, "refrain": true, "remember": true, "ensure": true, "use": true, "prefer": true,
		"pick": true, "choose": true, "go": true, "stick": true, "default": true, "write": true,
		"run": true, "call": true, "favor": true, "favour": true, "no": true, "i": true, "you": true,
		"please": true}
})

func matchGuideline(c *clause) []Fact {
	first := firstWord(c.text)
	if !c.standing && !guideStarters()[first] && !styleVerbs()[first] {
		return nil
	}
	g, ok := parseInstruction(c.text, c.standing)
	if !ok {
		if g, ok = styleInstruction(c.text); !ok {
			return nil
		}
	}
	return []Fact{g.fact("", "")}
}

// styleVerbs open a bare instruction about how to work rather than what to
// do next: "Be concise.", "Keep answers short", "Respond in English".
var styleVerbs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"be": true, "keep": true, "use": true, "respond": true,
		"answer": true, "reply": true, "speak": true, "talk": true, "stay": true}
})

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
	ws := strings.Fields(t)
	if len(ws) < 2 || len(ws) > 10 || strings.Contains(t, " to ") || strings.ContainsAny(t, "/") {
		return guideline{}, false
	}
	if !styleVerbs()[ws[0]] || contextual()[ws[1]] || oneOff().MatchString(t) {
		return guideline{}, false
	}
	switch ws[0] {
	case "be":
		if len(ws) > 4 || !manners()[strings.TrimSuffix(ws[len(ws)-1], ",")] {
			return guideline{}, false
		}
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
	}
	g, ok := instruction(t, false, "should")
	g.plain = true
	return g, ok
}
