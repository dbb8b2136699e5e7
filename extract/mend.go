package extract

import (
	"strings"

	"github.com/credence-mem/credence/relations"
)

// Values read into the wrong slot or with words that are not the value
// (session 12). Like unstated (precision.go), these run on the facts
// read, after every matcher:
//
//   - a name or a tool with a clause after it keeps the name only: "we
//     deploy to fly.io using their cli" is fly.io, "I work at Stripe on
//     payments infra" is Stripe;
//   - a rule keeps no politeness: "use tabs please, not spaces" is
//     "Always use tabs instead of spaces";
//   - a tool that names a team is no tool in use: "I'm on the mac app
//     store team";
//   - a stay with its end is no home: "I'm in Lisbon until friday";
//   - a region is not what the project deploys with: "the app is hosted
//     in Ireland";
//   - a person worked with is not a tool: "I work with Tom";
//   - a scope belongs to the value just before it: "we use postgres 16
//     in prod but sqlite in tests" gave Postgres in tests;
//   - a place of use read into a value: "at home I use arch, at work
//     macOS" gave uses "at work macos" beside Arch Linux as the OS;
//   - a port with more said after it is the port: "the frontend runs on
//     5173, the backend on 8000" gave frontend_is "5173, the backend on
//     8000"; it is port 5173, as "the frontend runs on 5173" is;
//   - a clause with its own subject is no value: "I prefer tabs, Bob
//     prefers spaces" gave prefers "bob prefers spaces";
//   - a word that is no noun names no slot: "… and now I live in
//     Bergen" gave now_is "bergen";
//   - a complaint asks for the opposite of what it says the assistant
//     does: "you never run the tests" is "Always run the tests", "you
//     always forget the imports" is "Always include the imports", "you
//     always skip the linter" is "Never skip the linter".

// mend corrects f, or marks it for dropping, where its value or slot is
// not what the sentence bears out (see above). span is f.Span lowered.
func mend(f *Fact, span string) {
	if f.Kind == KindGuideline {
		complaint(f, span)
		if o, changed := withoutCourtesy(f.shownObjectOr()); changed && o != "" {
			f.Object, f.shownObject = withoutCourtesyKey(f.Object), o
			f.detail, _ = withoutCourtesy(f.detail)
			f.Statement = render(*f)
		}
		return
	}
	switch {
	case toolNamesTeam(*f, span), stayWithEnd(*f, span), regionAsDeploy(*f, span), personAsTool(*f, span),
		clauseAsValue().MatchString(f.Object), wordAsSlot().MatchString(f.Predicate):
		f.retracted = true
	case !scopedTool(f):
		f.retracted = true
	default:
		portWithTail(f, span)
		otherScope(f, span)
		cutLeadingPreposition(f)
		cutClauseAfterValue(f)
	}
}

// cutLeadingPreposition drops the preposition a tool slot's value was
// read with: "formatting is via black" formats with Black, not "via black".
func cutLeadingPreposition(f *Fact) {
	if f.Kind != KindFact || !relations.ToolSlot(f.Predicate) {
		return
	}
	for _, p := range []string{"via ", "through ", "using ", "with ", "by "} {
		rest, ok := strings.CutPrefix(f.Object, p)
		if !ok {
			continue
		}
		if t, known := lookupTool(rest); known {
			f.Object, f.shownObject = t.Name, ""
			f.Statement = render(*f)
		}
		return
	}
}

// courtesy words say how a rule is asked, not what it asks.
var courtesy = lazyRegexp(`(?i)(?:,\s*)?(?:\band\s+)?\b(?:please|pls|plz|kindly|thanks in advance|thank you in advance|thanks|thank you|thx|tia|ty|lol|haha)\b[!.,]*|,\s*(?:seriously|obviously|honestly|ok|okay|btw|fyi|as usual|i mean it|you know)[!.]*$`)

// withoutCourtesy removes courtesy words from s; it says whether there
// were any.
func withoutCourtesy(s string) (string, bool) {
	if !courtesy().MatchString(s) {
		return s, false
	}
	out := courtesy().ReplaceAllStringFunc(s, func(m string) string {
		// "every getter please, only the handlers": the comma after the
		// courtesy parts two clauses, and stays
		if !strings.HasPrefix(m, ",") && strings.Contains(m, ",") {
			return ","
		}
		return ""
	})
	out = strings.ReplaceAll(strings.Join(strings.Fields(out), " "), " ,", ",")
	out = strings.TrimRight(out, " ,")
	for _, dangling := range []string{" and", " or", " but"} {
		out = strings.TrimSuffix(out, dangling) // "add types please and thanks"
	}
	return out, true
}

func withoutCourtesyKey(s string) string { o, _ := withoutCourtesy(s); return o }

// teamPhrase is a team or group named after a thing: "on the mac app
// store team", "in the kubernetes squad".
var teamPhrase = lazyRegexp(`\b(?:on|in|of|for|with|from|join(?:ed)?) (?:the|a|an|our|my|their) ([\w .+#-]+?) (?:team|squad|group|guild|org|department|crew)s?\b`)

// toolNamesTeam says whether the tool of f is only a word of a team's
// name in span.
func toolNamesTeam(f Fact, span string) bool {
	if !relations.ToolSlot(f.Predicate) && !strings.HasPrefix(f.Predicate, "uses") {
		return false
	}
	for _, m := range teamPhrase().FindAllStringSubmatch(span, -1) {
		if containsWord(m[1], f.Object) || teamNamesTool(m[1], f.Object) {
			return !strings.Contains(span, " use ") && !strings.Contains(span, " uses ")
		}
	}
	return false
}

// stayEnd bounds a stay by a near day: "until friday", "till next week";
// "until the end of the year" may bound a home.
var stayEnd = lazyRegexp(`\b(?:until|till|til|through) (?:(?:next |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend)|tomorrow|the weekend|the end of the week|the \d+(?:st|nd|rd|th))\b`)

// stayWithEnd says whether f places the person somewhere only until a
// near day: a stay, not a home.
func stayWithEnd(f Fact, span string) bool {
	return (f.Predicate == "lives_in" || f.Predicate == "timezone_is") && !f.Negated && stayEnd().MatchString(span)
}

// regionAsDeploy says whether a deploy target is a region the project
// is hosted in ("hosted in Ireland"), not a host or a tool.
func regionAsDeploy(f Fact, span string) bool {
	if f.Predicate != "deploys_with" {
		return false
	}
	if _, tool := lookupTool(f.Object); tool {
		return false
	}
	return containsWord(span, "in "+f.Object) && !containsWord(span, "to "+f.Object) && !containsWord(span, "on "+f.Object)
}

// personAsTool says whether a generic "uses" came from working with a
// person: "I work with Tom".
func personAsTool(f Fact, span string) bool {
	if f.Predicate != "uses" || f.Negated {
		return false
	}
	if _, tool := lookupTool(f.Object); tool {
		return false
	}
	return strings.Contains(span, "work with "+f.Object) || strings.Contains(span, "working with "+f.Object) ||
		strings.Contains(span, "works with "+f.Object)
}

// clauseAfterValue opens what a sentence says after a value: "fly.io using
// their cli", "Stripe on payments infra", "Lisbon which is great".
var clauseAfterValue = lazyRegexp(`\s+(?:using|via|through|which|who|because|since|so that|on|with|for|and (?:love|like|hate|it|its|that))\b`)

// cutClauseAfterValue keeps only the value of a name or tool slot
// whose object runs on into a clause, when the words before the clause
// are a known tool or a name written capitalised.
func cutClauseAfterValue(f *Fact) {
	if f.Negated || !(relations.ToolSlot(f.Predicate) || f.Predicate == "deploys_with" || f.Predicate == "works_at" ||
		f.Predicate == "lives_in" || f.Predicate == "manager_is" || f.Predicate == "name_is") {
		return
	}
	if loc := discourseTail().FindStringIndex(f.Object); loc != nil && loc[0] > 0 {
		// "i live in toronto anyway": the word ends the sentence, not the name
		f.Object = f.Object[:loc[0]]
		f.shownObject = keepCase(f.shownObject, f.Object, f.Span)
		if t, ok := lookupTool(f.Object); ok {
			f.Object, f.shownObject = t.Name, ""
		}
		f.Statement = render(*f)
	}
	loc := clauseAfterValue().FindStringIndex(f.Object)
	if loc == nil || loc[0] == 0 {
		return
	}
	head := f.Object[:loc[0]]
	if t, ok := lookupTool(head); ok {
		f.Object, f.shownObject = t.Name, ""
	} else if capitalized(f.Span, head) {
		f.Object, f.shownObject = head, display(f.Span, head)
	} else {
		return
	}
	f.Statement = render(*f)
}

// teamNamesTool says whether a word or two of phrase name the tool whose
// canonical name is object: "mac app store" names macos.
func teamNamesTool(phrase, object string) bool {
	ws := strings.Fields(phrase)
	for i := range ws {
		for n := 1; n <= 2 && i+n <= len(ws); n++ {
			if t, ok := lookupTool(strings.Join(ws[i:i+n], " ")); ok && t.Name == object {
				return true
			}
		}
	}
	return false
}

// discourseTail is a word that ends a sentence after its value: "i live
// in toronto anyway", "we use pnpm btw", "my manager is Tom lol".
var discourseTail = lazyRegexp(`\s+(?:anyway|anyways|btw|fwiw|lol|haha|tho|though|too|as well|obviously|actually|basically|honestly|fyi|imo|done|finished|over|complete|completed|down|at last)$`)

// keepCase is the shown form of a shortened object: the start of the
// form shown before (a name title-cased by its reader stays so), or the
// words as written in span.
func keepCase(shown, object, span string) string {
	if len(shown) >= len(object) && strings.EqualFold(shown[:len(object)], object) {
		return shown[:len(object)]
	}
	return display(span, object)
}

// complaint turns a rule read off a complaint about the assistant's
// habit into what the complaint asks for (see remarkOnYou for "you
// always" with any other verb).
func complaint(f *Fact, span string) {
	m := youHabit().FindStringSubmatch(span)
	if m == nil || f.when != "" {
		return
	}
	switch {
	case m[1] == "never" && f.Predicate == "should_not" && !f.Negated && !idiomAfterYouNever[m[2]]:
		f.Predicate, f.detail = "should", ""
	case m[1] == "always" && m[2] == "forget" && f.Predicate == "should":
		rest, ok := strings.CutPrefix(f.Object, "forget ")
		if !ok {
			return
		}
		if r, to := strings.CutPrefix(rest, "to "); to {
			f.Object = r
		} else {
			f.Object = "include " + strings.TrimPrefix(rest, "about ")
		}
		f.shownObject = ""
	case m[1] == "always" && faultVerbs[m[2]] && f.Predicate == "should":
		f.Predicate = "should_not"
	default:
		return
	}
	f.Statement = render(*f)
}

// idiomAfterYouNever are verbs of "you never …" that say nothing of the
// assistant: "you never know".
var idiomAfterYouNever = map[string]bool{"know": true, "can": true, "tell": true, "guess": true, "learn": true}

// clauseAsValue is an object that is a clause of its own: a word and a
// verb in the third person, "bob prefers spaces", "the team uses npm".
var clauseAsValue = lazyRegexp(`^(?:the |my |our |his |her |their )?[a-z]+ (?:prefers|uses|likes|loves|hates|lives|works|runs|deploys|wants|says|thinks|writes|moved|switched|went)\b`)

// wordAsSlot is an open slot named by a word that is no noun: "now",
// "then", "it".
var wordAsSlot = lazyRegexp(`^(?:now|then|here|there|it|this|that|what|which|who|today|also|still|so|just|well|yes|no|ok|okay)_is$`)

// otherScope gives back its own slot to a tool said with a scope of its
// own ("postgres 16 in prod") that a scope said later in the sentence
// ("… but sqlite in tests") was put on.
func otherScope(f *Fact, span string) {
	base, env, ok := strings.Cut(f.Predicate, "_in_")
	if !ok || f.Negated {
		return
	}
	word := strings.ToLower(display(f.Span, f.Object))
	at := strings.Index(span, word)
	if at < 0 {
		return
	}
	m := scopeAfter().FindStringSubmatch(span[at+len(word):])
	if m == nil || strings.ReplaceAll(m[1], " ", "_") == env {
		return
	}
	f.Predicate = base
	f.Exclusive = IsExclusive(base)
	f.Statement = render(*f)
}

// scopeAfter is the scope right after a value, past its version: " 16
// in prod", " for local dev".
var scopeAfter = lazyRegexp(`^(?: v?[\d.]+)? (?:in|for|on) (?:the )?(prod|production|dev|development|staging|ci|local dev|local|the backend|the frontend|backend|frontend|tests|unit tests|e2e)\b`)

// placeOfUse opens an object on where the tool is used: "at work macos".
var placeOfUse = lazyRegexp(`^(?:at|in|on|for) (?:work|home|the office|the day job|prod|production|dev|school|uni|my (?:work|personal|home) (?:laptop|machine|computer|pc|mac))\s+`)

// scopedTool says false when the object of a generic "uses" opens on a
// place of use: the tool after it is used there, beside what the
// sentence named first, and one slot would hold both.
func scopedTool(f *Fact) bool {
	return f.Predicate != "uses" || f.Negated || !placeOfUse().MatchString(f.Object)
}

// portTail is a port at the head of an open slot's object, with more
// after it: "5173, the backend on 8000", "8081 locally and 8080".
var portTail = lazyRegexp(`^(\d{2,5})(?: (?:locally|in [a-z]+|on [a-z]+))?(?:,| and | but )`)

// portWithTail reads an open slot that a component runs on as the
// port it gives first.
func portWithTail(f *Fact, span string) {
	if f.Subject != SubjectProject || f.Negated || !strings.HasSuffix(f.Predicate, "_is") {
		return
	}
	if _, known := relations.ByPredicate(f.Predicate); known {
		return
	}
	m := portTail().FindStringSubmatch(f.Object)
	if m == nil || !portVerb().MatchString(span) {
		return
	}
	f.Predicate, f.Object, f.shownObject = "port_is", m[1], ""
	f.Exclusive = IsExclusive("port_is")
	f.Statement = render(*f)
}

// portVerb is how a sentence puts a service on a port.
var portVerb = lazyRegexp(`\b(?:runs|listens|serves|is|lives|sits) on (?:port )?\d`)
