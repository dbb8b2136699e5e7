package relations

import (
	"strings"
	"sync"
)

// Render states that subject stands in the relation named by predicate to
// the object as displayed: the relation's template, or, for a predicate no
// relation names, a sentence built from the predicate's shape —
// uses_for_validation ("Project uses Zod for validation"),
// uses_database_in_tests ("Project uses SQLite in tests"),
// favorite_color_is ("User's favorite color is blue").
func Render(subject, predicate, object string) string {
	return fill(templateOf(predicate), subject, object)
}

// RenderNot states that the relation does not hold: "User does not live in
// Berlin", "Project does not use Yarn as its package manager".
func RenderNot(subject, predicate, object string) string {
	return fill(negate(templateOf(predicate)), subject, object)
}

// RenderNoLonger renders a fact that stopped being true: "User no longer
// uses Sublime Text as their editor", "User's manager is no longer Kim".
func RenderNoLonger(subject, predicate, object string) string {
	return fill(noLonger(templateOf(predicate)), subject, object)
}

// Template returns the template a predicate's sentences are rendered
// from, as Render uses it.
func Template(predicate string) string { return templateOf(predicate) }

func templateOf(predicate string) string {
	if r, ok := byPredicate()[predicate]; ok {
		return r.template()
	}
	words := func(s string) string { return strings.ReplaceAll(s, "_", " ") }
	if purpose, ok := strings.CutPrefix(predicate, "uses_for_"); ok {
		return "{S} uses {O} for " + words(purpose)
	}
	if i := strings.LastIndex(predicate, "_in_"); i > 0 && strings.HasPrefix(predicate, "uses") {
		return "{S} uses {O} in " + words(predicate[i+len("_in_"):])
	}
	if slot, ok := strings.CutSuffix(predicate, "_is"); ok && slot != "" {
		if plural(words(slot)) {
			return "{S}'s " + words(slot) + " are {O}" // "Project's tickets are in Linear"
		}
		return "{S}'s " + words(slot) + " is {O}"
	}
	return "{S} " + words(predicate) + " {O}"
}

// negate turns a template into its denial: "{S} lives in {O}" into "{S}
// does not live in {O}", "{S}'s name is {O}" into "{S}'s name is not {O}".
func negate(t string) string {
	for _, be := range []string{" {is} ", " is ", " are "} {
		if i := strings.Index(t, be); i >= 0 && !strings.Contains(t[:i], " ") || i >= 0 && strings.HasPrefix(t, "{S}'s ") {
			return t[:i] + be + "not " + t[i+len(be):]
		}
	}
	rest, ok := strings.CutPrefix(t, "{S} ")
	if !ok {
		return "It is not true that " + t
	}
	verb, tail, _ := strings.Cut(rest, " ")
	return "{S} does not " + baseForm(verb) + " " + tail
}

// noLonger turns a template into the end of what it states: "{S} lives
// in {O}" into "{S} no longer lives in {O}", "{S}'s name is {O}" into
// "{S}'s name is no longer {O}".
func noLonger(t string) string {
	for _, be := range []string{" {is} ", " is ", " are "} {
		if i := strings.Index(t, be); i >= 0 && !strings.Contains(t[:i], " ") || i >= 0 && strings.HasPrefix(t, "{S}'s ") {
			return t[:i] + be + "no longer " + t[i+len(be):]
		}
	}
	rest, ok := strings.CutPrefix(t, "{S} ")
	if !ok {
		return "It is no longer true that " + t
	}
	return "{S} no longer " + rest
}

// baseForm is the bare infinitive of a third-person verb: "lives" →
// "live", "runs" → "run", "does" → "do".
func baseForm(verb string) string {
	switch verb {
	case "does":
		return "do"
	case "has":
		return "have"
	case "goes":
		return "go"
	}
	return strings.TrimSuffix(verb, "s")
}

// versionOf maps a tool to the relation holding its version.
var versionOf = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range table {
		if r.VersionOf != "" {
			m[r.VersionOf] = r.Predicate
		}
	}
	return m
})

// VersionPredicate returns the predicate that holds the version of a tool
// ("node" → node_version_is), if credence keeps one.
func VersionPredicate(tool string) (string, bool) {
	p, ok := versionOf()[tool]
	return p, ok
}

// IsToolPredicate reports whether predicate names the tool a subject uses
// for a job (its relation takes its values from a tool category).
func IsToolPredicate(predicate string) bool {
	r, ok := byPredicate()[predicate]
	return ok && r.Category != ""
}
