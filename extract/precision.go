package extract

import (
	"strings"

	"github.com/credence-mem/credence/relations"
)

// Precision (session 12): readings the clause filters (filter.go) let
// through although the sentence states nothing of the person's present
// setup. Each is a shape of English, checked on the fact read and the
// clause it came from, after every matcher has run, so that no matcher
// has to know about it:
//
//   - a past frame: "in my last job we deployed with capistrano", "back
//     when we used jenkins …", "years ago i used emacs": the setup of a
//     job or a time the person has left;
//   - another person's possession: "his editor is neovim", "their backend
//     is written in java", "Sarah's laptop runs arch": not the person's;
//   - a person's setup read as their name: "my teammate is on a mac",
//     "our client is on azure" (an open slot named by a person, whose
//     value is a tool);
//   - a rule in someone else's mouth: "always check with legal before
//     launch, says our CEO", "…, as my prof used to say";
//   - a value asked to be set: "set the port to 5050 in the test config",
//     "change the api port to 4000": a task of this turn, not how things
//     are;
//   - another project: "the upstream repo deploys with netlify", "the
//     sample app runs on port 3000";
//   - where a fault is: "the namespace collision is in utils.py", "the
//     failing test is in auth_test.go" (a state of the code this hour,
//     not where a thing is kept);
//   - a plan said as a slot: "our target is python 3.13 by summer", "the
//     goal is …";
//   - a rule for this piece of work: "for this refactor, never change
//     the public api", "always check err here, it can be nil" (a place
//     in this code, with what may happen there);
//   - "always" or "never" with no rule: a life told ("always been a vim
//     guy", "never been to Lisbon"), a judgement ("never a good sign",
//     "always a pleasure"), a frequency ("not always, only sometimes"), a
//     remark on what the assistant does ("you always add semicolons";
//     complaints that say what to do are mended in mend.go).

// review mends the facts read whose value or slot the sentence does not
// bear out (mend.go), and marks for dropping those the text does not
// state as the person's present setup (see above).
func (r *reading) review() {
	lastSpan, span := "", ""
	for i := range r.facts {
		f := &r.facts[i]
		if f.retracted || f.Span == "" {
			continue
		}
		if f.Span != lastSpan {
			lastSpan, span = f.Span, strings.ToLower(f.Span) // facts of one clause come together
		}
		mend(f, span)
		if !f.retracted && unstatedReason(*f, span, r.text) != "" {
			f.retracted = true
		}
	}
}

// unstatedReason returns why f, read from text, states nothing of the
// person's present setup, or "". span is f.Span lowered.
func unstatedReason(f Fact, span, text string) string {
	switch {
	case pastFrame().MatchString(span) && !stillHolds(f, span):
		return "past frame"
	case f.Kind == KindFact && selfOrProject(f.Subject) && othersPossession(f.Span):
		return "another's possession"
	case f.Kind == KindFact && personSetup(f):
		return "a person's setup"
	case f.Kind == KindGuideline && attributed(f.Span, text):
		return "someone else's rule"
	case f.Kind == KindFact && !f.Correction && askedToSet(span):
		return "asked to set"
	case f.Kind == KindFact && f.Subject == SubjectProject && foreignProject().MatchString(span):
		return "another project"
	case f.Kind == KindFact && planSlot().MatchString(f.Predicate):
		return "a plan"
	case f.Kind == KindFact && f.Predicate == "located_in" && faultSubject().MatchString(f.Subject):
		return "a fault's place"
	case f.Kind == KindGuideline && (narratedHabit().MatchString(span) || judgement().MatchString(span) || frequencyOnly().MatchString(f.Object)):
		return "no rule"
	case f.Kind == KindGuideline && (thisTask().MatchString(span) || thisTask().MatchString(f.detail+" "+f.when) || hereAndNow(f.Span, text)):
		return "this task's"
	case f.Kind == KindGuideline && remarkOnYou(span):
		return "a remark on the assistant"
	case f.Kind == KindFact && relations.ToolSlot(f.Predicate) && judgedValue[strings.ToLower(f.Object)]:
		return "a judgement, not a tool"
	}
	return ""
}

// judgedValue are words that judge a thing, which a tool slot's value
// never is: "new laptop is nice" names no OS.
var judgedValue = map[string]bool{"nice": true, "great": true, "good": true, "bad": true, "fine": true, "ok": true,
	"okay": true, "awesome": true, "terrible": true, "slow": true, "fast": true, "broken": true, "weird": true,
	"annoying": true, "amazing": true, "better": true, "worse": true, "new": true, "old": true, "fine now": true,
	"done": true, "ready": true, "perfect": true, "solid": true, "flaky": true, "down": true, "up": true}

// pastFrame opens a clause on a job or a time the person has left, or
// names one anywhere in it ("we used Jenkins at my previous company").
var pastFrame = lazyRegexp(`\b(?:in|at|on|with) (?:my|our) (?:last|old|previous|former|prior|earlier) (?:job|company|employer|team|gig|role|position|workplace|startup|place|project|client|internship)s?\b|^(?:back (?:when|in|then)|when (?:i|we) (?:was|were|worked|lived|used|had|did)|(?:many |a few |some |a couple of |two |three |\d+ )?years ago|in (?:college|university|uni|school|grad school)|in the old days|formerly|previously|once upon a time)\b`)

// stillHolds says whether a clause with a past frame also states what
// holds now ("back when we used jenkins …, now it's GitHub Actions") or a
// change made then that still stands ("years ago I switched to neovim").
func stillHolds(f Fact, span string) bool {
	if f.Replaces != "" {
		return true
	}
	for _, w := range []string{"now", "these days", "currently", "nowadays", "since then", "ever since", "switched", "moved", "migrated"} {
		if containsWord(span, w) {
			return true
		}
	}
	return false
}

// selfOrProject says whether a fact is about the person or their project.
func selfOrProject(s string) bool { return s == SubjectUser || s == SubjectProject }

// othersPossessive opens a clause on what belongs to someone else: a
// third person's pronoun, or a person's noun or name in the possessive.
var othersPossessive = lazyRegexp(`^(?:(?:and|but|also|oh|btw|fwiw),? )?(?:his|her|their) [a-z]|^(?:(?:and|but|also|oh|btw|fwiw),? )?(?:(?:my|our|the|a) (?:friend|wife|husband|partner|boyfriend|girlfriend|brother|sister|mom|mum|dad|mother|father|colleague|coworker|co-worker|teammate|boss|client|customer|vendor|contractor|intern|neighbou?r|roommate|flatmate|son|daughter|kid|cousin|uncle|aunt)|[A-Z][a-z]+)'s [a-z]`)

// othersPossession says whether span, as written, opens on someone
// else's possession: "his editor is neovim", "Sarah's laptop runs arch".
// A tool's possessive ("Postgres's port") is the project's.
func othersPossession(span string) bool {
	span = strings.TrimSpace(strings.ReplaceAll(span, "’", "'"))
	if !othersPossessive().MatchString(span) {
		return false
	}
	owner, rest, found := strings.Cut(span, "'s ")
	if !found {
		return true // "his editor is neovim"
	}
	if contractedIs[strings.ToLower(firstWord(strings.ToLower(rest)))] {
		return false // "Ines's my manager now": "'s" is "is"
	}
	if strings.Contains(owner, " ") {
		return true // "my friend's laptop runs arch"
	}
	owner = strings.ToLower(owner)
	if contractedIs[owner] {
		return false // "It's actually MariaDB", "What's the shortcut"
	}
	_, tool := lookupTool(owner)
	return !tool // "Postgres's port is 5432" is the project's
}

// contractedIs are the words around an "'s" that make it "is" or "has":
// a pronoun or wh-word before it ("it's", "what's"), or a determiner,
// adverb or preposition after it ("Ines's my manager", "Tom's not here").
var contractedIs = map[string]bool{
	"it": true, "what": true, "that": true, "there": true, "here": true, "he": true, "she": true,
	"who": true, "where": true, "how": true, "let": true, "this": true, "which": true, "when": true,
	"why": true, "everything": true, "nothing": true, "something": true, "everyone": true,
	"one": true, "today": true, "now": true, "mine": true, "yours": true, "name": true,
	"my": true, "our": true, "the": true, "a": true, "an": true, "your": true, "his": true,
	"her": true, "their": true, "not": true, "been": true, "got": true, "gone": true, "in": true,
	"on": true, "at": true, "also": true, "still": true, "back": true, "already": true,
	"always": true, "never": true, "just": true, "actually": true, "really": true, "from": true,
	"with": true, "off": true, "out": true, "away": true, "moving": true, "leaving": true,
	"working": true, "using": true, "living": true, "based": true, "going": true,
}

// personNouns name people in the person's life.
var personNouns = map[string]bool{
	"friend": true, "wife": true, "husband": true, "partner": true, "brother": true, "sister": true,
	"colleague": true, "coworker": true, "co-worker": true, "teammate": true, "client": true,
	"customer": true, "vendor": true, "contractor": true, "intern": true, "neighbour": true,
	"neighbor": true, "roommate": true, "flatmate": true, "son": true, "daughter": true,
	"boss": true, "cousin": true, "mentor": true, "lead": true,
}

// personSetup says whether f is an open slot named by a person ("my
// teammate is …", "our client is …") whose value is a tool: the
// sentence tells what that person uses ("my teammate is on a mac"), not
// who they are.
func personSetup(f Fact) bool {
	noun, ok := strings.CutSuffix(f.Predicate, "_is")
	if !ok || !personNouns[noun] || !selfOrProject(f.Subject) {
		return false
	}
	if _, known := relations.ByPredicate(f.Predicate); known {
		return false
	}
	_, tool := lookupTool(f.Object)
	return tool
}

// attribution is a rule's speaker after it: ", says our CEO", ", as my
// prof used to say", ", my mentor always said", ", Tom says"; or before
// it: "as my lead always says, …".
var (
	attributionAfter  = lazyRegexp(`^\s*(?:[,;:-]\s*)+(?:as\s+)?(?:(?:says|said)\s+((?:my|our|the|his|her)\s+\w+(?:\s\w+)?|[A-Z]\w+)|((?:my|our|his|her|the)\s+\w+(?:\s\w+)?|[A-Z]\w+)\s+(?:always\s+|often\s+|used to\s+|would\s+|likes to\s+)?(?:says?|said|puts it|tells? (?:me|us)|told (?:me|us)))\s*[.!]*\s*(?:$|[.!?\n])`)
	attributionBefore = lazyRegexp(`(?:^|[.!?\n]\s*)as\s+((?:my|our|his|her|the)\s+\w+(?:\s\w+)?|[A-Z]\w+)\s+(?:always\s+|often\s+|used to\s+|would\s+)?(?:says?|said|puts it)\s*[,:-]\s*$`)
)

// houseVoices are speakers whose words are the house's rules: "…, the
// style guide says", "as the linter puts it".
var houseVoices = []string{"guide", "linter", "docs", "documentation", "readme", "handbook", "wiki", "policy",
	"contributing", "spec", "rfc", "adr", "team", "conventions", "rules", "ci", "compiler", "checklist", "standard"}

// attributed says whether the rule read from span is given as another
// person's words by what stands right after or before it in text.
func attributed(span, text string) bool {
	at := strings.Index(text, span)
	if at < 0 {
		return false
	}
	speaker := ""
	if m := attributionAfter().FindStringSubmatch(text[at+len(span):]); m != nil {
		speaker = m[1] + m[2]
	} else if m := attributionBefore().FindStringSubmatch(text[:at]); m != nil {
		speaker = m[1]
	} else if m := attributionTail().FindStringSubmatch(span); m != nil {
		// the clause kept its speaker: "always check X, says our CEO"
		speaker = m[1] + m[2]
	}
	if speaker == "" {
		return false
	}
	speaker = strings.ToLower(speaker)
	for _, v := range houseVoices {
		if containsWord(speaker, v) {
			return false
		}
	}
	return !strings.HasPrefix(speaker, "i ") && speaker != "i"
}

// attributionTail is attributionAfter inside the clause itself.
var attributionTail = lazyRegexp(`[,;-]\s*(?:as\s+)?(?:(?:says|said)\s+((?:my|our|the|his|her)\s+\w+(?:\s\w+)?|[A-Z]\w+)|((?:my|our|his|her|the)\s+\w+(?:\s\w+)?|[A-Z]\w+)\s+(?:always\s+|often\s+|used to\s+|would\s+|likes to\s+)?(?:says?|said|puts it|tells? (?:me|us)|told (?:me|us)))\s*[.!]*\s*$`)

// setRequest opens a request to set a value: "set the port to 5050",
// "change the api port to 4000", "please switch our ci to circleci".
// What follows is wanted, not how things are.
var setRequest = lazyRegexp(`^(?:(?:please|pls|plz|kindly|can you|could you|would you|just|now|then|also|and|ok|okay|so),?\s+)*(?:set|change|update|bump|switch|make|move|point|configure|rename|upgrade|downgrade|pin|reset)\s+(?:the|our|my|this|that|it|its|us|everything|all|[a-z0-9._-]+\s+to)\b`)

// askedToSet says whether span asks for a value to be set.
func askedToSet(span string) bool {
	return setRequest().MatchString(span) && !strings.HasPrefix(span, "make that ") && !strings.HasPrefix(span, "make it ")
}

// containsWord says whether phrase appears in s on word boundaries.
func containsWord(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(s[j-1])
		end := j + len(phrase)
		after := end == len(s) || !isWordByte(s[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Pasted configuration and code, outside fences: "port: 8080\nhost:
// 0.0.0.0\ndatabase: postgres" is a file's settings, and "const PORT =
// 4000" a line of a program, whatever values they hold.
var (
	// configLine is a line of YAML, TOML, INI or an env file: a key
	// and its value, a key opening a nested block, a list item, a
	// section header.
	configLine = lazyRegexp(`^(?:\s*[A-Za-z_][\w.-]*\s*:(?:\s+\S.*)?|\s*[A-Za-z_][\w.-]*\s*=\s*\S.*|[A-Z_][A-Z0-9_]*=\S*|\s*-\s+\S+|\[[\w. -]+\])\s*$`)
	// machineValue is what people do not write in prose: an address, a
	// URL, a path, a boolean, a quoted string, an image or package pin
	// ("node:20", "yarn@3.6.1"), an env assignment, a section header. A
	// person's own nested list ("Stack:\n  db: postgres") has none.
	machineValue = lazyRegexp(`\d+\.\d+\.\d+|://|[:=]\s*(?:true|false|null|~|["'/.$\[{])|:\s+\S*[a-z]:\d|\w@\d|^[A-Z_][A-Z0-9_]*=|^\[`)
	// codeAssignment is a declaration with a value (codeLine): "const PORT = 4000",
	// "let x = 1", "val port: Int = 8080".
	codeAssignment = lazyRegexp(`^(?:export\s+)?(?:const|let|var|val|final|static|my)\s+[A-Za-z_$][\w$]*\s*(?::\s*[\w<>\[\]]+\s*)?=\s*\S`)
)

// pastedConfig returns the lines of text that belong to a pasted
// configuration: a run of at least two lines shaped as settings, one of
// them holding a value no one writes in prose. A person's own list
// ("editor: neovim\nshell: fish") has no such value and stays.
func pastedConfig(lines []string) map[int]bool {
	var out map[int]bool
	for i := 0; i < len(lines); {
		j := i
		machine := false
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" && configLine().MatchString(lines[j]) {
			machine = machine || machineValue().MatchString(lines[j])
			j++
		}
		if j-i >= 2 && machine {
			if out == nil {
				out = map[int]bool{}
			}
			for k := i; k < j; k++ {
				out[k] = true
			}
		}
		if j == i {
			j++
		}
		i = j
	}
	return out
}

// foreignProject opens a clause on a project that is not the person's:
// the upstream, a sample, an example, a tutorial's, a template.
var foreignProject = lazyRegexp(`^(?:(?:and|but|also|so|btw|fwiw),? )?(?:the|this|that|a|an|their) (?:upstream|sample|example|demo|tutorial|template|starter|reference|boilerplate|toy|other|original|forked|vendored|third-party|3rd party)(?: \w+)? (?:repo|repository|project|app|application|service|code|codebase|kit|site|server|api|library|lib|package)\b`)

var (
	// narratedHabit is "always" or "never" before a perfect or a past:
	// "always been a vim guy", "we've never had outages", "never seen
	// this". It tells a life, not a rule.
	narratedHabit = lazyRegexp(`\b(?:always|never) (?:been|had|seen|done|gone|known|wanted|liked|loved|hated|thought|felt|was|were|did|used to|got)\b`)
	// judgement is "always" or "never" before "a" and a noun with no
	// verb: "never a good sign", "always a pleasure".
	judgement = lazyRegexp(`^(?:(?:but|and|so|lol|ugh|well|yeah|honestly),?\s+)?(?:not )?(?:never|always) (?:a|an) [a-z]+(?: [a-z]+)?[.!]*$`)
	// frequencyOnly is an object that is a frequency, no thing to use:
	// "not always, only sometimes".
	frequencyOnly = lazyRegexp(`^(?:use )?(?:only |just )?(?:sometimes|usually|often|rarely|occasionally|always|never|seldom|every now and then)$`)
	// youHabit is a remark on the assistant's habit: "you always add
	// semicolons", "ugh, you never run the tests".
	youHabit = lazyRegexp(`^(?:(?:ugh|hmm|man|dude|seriously|again|and|but|lol|so|also|jeez|sigh),?\s+)*you (always|never) ([a-z]+)`)
)

// remarkOnYou says whether span remarks on what the assistant always
// does, with a verb that does not say it is wrong ("you always add
// semicolons"): praise and complaint read alike, so no rule is taken.
// "you always forget …" and "you never …" are mended into rules
// (mend.go).
func remarkOnYou(span string) bool {
	m := youHabit().FindStringSubmatch(span)
	return m != nil && m[1] == "always" && !faultVerbs[m[2]]
}

// faultVerbs say that what the assistant always does is a fault.
var faultVerbs = map[string]bool{
	"forget": true, "miss": true, "skip": true, "ignore": true, "neglect": true, "omit": true,
	"break": true, "overwrite": true, "leave": true, "drop": true, "lose": true, "mess": true,
}

// planSlot is an open slot that names a plan: what is aimed at is not
// what is.
var planSlot = lazyRegexp(`^(?:target|goal|plan|aim|roadmap|wish|dream|dream_setup|idea|proposal|hope|ambition|objective|intention|next_step)_is$`)

// thisTask scopes a clause to a piece of the work at hand: "for this
// refactor", "during this migration", "in this function". The house
// ("this repo", "this codebase", "this app") is no piece of work.
var thisTask = lazyRegexp(`\b(?:for|in|during|on|with) this (?:refactor|migration|task|change|ticket|feature|fix|bug|function|method|file|class|module|component|test|script|snippet|query|loop|branch|commit|pr|diff|patch|rewrite|sprint|release|demo|call|session|conversation|answer|reply|exercise|example|one-off|case)\b`)

// hereWhy is a clause on what may happen to one thing: "it can be nil",
// "the input can be huge".
var hereWhy = lazyRegexp(`^\s*[,;:-]?\s*(?:because |since |as )?(?:it|this|that|they|the [a-z]+) (?:can|could|may|might|will|is going to)\b`)

// hereAndNow says whether a rule said "here" is followed by what may
// happen to one thing in this code: "always check err here, it can be
// nil".
func hereAndNow(span, text string) bool {
	lower := lowerNormalize(span)
	i := strings.Index(lower, " here")
	if i < 0 || !containsWord(lower, "here") {
		return false
	}
	if hereWhy().MatchString(lower[i+len(" here"):]) {
		return true
	}
	at := strings.Index(text, span)
	return at >= 0 && hereWhy().MatchString(lowerNormalize(text[at+len(span):]))
}

// faultSubject names a fault or a thing in a passing state.
var faultSubject = lazyRegexp(`^(?:(?:failing|broken|flaky|buggy|crashing|offending|missing|slow|leaking)\b.*|.*\b(?:bug|bugs|collision|leak|typo|error|errors|problem|issue|crash|regression|failure|panic|exception|conflict|deadlock|race|culprit))$`)

// codeLine says whether a line is a declaration of a program (the
// regexp runs only after a keyword).
func codeLine(t string) bool {
	w, _, _ := strings.Cut(t, " ")
	switch w {
	case "const", "let", "var", "val", "final", "static", "my", "export":
		return codeAssignment().MatchString(t)
	}
	return false
}
