package extract

import (
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
	reasonTail    = lazyRegexp(`\s+as (?:our|the|we|they|it|i|you|this|that|my|all)\s.*$|\s*,?\s+(?:from|according to|says|said) [a-z0-9.-]+$|\s*,\s*(?:it|this|that|since|because|as|which|so|they|our)\b.*$|\s+(?:because|since|so that)\b.*$`)
	// relativeThat is "that" opening a relative clause ("comments that
	// restate the code"), which points at nothing in the conversation.
	relativeThat = lazyRegexp(`\b([a-z]+s) (?:that|which) `)
	// bareBan: "no force pushes, ever", "no new dependencies without asking
	// me", "no long-lived branches".
	bareBan       = lazyRegexp(`^no ((?:[a-z0-9_.-]+ ){0,3}[a-z0-9_.-]+s)(?:,? ever)?(?: (without|unless) (.+))?$`)
	banRe         = lazyRegexp(`^no ([a-z0-9_.-]+(?: [a-z0-9_.-]+){0,2}) (in|on|for|inside|within|to|into) (.+)$`)
	preferImpRe   = lazyRegexp(`^(prefer|favou?r) (.+)$`)
	conditionalRe = lazyRegexp(`^(when|whenever|every time|each time|any time|anytime|if|before|after|once) (.+?)\s*,\s*(.+)$`)
	oneOff        = lazyRegexp(`\b(?:it|this|that|these|those|here|there|line \d+|lines \d+|when you are (?:done|finished|ready)|once (?:you are )?(?:done|finished)|after that|afterwards|at the end|first thing)\b`)
	standingScope = lazyRegexp(`\b(?:this|that) (?:repo|repository|project|codebase|monorepo|workspace|team|language)\b`)
)

// notBanned are words after "no" that name no thing to ban: "no way in
// this project", "no time for that in this codebase".
var notBanned = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("way one idea time need point problem issue reason sense change rush hurry doubt question luck chance difference harm") {
		m[w] = true
	}
	return m
})

var (
	// noToolRe is a ban on one named thing: "no lodash", "no fmt.println".
	noToolRe = lazyRegexp(`^no ([a-z][\w.+#/-]*[a-z0-9)])$`)
	// repoScope names the whole repository as where a rule holds.
	repoScope = lazyRegexp(`\b(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase|code base|monorepo|app|service|code)\b`)
)

// artefactStandard says whether an imperative asks for a way of working
// over an artefact the repository keeps ("please use British spelling in
// the docs", "keep the tests table-driven"), which makes it a rule said
// politely, not a request for this turn ("use the new logo in the docs"
// names one thing).
func artefactStandard(t string) bool {
	switch firstWord(t) {
	case "keep", "use", "prefer", "indent", "wrap", "name", "format", "follow", "stick", "write", "spell", "add", "put", "place", "colocate", "store", "treat":
	default:
		return false
	}
	if artefactForm().MatchString(t) {
		return true
	}
	if !artefactWay().MatchString(t) {
		return false
	}
	_, rest, _ := strings.Cut(t, " ")
	switch firstWord(rest) {
	case "the", "this", "that", "these", "those", "a", "an", "my", "your", "it", "them":
		return false
	}
	return true
}

// practiceStart says whether an imperative opens with a named practice
// or where every new one goes (style.go's namedPractice, newKindPath).
func practiceStart(t string) bool {
	switch firstWord(t) {
	case "use", "follow", "apply", "stick":
		return namedPractice().MatchString(t)
	case "put", "place", "add", "keep", "create":
		return newKindPath().MatchString(t)
	}
	return false
}

// standingArtefacts are what a repository keeps and a convention governs:
// a one-off request names one of them with "this" or by a particular
// ("fix the typo in the docs" is a task, said with a verb of repair).
const standingArtefacts = `(?:docs|documentation|readme|code|codebase|tests|test files|test names|commits|commit messages|prs|pull requests|pr titles|pr descriptions|comments|docstrings|changelog|changelog entries|error messages|log messages|logs|migrations|ui copy|ui strings|user-facing strings|user-facing text|api responses|variable names|function names|file names|branch names|makefile|dockerfiles|(?:[a-z0-9.]+ )?(?:files|columns|tables|endpoints|components|names|fields|keys))`

// notBans follow "no" without banning anything: "no worries", "no thanks".
var notBans = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"worries": true, "thanks": true, "problems": true, "questions": true,
		"hard feelings": true, "results": true, "errors": true, "changes": true, "issues": true,
		"news": true, "plans": true, "regrets": true, "updates": true, "tests": true, "words": true,
		"exceptions": true, "exception": true, "excuses": true, "idea": true, "clue": true}
})

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
		"keep,": true, "write,": true, "uppercase": true,
	}
})

// scopeTails end an instruction by saying where or when it holds, which the
// guideline itself already means.
var scopeTails = []string{"in this repo", "in this repository", "in this project", "in this codebase",
	"for this repo", "for this repository", "for this project", "for this codebase",
	"in all my projects", "in all our projects", "in any of my projects", "in all of my projects",
	"in all my code", "in all our code", "for all projects", "please", "from now on", "going forward",
	"moving forward", "in the future", "in future", "by default", "thanks", "thank you",
	"everywhere", "ever again", "again", "here", "around here", "on this team", "in our team", "ever", "no exceptions", "no matter what"}

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
	if strings.Contains(t, " i ") {
		if m := notMineTail().FindStringSubmatch(t); m != nil {
			// "use fish syntax, i do not use bash": the speaker's own
			// setup says why, and names what the rule replaces
			g, ok := parseInstruction(m[1], standing)
			if ok && !g.negative && strings.HasPrefix(g.object, "use ") && g.detail == "" && g.object != "use "+m[2] {
				g.detail = " instead of " + showObject(m[2])
			}
			return g, ok
		}
	}
	if preamble {
		// "I'd rather you didn't use classes": not to
		for _, p := range []string{"did not ", "would not ", "do not "} {
			if rest, ok := strings.CutPrefix(t, p); ok {
				t = "not " + rest
			}
		}
		// "it would be great if you always ran the formatter": the wish
		// is said in the past, the rule is to run it
		t = presentTense(t)
		if m := wantedState().FindStringSubmatch(t); m != nil && artifacts()[lastOf(m[2])] && !deadline().MatchString(m[3]) {
			// "I want all errors wrapped with context": every one of a
			// kind, in the state wished for
			return instruction("ensure "+m[1]+" "+m[2]+" "+agree("be", m[1] != "every" && m[1] != "each")+" "+m[3], false, "should")
		}
	}
	if loc := authorityReason().FindStringIndex(t); loc != nil && loc[0] > 0 {
		// "indent with two spaces since the style guide says so": a
		// reason that cites a standing rule makes the request one
		t, standing = t[:loc[0]], true
	}
	unscoped := strings.Trim(stripScope(t), " ,")
	if m := noToolRe().FindStringSubmatch(unscoped); m != nil && unscoped != strings.Trim(t, " ,") && repoScope().MatchString(t) {
		// "no lodash in this project", "no fmt.Println in this codebase":
		// a tool or a call banned from the whole repository
		if _, tool := lookupTool(m[1]); tool || strings.ContainsAny(m[1], "._") || !strings.HasSuffix(m[1], "s") && !notBanned()[m[1]] {
			return instruction("use "+m[1], true, "should not")
		}
	}
	t = runCommand(unscoped)
	if m := alwaysRe().FindStringSubmatch(t); m != nil {
		if g, ok := parseInstruction(m[1], true); ok {
			return g, true
		}
		obj := runCommand(m[1])
		if !startsWithVerb(obj) {
			return guideline{}, false // "always the same flaky test" is a sigh
		}
		return instruction(obj, false, "should")
	}
	if m := ensureRe().FindStringSubmatch(t); m != nil {
		obj := m[1]
		if w := firstWord(obj); w == "never" || w == "always" || w == "not" {
			// "make sure you never log the request body"
			return parseInstruction(strings.TrimPrefix(obj, "not "), true)
		}
		if !startsWithVerb(obj) {
			if !strings.HasPrefix(t, "make sure") && !strings.HasPrefix(t, "ensure") {
				return guideline{}, false // "remember to drink water" names no work
			}
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
		if !strings.Contains(rest, " ") && (strings.HasSuffix(rest, "ly") || rest == "here" || rest == "there" || rest == "anywhere") {
			return guideline{}, false // "…, never locally": when, not what
		}
		if rest == "say never" || rest == "again" || strings.HasPrefix(rest, "had ") || strings.HasPrefix(rest, "thought ") {
			return guideline{}, false // "never say never", "never had this problem"
		}
		first, _, _ := strings.Cut(rest, " ")
		first = strings.TrimRight(first, ",.;:!")
		if notInstructions()[first] && !habitual().MatchString(rest) || verb == "should stop" && !strings.HasSuffix(first, "ing") {
			return guideline{}, false
		}
		if _, irregular := pastTense()[first]; irregular && strings.HasSuffix(marker, "never") && first != "put" && first != "set" && first != "split" && first != "read" {
			return guideline{}, false // "we never went k8s" tells the past
		}
		if stem, ok := strings.CutSuffix(first, "ed"); ok && strings.HasSuffix(marker, "never") && !imperativeVerbs()[first] && !moreVerbs()[first] {
			if _, past := verbOfStem(stem); past {
				return guideline{}, false // "we never used Mongo" tells the past
			}
		}
		obj := doPhrase(runCommand(rest))
		if verb == "should avoid" && !strings.HasSuffix(firstWord(rest), "ing") {
			obj = "use " + rest // "avoid default exports": what follows is a thing
		}
		g, ok := instruction(obj, true, verb)
		g.bare = (marker == "do not" || marker == "not") && !standing
		return g, ok
	}
	if m := insteadRe().FindStringSubmatch(t); m != nil {
		return instruction(t, false, "should")
	}
	if rest, ok := strings.CutPrefix(t, "no need to "); ok {
		return instruction(rest, true, "should not") // "no need to explain the code you write"
	}
	if m := banRe().FindStringSubmatch(t); m != nil && !forMe().MatchString(t) && !notBanned()[firstWord(m[1])] {
		// "no emojis in commit messages": a ban on using them there
		if v, ok := thirdPersonBase(m[1]); ok && !strings.Contains(m[1], " ") {
			return instruction(v+" "+m[2]+" "+m[3], true, "should not") // "no merges on Friday": never merge then
		}
		if w, adv, ok := strings.Cut(m[1], " "); ok && !strings.Contains(adv, " ") && strings.HasSuffix(adv, "ly") {
			if v, ok := thirdPersonBase(w); ok {
				return instruction(v+" "+adv+" "+m[2]+" "+m[3], true, "should not") // "no commits directly to main"
			}
		}
		if v, ok := gerundBase(firstWord(m[1])); ok && strings.HasSuffix(firstWord(m[1]), "ing") {
			return instruction(v+strings.TrimPrefix(m[1], firstWord(m[1]))+" "+m[2]+" "+m[3], true, "should not") // "no pushing to main"
		}
		return instruction("use "+m[1]+" "+m[2]+" "+m[3], true, "should not")
	}
	if m := bareBan().FindStringSubmatch(t); m != nil && !notBans()[m[1]] && !notBanned()[firstWord(m[1])] && !forMe().MatchString(t) {
		obj := m[1]
		if ws := strings.Fields(obj); startsWithVerb(obj) && len(ws) > 1 && !isConvention(obj) && !codePractice(obj) {
			// ("no default exports" names a kind of code, not an act)
			if v, ok := thirdPersonBase(ws[len(ws)-1]); ok {
				obj = strings.Join(ws[:len(ws)-1], " ") + " " + v // "no force pushes": never force push
			}
		}
		if startsWithVerb(obj) && (isConvention(obj) || codePractice(obj)) {
			obj = "use " + obj // "no default exports": never use them, though "default" can be a verb
		}
		if m[2] != "" {
			obj += " " + m[2] + " " + m[3]
		}
		return instruction(obj, true, "should avoid") // "Avoid force pushes"
	}
	if m := insteadEndRe().FindStringSubmatch(t); m != nil {
		return instruction(m[1]+" "+m[2], false, "should") // "use named exports instead"
	}
	if m := preferImpRe().FindStringSubmatch(t); m != nil {
		return instruction(t, false, "should")
	}
	if standing || preamble && strings.HasPrefix(t, "not ") {
		first, _, _ := strings.Cut(t, " ")
		if isVerb(first) {
			return instruction(t, false, "should")
		}
	}
	if m := toolOnlyRe().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(m[1] + m[2]); ok {
			return instruction("use "+tl.Name, false, "should") // "pnpm only in this repo"
		}
	}
	if standing {
		if x, y, kind := splitAlternative(t); kind == "instead" && len(strings.Fields(x)) <= 3 && len(strings.Fields(y)) <= 3 && !startsWithVerb(x) && !versionLike().MatchString(y) &&
			!modalBefore().MatchString(x) {
			return instruction("use "+x+" instead of "+y, false, "should") // "remember: tabs, not spaces"
		}
	}
	if m := standingEvery().FindStringSubmatch(t); m != nil {
		return instruction(t, false, "should") // "prefix every commit message with the ticket"
	}
	if preamble && imperativeVerbs()[firstWord(t)] && !determiner().MatchString(t) {
		// "I'd like you to write tests first": a way of working, not a
		// task about something in particular ("… update the README")
		g, ok := instruction(t, false, "should")
		g.bare = true
		return g, ok
	}
	if habitClause().MatchString(t) && imperativeVerbs()[firstWord(t)] {
		// "ask before running destructive commands", "show me the diff
		// before applying changes": a habit, by its "before <doing>"
		return instruction(t, false, "should")
	}
	return guideline{}, false
}

var (
	// bareCondition: "before you push anything run make lint", "when you
	// write commit messages use conventional commits": a condition on
	// "you" and its verb, then the instruction (splitBareCondition).
	bareCondition = lazyRegexp(`^(when|whenever|before|after|every time|each time) (you [a-z]+|[a-z]+ing) ([^,]+(?:,.*)?)$`)
	// usedAgain: a complaint that names what to use instead, "you used
	// moment again, we use dayjs", "you are using var again, it is const
	// or let in this codebase".
	usedAgain = lazyRegexp(`^you (?:are |were )?(?:used|using|keep using|wrote|writing|keep writing|added|adding|keep adding) ([a-z0-9_.@/-]+(?: [a-z0-9_.@/-]+)?)(?: again)?(?:\s*,?\s*(?:(?:we|i) (?:use|prefer|write|are on)|it is|it should be|use|we want|this codebase uses|this repo uses) (.+))?$`)
	againRe   = lazyRegexp(`(?i)\bagain\b`)
	// nowTail: a request for this moment, "… now", "… for now".
	nowTail = lazyRegexp(`(?i)(?:^|[^,]\s)(?:right )?now[.!]*$`)
	// authorityReason: a reason that cites a standing rule, "since the
	// style guide says so", "because the linter complains otherwise",
	// "as that's our convention".
	authorityReason = lazyRegexp(`\s*,?\s+(?:since|because|as|cause|cuz) (?:(?:the|our|my|this|that is|that's|it is|it's) )?(?:(?:team'?s?|repo'?s?|project'?s?|house|company) )?(?:style ?guide|linter|lint|formatter|convention|conventions|code style|standard|policy|rules?|ci|reviewers?|team|codebase|everyone|we|house style)\b.*$`)
	// keepItShort: "keep it brief" speaks of the answer, not of a thing
	// in this conversation.
	keepItShort = lazyRegexp(`^keep it (?:short|brief|concise|simple|tight|terse|focused)\b`)
	// repoStandard: a standard set for the whole repository, "keep line
	// length under 100 in this repo", "use double quotes in this codebase".
	repoStandard = lazyRegexp(`^(?:keep|use|prefer|indent|wrap|name|format|follow|stick to|write) .+ (?:in|for|across) (?:this|the|our) (?:repo|repository|codebase|project|monorepo)$`)
	// artefactStandard: a way of working asked for over an artefact the
	// repository keeps, not a thing in this task: "please use British
	// spelling in the docs", "write the docs in British English", "keep
	// the tests table-driven". The way is a kind (no "the new logo"), the
	// artefact a standing one (the docs, the tests, commit messages).
	// deadline: a state wanted by a time is this task's ("all tests fixed
	// by tomorrow").
	// dueBy: a time a thing is wanted by, which makes the wish this
	// task's, whatever its wording ("i want answers by tomorrow").
	dueBy    = lazyRegexp(`\bby (?:tomorrow|tonight|today|eod|cob|end of (?:the )?(?:day|week)|(?:this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|noon|lunch|the end of (?:the )?(?:day|week))\b|\basap\b`)
	deadline = lazyRegexp(`\bby (?:tomorrow|tonight|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday|eod|the end|end of|next|noon|lunch)\b|\b(?:today|tomorrow|tonight|asap|right now|this week)\b`)
	// wantedState: "all errors wrapped with context", after "I want".
	wantedState  = lazyRegexp(`^(all|every|each|any) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+) ([a-z]+ed (?:with|in|by|as|to|at|on|before|after) .+)$`)
	artefactWay  = lazyRegexp(`^(?:keep|use|prefer|indent|wrap|name|format|follow|stick to|write|spell|add) (?:[a-z0-9_+.-]+ ){0,5}?(?:[a-z0-9_+.-]+) (?:in|for|across|throughout|on) (?:the |our |all |all the |all our |any |every )?` + standingArtefacts + `$`)
	artefactForm = lazyRegexp(`^(?:(?:write|format|name) (?:the |our |all |all the |all our )?` + standingArtefacts + ` (?:in|with|using|as) [a-z0-9 +._-]+|keep (?:the |our |all |all the |all our )?` + standingArtefacts + ` (?:[a-z]+(?:-[a-z]+)*|up to date|in sync(?: with [a-z ]+)?|in [a-z]+)|(?:keep|treat|use) (?:the )?[a-z0-9_./-]+(?: [a-z0-9_./-]+)? as (?:the |our )?(?:single |one |only )?source of truth|name (?:all )?` + standingArtefacts + ` (?:like |as )?[a-z0-9_*{}<>-]*\.[a-z0-9_.*{}<>-]+|(?:put|keep|place|colocate|store) (?:all )?(?:new )?` + standingArtefacts + ` (?:next to|beside|alongside|close to|right next to|in the same (?:folder|directory|dir) as) (?:the |their |its )?(?:source|code|file|files|module|modules|component|components|implementation|package)\b.*)$`)
	// standingEvery: an instruction about every artifact of a kind,
	// "prefix every commit message with the ticket", "sign all commits".
	standingEvery = lazyRegexp(`^(?:prefix|suffix|sign|end|start|tag|label|title|annotate|open|close) (?:every|each|all|all of our|all our) [a-z0-9_.-]+`)
	// toolOnlyRe: "pnpm only", "only yarn".
	toolOnlyRe = lazyRegexp(`^(?:only ([a-z0-9.+# -]+?)|([a-z0-9.+# -]+?) only)(?: please)?$`)
	// habitual: "so much", "all the time": a behaviour, not one act.
	habitual = lazyRegexp(`\b(?:so much|so often|all the time|constantly|every time|each time|in every|at all)\b`)
	// habitClause: "before running …", "before you commit", "after
	// making changes": when the instruction holds, so it recurs.
	habitClause = lazyRegexp(`\s(?:before|after|when|whenever) (?:[a-z]+ing|you [a-z]+)\b`)
	// determiner: "the", "my", "this": the object is a particular thing.
	determiner = lazyRegexp(`\b(?:the|my|this|that|these|those|it|our)\b`)
	// writeStandard: "write commit messages in English", "write docs in
	// markdown".
	writeStandard = lazyRegexp(`^write (?:all )?(?:commit messages|messages|code comments|comments|docs|documentation|code|tests|pr descriptions|changelogs?|docstrings) (?:in|with|using) [a-z0-9 +.-]+$`)
)

var (
	// backReference is "it" or "them" after a noun the same instruction
	// names: "show the diff before applying it" applies the diff, not
	// something in the conversation.
	backReference = lazyRegexp(`^(\S+ (?:\S+ )*?(?:the|a|an|any|every|each|all|your|our|my) [a-z0-9_.-]+\b.*?)\b(?:it|them)\b`)
	// kindReference is "those" or "these" before a plural that an
	// "every" or "all" in the same instruction makes a kind: "add those
	// big comment banners above every function".
	kindReference = lazyRegexp(`\b(?:those|these) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s)\b(.*\b(?:every|each|all|any)\b)`)
)

// innerReference removes the words of an instruction that point inside
// it rather than at the conversation, so only a real pointer ("fix it",
// "delete those files") makes it a one-off.
func innerReference(obj string) string {
	for range 3 {
		next := backReference().ReplaceAllString(obj, "$1")
		next = kindReference().ReplaceAllString(next, "$1$2")
		if next == obj {
			break
		}
		obj = next
	}
	return obj
}

// instruction validates the object of an instruction: it must say what to
// do, and must not point at something only this conversation can see.
func instruction(obj string, negative bool, verb string) (guideline, bool) {
	if !strings.Contains(obj, "source of truth") {
		obj = reasonTail().ReplaceAllString(strings.TrimSpace(obj), "") // "as the docs say" gives a reason; "as the source of truth" says how
	}
	obj = cutReasonClause(obj)
	obj = strings.Trim(stripScope(obj), " ,.")
	if obj == "" || obj == "use" || strings.Contains(obj, placeholder) || len(strings.Fields(obj)) > 24 {
		return guideline{}, false // "…, never from main" left "use" of nothing
	}
	if m := leaveAlone().FindStringSubmatch(obj); m != nil && !negative {
		// "leave third_party/ alone": a ban on touching it
		obj, negative, verb = "touch "+m[1], true, "should not"
	}
	obj = kindReference().ReplaceAllString(obj, "$1$2") // "add those banners above every function" says which kind
	if oneOff().MatchString(innerReference(relativeThat().ReplaceAllString(standingScope().ReplaceAllString(keepItShort().ReplaceAllString(stripScope(exceptTail().ReplaceAllString(obj, "")), ""), ""), "$1 "))) {
		return guideline{}, false
	}
	first, _, _ := strings.Cut(obj, " ")
	if badStart()[first] && first != "not" || first == "i" || first == "we" || prepositions()[first] {
		return guideline{}, false // "never in .env files": no act is named
	}
	if m := insteadRe().FindStringSubmatch(obj); m != nil && !negative {
		return alternative(m, verb), true
	}
	if dueBy().MatchString(obj) {
		return guideline{}, false // "i want answers by tomorrow": this task's deadline
	}
	if !negative {
		obj = plainImperative(obj)
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
		g.detail = " over " + showObject(a)
		if m[1] != "use" {
			return g
		}
	} else {
		g.detail = " instead of " + showObject(a)
	}
	g.replaces = m[1] + " " + a
	return g
}

func (g guideline) fact(predicateSuffix, when, span string) Fact {
	pred := "should"
	if g.negative {
		pred = "should_not"
	}
	f := Fact{Subject: SubjectAssistant, Predicate: pred + predicateSuffix, Object: g.object,
		Replaces: g.replaces, Kind: KindGuideline, detail: g.detail, when: when,
		shownObject: midSentence(span, display(span, g.object))}
	switch {
	case g.plain && AboutAnswers(g.object):
		// "respond in British English please": how to answer is asked
		// for every answer, as a rule is, though no "always" says so
	case g.plain && namedConvention(g.object):
		// "please use conventional commits": a way of working the trade
		// names is a convention to keep, not a step of this task
	case g.plain && (everyCase().MatchString(g.object) || everyCase().MatchString(strings.ToLower(span))) && !deadline().MatchString(strings.ToLower(span)):
		// "use feature flags for anything risky", "use UTC everywhere in
		// the backend": a way of working said for every case is a rule,
		// though no "always" says so
	case g.plain:
		f.Reliability = 0.7
	case g.bare:
		f.Reliability = 0.8
	}
	return f
}

// notMineTail is a rule followed by what the speaker does not use: "use
// fish syntax, i do not use bash".
var notMineTail = lazyRegexp(`^(.+?),? (?:since |because |as )?i (?:do not|never|cannot|am not on|no longer) (?:use|run|have|know|speak|read|write in) ([a-z0-9_.+#-]+)(?: (?:anymore|at all|here|either))?$`)

// replyManner is how the assistant explains, said without "always": an
// act of explaining, on the assistant's own thinking or on things at
// large, and a manner ("explain your reasoning briefly", "describe
// things simply"). "explain the fix briefly" is about this task.
var replyManner = lazyRegexp(`^(?:explain|describe|justify|summari[sz]e|walk me through) (?:your (?:reasoning|thinking|approach)|things|everything|concepts) (?:briefly|concisely|clearly|simply|succinctly|in plain (?:english|words|language)|step by step|in a sentence or two|in one sentence)$`)

// everyCase is a way of working said for every case it fits: a verb of
// the way things are made and "everywhere" or "for anything …". "rename
// x everywhere" is a task: its verb makes no way.
var everyCase = lazyRegexp(`^(?:use|prefer|keep|store|write|log|put|wrap|pin|follow|stick to|go with|default to) .*\b(?:everywhere|throughout|across the (?:board|codebase|repo|stack|app)|for (?:anything|everything|all|every|any|each)\b|in (?:all|every|each) (?:new )?[a-z]+)\b`)

// namedConvention says whether an instruction asks to use a way of
// working by its name ("use conventional commits", "follow semver").
func namedConvention(object string) bool {
	for _, verb := range []string{"use ", "follow ", "stick to ", "do "} {
		if rest, ok := strings.CutPrefix(object, verb); ok {
			return conventionWords()[rest]
		}
	}
	return false
}

// replyForm opens an instruction on the form of the assistant's answers:
// the language they are in, their length, the words they explain in.
// "Answer the question above" is one request, not a rule, and "explain
// why in the commit message" a rule on commits.
var replyForm = lazyRegexp(`^(?:always |prefer to )?(?:(?:(?:respond|reply|answer|talk to me|speak to me|write to me|explain(?: things)?)(?: to me)? in [a-z])|keep (?:your )?(?:answers|replies|responses|explanations) (?:short|brief|concise|simple))`)

// AboutAnswers reports whether a guideline's object ("respond in british
// english", "prefer to explain in plain words first") is a rule on how the
// assistant answers the person: how they want to be spoken to, asked for
// every answer and in every project.
func AboutAnswers(object string) bool { return replyForm().MatchString(strings.ToLower(object)) }

// midSentence lowers a word the object took from the start of the
// sentence, where its capital only opened the sentence: "Functions should
// do one thing" is "ensure functions do one thing".
func midSentence(span, shown string) string {
	ws := strings.Fields(shown)
	first := strings.Fields(span)
	if len(first) == 0 {
		return shown
	}
	for i, w := range ws {
		if w != first[0] || w == strings.ToUpper(w) || w == "I" {
			continue
		}
		if _, tool := lookupTool(strings.ToLower(w)); tool {
			continue
		}
		if rest := w[1:]; rest == strings.ToLower(rest) {
			ws[i] = strings.ToLower(w[:1]) + rest
		}
	}
	return strings.Join(ws, " ")
}

// doPhrase makes the object of a prohibition say what not to do: "never
// npm" is "use npm", "avoid default exports" "use default exports", "stop
// adding emojis" "add emojis", so every way of forbidding one thing gives
// one triple.
func doPhrase(obj string) string {
	first, rest, _ := strings.Cut(obj, " ")
	if strings.HasSuffix(first, "ing") {
		if base, ok := baseVerb(first); ok {
			if rest == "" {
				return base
			}
			return base + " " + rest
		}
		return obj
	}
	if startsWithVerb(obj) {
		return obj
	}
	if verbBeforeObject(first, rest) {
		return obj // "never break the public API": a word before "the" is a verb
	}
	return "use " + obj
}

// verbBeforeObject says whether first, followed by rest, reads as a verb
// with its object: a word that is no tool, no adjective form and no
// plural, followed by a determiner ("break the public API", "leak any
// secrets", "hardcode your keys").
func verbBeforeObject(first, rest string) bool {
	if rest == "" || strings.HasSuffix(first, "s") || strings.HasSuffix(first, "ly") || strings.HasSuffix(first, "ed") || len(first) < 3 {
		return false
	}
	if _, tool := lookupTool(first); tool {
		return false
	}
	switch firstWord(rest) {
	case "the", "a", "an", "any", "your", "our", "my", "their", "its", "this", "that", "these", "those", "other", "someone's", "anything", "everything":
		return true
	}
	return false
}

// baseVerb turns a gerund into the verb: "adding" → "add", "using" →
// "use", "running" → "run".
func baseVerb(gerund string) (string, bool) {
	return verbOfStem(strings.TrimSuffix(gerund, "ing"))
}

// verbOfStem finds the verb a stem left by "-ing" or "-ed" comes from:
// itself ("add"), with an e ("us" → "use"), or undoubled ("runn" → "run").
func verbOfStem(stem string) (string, bool) {
	cands := []string{stem, stem + "e"}
	if n := len(stem); n > 2 && stem[n-1] == stem[n-2] {
		cands = append(cands, stem[:n-1])
	}
	for _, v := range cands {
		if imperativeVerbs()[v] || moreVerbs()[v] {
			return v, true
		}
	}
	return "", false
}

// commands are tools named at the start of an instruction without a verb:
// "go test -race, every time" means run it.
var commandStart = lazyRegexp(`^(?:go (?:test|vet|build|run|generate|mod tidy|fmt)|npm (?:run|test|ci|install)|pnpm|yarn|bun (?:test|run)|npx|cargo|make|pytest|tox|nox|mvn|gradle|bundle exec|rake|mix|dotnet|tsc|eslint|prettier|ruff|black|mypy|golangci-lint|staticcheck|terraform (?:plan|fmt|validate)|docker compose|just)\b`)

// runCommand reads a bare command as the instruction to run it.
func runCommand(t string) string {
	if commandStart().MatchString(t) && !strings.HasPrefix(t, "make sure") && !verbNotCommand(t) {
		return "run " + t
	}
	return t
}

// verbNotCommand: a tool named like an English verb ("make", "mix",
// "just") opens a verb phrase, not a command, when an article, a pronoun
// or a quantifier follows it: "make it a draft", "mix refactors with
// fixes", "just answer".
func verbNotCommand(t string) bool {
	first, rest, _ := strings.Cut(t, " ")
	if first != "make" && first != "mix" && first != "just" {
		return false
	}
	second := firstWord(rest)
	return second == "" || contextual()[second] || badStart()[second] || second == "every" || second == "each" ||
		first != "make" && !strings.ContainsAny(second, ".:-_") && !(first == "mix" && (second == "test" || second == "format" || second == "compile" || second == "credo"))
}

// matchConditionalGuideline reads "when writing tests, use table tests" as
// should_when_writing_tests. A condition about facts ("if we switched to
// bun, ...") is not a rule: the action needs a standing marker unless the
// condition is generic (a gerund, "whenever", "every time").
// splitBareCondition finds where a condition without a comma ends: after
// its verb and up to two words of object, where an imperative begins that
// is no noun before a verb of its own ("commit messages use …" is no
// imperative). It returns the parts as conditionalRe does, or nil.
func splitBareCondition(t string) []string {
	n := bareCondition().FindStringSubmatch(t)
	if n == nil {
		return nil
	}
	ws := strings.Fields(n[3])
	for k := 0; k <= 3 && k < len(ws)-1; k++ {
		action := ws[k:]
		if !imperativeVerbs()[action[0]] || len(action) > 2 && (strongModal()[action[2]] || conventionVerbs[action[2]] || action[2] == "are" || action[2] == "is") {
			continue
		}
		if k > 0 && determiner().MatchString(action[0]) {
			continue
		}
		ctx := strings.Join(append([]string{n[2]}, ws[:k]...), " ") // "you write sql", "writing sql"
		return []string{t, n[1], ctx, strings.Join(action, " ")}
	}
	return nil
}

func matchConditionalGuideline(c *clause) ([]Fact, bool) {
	text, notMine := c.text, ""
	if strings.Contains(text, " i ") {
		if m := notMineTail().FindStringSubmatch(text); m != nil {
			// "when you give me shell commands use fish syntax, i do not
			// use bash": the tail is no action of the rule
			text, notMine = m[1], m[2]
		}
	}
	m := conditionalRe().FindStringSubmatch(text)
	if m == nil {
		// "before you push anything run make lint": the condition ends
		// where an imperative verb begins, comma or not
		m = splitBareCondition(text)
	}
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
		firstCtx == "you" && (habitVerbs()[secondCtx] || !momentCond().MatchString(ctx)) ||
		firstCtx == "a" || firstCtx == "an" || firstCtx == "any" || firstCtx == "every" || firstCtx == "each" // "when a test fails", "after every change"
	if generic {
		action = resolveIt(ctx, action)
	}
	g, ok := parseInstruction(action, generic)
	if !ok || g.object == "" {
		return nil, true
	}
	if notMine != "" && !g.negative && strings.HasPrefix(g.object, "use ") && g.detail == "" && g.object != "use "+notMine {
		g.detail = " instead of " + showObject(notMine)
	}
	key := snake(ctx, 5)
	if key == "" {
		return nil, true
	}
	if cond == "before" || cond == "after" {
		key = cond + "_" + key
	}
	return []Fact{g.fact("_when_"+key, cond+" "+display(c.span, ctx), c.span)}, true
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
	if m := usedAgain().FindStringSubmatch(c.text); m != nil && againRe().MatchString(c.span) && !determiner().MatchString(m[1]) {
		// "you used moment again, we use dayjs": never the one, use the other
		g, ok := instruction(doPhrase(m[1]), true, "should not")
		if !ok {
			return nil
		}
		if alt := stripScope(m[2]); alt != "" && len(strings.Fields(alt)) <= 5 {
			g.detail = "; use " + display(c.span, alt)
		}
		return []Fact{g.fact("", "", c.span)}
	}
	if nowTail().MatchString(c.span) {
		return nil // "make sure the test passes now": this turn's request
	}
	first := firstWord(c.text)
	standing := c.standing || c.directive // "remember: go test -race"
	if !standing && (repoStandard().MatchString(c.text) || artefactStandard(c.text)) {
		standing = true // "keep line length under 100 characters in this repo"
	}
	if !standing && leaveAlone().MatchString(c.text) {
		standing = true // "leave the vendored code alone": a ban on touching it, which lasts
	}
	if !standing && !c.question && replyManner().MatchString(c.text) {
		// "explain your reasoning briefly": how every answer is given
		if g, ok := instruction(c.text, false, "should"); ok {
			return []Fact{g.fact("", "", c.span)}
		}
		return nil
	}
	if !standing && !guideStarters()[first] && !styleVerbs()[first] && !mannerVerbs()[first] && !standingEvery().MatchString(c.text) && !namedConvention(c.text) && !practiceStart(c.text) &&
		!(imperativeVerbs()[first] && habitClause().MatchString(c.text)) {
		return nil
	}
	g, ok := parseInstruction(c.text, standing)
	if !ok {
		if g, ok = styleInstruction(c.text); !ok {
			return nil
		}
	}
	return []Fact{g.fact("", "", c.span)}
}

var (
	// replyPart names a part of the assistant's own replies: a rule about
	// it governs every reply, so an imperative about it is standing
	// without "always" ("drop the apologies", "skip the summaries").
	replyPart = lazyRegexp(`\b(?:answers?|responses?|repl(?:y|ies)|explanations?|apolog(?:y|ies|ising|izing)|preambles?|intros?|summar(?:y|ies|ise|ize|ising|izing)|recap(?:s|ping)?|disclaimers?|caveats?|pleasantries|filler|fluff|emojis?|bullet points|small talk|compliments|praise|flattery)\b`)
	// replyPlace is where in a reply a part of it sits.
	replyPlace = lazyRegexp(`\s+(?:at|in) the (?:end|start|beginning|top|bottom)(?: of (?:each|every|your|the) (?:answer|reply|response|message))?$`)
	// noReplyPart: "no preamble", "no more summaries".
	noReplyPart = lazyRegexp(`^no (?:more )?((?:[a-z-]+ ){0,2}[a-z-]+)$`)
	// removalVerbs take a part of a reply away.
	removalVerbs = map[string]bool{"drop": true, "skip": true, "cut": true, "lose": true, "ditch": true, "omit": true, "remove": true}
	// youCan: a request put as permission, "you can drop the intro".
	youCan = lazyRegexp(`^you (?:can|could|may) (?:just |also )?`)
	// perArtifact: a rule without a verb that sets an amount per artifact,
	// "one logical change per commit", "max 3 arguments per function".
	perArtifact = lazyRegexp(`^(?:only )?(?:one|a single|single|at most [a-z0-9]+|max(?:imum)? [a-z0-9]+|no more than [a-z0-9]+|[0-9]+|exactly [a-z0-9]+) [a-z0-9 -]+? (?:per|for each|for every|in each|in every) ([a-z]+)$`)
)

// matchReplyRule reads the standing rules that carry no standing marker
// because their object or shape makes them standing: an imperative about
// a part of the assistant's replies ("drop the apologies, just answer")
// and an amount per artifact ("one logical change per commit").
func matchReplyRule(c *clause) []Fact {
	t := youCan().ReplaceAllString(c.text, "")
	if m := perArtifact().FindStringSubmatch(t); m != nil && (artifacts()[m[1]] || artifacts()[m[1]+"s"]) {
		g, ok := instruction("keep "+t, false, "should")
		if !ok {
			return nil
		}
		return []Fact{g.fact("", "", c.span)}
	}
	if m := replyFormat().FindStringSubmatch(t); m != nil && !c.question {
		// "Bullet points." said among rules on answers: the form every
		// answer takes
		if g, ok := instruction("use "+m[1]+m[2], false, "should"); ok {
			return []Fact{g.fact("", "", c.span)}
		}
	}
	place := ""
	if replyPart().MatchString(t) {
		// "skip the summaries at the end", "no preamble at the start": a
		// place in every reply, not a moment of this task
		place = replyPlace().FindString(t)
		t = replyPlace().ReplaceAllString(t, "")
	}
	if m := noReplyPart().FindStringSubmatch(t); m != nil && replyPart().MatchString(m[1]) && !c.question && !strings.HasSuffix(lastOf(m[1]), "ed") && lastOf(m[1]) != "necessary" {
		// "no preamble", "no summary at the end": a part of every reply
		// banned without a verb, "Never add a summary at the end"
		part := m[1]
		if singularReplyParts[part] {
			part = "a " + part
		}
		if g, ok := instruction("add "+part, true, "should not"); ok {
			g.detail = place
			return []Fact{g.fact("", "", c.span)}
		}
		return nil
	}
	first := firstWord(t)
	if first == "never" || first == "always" {
		first = firstWord(strings.TrimPrefix(strings.TrimPrefix(t, "never "), "always ")) // "never summarise at the end"
	}
	if !isVerb(first) || !replyPart().MatchString(t) || c.question {
		return nil
	}
	if removalVerbs[first] {
		_, rest, _ := strings.Cut(t, " ")
		if part, ok := strings.CutPrefix(rest, "the "); ok && singularReplyParts[part] {
			rest = "a " + part // "skip the intro at the start": Never add an intro there
			if strings.ContainsRune("aeiou", rune(part[0])) {
				rest = "an " + part
			}
		}
		if g, ok := instruction("add "+rest, true, "should not"); ok {
			g.detail = place
			return []Fact{g.fact("", "", c.span)}
		}
		return nil
	}
	g, ok := parseInstruction(t, true)
	if !ok {
		return nil
	}
	return []Fact{g.fact("", "", c.span)}
}

// replyFormat is a form of answer named alone: "bullet points", "short
// paragraphs please".
var replyFormat = lazyRegexp(`^(?:(bullet points|bulleted lists|numbered lists)(?: please| only| always)?|((?:short )?(?:paragraphs|code blocks|plain text|tables)) (?:please|only|always))$`)

// singularReplyParts are the parts of a reply there is one of: banned,
// each takes "a" ("Never add a preamble").
var singularReplyParts = map[string]bool{"preamble": true, "intro": true, "summary": true, "recap": true,
	"disclaimer": true, "caveat": true, "conclusion": true, "outro": true, "apology": true}

// forMe ends what someone gives up for themselves, not a rule: "no more
// coffee for me", "no more meetings for today".
var forMe = lazyRegexp(`\bfor (?:me|today|tonight|now|this week)$`)

// pastTense maps the irregular past of the verbs that open instructions to
// the verb: a wish is said in the past ("it would help if you kept PRs
// small").
var pastTense = sync.OnceValue(func() map[string]string {
	return map[string]string{"ran": "run", "kept": "keep", "wrote": "write", "made": "make", "gave": "give",
		"left": "leave", "took": "take", "stuck": "stick", "told": "tell", "sent": "send", "built": "build",
		"chose": "choose", "went": "go", "put": "put", "set": "set", "split": "split",
		"read": "read", "began": "begin", "thought": "think", "brought": "bring", "broke": "break"}
})

// presentTense turns the past-tense verb that opens a wish (after an
// optional adverb) into the imperative: "always ran the formatter" is
// "always run the formatter", "asked before deleting files" "ask before
// deleting files". Anything else is returned as it is.
func presentTense(t string) string {
	if rest, ok := strings.CutPrefix(t, "did not "); ok {
		return "not " + rest // "if you didn't use em dashes"
	}
	lead := ""
	for _, adv := range []string{"always ", "never ", "just ", "only ", "consistently ", "also ", "not "} {
		if rest, ok := strings.CutPrefix(t, adv); ok {
			lead, t = adv, rest
			break
		}
	}
	first, rest, _ := strings.Cut(t, " ")
	base, ok := pastTense()[first]
	if !ok {
		stem, cut := strings.CutSuffix(first, "ed")
		if !cut {
			return lead + t
		}
		if y, ied := strings.CutSuffix(first, "ied"); ied {
			stem = y + "y"
		}
		if base, ok = verbOfStem(stem); !ok {
			if _, known := verbOfStem(stem + "e"); !known && !imperativeVerbs()[stem] && !moreVerbs()[stem] {
				return lead + t
			}
			base = stem
		}
	}
	if rest == "" {
		return lead + base
	}
	return lead + base + " " + rest
}

// clauseFacts is one clause of a text as read, and the facts it gave
// (r.facts[from:to]).
type clauseFacts struct {
	text, span string
	from, to   int
	correction bool // the clause said it corrects ("no wait", "sorry")
}

var (
	// neighbourUse: the alternative a prohibition's neighbour names, "use
	// the logger package for output", "we use dayjs", "it is const or
	// let".
	neighbourUse = lazyRegexp(`^(?:(?:but |and |just )?use|we (?:only |always )?use|we are on|it is|it should be|only) ([a-z0-9_.@/ -]+)$`)
	// neighbourWhy: a statement of how things are that a prohibition
	// beside it follows from, "Renovate bumps our dependencies", "secrets
	// come from Vault", "feature flags go through LaunchDarkly".
	neighbourWhy = lazyRegexp(`^(?:the |our |all )?([a-z0-9_.-]+(?: [a-z0-9_.-]+)?) ([a-z]+s|come|go|live|are|is) ([a-z0-9_.@/ -]+)$`)
	themRe       = lazyRegexp(`\b(?:them|they)\b`)
	// neighbourDo: an instruction or a habit beside a prohibition, with
	// the scope it holds for in front ("for anything http, go through …",
	// "we run everything through Tilt").
	neighbourDo  = lazyRegexp(`^(for [a-z0-9 ._/-]+, )?([a-z-]+) ([a-z-]+)`)
	articleStart = lazyRegexp(`^(?:a|an|the|one|some|any|no|not)\b`)
	ruleWord     = lazyRegexp(`\b(?:rule|rules|convention|policy|required|mandatory|fine|ok|okay|important|true|false|bad|good|wrong|right)\b`)
)

// neighbours completes a prohibition from a clause of the same text that
// gave nothing: "use the logger package for output, never fmt.Println" is
// "Never use fmt.Println; use the logger package for output"; "Renovate
// bumps our dependencies, don't bump them by hand" is "Never bump
// dependencies by hand; Renovate bumps our dependencies". The clause
// before is tried first, then the one after.
func (r *reading) neighbours() {
	for i, cl := range r.clauses {
		for j := cl.from; j < cl.to && j < len(r.facts); j++ {
			f := r.facts[j]
			if f.Kind != KindGuideline || !strings.HasPrefix(f.Predicate, "should_not") || f.detail != "" || f.when != "" {
				continue
			}
			for _, k := range []int{i - 1, i + 1} {
				if k < 0 || k >= len(r.clauses) {
					continue
				}
				nb := r.clauses[k]
				if nb.to == nb.from+1 && nb.to <= len(r.facts) {
					// "for HTTP calls we use axios, don't use fetch": the
					// tool the project uses is the alternative
					u := r.facts[nb.from]
					if u.Kind == KindGuideline && u.Predicate == "should" && u.detail == "" && strings.HasPrefix(u.Object, "use ") &&
						len(strings.Fields(u.Object)) <= 5 && !replyPart().MatchString(f.Object) {
						// ("bullet points, no preamble" are two rules on a
						// reply: neither is the other's alternative)
						// "use pnpm dlx, never npx": one rule says both
						f.detail = "; " + lowerFirst(u.shownObjectOr())
						f.Statement = render(f)
						r.facts[j] = f
						break
					}
					if u.Kind == KindFact && !u.Negated && strings.HasPrefix(u.Predicate, "uses") &&
						strings.HasPrefix(f.Object, "use ") {
						f.detail = "; use " + u.shownObjectOr()
						f.Statement = render(f)
						r.facts[j] = f
						break
					}
				}
				if nb.to > nb.from {
					continue
				}
				if d, noun := neighbourDetail(nb, f.Object); d != "" {
					if noun != "" && themRe().MatchString(f.Object) {
						f.Object = themRe().ReplaceAllString(f.Object, noun)
						f.shownObject = themRe().ReplaceAllString(f.shownObjectOr(), noun)
					}
					f.detail = d
					f.Statement = render(f)
					r.facts[j] = f
					break
				}
			}
		}
	}
}

// neighbourDetail is the detail a clause that gave nothing adds to a
// prohibition beside it ("; use the logger package"), and the plural noun
// it names for a "them" in the prohibition.
func neighbourDetail(cl clauseFacts, object string) (detail, noun string) {
	t := strings.TrimSpace(cl.text)
	n := len(strings.Fields(t))
	if n == 0 || n > 12 || strings.Contains(t, placeholder) {
		return "", ""
	}
	shown := strings.Trim(cl.span, " .!;:,")
	if m := neighbourDo().FindStringSubmatch(t); m != nil && (isVerb(m[2]) || m[1] == "" && m[2] == "we" && isVerb(m[3])) && !oneOff().MatchString(stripScope(t)) && (n > 8 || neighbourUse().FindStringSubmatch(t) == nil) {
		// "for anything http, go through the fetch wrapper, never call
		// axios directly", "don't suggest docker-compose. We run
		// everything through Tilt here": what to do instead
		for _, lead := range []string{"oh and ", "and ", "oh ", "but ", "so ", "also ", "please ", "pls "} {
			if len(shown) > len(lead) && strings.EqualFold(shown[:len(lead)], lead) {
				shown = shown[len(lead):]
			}
		}
		return "; " + strings.ToLower(shown[:1]) + shown[1:], ""
	}
	if n > 8 {
		return "", ""
	}
	if m := neighbourUse().FindStringSubmatch(t); m != nil {
		alt := stripScope(m[1])
		if head, tail, ok := strings.Cut(alt, " and "); ok && isVerb(firstWord(tail)) {
			alt = head // "use unknown and narrow it": the alternative, then what to do with it
			shown, _, _ = strings.Cut(shown, " and ")
		}
		if alt == "" || oneOff().MatchString(alt) {
			return "", ""
		}
		if strings.HasPrefix(t, "it ") && (determiner().MatchString(firstWord(alt)) || articleStart().MatchString(alt) ||
			ruleWord().MatchString(alt) || len(strings.Fields(alt)) > 4) {
			return "", "" // "it's a rule here: no merges on Friday"
		}
		if strings.HasPrefix(t, "it ") && (!strings.HasPrefix(object, "use ") || strings.HasSuffix(firstWord(alt), "ed")) {
			return "; " + strings.ToLower(shown[:1]) + shown[1:], "" // "never touch vendor/, it's generated": why
		}
		return "; use " + display(shown, alt), ""
	}
	m := neighbourWhy().FindStringSubmatch(t)
	if m == nil || badStart()[firstWord(t)] || firstWord(t) == "i" || firstWord(t) == "we" || firstWord(t) == "you" ||
		imperativeVerbs()[firstWord(t)] || moreVerbs()[firstWord(t)] {
		return "", ""
	}
	for _, w := range strings.Fields(t) {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			if _, verb := thirdPersonBase(w); !verb && w != "is" {
				noun = w // the last plural noun: "dependencies", "secrets"
			}
		}
	}
	if strings.ToLower(shown) == shown || len(shown) < 2 {
		return "; " + shown, noun
	}
	first, _, _ := strings.Cut(shown, " ")
	if _, tool := lookupTool(strings.ToLower(first)); !tool && strings.ToLower(first[1:]) == first[1:] {
		shown = strings.ToLower(shown[:1]) + shown[1:]
	}
	return "; " + shown, noun
}

// resolveIt reads "it" and "them" in the action of a rule by the thing
// its condition names: "when you open a PR, always make it a draft" is
// about the PR, not about something in this conversation.
func resolveIt(cond, action string) string {
	ws := strings.Fields(cond)
	if len(ws) < 3 || !themItRe().MatchString(action) {
		return action
	}
	// "you open a pr", "opening a pr for me", "the api changes"
	i := 0
	if ws[0] == "you" || ws[0] == "we" || ws[0] == "i" {
		i = 1
	}
	if i >= len(ws) || !isVerb(ws[i]) && !strings.HasSuffix(ws[i], "ing") {
		return action
	}
	np := ws[i+1:]
	if len(np) > 0 && (np[0] == "a" || np[0] == "an" || np[0] == "the" || np[0] == "any" || np[0] == "new") {
		np = np[1:]
	}
	for j, w := range np {
		if w == "for" || w == "to" || w == "in" || w == "on" || w == "with" || w == "from" {
			np = np[:j]
			break
		}
	}
	if len(np) == 0 || len(np) > 3 || badStart()[np[0]] {
		return action
	}
	return themItRe().ReplaceAllString(action, "the "+strings.Join(np, " "))
}

var themItRe = lazyRegexp(`\b(?:it|them)\b`)

var (
	// leaveAlone: "leave vendor/ alone", "leave the lockfile untouched".
	leaveAlone = lazyRegexp(`^leave (.+?) (?:alone|untouched|as it is|as is)$`)
	// exceptTail: the exception a rule allows, "unless there is no other
	// way", which speaks of its own situation, not of this conversation.
	exceptTail = lazyRegexp(`\s*,?\s+(?:unless|except (?:when|if|for)|other than when)\b.*$|\s*,\s*(?:if|when|whenever) (?:it|they|one|something|anything)\b.*$`)
)

// cutReasonClause cuts a clause after a comma that has a subject and a
// finite verb of its own: the reason or the circumstance, not the rule.
// "use rg instead of grep, grep takes minutes here" is about rg; "never
// touch vendor/, the files are patched by hand" about vendor/.
func cutReasonClause(obj string) string {
	i := strings.LastIndex(obj, ", ")
	for i > 0 {
		tail := strings.Fields(obj[i+2:])
		if finiteClause(tail) {
			return strings.TrimSpace(obj[:i])
		}
		i = strings.LastIndex(obj[:i], ", ")
	}
	return obj
}

// finiteClause reports whether words open with a short subject (up to
// three words, no verb among them) followed by a finite verb: "grep takes
// minutes", "the files are patched by hand", "ci breaks otherwise".
func finiteClause(ws []string) bool {
	if len(ws) < 3 {
		return false
	}
	if badStart()[ws[0]] && ws[0] != "it" && ws[0] != "they" && ws[0] != "this" && ws[0] != "that" && ws[0] != "everything" && ws[0] != "nothing" {
		return false
	}
	if isVerb(ws[0]) || ws[0] == "and" || ws[0] == "or" || ws[0] == "but" || ws[0] == "not" || ws[0] == "never" || ws[0] == "always" {
		return false // "…, and commit it", "…, never npm": a second instruction
	}
	for j := 1; j < len(ws) && j <= 3; j++ {
		w := strings.TrimRight(ws[j], ",.;:!")
		switch w {
		case "is", "are", "was", "were", "has", "have", "does", "do", "will", "would", "can", "cannot", "takes", "makes":
			return true
		}
		if _, verb := thirdPersonBase(w); verb && !strings.HasSuffix(ws[j-1], "s") {
			return true
		}
	}
	return false
}

// momentCond: a condition that names a moment of this conversation, not
// a kind of situation: "when you are done", "once you have a minute",
// "when you get to it".
var momentCond = lazyRegexp(`\b(?:done|finished|ready|back|here|there|this|that|it|minute|moment|chance|second|sec|now|today|tomorrow|tonight|later)\b`)
