package extract

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// tailCut marks where an object phrase stops and a reason or aside begins:
// "tabs because they are accessible" is about tabs.
var tailCut = lazyRegexp(`\s*,?\s+(?:because|since|so that|so|which|where|when|whenever|unless|except|but|though|although|as it|as they|and it|and they|while|whereas|until|if|like|given that|due to)\b|\s*,\s*(?:which|since|because|as|and|so)\b|\s+-\s+`)

var trailingQualifier = lazyRegexp(`(?:\s+(?:too|as well|also|now|anymore|any more|instead|mostly|everywhere|here|in general|by default|for everything|for all projects|for all our projects|for all my projects|for (?:this|the) (?:project|repo|codebase)|in (?:this|the|our) (?:repo|project|codebase)|exclusively|heavily|a lot|these days|nowadays|at work|day to day|daily|every day|personally|always|these days|lately|for work|for personal projects|at home|originally))+$`)

// timeTail is when something happened, not what it was: "Fly.io last year".
var timeTail = lazyRegexp(`\s+(?:(?:last|this|next) (?:week|month|year|summer|winter|spring|fall|autumn)|(?:a |one |two |three |four |five |six |a few |a couple of |few |\d+ )?(?:days?|weeks?|months?|years?) ago|recently|lately|in \d{4}|in (?:january|february|march|april|may|june|july|august|september|october|november|december|the spring|the summer|the fall|the autumn|the winter|spring|summer|fall|autumn|winter)(?: \d{4})?|back in \d{4}|yesterday|for work|with my (?:family|wife|husband|partner|kids))$`)

// badStart words open a phrase that refers to something outside the clause
// ("it", "that approach") or is no value at all ("something", "whatever").
var badStart = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"it": true, "this": true, "that": true, "these": true, "those": true, "them": true,
		"they": true, "he": true, "she": true, "his": true, "her": true, "their": true,
		"your": true, "you": true, "my": true, "our": true, "some": true, "any": true,
		"what": true, "how": true, "which": true, "whatever": true, "why": true, "when": true,
		"where": true, "who": true, "whether": true, "if": true, "there": true, "one": true,
		"something": true, "anything": true, "everything": true, "nothing": true, "stuff": true,
		"things": true, "both": true, "either": true, "neither": true, "all": true, "lots": true,
		"lot": true, "more": true, "less": true, "same": true, "such": true, "other": true,
		"another": true, "none": true, "me": true, "us": true, "him": true, "myself": true,
		"ourselves": true, "yourself": true, "not": true, "no": true, "to": true,
	}
})

// nounPhrase cleans a captured object: it cuts trailing reasons and
// qualifiers, strips articles and refuses pronouns, quotes and long phrases.
func nounPhrase(s string, maxWords int) (string, bool) {
	if loc := tailCut().FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	s = strings.Trim(s, " ,.;:!\"'`")
	s = timeTail().ReplaceAllString(s, "")
	s = trailingQualifier().ReplaceAllString(s, "")
	for _, a := range []string{"the ", "a ", "an "} {
		s = strings.TrimPrefix(s, a)
	}
	s = strings.Trim(s, " ,.;:!\"'`")
	if s == "" || strings.Contains(s, placeholder) {
		return "", false
	}
	words := strings.Fields(s)
	if len(words) > maxWords || badStart()[words[0]] {
		return "", false
	}
	return strings.Join(words, " "), true
}

// altSplit separates "X instead of Y" / "X over Y" / "X, not Y". kind is
// "instead" when Y is being replaced and "over" when it is only ranked below.
var altSplit = lazyRegexp(`^(.+?)\s*,?\s+(instead of|rather than|in place of|in favou?r of|over|more than|better than|and not|but not|not)\s+(.+)$`)

func splitAlternative(s string) (obj, alt, kind string) {
	m := altSplit().FindStringSubmatch(s)
	if m == nil {
		return s, "", ""
	}
	switch m[2] {
	case "over", "more than", "better than":
		kind = "over"
	default:
		kind = "instead"
	}
	return m[1], m[3], kind
}

var listSep = lazyRegexp(`\s*,\s*and\s+|\s*,\s*|\s+and\s+|\s+&\s+|\s+plus\s+|\s*\+\s+`)

// splitList splits "Postgres and Redis" into its items when every item is
// short; a longer phrase stays whole.
func splitList(s string) []string {
	parts := listSep().Split(s, -1)
	if len(parts) == 1 {
		return parts
	}
	for _, p := range parts {
		if n := len(strings.Fields(p)); n == 0 || n > 4 {
			return []string{s}
		}
	}
	out := parts[:1]
	for _, p := range parts[1:] {
		if !modifierWord(strings.TrimSpace(p)) {
			out = append(out, p)
		}
	}
	return out
}

// modifierWord says whether a word after a value describes it rather than
// naming a second one: a participle or an adjective of status ("our CI is
// Woodpecker, self-hosted", "it's legacy", "Postgres, managed").
func modifierWord(w string) bool {
	if strings.Contains(w, " ") || w == "" {
		return false
	}
	if _, tool := lookupTool(w); tool {
		return false
	}
	if stateWords()[w] || statusAdjectives()[w] {
		return true
	}
	return len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.ContainsAny(w, "0123456789.")
}

// participleValue says whether a value is one lowercase past participle
// ("protected", "deprecated", "self-hosted"), which describes a thing
// rather than naming it.
func participleValue(w string) bool {
	if strings.Contains(w, " ") || len(w) <= 4 || !strings.HasSuffix(w, "ed") || strings.ContainsAny(w, "0123456789.") {
		return false
	}
	_, tool := lookupTool(w)
	return !tool
}

// statusAdjectives say what state or kind a tool is in, never which tool.
var statusAdjectives = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`legacy obsolete experimental stable unstable beta alpha free paid internal external
		local remote custom homegrown home-grown in-house bespoke vanilla standard default ancient modern temporary
		temp ephemeral mandatory optional cheap expensive shared dedicated serverless`) {
		m[w] = true
	}
	return m
})

// display finds obj in the original span and returns it as written, so the
// statement says "Tokyo" where the object says "tokyo".
func display(span, obj string) string {
	lower := strings.ToLower(span)
	if len(lower) == len(span) {
		if i := strings.Index(lower, obj); i >= 0 {
			return span[i : i+len(obj)]
		}
	}
	// the object was reworded ("every new endpoint has an OpenAPI entry"):
	// each word written with capitals keeps them
	written := map[string]string{}
	for _, w := range strings.Fields(span) {
		w = strings.Trim(w, ",.;:!?()\"'")
		if l := strings.ToLower(w); l != w && len(w) > 1 {
			written[l] = w
		}
	}
	if len(written) == 0 {
		return obj
	}
	words := strings.Fields(obj)
	for i, w := range words {
		if d, ok := written[w]; ok {
			words[i] = d
		}
	}
	return strings.Join(words, " ")
}

// toolDisplay names a tool as its makers spell it, other objects as written.
func toolDisplay(span, obj string) string {
	if t, ok := lookupTool(obj); ok && t.Name == obj {
		return t.Display
	}
	return display(span, obj)
}

// capitalized reports whether word appears in span with a capital letter.
func capitalized(span, word string) bool {
	d := display(span, word)
	r, _ := utf8.DecodeRuneInString(d)
	return unicode.IsUpper(r)
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

var nonWord = lazyRegexp(`[^a-z0-9]+`)

var ctxStopwords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"the": true, "a": true, "an": true, "i": true, "you": true,
		"we": true, "is": true, "are": true, "am": true, "my": true, "your": true, "our": true, "to": true}
})

// snake turns a short phrase into a predicate fragment: "the user is upset"
// becomes "user_upset". At most maxWords words are kept.
func snake(s string, maxWords int) string {
	var words []string
	for w := range strings.FieldsSeq(nonWord().ReplaceAllString(strings.ToLower(s), " ")) {
		if ctxStopwords()[w] {
			continue
		}
		words = append(words, w)
		if len(words) == maxWords {
			break
		}
	}
	return strings.Join(words, "_")
}

// verbPrefixes derive a verb from a verb: "regenerate", "unpin",
// "pre-commit", "re-run", "overwrite".
var verbPrefixes = []string{"re-", "re", "un", "pre-", "pre", "de", "over", "auto-", "auto"}

// isVerb reports whether word can open an imperative: a verb the
// extractor knows, one derived from it by a prefix ("regenerate",
// "unpin"), or a hyphenated compound whose head is one ("squash-merge",
// "force-push"). It reads the word's form, so a new verb of a known stem
// needs no list.
func isVerb(word string) bool {
	w := strings.TrimRight(strings.ToLower(word), ",.;:!")
	if w == "" {
		return false
	}
	if imperativeVerbs()[w] || moreVerbs()[w] {
		return true
	}
	if head, _, ok := strings.Cut(w, "-"); ok && head != "" && (imperativeVerbs()[head] || moreVerbs()[head]) {
		return true
	}
	for _, p := range verbPrefixes {
		if stem, ok := strings.CutPrefix(w, p); ok && len(stem) >= 3 && (imperativeVerbs()[stem] || moreVerbs()[stem]) {
			return true
		}
	}
	return false
}

// taskVerbs open a request for work in a prompt ("fix the flaky test",
// "find every caller", "draft a note"); they are not among the verbs a
// standing rule is read by, where "get" or "look" would open chat.
var taskVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`fix debug implement load find search parse convert port migrate clean draft
		sign connect help get move extract fetch investigate look optimize optimise swap schedule remind
		translate compute calculate wire hook cache paginate filter sanitize profile trace diagnose`) {
		m[w] = true
	}
	return m
})

// IsVerb reports whether word can open a request for work ("add",
// "rename", "regenerate", "squash-merge", "fix"): recall reads a prompt
// that opens with one as a task.
func IsVerb(word string) bool {
	return isVerb(word) || taskVerbs()[strings.TrimRight(strings.ToLower(word), ",.;:!")]
}
