package extract

import (
	"strings"

	"github.com/credence-mem/credence/relations"
)

// Changes and repairs said in everyday idioms (session 11): a tool tried
// and kept ("gave zed a try and never looked back"), a value contrasted
// with someone else's ("that's my sister's dog, mine is Noodle"), a
// version said bare after the tool it belongs to ("the upgrade landed,
// we're on 3.12"). Each names only the new value; the slot comes from the
// conversation, as a bare correction's does.

// triedAndKept is a tool tried and kept: "gave zed a try a few weeks ago
// and honestly not going back", "tried Helix and never looked back",
// "switched to bun and haven't looked back". Group 1 is the subject (empty
// for the speaker), group 2 the tool. It is read on the whole sentence,
// so "and never looked back" is not cut off as a prohibition of its own.
var triedAndKept = lazyRegexp(`(?i)^(?:(i|we)\s+)?(?:have\s+)?(?:finally\s+|recently\s+|just\s+|eventually\s+)?(?:gave|tried|tried\s+out|switched\s+to|moved\s+to|went\s+with|picked\s+up)\s+([\w.+#-]+(?:\s[\w.+#-]+)??)(?:\s+a\s+(?:real\s+|proper\s+|serious\s+)?(?:try|shot|go|spin|whirl|chance))?(?:\s+(?:a\s+few|a\s+couple(?:\s+of)?|some|two|three|\d+)\s+(?:days|weeks|months)\s+ago|\s+last\s+(?:week|month|year|sprint)|\s+recently|\s+this\s+(?:week|month|year))?\s*,?\s*(?:and\s+|&\s+)?(?:honestly\s+|tbh\s+|frankly\s+|seriously\s+)?(?:(?:i|we)\s+)?(?:have\s+|had\s+)?(?:never\s+looked\s+back|(?:have\s+not|haven't|not)\s+looked\s+back|(?:am\s+|are\s+|i'm\s+|we're\s+)?not\s+going\s+back|(?:will\s+not|won't)\s+(?:ever\s+)?go\s+back|(?:am\s+|are\s+|i'm\s+|we're\s+)?(?:never\s+)?going\s+back\s+never|(?:it\s+)?stuck|(?:am\s+|are\s+|i'm\s+|we're\s+)?sticking\s+with\s+it|(?:am\s+|are\s+|i'm\s+|we're\s+)?(?:loving|love)\s+it)\b[^,.;]*$`)

// keptTool rewrites a sentence that tells of a tool tried and kept into
// the change it is: "gave zed a try and never looked back" is "I switched
// to zed". Someone else's trial ("my friend gave zed a try …") and a
// trial given up ("… but went back to vim") do not match.
func keptTool(text string) (string, bool) {
	if !containsAny(strings.ToLower(text), " back", "stuck", "sticking", " it") {
		return "", false
	}
	m := triedAndKept().FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	who := strings.ToLower(m[1])
	if who == "" {
		who = "i"
	}
	return who + " switched to " + m[2], true
}

// mineIs is the speaker's own value set against another's: "mine is
// Noodle", "mine's called Noodle".
var mineIs = lazyRegexp(`^(?:but |and )?mine(?: is| has been)?(?: actually| really)?(?: called| named)? ([a-z0-9][\w.' -]*)$`)

// mine reads "mine is X" after the speaker named a slot of theirs (their
// dog's name, their manager): X is the speaker's own value of that slot,
// and replaces the value stated for it.
func (r *reading) mine(c *clause) []Fact {
	m := mineIs().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	v, ok := correctionValue(m[1])
	if !ok {
		return nil
	}
	for _, cand := range r.candidates() {
		if cand.Kind != KindFact || cand.Negated || !ownSlot(cand.Subject, cand.Predicate) {
			continue
		}
		if !fits(cand.Predicate, v, c.span, false) {
			return nil
		}
		f := Fact{Subject: cand.Subject, Predicate: cand.Predicate, Object: v, shownObject: showValue(cand.Predicate, v, c.span),
			shownSubject: cand.shownSubject}
		if cand.Object != v {
			f.Replaces = cand.Object
		}
		return []Fact{f}
	}
	return nil
}

// ownSlot says whether a fact names a single value of the speaker's own:
// the name of something they have ("user's dog" name_is) or a person in
// their life (manager_is). Another person's thing ("user's sister's dog")
// is not the speaker's.
func ownSlot(subject, predicate string) bool {
	if owned, ok := strings.CutPrefix(subject, SubjectUser+"'s "); ok {
		return predicate == "name_is" && !strings.Contains(owned, "'s") && !strings.Contains(owned, " ")
	}
	return subject == SubjectUser && (predicate == "manager_is" || predicate == "name_is")
}

// bareVersionOn is a version said without its tool: "we're on 3.12 now",
// "everything is on 3.12 across the board".
var bareVersionOn = lazyRegexp(`^(?:so |and )?(?:we are|i am|everything is|we are all|it is all|all services are|all our services are)(?: now| finally| all)? (?:on|at|running) v?(\d+\.\d+(?:\.\d+)?)(?: now| everywhere| across the board| too| as well| finally| already)*$`)

// bareVersion reads a version said without its tool when the conversation
// named the tool's version just before: after "we're on python 3.10",
// "we're on 3.12 now" is Python 3.12.
func (r *reading) bareVersion(c *clause) []Fact {
	m := bareVersionOn().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	for _, cand := range r.candidates() {
		if cand.Kind != KindFact || cand.Negated || !strings.HasSuffix(cand.Predicate, "_version_is") {
			continue
		}
		if cand.Object == m[1] {
			return nil // the same version again says nothing new
		}
		return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: m[1], Replaces: cand.Object}}
	}
	return nil
}

// reviewsGoTo is who a kind of change goes to for review: "backend PRs
// go to @dmitri", "all MRs are reviewed by Wen". The reviewer is a
// handle or a capitalised name.
var reviewsGoTo = lazyRegexp(`^(?:all |our |the )?(?:[a-z0-9-]+ ){0,2}(?:prs|pull requests|mrs|merge requests|reviews|code reviews|diffs|changes) (?:go to|are reviewed by|get reviewed by|need (?:a )?review from|need approval from|need sign-off from) (@?[a-z][\w.-]*)$`)

// reviewer reads who reviews a kind of change as the project's reviewer,
// not as an instruction to send every change there.
func reviewer(c *clause) []Fact {
	m := reviewsGoTo().FindStringSubmatch(c.text)
	if m == nil || !strings.HasPrefix(m[1], "@") && !capitalized(c.span, m[1]) {
		return nil
	}
	return []Fact{{Subject: SubjectProject, Predicate: "reviewer_is", Object: m[1], shownObject: display(c.span, m[1])}}
}

// toolOnVersion is a tool said to be on a version: "node's on 22 now",
// "python is on 3.12 everywhere".
var toolOnVersion = lazyRegexp(`^([a-z][\w.+#-]*) is (?:now |finally |still )?on v?(\d+(?:\.\d+)*)(?: now| everywhere| across the board)?$`)

// versionSaid reads "node is on 22 now" as the version of the tool,
// when the tool has a version slot ("postgres is on 16" names no port).
func versionSaid(t string) []Fact {
	m := toolOnVersion().FindStringSubmatch(t)
	if m == nil {
		return nil
	}
	tl, ok := lookupTool(m[1])
	if !ok {
		return nil
	}
	pred, ok := relations.VersionPredicate(tl.Name)
	if !ok {
		return nil
	}
	return []Fact{{Subject: SubjectProject, Predicate: pred, Object: strings.TrimPrefix(m[2], "v")}}
}

// audienceRule is a rule on how to explain to the person, with the
// person named inside it: "explain things to me like I'm new to Go".
var audienceRule = lazyRegexp(`\b(?:like|as if|as though) i am\b`)

// background is what the person knows, said beside such a rule: "I come
// from Python", "I know JavaScript well".
var background = lazyRegexp(`^i (?:come|came|am coming) from ([a-z][\w.+#-]*(?: [a-z][\w.+#-]*)?)$|^i (?:know|mostly know|mostly write|mainly write|am fluent in) ([a-z][\w.+#-]*)(?: well| pretty well)?$`)

// audience gives a rule on how to explain the background the person
// gives beside it, which the rule depends on: "explain things to me like
// I'm new to Go, I come from Python" is one rule that names both.
func (r *reading) audience() {
	for i, cl := range r.clauses {
		for j := cl.from; j < cl.to && j < len(r.facts); j++ {
			f := r.facts[j]
			if f.Kind != KindGuideline || f.Predicate != "should" || f.detail != "" || !audienceRule().MatchString(f.Object) {
				continue
			}
			for _, k := range []int{i + 1, i - 1} {
				if k < 0 || k >= len(r.clauses) || r.clauses[k].to > r.clauses[k].from {
					continue
				}
				m := background().FindStringSubmatch(r.clauses[k].text)
				if m == nil {
					continue
				}
				from := m[1] + m[2]
				shown := from
				if t, ok := lookupTool(from); ok {
					shown = t.Display
				}
				f.detail = "; the user comes from " + shown
				f.Statement = render(f)
				r.facts[j] = f
				break
			}
		}
	}
}

// placeByClock is a place typed in lower case that the sentence shows is
// where the person lives by reckoning their time from it: "im in
// auckland so everything is nz time for me", "i'm in denver so it's
// evening here".
var placeByClock = lazyRegexp(`^i am (?:in|based in|living in|now in) ([a-z][a-z'-]+(?: [a-z][a-z'-]+)?)(?: now)?,? so (?:everything|it|its|it is|all|my|that|times?)\b.*\b(?:time|timezone|time zone|tz|utc|gmt|morning|evening|night|afternoon|hours)\b`)

// clockPlace reads placeByClock as where the person lives.
func clockPlace(c *clause) []Fact {
	m := placeByClock().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	p, ok := place(m[1])
	if !ok || timezoneLike().MatchString(p) && len(p) <= 4 {
		return nil
	}
	return []Fact{{Subject: SubjectUser, Predicate: "lives_in", Object: p, shownObject: upperWords(display(c.span, p))}}
}

// traitRe is a trait the person states of themselves that shapes what
// suits them: a diet ("I'm vegetarian, have been for ten years") or a
// need for accessible output ("I'm colorblind (deuteranopia)"). The
// relations table lists their words (relations.Relation.States); only
// the plain "I am X" form is read here, so "my wife is vegan" and "if
// I were vegan" say nothing.
var traitRe = lazyRegexp(`^i am (?:also |a |an |fully |strictly |mostly )?(vegetarian|vegan|pescatarian|lactose intolerant|gluten[- ]free|celiac|coeliac|halal|kosher|colou?r ?-?blind|dyslexic|hard of hearing|visually impaired|red-green colou?r ?-?blind)(?:,? (deuteranopia|protanopia|tritanopia|deuteranomaly|protanomaly|tritanomaly))?(?:$|[,;]| and | so | since | for | too| as well| btw| now)`)

// haveTraitRe is a condition the person has: "I have dyslexia".
var haveTraitRe = lazyRegexp(`^i have (dyslexia|colou?r ?-?blindness|low vision|deuteranopia|protanopia|tritanopia)(?:$|[,;]| and | so | which )`)

// pronounsRe states the person's pronouns: "Pronouns are they/them",
// "my pronouns: she/her".
var pronounsRe = lazyRegexp(`^(?:my )?pronouns(?: are|:| =)? ([a-z]+/[a-z]+(?:/[a-z]+)?)$`)

// trait reads traitRe as the person's diet or accessibility need.
func trait(c *clause) []Fact {
	if m := haveTraitRe().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectUser, Predicate: "accessibility_is", Object: m[1]}}
	}
	if m := pronounsRe().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectUser, Predicate: "pronouns_are", Object: m[1]}}
	}
	m := traitRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	v := m[1]
	pred := "diet_is"
	switch {
	case m[2] != "":
		v, pred = m[2], "accessibility_is"
	case strings.Contains(v, "blind") || strings.Contains(v, "dyslex") || strings.Contains(v, "hearing") || strings.Contains(v, "visually"):
		pred = "accessibility_is"
	}
	return []Fact{{Subject: SubjectUser, Predicate: pred, Object: v}}
}

// repairedBefore makes the facts of the clause just before a repair when
// the speaker judges them one after stating them: "i'm on CST, i mixed
// them up" corrects the time zone stated before, as "sorry, i'm on CST"
// would.
func (r *reading) repairedBefore(prev clauseFacts) {
	for i := prev.from; i < prev.to && i < len(r.facts); i++ {
		f := r.facts[i]
		if f.Kind != KindFact || f.Negated || f.Correction || !f.Exclusive {
			continue
		}
		f.Correction = true
		if f.Replaces == "" {
			f.Replaces = r.oldValue(f, &clause{span: prev.span, text: prev.text})
		}
		f.Reliability = max(f.Reliability, 0.95)
		f.Statement = render(f)
		r.facts[i] = f
	}
}
