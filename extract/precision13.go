package extract

import (
	"regexp"
	"strings"
)

// Precision and mends of session 13 (EXT13), run after review on the
// facts read, in one pass:
//
//   - a past state with nothing believed of it: "I used to live in Oslo"
//     gave *User no longer lives in Oslo*; a "used to" negation ends a
//     value only when the conversation or the beliefs hold it (the
//     consolidator gives them: NeedsContext says yes to "used to"), and
//     says nothing otherwise;
//   - a lone "Name: Jon" is the speaker's name when the value reads as a
//     person's name and no other line of the text is a project setting;
//   - a port keyed by what listens: "the metrics endpoint is exposed on
//     port 9090" is the metrics port, not the app's;
//   - a compile target read as a branch: "we target ES2020" names no
//     default branch;
//   - a rule for this one piece of work: "don't bother with tests for
//     this one", "skip the linter this time";
//   - a repaired value keeps the shape of the statement it repairs:
//     "typo, the 17th*" after *User's flight is on the 14th, to Osaka* is
//     *on the 17th, to Osaka*;
func (r *reading) review13() {
	r.rulePairs()
	for i := range r.facts {
		f := &r.facts[i]
		if f.retracted || f.Span == "" {
			continue
		}
		span := strings.ToLower(f.Span)
		switch {
		case f.Kind == KindFact && f.Negated && usedTo().MatchString(span) && !r.heldBefore(*f, i):
			f.retracted = true // "I used to live in Oslo": nothing believed ends
		case f.Kind == KindFact && f.Negated && !tastePredicate(f.Predicate) && !changeMarker().MatchString(span) && !justContrast().MatchString(span) && !r.heldBefore(*f, i):
			// "We don't use Kafka.", "I don't work at Google, whatever my
			// email says": an absence told, with nothing believed that it
			// ends, is no belief (a change, "…anymore", "stopped …", or a
			// value the conversation holds, still ends one)
			f.retracted = true
		case f.Kind == KindFact && f.Predicate == "name_is" && f.Subject == SubjectProject && nameKey.MatchString(f.Span) && r.speakerName(*f):
			f.Subject = SubjectUser
			f.Exclusive = IsExclusive(f.Predicate)
			f.shownObject = display(f.Span, f.Object)
			f.Statement = render(*f)
		case f.Kind == KindFact && f.Predicate == "port_is" && len(portNumbers().FindAllString(span, -1)) == 1:
			if m := auxListenerIn().FindStringSubmatch(span); m != nil {
				f.Predicate = listenerSlot(m[1])
				f.Exclusive = IsExclusive(f.Predicate)
				f.Statement = render(*f)
			}
		case f.Kind == KindFact && f.Predicate == "default_branch_is" && compileTarget().MatchString(f.Object) && !strings.Contains(span, "branch"):
			f.retracted = true // "we target ES2020"
		case f.Kind == KindGuideline && f.Predicate == "should" && !ruleSaid().MatchString(span):
			if m := kindUsesTool().FindStringSubmatch(f.Object); m != nil {
				// "e2e tests use playwright": the tool of a kind of work,
				// told as it is, no rule
				if t, ok := lookupTool(m[2]); ok {
					hint := ""
					if strings.Contains(m[1], "e2e") || strings.Contains(m[1], "end-to-end") || strings.Contains(m[1], "end to end") {
						hint = "e2e"
					}
					if p := categoryPredicate()[pickCategory(t, nil, hint)]; p != "" && !personalCategory()[pickCategory(t, nil, hint)] {
						*f = Fact{Kind: KindFact, Subject: SubjectProject, Predicate: p, Object: t.Name, shownObject: t.Display,
							Span: f.Span, Support: f.Support, Reliability: f.Reliability, Action: f.Action, Correction: f.Correction}
						f.Exclusive = IsExclusive(p)
						f.Statement = render(*f)
					}
				}
			}
		case f.Kind == KindGuideline && thisTime().MatchString(span):
			f.retracted = true
		case f.Kind == KindGuideline && strings.HasPrefix(f.Predicate, "should_not") && i > 0 && elidedContrast().MatchString(span):
			// "we always run migrations through the makefile, never by
			// hand": the same rule seen from its other side, one rule
			if g := &r.facts[i-1]; g.Kind == KindGuideline && g.Predicate == "should" && !g.retracted && g.detail == "" && g.Span != f.Span {
				g.detail = ", " + strings.TrimRight(strings.TrimSpace(elidedContrast().FindString(f.Span)), ".!")
				g.Statement = render(*g)
				f.retracted = true
			}
		case f.Kind == KindFact && f.Correction && f.Replaces != "":
			r.keepShape(f)
		case f.Kind == KindFact && f.Negated && r.justAfter(*f, span):
			// "I don't use an IDE, just vim and tmux": what follows "just"
			// is what is used, set against what is not
			f.Negated = false
			f.Object = strings.TrimPrefix(strings.TrimPrefix(f.Object, "just "), "only ")
			f.shownObject = ""
			if t, ok := lookupTool(f.Object); ok && (f.Predicate == "uses" || strings.HasPrefix(f.Predicate, "uses_")) {
				if p := categoryPredicate()[pickCategory(t, nil, "")]; p != "" {
					f.Predicate, f.Object, f.shownObject = p, t.Name, t.Display
				}
			}
			f.Exclusive = IsExclusive(f.Predicate)
			f.Statement = render(*f)
		case f.Kind == KindFact && !f.Negated && strings.HasSuffix(f.Predicate, "_is") && judgedValue[strings.ToLower(f.Object)]:
			f.retracted = true // "the staging server is slow" says how it is, not which
		case f.Kind == KindFact && tastePredicate(f.Predicate) && r.tasteAside(*f, i):
			// "I dislike ORMs, honestly", "I prefer mechanical keyboards,
			// brown switches": what follows the comma remarks on the
			// taste, it names no second one
			f.retracted = true
		case f.Kind == KindFact && (f.Predicate == "likes" || f.Predicate == "dislikes") && likeAside().MatchString(f.Object):
			// "I love Elixir, honestly the nicest language I've used": the
			// aside after the comma is no part of what is liked
			f.Object = likeAside().ReplaceAllString(f.Object, "")
			f.shownObject = display(f.Span, f.Object)
			f.Statement = render(*f)
		case f.Kind == KindFact && f.Predicate == "likes" && f.Subject == SubjectUser && !f.Negated && likedWork(f.Object):
			// "I like error messages lowercase with no trailing period": a
			// taste for how the work is made is a rule, said softly
			obj := "prefer " + f.Object
			*f = Fact{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: obj,
				shownObject: "prefer " + display(f.Span, f.Object), Span: f.Span, Support: f.Support, Reliability: f.Reliability, Action: f.Action}
			f.Statement = render(*f)
			for j := range r.facts {
				if g := &r.facts[j]; j != i && g.Span == f.Span && g.Kind == KindFact && g.Predicate == "likes" && !likedWork(g.Object) {
					g.retracted = true // "… short and to the point" gave "point" too
				}
			}
		}
	}
}

// elidedContrast is a prohibition said as the place or manner a rule
// before it rules out: "never by hand", "never in the code", "not on
// main".
var elidedContrast = lazyRegexp(`(?i)^(?:and |but )?(?:never|not|not ever) (?:by|in|on|through|via|with|from|at|inside|outside|into|under|over|manually|directly|locally)\b.*$`)

// justAfter says whether a negated fact's value comes after "just" or
// "only" in a clause that denies something before it: "I don't use an
// IDE, just vim and tmux".
func (r *reading) justAfter(f Fact, span string) bool {
	at := justContrast().FindStringIndex(span)
	if at == nil {
		return false
	}
	pos := strings.Index(span[at[0]:], strings.ToLower(f.Object))
	if pos < 0 {
		if t, ok := lookupTool(f.Object); ok {
			pos = strings.Index(span[at[0]:], strings.ToLower(t.Display))
		}
	}
	return pos >= 0 && strings.Contains(span[:at[0]], "not ") || pos >= 0 && strings.Contains(span[:at[0]], "n't ")
}

var justContrast = lazyRegexp(`,\s*(?:just|only)\s`)

// kindUsesTool is the rule a convention reader makes of "<kind of work>
// use(s) <tool>": "ensure e2e tests use playwright".
var kindUsesTool = lazyRegexp(`^ensure ((?:all |our |the )?(?:[a-z0-9-]+ ){0,2}(?:tests|specs|test|builds|scripts|migrations|checks|jobs|pipelines|services|apis|endpoints|docs|styles|components|packages|deps|dependencies)) (?:use|uses|run with|runs with|run on|runs on) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`)

// ruleSaid marks a clause as a rule whatever its verb: "always", "must",
// "make sure" ("e2e tests must use playwright" is one).
var ruleSaid = lazyRegexp(`\b(?:always|never|must|should|shall|make sure|ensure|need to|needs to|have to|has to|only|every|any|all new|from now on|going forward)\b`)

func tastePredicate(p string) bool { return p == "likes" || p == "dislikes" || p == "prefers" }

// tasteAside says whether a taste is the second of two values split at a
// comma, with no "and" or "or" to make them a list: a remark ("honestly")
// or an elaboration ("brown switches") of the first.
func (r *reading) tasteAside(f Fact, i int) bool {
	if i == 0 {
		return false
	}
	g := r.facts[i-1]
	if g.Span != f.Span || g.Predicate != f.Predicate || g.Negated != f.Negated || g.retracted {
		return false
	}
	span := strings.ToLower(f.Span)
	comma := strings.Index(span, ", ")
	if comma < 0 || strings.Count(span, ",") != 1 || containsWord(span, "and") || containsWord(span, "or") || strings.Contains(span, "/") || strings.Contains(span, "&") {
		return false
	}
	if !strings.Contains(span[comma:], strings.ToLower(f.Object)) {
		return false
	}
	if discourseWords[strings.ToLower(f.Object)] {
		return true
	}
	// "Rust, Go" and "ramen, sushi" are lists; "mechanical keyboards,
	// brown switches" says which
	_, tool := lookupTool(f.Object)
	return !tool && len(strings.Fields(f.Object)) >= 2
}

var discourseWords = map[string]bool{"honestly": true, "tbh": true, "really": true, "though": true, "lol": true, "haha": true,
	"seriously": true, "obviously": true, "personally": true, "frankly": true, "imo": true, "imho": true, "anyway": true,
	"to be honest": true, "for real": true, "tho": true, "i guess": true, "i think": true, "ngl": true}

// likeAside is a remark after a liked thing: ", it caught so many bugs",
// ", honestly the nicest language".
var likeAside = lazyRegexp(`,\s+(?:it|its|it is|honestly|which|that|so|because|since|really|seriously|tbh|imo|the best|the nicest|best|such|what a|just|way)\b.*$`)

// likedWork says whether what a person likes is a kind of artefact of the
// work said with how it should be ("error messages lowercase", "comments
// that explain why", "tests next to the code"), not a thing or a pastime
// ("Rust", "long walks") nor the bare kind ("tests").
func likedWork(obj string) bool {
	words := strings.Fields(obj)
	if len(words) == 0 || strings.HasSuffix(words[0], "ing") {
		return false // "writing code at night": the person's own habit
	}
	for i := 0; i < len(words) && i < 3; i++ {
		w := strings.Trim(words[i], ",.;:")
		if artifacts()[w] || replyPart().MatchString(w) {
			if _, tool := lookupTool(w); tool {
				return false
			}
			return i+1 < len(words) && !strings.HasSuffix(words[i], ",")
		}
	}
	return false
}

// rulePairs mends a ban read with its alternative:
//
//   - "don't commit directly to main, open a PR": the imperative after
//     a ban's comma is its alternative ("Never commit directly to main;
//     open a PR"), not part of what is banned.
func (r *reading) rulePairs() {
	var out []Fact
	for i := 0; i < len(r.facts); i++ {
		f := r.facts[i]
		if f.retracted || f.Kind != KindGuideline || f.when != "" {
			out = append(out, f)
			continue
		}
		neg := strings.HasPrefix(f.Predicate, "should_not")
		if neg && f.detail == "" {
			if m := banThenDo().FindStringSubmatch(f.Object); m != nil && onlyThing().MatchString(m[2]) {
				// "we don't use docker, only podman": what is used instead
				f.Object, f.detail = m[1], "; use "+m[2]
				if f.shownObject != "" {
					if sm := banThenDo().FindStringSubmatch(f.shownObject); sm != nil {
						f.shownObject, f.detail = sm[1], "; use "+sm[2]
					}
				}
				f.Statement = render(f)
			} else if m != nil && startsWithVerb(m[2]) && !strings.HasPrefix(m[2], "use ") {
				f.Object = m[1]
				f.detail = "; " + m[2]
				if f.shownObject != "" {
					if sm := banThenDo().FindStringSubmatch(f.shownObject); sm != nil {
						f.shownObject, f.detail = sm[1], "; "+sm[2]
					}
				}
				f.Statement = render(f)
			}
		}
		out = append(out, f)
	}
	r.facts = out
}

var (
	// onlyThing: "only podman", "just plain css".
	onlyThing = lazyRegexp(`^(?:only|just) [a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?$`)
	// banThenDo: "commit directly to main, open a pr".
	banThenDo = lazyRegexp(`^(.+?), ([a-z].+)$`)
)

var portNumbers = lazyRegexp(`\b\d{2,5}\b`)

// changeMarker says a negation ends something: "anymore", "no longer",
// "stopped", "dropped", "ditched", "gone", "moved off", "now".
var changeMarker = lazyRegexp(`\b(?:any ?more|no longer|not any longer|stopped|stop|quit|quitting|dropped|dropping|ditched|ditching|removed|gone|got rid|gave up|giving up|moved|moving|switched|switching|migrated|left|leaving|retired|deprecated|killed|replaced|now|since|these days|nowadays|instead|no more|goodbye|bye|rip|dead)\b`)

var (
	usedTo = lazyRegexp(`\bused to\b`)
	// nameKey is a setting line naming a name: "Name: Jon".
	nameKey = regexp.MustCompile(`^\s*(?:[Nn]ame|NAME)\s*[:=]\s*\S`)
	// auxListenerIn is an auxiliary listener named before the port.
	auxListenerIn = lazyRegexp(`^(?:the |our )?(` + auxListeners + `)\b`)
	// compileTarget is a value a build targets, not a branch: "es2020",
	// "es6", "java17".
	compileTarget = lazyRegexp(`^(?:es|ecmascript|es20|c\+\+|java|jdk|py|python|node|ios|android|api|sdk|net|dotnet|go)\d`)
	// thisTime scopes a rule to the piece of work at hand: "for this one",
	// "this time", "just this once".
	thisTime = lazyRegexp(`\bfor this one\b|\bthis (?:time|once)\b|\bjust (?:this|for) once\b|\bfor (?:the )?(?:moment|time being)\b`)
)

// heldBefore says whether the value a negated fact ends was held before
// it: believed (ctx.Slots), said in the conversation (ctx.Recent), or
// stated earlier in this text.
func (r *reading) heldBefore(f Fact, i int) bool {
	obj := strings.ToLower(f.Object)
	for _, s := range r.ctx.Slots {
		if s.Predicate == f.Predicate && strings.EqualFold(s.Object, obj) {
			return true
		}
	}
	for _, g := range r.facts {
		if g.Kind == KindFact && !g.Negated && g.Predicate == f.Predicate && g.Subject == f.Subject {
			return true // "I used to live in Oslo and now I live in Bergen"
		}
	}
	for _, t := range r.ctx.Recent {
		if containsWord(strings.ToLower(t), obj) {
			return true
		}
	}
	for _, g := range r.facts[:i] {
		if g.Kind == KindFact && !g.Negated && strings.EqualFold(g.Object, obj) {
			return true
		}
	}
	return false
}

// speakerName says whether "Name: X" names the speaker: the value reads
// as a person's name (capitalised, one or two words, nearer given names
// than places in the word vectors), and no other line of the text is a
// setting of a project (a version, a description, a licence …).
func (r *reading) speakerName(f Fact) bool {
	if len(strings.Fields(f.Object)) > 2 || !personName1().MatchString(f.Object) || knownTool(f.Object) {
		return false
	}
	if !capitalized(f.Span, firstWord(f.Object)) || !personLike(firstWord(f.Object)) {
		return false
	}
	return !projectKeys().MatchString(r.text)
}

// projectKeys are setting lines that make "name:" the name of a package.
var projectKeys = lazyRegexp(`(?im)^\s*(?:version|description|license|licence|main|module|repository|repo|scripts|dependencies|private|type|homepage|author|package|entry|image|services)\s*[:=]`)

// keepShape repairs a value inside the statement it corrects: when the
// old value was shown with more around it ("on the 14th, to Osaka"),
// the repair keeps the rest.
func (r *reading) keepShape(f *Fact) {
	if f.shownObject != "" && !strings.EqualFold(f.shownObject, f.Object) {
		return
	}
	for _, cand := range r.candidates() {
		if cand.own || cand.Predicate != f.Predicate || cand.Subject != f.Subject || !strings.EqualFold(cand.Object, f.Replaces) {
			continue
		}
		shown := cand.shownObject
		at := strings.Index(strings.ToLower(shown), strings.ToLower(f.Replaces))
		if at < 0 || len(shown) <= len(f.Replaces) {
			return
		}
		f.shownObject = shown[:at] + f.Object + shown[at+len(f.Replaces):]
		f.Statement = render(*f)
		return
	}
}
