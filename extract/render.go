package extract

import (
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// Statements are rendered from the triple, never copied from the words
// that stated it, so one claim reads the same however it was said and a
// belief's sentence can be rendered again whenever its triple is read:
//
//   - facts in the present, from the relation's template (package
//     relations): "User lives in Lisbon", "Project uses pnpm as its
//     package manager" — a change states the new value ("we switched from
//     pnpm to Bun" is "Project uses Bun as its package manager"), a
//     negated fact its denial ("User does not like Java");
//   - guidelines in the imperative: "Always run go test with -race",
//     "Never use npm; use pnpm", "Prefer named exports", and a
//     conditional one with its condition first: "When writing tests,
//     always use table-driven tests";
//   - objects as their tools are spelled ("PostgreSQL", "GitHub
//     Actions"), open values as written, trimmed of what follows them
//     ("John, with an h" is "John").

// render is the sentence that states f.
func render(f Fact) string {
	if f.Kind == KindGuideline {
		return guidelineStatement(f.Predicate, f.shownObjectOr(), f.detail, f.when)
	}
	subject := f.Subject
	if f.shownSubject != "" {
		subject = f.shownSubject
	}
	if f.Negated && endedRe().MatchString(f.Span) {
		// "I don't use Sublime anymore": no longer, not never
		return relations.RenderNoLonger(subject, f.Predicate, f.shownObjectOr()) + f.detail
	}
	if f.Negated {
		return relations.RenderNot(subject, f.Predicate, f.shownObjectOr()) + f.detail
	}
	return relations.Render(subject, f.Predicate, f.shownObjectOr()) + f.detail
}

func (f Fact) shownObjectOr() string {
	if f.shownObject != "" {
		return f.shownObject
	}
	return showObject(f.Object)
}

// showObject is how a sentence names an object known only by its
// canonical form: a tool as its makers spell it, anything else as is.
func showObject(obj string) string {
	if t, ok := lookupTool(obj); ok && t.Name == obj {
		return t.Display
	}
	return obj
}

// guidelineStatement renders an instruction in the imperative: "Always
// <do>" for should, "Never <do>" for should_not, "Avoid <thing>" when the
// object names no action, and a condition first for should_when_*.
func guidelineStatement(predicate, object, detail, when string) string {
	core := imperative(strings.HasPrefix(predicate, "should_not"), object) + detail
	if strings.Contains(core, " i ") || strings.HasSuffix(core, " i") {
		core = pronounI().ReplaceAllString(core, "I") // "variables I did not ask you to touch"
	}
	if when == "" {
		return core
	}
	return upperFirst(when) + ", " + lowerFirst(core)
}

// imperative is the instruction to do (or never do) object.
func imperative(negative bool, object string) string {
	first, _, _ := strings.Cut(strings.ToLower(object), " ")
	if first != "i" {
		object = lowerFirst(object) // "Respond in Spanish" follows "Always"
	}
	switch {
	case negative && startsWithVerb(object):
		return "Never " + object
	case negative:
		return "Avoid " + object
	case first == "prefer" || first == "favor" || first == "favour" || first == "be":
		return upperFirst(object)
	}
	return "Always " + object
}

// startsWithVerb reports whether an instruction's object opens with what
// to do ("use npm", "force-push to main") rather than a thing ("default
// exports") or a gerund ("using any").
func startsWithVerb(object string) bool {
	first, _, _ := strings.Cut(strings.ToLower(object), " ")
	first = strings.TrimRight(first, ",;:.!")
	if first == "just" || first == "only" || first == "simply" {
		// "never just hand me code": an adverb before the verb
		_, rest, _ := strings.Cut(strings.ToLower(object), " ")
		next, _, _ := strings.Cut(rest, " ")
		return next != "" && (imperativeVerbs()[next] || moreVerbs()[next] || isVerb(next) || taskVerbs()[next])
	}
	if strings.HasSuffix(first, "ing") && !imperativeVerbs()[first] {
		return false
	}
	if head, _, ok := strings.Cut(first, "-"); ok && (imperativeVerbs()[head] || moreVerbs()[head]) {
		return true // "squash-merge", "force-push"
	}
	if imperativeVerbs()[first] || moreVerbs()[first] || isVerb(first) {
		return true
	}
	_, rest, _ := strings.Cut(strings.ToLower(object), " ")
	return verbBeforeObject(first, rest)
}

// lowerFirst lowers the opening word of an instruction ("Always",
// "Never", "Prefer") to follow a condition.
func lowerFirst(s string) string {
	if s == "" || len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s // an acronym: "CSS modules", "API keys"
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// moreVerbs open instructions without being among the verbs that may
// open a bare imperative (imperativeVerbs): after "never" or "don't" they
// still say what not to do.
var moreVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`force-push touch reformat edit modify change hardcode hard-code
		disable enable bypass skip ignore swallow catch throw mutate expose leak share upload post
		copy paste mix introduce bump upgrade downgrade downgrade rewrite reorder amend force use
		add drop truncate reset revert close approve suggest recommend assume guess invent make
		leave put change go write run call install uninstall delete remove rename commit push
		merge deploy release ship publish send email ping mention tag squash rebase cherry-pick
		check in depend rely nest inline wrap apologize apologise repeat restate overwrite pin
		trust log print store hide block silence retry sleep sudo chmod vendor fork patch
		monkey-patch shadow reuse duplicate guess fabricate invent fake stub
		spin tear boot roll wire scale shut stand bring pull break fire
		match respect honor honour conform maintain preserve double hand dump`) { // heads of phrasal verbs: spin up, tear down, roll back, wire up
		m[w] = true
	}
	return m
})

// InStep reports whether statement says what the triple says in the words
// the extractor renders it with: "User lives in Lisbon" is in step with
// (user, lives_in, lisbon), "User moved to Lisbon" and "Assistant should
// run the linter" (a sentence of an older extractor) are not. A fact whose
// statement is out of step with its triple is rendered again (consolidate).
func InStep(statement, subject, predicate, object string, negated bool) bool {
	if subject == SubjectAssistant || strings.HasPrefix(predicate, "should") {
		core := strings.ToLower(imperative(strings.HasPrefix(predicate, "should_not"), object))
		return strings.Contains(strings.ToLower(statement), core)
	}
	const mark = "\x00"
	tmpl := relations.Render(subject, predicate, mark)
	if negated {
		tmpl = relations.RenderNot(subject, predicate, mark)
	}
	before, after, _ := strings.Cut(tmpl, mark)
	if subject != SubjectUser && subject != SubjectProject {
		// a named subject is shown as written: compare without case
		statement, before, after = strings.ToLower(statement), strings.ToLower(before), strings.ToLower(after)
	}
	rest, ok := strings.CutPrefix(statement, before)
	if !ok {
		return false
	}
	shown := rest
	if after != "" {
		i := strings.Index(rest, after)
		if i < 0 {
			return false
		}
		shown = rest[:i]
	}
	return names(strings.ToLower(strings.TrimSpace(shown)), object)
}

// names reports whether a shown object names the canonical one: as
// written ("Lisbon"), as its tool is spelled ("PostgreSQL"), or with a
// version or a detail after it ("Node.js", "tabs over spaces").
func names(shown, object string) bool {
	for _, prep := range []string{"in ", "on ", "at ", "with ", "through ", "via "} {
		if rest, ok := strings.CutPrefix(shown, prep); ok && !strings.HasPrefix(object, prep) {
			shown = rest // "Project's events are in Cassandra"
			break
		}
	}
	if shown == object || strings.HasPrefix(shown, object+" ") || strings.HasPrefix(shown, object+",") {
		return true
	}
	if t, ok := lookupTool(object); ok {
		d := strings.ToLower(t.Display)
		return shown == d || strings.HasPrefix(shown, d+" ")
	}
	return false
}

var pronounI = lazyRegexp(`\bi\b`)

// endedRe marks a denial that says something stopped: "anymore", "no
// longer", "used to", "stopped", "X is gone", "goodbye X", "not … now".
var endedRe = lazyRegexp(`(?i)\b(?:any ?more|no longer|no more|used to|stopped|quit|left|gone|history|retired|ditched|dropped|goodbye|moved (?:on|off|away)|ripped out|got rid of|got off|migrated off|phased out|removed|deprecated|not .{0,40}\b(?:now|these days|nowadays))\b`)
