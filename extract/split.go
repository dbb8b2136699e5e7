package extract

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// rawClause is a piece of prose small enough to hold one statement.
type rawClause struct {
	text     string // as written, trimmed, without its terminator
	question bool   // the clause ends its sentence with '?' or contains one
}

// capInput keeps the first MaxInputBytes of text, cut on a rune boundary, and
// drops invalid UTF-8.
func capInput(text string) string {
	if len(text) > MaxInputBytes {
		cut := MaxInputBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	return strings.ToValidUTF8(text, "")
}

var punctReplacer = strings.NewReplacer(
	"\r\n", "\n", "\r", "\n",
	"\u2018", "'", "\u2019", "'", "\u201c", "\"", "\u201d", "\"",
	"\u00a0", " ", "\u2014", " - ", "\u2013", " - ", "\u2026", "...",
)

// proseLines returns the lines of text that are prose: fenced code blocks,
// indented code, block quotes, stack traces and code-looking lines are
// dropped, list markers and heading marks are stripped.
func proseLines(text string) []string {
	var out []string
	inFence := false
	fence := ""
	var pasted map[int]bool
	if strings.Contains(text, "\n") {
		pasted = pastedConfig(strings.Split(text, "\n"))
	}
	i := -1
	for line := range strings.SplitSeq(text, "\n") {
		i++
		t := strings.TrimSpace(line)
		if pasted[i] || codeLine(t) {
			continue // a pasted config file or a line of code (precision.go)
		}
		if marker, ok := fenceMarker(t); ok {
			switch {
			case !inFence:
				inFence, fence = true, marker
			case strings.HasPrefix(t, fence):
				inFence = false
			}
			continue
		}
		if inFence || t == "" {
			continue
		}
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ") {
			continue // indented code
		}
		if strings.HasPrefix(t, ">") || looksLikeTrace(t) || looksLikeCode(t) {
			continue
		}
		if strings.Contains(t, ": ") {
			if loc := inlineError().FindStringIndex(t); loc != nil {
				// "here's the error: ModuleNotFoundError: No module named
				// requests": what follows an error's name is the program's
				// words, not the person's
				t = strings.TrimSpace(t[:loc[0]])
			}
		}
		t = listMarker().ReplaceAllString(t, "")
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

func fenceMarker(t string) (string, bool) {
	for _, m := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, m) {
			return m, true
		}
	}
	return "", false
}

var listMarker = lazyRegexp(`^(?:[-*+•]\s+|\d{1,3}[.)]\s+|#{1,6}\s+|\[[ xX]\]\s+)+`)

var traceLine = lazyRegexp(`(?i)^(?:at\s+\S+.*[(:]\S*:\d+|traceback \(most recent call last\)|file "[^"]+", line \d+|goroutine \d+ \[|panic:|fatal error:|exception in thread|caused by:|\S+\.(?:go|js|ts|tsx|py|rb|rs|java|kt|c|cc|cpp|h):\d+|(?:[a-z]+)?error:\s|\$ |npm (?:err|warn)!|warning:\s|e\d{4}\b|\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2})`)

// inlineError is an error's name and message quoted inside a sentence.
var inlineError = lazyRegexp(`\b[A-Z][A-Za-z]*(?:Error|Exception|Warning|Panic)\b:\s|\b(?:error|panic|fatal|traceback|exception)(?:\[[A-Za-z0-9]+\])?:\s+[A-Za-z_]+(?:Error|Exception)\b`)

func looksLikeTrace(t string) bool { return traceLine().MatchString(t) }

// looksLikeCode flags lines dense in code punctuation: `const x = {a: 1};`.
func looksLikeCode(t string) bool {
	sym, letters := 0, 0
	for _, r := range inlineCode().ReplaceAllString(t, "x") {
		switch {
		case strings.ContainsRune("{}()[];=<>|&$\\", r):
			sym++
		case unicode.IsLetter(r):
			letters++
		}
	}
	if strings.HasSuffix(t, "{") || strings.HasSuffix(t, "};") || strings.HasPrefix(t, "}") {
		return true
	}
	return sym >= 3 && sym*4 > letters
}

var (
	inlineCode = lazyRegexp("`([^`]*)`")
	quoted     = lazyRegexp(`"([^"\n]*)"`)
)

// placeholder stands for quoted speech and multi-word inline code; a clause
// that still contains it never yields a fact built from the quote.
const placeholder = "<quoted>"

// unquote keeps single-word quotes and inline code as plain words ("we use
// `pnpm`") and replaces longer ones, which are someone else's words or code.
func unquote(line string) string {
	keepWord := func(re *regexp.Regexp) func(string) string {
		return func(m string) string {
			inner := re.FindStringSubmatch(m)[1]
			if strings.ContainsAny(strings.TrimSpace(inner), " \t") || inner == "" {
				return placeholder
			}
			return inner
		}
	}
	line = inlineCode().ReplaceAllStringFunc(line, func(m string) string {
		// "regenerate the spec with `make openapi`": a command in code
		// quotes is what the instruction says to run, not someone's words
		inner := strings.TrimSpace(inlineCode().FindStringSubmatch(m)[1])
		if strings.Contains(inner, " ") && len(strings.Fields(inner)) <= 4 && commandStart().MatchString(strings.ToLower(inner)) &&
			!strings.ContainsAny(inner, "|;&<>$\"'") {
			return inner
		}
		return keepWord(inlineCode())(m)
	})
	return quoted().ReplaceAllStringFunc(line, keepWord(quoted()))
}

var abbreviations = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true, "ms": true,
		"dr": true, "inc": true, "ltd": true, "jr": true, "sr": true, "approx": true, "cf": true,
		"eg": true, "ie": true, "st": true, "prof": true,
	}
})

// sentences splits a line on . ! ? ; followed by a space or the end, keeping
// "fly.io", "v1.2" and "e.g." intact.
func sentences(line string) []rawClause {
	var out []rawClause
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '.' && c != '!' && c != '?' && c != ';' {
			continue
		}
		end := i + 1
		for end < len(line) && strings.IndexByte(".!?", line[end]) >= 0 {
			end++
		}
		if end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != ')' && line[end] != '"' {
			continue
		}
		if c == '.' && end == i+1 && abbreviations()[strings.ToLower(lastWord(line[start:i]))] {
			continue
		}
		out = append(out, rawClause{text: line[start:i], question: strings.ContainsRune(line[i:end], '?')})
		start = end
		i = end - 1
	}
	if start < len(line) {
		out = append(out, rawClause{text: line[start:]})
	}
	return out
}

// emojiStops ends a sentence at an emoji, which in chat stands where a
// full stop would: "first week at Pomelo Health 🎉 everything is Java
// here".
func emojiStops(line string) string {
	if !strings.ContainsFunc(line, isEmoji) {
		return line
	}
	var b strings.Builder
	for _, r := range line {
		if isEmoji(r) {
			b.WriteString(". ")
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(b.String(), " . ", ". ")), " ")
}

func isEmoji(r rune) bool {
	return r >= 0x1F300 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF && unicode.Is(unicode.So, r)
}

func lastWord(s string) string {
	s = strings.TrimRight(s, " ")
	if i := strings.LastIndexAny(s, " (\t"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// conjunction marks where a sentence holds a second statement: "I like tabs
// but I hate semicolons", "we use pnpm, and always run lint". Group 1 is the
// joining word, group 2 the start of the next clause.
var conjunction = lazyRegexp(`(?i)(?:,\s*|\s+)(but|and|so|although|though|while|whereas|plus|also|then|since|because)\s+((?:also\s+|now\s+|then\s+|btw\s+|fyi\s+|by\s+the\s+way\s+)?(?:i|i'm|im|i've|i'd|we|we're|we've|my|our|please|always|never|don't|do not|this repo|the repo|this project|the project|the api|the app|he|she|he's|she's|they|they're)\b|(?:it's|it is|its)\s|(?:now\s+)?(?:living|based|working)\s+(?:in|at|for)\s|[\w.+#-]+(?:\s[\w.+#-]+)?\s+(?:is|are)\s+(?:now\s+)?(?:my|our)\s|the\s+[a-z]+(?:\s[a-z]+)?\s+(?:is|are)\s)`)

var dashSeparator = lazyRegexp(`\s+(?:-|--)\s+`)

// notThenValue is a correction written old value first: "Not Lyon -
// Lille." reads as "Lille, not Lyon".
var notThenValue = lazyRegexp(`(?i)^not\s+(.+?)\s*(?:\s-|--|:|;|,)\s*(.+)$`)

// colonClause marks a colon that introduces a statement: "My role changed:
// I'm an engineering manager now."
var colonClause = lazyRegexp(`(?i)(:\s+)((?:i|i'm|i am|we|we're|we are|my|our|this is|it's|it is|the|always|never|don't|do not|please|no)\b)`)

// namedClause marks a clause that opens with a name: "Kim moved teams, so
// Ravi is my manager now".
var namedClause = lazyRegexp(`(,\s*(?:so|and|now|and now)?\s*|\s+(?:so|and now)\s+)([A-Z][a-z]+ is (?:now )?(?:my|our)\b)`)

// sharedSubject marks a second verb of the same subject: "we lint with
// ruff and format with black".
var sharedSubject = lazyRegexp(`(?i)(\s+(?:and|but)\s+)((?:now\s+)?(?:(?:use|are using|deploy|run on)\s|(?:lint|format|test|deploy|host|bundle|build|manage packages|deployed|hosted|built|tested|linted|formatted|bundled)\s+(?:with|on|to|using|in)\b|(?:work|live|am based|work remotely)\s+(?:at|for|in|from)\b))`)

// passiveSubject is the subject of a passive first clause: "the service
// is written in Go and deployed to Cloud Run".
var passiveSubject = lazyRegexp(`(?i)^(.+?) (?:is|are) `)

// commaClause marks a comma that starts a new statement without a joining
// word: "I prefer tabs, we deploy on Render", "don't use X, use Y instead".
var commaClause = lazyRegexp(`(?i)(,\s*)((?:i|i'm|we|we're|we've|my|our|always|never|don't|do not|please|use|avoid|prefer|make sure|just (?:give|show|send|write|tell|do|fix|paste|answer)|it's|it is|no|everything(?:'s| is| runs| lives| goes)|this (?:one|repo|service|project|app|codebase) is|(?:she|he)(?:'s| is| lives| works| moved| left)?)\b)`)

// wholeSentence marks sentences whose opening governs everything after it:
// a condition ("if we switch to bun, ...") or a source ("according to the
// README, ..."). They are never split into clauses.
var wholeSentence = lazyRegexp(`(?i)^(?:if|when|whenever|unless|suppose|supposing|assuming|imagine|what if|even if|in case|once|every time|each time|before|after|according to|apparently|supposedly|reportedly|allegedly|rumou?r has it|in theory|hypothetically|ideally|maybe|perhaps)\b`)

// leadingAsk is a question asked without its mark before a comma, and
// what follows it: "why does hot reload not work, dev server is on 8443".
var leadingAsk = lazyRegexp(`(?i)^((?:why|how|what|where|which|who)\s+(?:do|does|did|is|are|was|can|could|should|would|will|am)\s[^,?]+),\s*(.+)$`)

// exampleGloss is a parenthesis that gives examples of what was just
// said: "(feat:, fix:, chore: etc)", "(e.g. 1.2.3)". It adds no
// statement, and its colons and commas would cut the sentence.
var exampleGloss = lazyRegexp(`(?i)\s*\((?:(?:e\.?g\.?|i\.?e\.?|for example|for instance|like|such as)[,:]?\s[^()]*|[^()]*\betc\.?)\)`)

// labelList is a list of labelled values: "lang: rust, editor: helix".
var labelList = lazyRegexp(`^[A-Za-z][\w -]{0,20}:\s*[^,:]+(?:,\s*[A-Za-z][\w -]{0,20}:\s*[^,:]+)+$`)

// trailingAsk is a question or request that ends a sentence after a
// comma: "…, can you help me finish the parser?", "…, any idea why?".
var trailingAsk = lazyRegexp(`(?i)^(.+?),\s*((?:so\s+|and\s+|but\s+)?(?:(?:can|could|would|will)\s+you|any\s+(?:idea|ideas|thoughts|chance|tips)|what|how|why|where|which|do\s+you|is\s+there|should\s+(?:i|we))\b[^,]*)$`)

// trailingRequest is a request that ends a sentence after a comma, asked
// without a question mark.
var trailingRequest = lazyRegexp(`(?i)^(.+?),\s*((?:so\s+|and\s+|but\s+)?(?:can|could|would|will)\s+you\s+[^,]*)$`)

// universalTail says a rule holds without exception.
var universalTail = lazyRegexp(`(?i),?\s+(?:no exceptions|with no exceptions|without exceptions?|no matter what|no excuses)[.!]?$`)

// trailingAlways is "always" set off by a comma at the end of a
// sentence.
var trailingAlways = lazyRegexp(`(?i)^(.+?),\s*(always|every time)[.!]?$`)

// anyColon is a colon between two statements.
var anyColon = lazyRegexp(`(:\s+)`)

// notOnly is a sentence that only names what is not so: "Not Kimberly."
var notOnly = lazyRegexp(`(?i)^not\s+\S+(?:\s+\S+)?(?:\s+anymore)?$`)

// leadIn is a discourse opener that looks like a condition but sets none:
// "Before you start: …", "First things first, …".
var leadIn = lazyRegexp(`(?i)^(?:before (?:you|we) (?:start|begin|get started|dive in|go on|continue)|first things first|first of all|quick context|for context|some context)\s*[:,-]\s*`)

// nounClause marks a comma before a clause whose subject is a name or a
// tool and whose verb follows it: "we dropped prettier, dprint formats
// everything now", "Hamid is no longer my manager, Clara is".
var nounClause = lazyRegexp(`(,\s*|;\s*)([A-Za-z][\w.+-]*\s+(?:is|are|was|formats|lints|runs|handles|builds|bundles|tests|deploys|hosts|moved|left|took|does|replaced|lives|sits|goes|comes)\b|(?i:the|their|his|her|my|our)\s+(?:[a-z]+\s+){0,2}[a-z]+\s+(?:is|are|was|were|uses|use|deploys|deploy|runs|run|has|have|lives|live|works|work|prefers|wants)\s)`)

// elidedClause marks a comma before a change whose subject is the one of
// the clause before: "I'm living in Seoul now, moved there last year", "i
// changed jobs, now working at Canonical".
var elidedClause = lazyRegexp(`(,\s*)((?:now|just)\s+(?:working|living|using|based|deploying)|using\s+[\w.+#-]+(?:\s[\w.+#-]+)?\s+(?:now|these days|nowadays|instead)$|(?:writing|typing|messaging) from\s|(?:living|based|residing)\s+in\s|(?:moved|relocated|switched|migrated)\s|(?:deploys|deployments|releases)\s)`)

// toolNowClause is a bare tool said to be in use now, after a comma.
var toolNowClause = lazyRegexp(`(?i)(,\s*)((?:but\s+|and\s+)?(?:it's\s+|it\s+is\s+)?([\w.+#-]+(?:\s[\w.+#-]+)?)\s+(?:now|these days|nowadays)$)`)

// openerSubject finds the subject of a sentence after a few opening words.
var openerSubject = lazyRegexp(`(?i)^(?:(?:ok|okay|so|well|and|but|yeah|then|now|honestly|basically)[, ]+){1,3}(we|i)\s`)

// clauses splits one sentence into clauses. A conditional sentence stays
// whole so that its condition is never read as a statement of its own.
func clauses(s rawClause) []rawClause {
	text := strings.TrimSpace(s.text)
	if text == "" {
		return nil
	}
	if m := leadIn().FindStringIndex(text); m != nil {
		text = text[m[1]:] // "Before you start: we use pnpm": the lead-in conditions nothing
	}
	if kept, ok := keptTool(text); ok {
		// "gave zed a try and never looked back": one change, not a trial
		// and a prohibition
		return []rawClause{{text: kept, question: s.question}}
	}
	// "commits are signed, no exceptions": the tail belongs to the rule it
	// ends, not a clause of its own
	text = universalTail().ReplaceAllString(text, " no exceptions")
	if m := trailingAlways().FindStringSubmatch(text); m != nil && len(strings.Fields(m[1])) <= 4 {
		text = m[1] + " " + m[2] // "tests first, always": the adverb of a short rule is no clause
	}
	// "we dropped poetry, uv all the way": the value all the way is what
	// is used now
	text = allTheWay().ReplaceAllString(text, ", it's all $1")
	if m := nowThatPlace().FindStringSubmatch(text); m != nil {
		// "now that I've relocated to Vancouver the 9am standup is at 6am":
		// the presupposed move ends at its place, where the main clause's
		// subject begins
		return append([]rawClause{{text: m[1]}}, clauses(rawClause{text: m[2], question: s.question})...)
	}
	for _, re := range []*regexp.Regexp{changedSince(), changedSinceShort()} {
		// a question asks what follows the change, unless only a later part
		// asks ("… — can you update the Dockerfile?")
		if m := re.FindStringSubmatch(text); m != nil && (!s.question || dashSeparator().MatchString(m[2])) {
			if _, ok := lookupTool(strings.ToLower(m[1])); ok {
				// "since the move to uv the lockfile is uv.lock": the change
				// is a statement of its own
				return append([]rawClause{{text: "we switched to " + m[1]}}, clauses(rawClause{text: m[2], question: s.question})...)
			}
		}
	}
	if m := movedSince().FindStringSubmatch(text); m != nil && !s.question && !knownTool(m[1]) {
		// "since moving to Berlin I'm on CET": the move is a statement of
		// its own, and what holds since it another
		return append([]rawClause{{text: "I moved to " + m[1]}}, clauses(rawClause{text: m[2], question: s.question})...)
	}
	// "New manager as of this week: Ferdinand Osei": when the change
	// holds from stands inside the label; the label and its value are the
	// statement
	if labelWhen().MatchString(text) {
		text = labelWhen().ReplaceAllString(text, "$1:")
	}
	if out, ok := gappedSlots(text); ok && !s.question {
		return out
	}
	if fictionFrame().MatchString(text) {
		// "In the story I'm writing, the hero lives in Prague": what holds
		// inside a story, a game or an example is nobody's fact
		return []rawClause{{text: text, question: true}}
	}
	if rel, name, rest, ok := appositivePerson(text); ok && !s.question {
		// "My boss Gustavo lives in Recife", "Gustavo, my boss, lives in
		// Recife": the appositive says who the person is to the speaker,
		// the predicate what is true of them; two
		// statements; a relation that is no slot of the speaker's (a
		// teammate, a friend) only names the person the predicate is of
		out := clauses(rawClause{text: name + " " + rest})
		if managerRelation(rel) {
			out = append([]rawClause{{text: name + " is my " + rel}}, out...)
		}
		return out
	}
	if m := leadingAsk().FindStringSubmatch(text); m != nil && len(strings.Fields(m[2])) >= 3 {
		// "why does hot reload not work, dev server is on 8443": a question
		// asked without its mark, then a statement of its own
		return append([]rawClause{{text: m[1], question: true}}, clauses(rawClause{text: m[2], question: s.question})...)
	}
	if wholeSentence().MatchString(text) {
		return []rawClause{{text: text, question: s.question}}
	}
	if labelList().MatchString(text) {
		// "lang: rust, editor: helix": each label with its value
		var out []rawClause
		for _, p := range strings.Split(text, ",") {
			out = append(out, rawClause{text: strings.TrimSpace(p), question: s.question})
		}
		return out
	}
	if !s.question {
		if m := trailingRequest().FindStringSubmatch(text); m != nil && len(strings.Fields(m[1])) >= 3 {
			// "we ditched docker compose for tilt, can you update the dev
			// docs": a request asked without its question mark
			return append(clauses(rawClause{text: m[1]}), rawClause{text: m[2], question: true})
		}
	}
	if s.question {
		if m := trailingAsk().FindStringSubmatch(text); m != nil && len(strings.Fields(m[1])) >= 3 {
			// "My boss, Kenji Watanabe, wants this done by Friday, can you
			// help me finish the parser?": what is said before the request
			// is a statement; only the request asks
			return append(clauses(rawClause{text: m[1]}), rawClause{text: m[2], question: true})
		}
	}
	if m := notThenValue().FindStringSubmatch(text); m != nil && len(strings.Fields(m[2])) <= 3 {
		text = m[2] + ", not " + m[1]
	} else if m := valueIMean().FindStringSubmatch(text); m != nil && analyze(rawClause{text: m[1] + " x"}).text == strings.ToLower(m[1])+" x" && !bareMarker()[strings.ToLower(m[1])] && !notValues()[strings.ToLower(m[1])] {
		// the words before "I mean" are a value, not "oh sorry"
		text = "sorry, " + m[2] + ", not " + m[1] // "Amsterdam, I mean Rotterdam"
	}
	subject := ""
	if w := strings.ToLower(firstWord(text)); w == "we" || w == "i" {
		subject = w + " "
	} else if w == "i'm" || w == "im" {
		subject = "i " // "I'm from Brazil and live in Dublin": I live there
	} else if m := openerSubject().FindStringSubmatch(text); m != nil {
		subject = strings.ToLower(m[1]) + " " // "ok so we ditched Heroku and now deploy with Kamal"
	}
	var parts []string
	for _, piece := range dashSeparator().Split(text, -1) {
		var cuts [][2]int
		for _, re := range []*regexp.Regexp{colonClause(), namedClause(), sharedSubject()} {
			if strings.ContainsAny(piece, ":,") || re == sharedSubject() || re == namedClause() {
				for _, m := range re.FindAllStringSubmatchIndex(piece, -1) {
					// "Keep in mind: no new dependencies": the opener stays
					// with what it opens
					if re == colonClause() && !strings.Contains(piece[:m[0]], " ") {
						continue
					}
					if re == colonClause() && !opensClause(piece[:m[0]]) {
						continue
					}
					cuts = append(cuts, [2]int{m[0], m[4]})
				}
			}
		}
		lower := strings.ToLower(piece)
		if containsAny(lower, " but ", " and ", " so ", "though ", " while ", " whereas ", " plus ", " also ", " then ") {
			for _, m := range conjunction().FindAllStringSubmatchIndex(piece, -1) {
				cuts = append(cuts, [2]int{m[0], m[4]})
			}
		}
		if strings.Contains(piece, ": ") {
			// "we just switched test runners: vitest instead of jest"
			for _, m := range anyColon().FindAllStringSubmatchIndex(piece, -1) {
				if opensClause(piece[:m[0]]) && len(strings.Fields(piece[:m[0]])) >= 3 {
					cuts = append(cuts, [2]int{m[0], m[3]})
				}
			}
		}
		if !strings.Contains(piece, ",") {
			parts = appendCuts(parts, piece, cuts)
			continue
		}
		for _, m := range commaClause().FindAllStringSubmatchIndex(piece, -1) {
			// "run go test with -race, always, before …": an adverb set off
			// by commas belongs to the clause it interrupts
			// "I'm in Porto, no, sorry, Coimbra": a "no" set off by commas
			// is the speaker's repair, which starts a clause
			if m[5] < len(piece) && piece[m[5]] == ',' && !strings.EqualFold(piece[m[4]:m[5]], "no") {
				continue
			}
			// "Actually, my name is Alice": a short opener stays with its
			// clause; "got promoted, I'm …" is a clause of its own
			if opensClause(piece[:m[0]]) {
				cuts = append(cuts, [2]int{m[0], m[4]})
			}
		}
		for _, m := range commaImperative().FindAllStringSubmatchIndex(piece, -1) {
			// "Not a fan of nested ternaries, split them into ifs": a verb
			// with its object after a comma is an instruction of its own
			if imperativeVerbs()[strings.ToLower(piece[m[4]:m[5]])] && opensClause(piece[:m[0]]) && !asideBefore().MatchString(piece[:m[0]]) &&
				!frontedScope().MatchString(piece[:m[0]]) {
				cuts = append(cuts, [2]int{m[0], m[4]})
			}
		}
		if m := toolNowClause().FindStringSubmatchIndex(piece); m != nil && knownTool(strings.ToLower(piece[m[6]:m[7]])) && opensClause(piece[:m[0]]) {
			// "circleci is gone, github actions now": the tool in use now
			cuts = append(cuts, [2]int{m[0], m[4]})
		}
		for _, re := range []*regexp.Regexp{nounClause(), elidedClause()} {
			for _, m := range re.FindAllStringSubmatchIndex(piece, -1) {
				if opensClause(piece[:m[0]]) {
					cuts = append(cuts, [2]int{m[0], m[4]})
				}
			}
		}
		parts = appendCuts(parts, piece, cuts)
	}
	var out []rawClause
	for i, p := range parts {
		p = strings.Trim(strings.TrimSpace(p), ",:- ")
		if p == "" {
			continue
		}
		if i > 0 && sharedVerb().MatchString(p) {
			switch m := passiveSubject().FindStringSubmatch(parts[0]); {
			case participle().MatchString(p) && m != nil:
				p = m[1] + " is " + p // "… and deployed to Cloud Run": the service is deployed there
			case subject != "":
				p = subject + p // "… and format with black": we format with black
			}
		}
		q := strings.ContainsRune(p, '?') || (s.question && i == len(parts)-1)
		out = append(out, rawClause{text: strings.TrimRight(p, "?"), question: q})
	}
	return out
}

// labelWhen is a time inside a "new X:" label.
var labelWhen = lazyRegexp(`(?i)^(new [a-z]+(?: [a-z]+)?)\s+(?:as of|since|starting|from|effective) (?:today|yesterday|now|this [a-z]+|last [a-z]+|next [a-z]+|monday|tuesday|wednesday|thursday|friday|[a-z]+ \d{1,2})\s*:`)

// gapped is a list of slots and values that says the copula once: "our
// backend is Go, frontend React, infra Terraform". Each later slot is one
// word, its value one or two.
var gapped = lazyRegexp(`(?i)^(our|the|my) ([a-z]+) is ([\w.+#-]+(?: [\w.+#-]+)?)((?:,\s*(?:and\s+)?[a-z]+ [\w.+#-]+(?: [\w.+#-]+)?)+)$`)

// gappedSlots reads "our backend is Go, frontend React, infra
// Terraform": the copula said once serves each slot after it. Every later
// slot must be a slot noun the extractor knows ("shell") or its value a
// known tool ("frontend React"), so "my name is John, not Jon" and "the
// deadline is Friday, noon sharp" are no lists.
func gappedSlots(text string) ([]rawClause, bool) {
	m := gapped().FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	det := strings.ToLower(m[1])
	out := []rawClause{{text: det + " " + m[2] + " is " + m[3]}}
	for _, part := range strings.Split(strings.TrimLeft(m[4], ", "), ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "and ")
		slot, value, ok := strings.Cut(part, " ")
		_, _, known := slotOf(strings.ToLower(slot))
		_, tool := lookupTool(strings.ToLower(strings.TrimSpace(value)))
		if !ok || !known && !tool || notValues()[strings.ToLower(slot)] || slot == "not" {
			return nil, false
		}
		out = append(out, rawClause{text: det + " " + slot + " is " + strings.TrimSpace(value)})
	}
	return out, true
}

// fictionFrame opens a sentence set inside a made-up or sample world: a
// story, a game, an example, test data.
var fictionFrame = lazyRegexp(`(?i)^(?:in|for|inside) (?:the|my|a|an|this|our|that) (?:[a-z-]+ )?(?:story|stories|novel|book|game|script|screenplay|film|movie|show|play|poem|fanfic|dream|example|scenario|hypothetical|fixture|fixtures|sample|samples|demo|mock|mocks|seed data|test data|fake data|fiction|campaign|simulation|roleplay|role-play|exercise|kata|tutorial|puzzle)\b`)

var (
	// relName: "my boss Gustavo lives …", a relation then a name.
	relName = lazyRegexp(`^(?i:my|our) ([a-z]+(?: [a-z]+)?) ([A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?),? ([a-z]+ .+)$`)
	// nameRel: "Gustavo, my boss, lives …", "Gustavo (my boss) lives …".
	nameRel = lazyRegexp(`^([A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)\s*(?:,|\()\s*(?i:my|our) ([a-z]+(?: [a-z]+)?)\s*(?:,|\))\s*([a-z]+ .+)$`)
)

// appositivePerson reads a person named beside their relation to the
// speaker as the subject of a predicate: "My boss Gustavo lives in
// Recife" is "Gustavo is my boss" and "Gustavo lives in Recife". The
// relation must be a kind of person (relationNoun) and the predicate start
// with a verb, so "my colleague Tom's laptop" or "our CI Jenkins" are not
// read.
func appositivePerson(text string) (rel, name, rest string, ok bool) {
	m := relName().FindStringSubmatch(text)
	if m == nil {
		m = nameRel().FindStringSubmatch(text)
		if m == nil {
			return "", "", "", false
		}
		m[1], m[2] = m[2], m[1]
	}
	rel, name, rest = m[1], m[2], m[3]
	if !personRelation(rel) || knownTool(strings.ToLower(name)) || !personVerb().MatchString(rest) {
		return "", "", "", false
	}
	return rel, name, rest, true
}

// personVerb opens what is said of a person: where they live or work,
// what they moved to or became.
var personVerb = lazyRegexp(`^(?:lives|works|is based|is from|moved|relocated|just moved|recently moved|joined|left|started|is (?:in|at|on|now|a|an|the)|has been|was)\b`)

// managerRelation says whether rel is the speaker's manager, a slot of
// theirs (manager_is).
func managerRelation(rel string) bool {
	switch strings.TrimPrefix(rel, "new ") {
	case "boss", "manager", "lead", "team lead", "tech lead", "line manager", "engineering manager":
		return true
	}
	return false
}

// personRelation says whether rel names a person in the speaker's life
// or work.
func personRelation(rel string) bool {
	switch strings.TrimPrefix(rel, "new ") {
	case "boss", "manager", "lead", "team lead", "tech lead", "line manager", "skip", "skip level", "mentor", "wife", "husband",
		"partner", "girlfriend", "boyfriend", "colleague", "coworker", "co-worker", "cofounder", "co-founder", "friend",
		"sister", "brother", "mother", "father", "mom", "dad", "son", "daughter", "cto", "ceo", "pm", "product manager",
		"designer", "teammate", "report", "direct report", "engineering manager", "director", "roommate", "flatmate":
		return true
	}
	return false
}

// opensClause says whether the words before a comma say something of
// their own, so what follows the comma is a clause of its own: three words
// or more, or two that are not a discourse opener ("got promoted", not
// "no wait").
func opensClause(before string) bool {
	if len(strings.Fields(before)) < 2 || reportingEnd().MatchString(before) && !selfReport().MatchString(before) || frontedAlternative().MatchString(before) {
		// "she said: always write tests first": what follows a verb of
		// saying is someone's words, and stays with it
		return false
	}
	// an opener analyze strips ("no no, …", "sorry, …") leaves only what
	// follows it
	c := analyze(rawClause{text: before + ", x"})
	said := strings.TrimSuffix(c.text, ", x")
	// "correction: Helga is my mentor, my manager is …": a correction
	// marker before words that say something still leaves a clause
	// ("no wait, that's the old repo, …" judges what was said and leads
	// into its correction)
	fw := firstWord(said)
	return c.text != "x" && (!c.correction || said != c.text && len(strings.Fields(said)) >= 3 && fw != "that" && fw != "it" && fw != "this") &&
		!bareMarker()[said]
}

// commaImperative is a comma before a verb and the start of its object:
// "…, split them into ifs", "…, keep the diff small".
var commaImperative = lazyRegexp(`(?i)(,\s*)([a-z]+)\s+(?:(?:up|down|out|off|over|back|in)\s+)?(?:them|the|your|those|these|each|every|all)\b`)

// frontedScope is a prepositional phrase set before an instruction ("In
// Go code, wrap the errors"): a scope, not a clause of its own.
var frontedScope = lazyRegexp(`(?i)^\s*(?:in|for|on|with|inside|within|across|during|after|before|when|while|once|if|unless)\s[^,]*$`)

// asideBefore ends an aside set off by commas inside an instruction:
// "Never, under any circumstances, delete …".
var asideBefore = lazyRegexp(`(?i),\s*(?:under (?:any|no) circumstances?|no matter what|for any reason|ever|seriously|i mean it|please|really|again|if possible|where possible)\s*$`)

// frontedAlternative opens with what not to do: "rather than mocking the
// db, spin up …" is one instruction.
var frontedAlternative = lazyRegexp(`(?i)^\s*(?:rather than|instead of)\s`)

// reportingEnd is a verb of saying that ends the words before a colon or
// comma: what follows is the words said, not the speaker's own statement.
var reportingEnd = lazyRegexp(`(?i)\b(?:said|says|told (?:me|us|him|her|them|everyone)|tells (?:me|us)|wrote|writes|asked|asks|replied|commented|suggested|suggests|insisted|insists|goes like|was like|is like)\s*$`)

// selfReport is the speaker reporting their own words ("as I said:",
// "like I told you,"), which are theirs to state.
var selfReport = lazyRegexp(`(?i)\b(?:i|we)\s+(?:said|wrote|asked|told (?:you|them|everyone)|suggested|insisted)\s*$`)

// appendCuts appends the clauses of piece, cut at the given (end of the
// previous clause, start of the next) positions.
func appendCuts(parts []string, piece string, cuts [][2]int) []string {
	slices.SortFunc(cuts, func(a, b [2]int) int { return a[0] - b[0] })
	start := 0
	for _, cut := range cuts {
		if cut[0] < start {
			continue
		}
		parts = append(parts, piece[start:cut[0]])
		start = cut[1]
	}
	return append(parts, piece[start:])
}

var sharedVerb = lazyRegexp(`(?i)^(?:now\s+)?(?:(?:use|are using|deploy|run on)\s|(?:lint|format|test|deploy|host|bundle|build|manage packages|deployed|hosted|built|tested|linted|formatted|bundled)\s+(?:with|on|to|using|in)\b|(?:work|live|am based|work remotely)\s+(?:at|for|in|from)\b)`)

var participle = lazyRegexp(`(?i)^[a-z]+ed\s`)

// splitClauses turns a whole text into the prose clauses worth matching.
func splitClauses(text string) []rawClause {
	text = punctReplacer.Replace(capInput(text))
	var out []rawClause
	for _, line := range proseLines(text) {
		if strings.Contains(line, "(") {
			line = exampleGloss().ReplaceAllString(line, "") // "use conventional commits (feat:, fix:, chore: etc)"
			line = toolGlosses(zoneGlosses(wasGloss().ReplaceAllString(line, "instead of $1")))
		}
		for _, s := range sentences(emojiStops(unquote(line))) {
			for _, c := range clauses(s) {
				if len(c.text) > maxClauseBytes {
					continue
				}
				// "Kim. Not Kimberly.": the old value, set apart, goes with
				// the new one
				if n := len(out); n > 0 && !c.question && notOnly().MatchString(c.text) && len(strings.Fields(out[n-1].text)) <= 3 && !out[n-1].question {
					out[n-1].text += ", " + c.text
					continue
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// A time zone is often glossed in parentheses, the abbreviation after
// the zone's place ("Lisbon time (WET)", "the Sydney timezone (AEST)") or
// the place after the abbreviation ("IST (india)"). The abbreviation is
// the value; the place named beside it is no address.
var (
	zoneAbbr        = `(?:[A-Z]{2,4}T|UTC|GMT|Z)(?:\s?[+-]\s?\d{1,2}(?::?\d\d)?)?`
	zoneAfterPlace  = lazyRegexp(`(?:\b[Tt]he\s+)?(?:\p{Lu}[\p{L}.-]*\s+){1,3}(?:[Tt]ime\s?zone|[Tt]ime)(\s+now)?\s*\((` + zoneAbbr + `)\)`)
	zoneBeforeGloss = lazyRegexp(`\b(` + zoneAbbr + `)\s*\([^()]{1,30}\)`)
)

// zoneGlosses keeps a parenthesised time zone's abbreviation and drops
// the place said beside it.
func zoneGlosses(line string) string {
	line = zoneAfterPlace().ReplaceAllString(line, "$2$1")
	return zoneBeforeGloss().ReplaceAllString(line, "$1")
}

// wasGloss is the old value in parentheses: "we now host on Railway (was
// Heroku)" replaces Heroku.
var wasGloss = lazyRegexp(`(?i)\((?:was|formerly|previously|used to be|before that|before)\s*:?\s+([^()]{1,30})\)`)

// toolGloss is a parenthesis after a word: "pulumi (typescript)",
// "GitHub Actions (self-hosted runners)".
var toolGloss = lazyRegexp(`([\w.+#-]+)\s*\(([^()]{1,40})\)`)

// toolGlosses drops what a parenthesis says of the tool just named: the
// language its code is in, how it is run ("pulumi (typescript)", "GitHub
// Actions (self-hosted runners)"). It is a detail of the tool, not a
// second value of its slot; a parenthesis that adds to the list ("(and
// Redis)") or names another tool of the same kind stays.
func toolGlosses(line string) string {
	return toolGloss().ReplaceAllStringFunc(line, func(m string) string {
		sm := toolGloss().FindStringSubmatch(m)
		head := strings.TrimLeft(line[:strings.Index(line, m)+len(sm[1])], " ")
		t, ok := toolEnding(head)
		if !ok {
			return m
		}
		gloss := strings.ToLower(strings.TrimSpace(sm[2]))
		switch firstWord(gloss) {
		case "and", "plus", "with", "also", "or", "not", "was", "formerly", "previously", "instead", "replacing", "ex", "used":
			return m
		}
		for _, w := range strings.Fields(gloss) {
			if o, ok := lookupTool(strings.Trim(w, ",.;")); ok && shareCategory(t, o) {
				return m // "Postgres (Aurora)": a value of the same kind
			}
		}
		return sm[1]
	})
}

// toolEnding finds the known tool that ends text, in its last three words.
func toolEnding(text string) (*tool, bool) {
	ws := strings.Fields(strings.ToLower(text))
	for n := min(3, len(ws)); n >= 1; n-- {
		if t, ok := lookupTool(strings.Join(ws[len(ws)-n:], " ")); ok {
			return t, true
		}
	}
	return nil, false
}

// movedSince opens a sentence with a move as the time from which the rest
// holds: "since moving to Berlin I'm on CET", "after the move to Lisbon,
// my manager is Rui".
var movedSince = lazyRegexp(`^(?i:(?:after|since|following|ever since)\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:move|moving|relocation|relocating|relocated|moved)\s+(?:over\s+)?to)\s+([A-Z][\w.-]*(?:\s[A-Z][\w.-]*)?)\s*,?\s+(.+)$`)

// changedSince: "since the move to uv, …", "ever since the switch to Vite …":
// "since" says the state holds from the change until now ("after the move
// to Postgres the tests got slow" only tells what followed).
var changedSince = lazyRegexp(`(?i)^(?:since|ever since|now that we(?:'ve| have)? (?:done|finished))\s+(?:the\s+|our\s+)?(?:move|switch|migration|cutover|transition|upgrade)\s+(?:over\s+)?to\s+([\w.+#-]+(?:\s[\w.+#-]+)?)\s*,?\s+(.+)$`)

// nowThatPlace: "now that I've moved to Berlin the meetings are at 8".
var nowThatPlace = lazyRegexp(`^((?i:now that (?:i|we)(?:'ve| have)? (?:just |finally )?(?:relocated|moved|settled)(?: over| back)? (?:to|in)) [A-Z][\w.-]*(?: [A-Z][\w.-]*)?)\s*,?\s+((?i:the|my|our|i|we|it|this|everything|all)\b.+)$`)

// changedSinceShort is changedSince with a one-word tool.
var changedSinceShort = lazyRegexp(`(?i)^(?:since|ever since|now that we(?:'ve| have)? (?:done|finished))\s+(?:the\s+|our\s+)?(?:move|switch|migration|cutover|transition|upgrade)\s+(?:over\s+)?to\s+([\w.+#-]+)\s*,?\s+(.+)$`)

// valueIMean is a correction written old value first with "I mean":
// "Amsterdam, I mean Rotterdam", "5137 - I meant 5173".
var valueIMean = lazyRegexp(`(?i)^([\w.+#/-]+(?:\s[\w.+#/-]+)?)\s*(?:,|-|--|\.\.\.)?\s+(?:i mean|i meant|or rather|make that)\s*,?\s+([\w.+#/-]+(?:\s[\w.+#/-]+)?)$`)

var allTheWay = lazyRegexp(`(?i),\s*([\w.+#-]+(?:\s[\w.+#-]+)?)\s+all the way\b`)
