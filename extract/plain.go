package extract

import "strings"

// Conventions stated as how things are ("every migration must be
// reversible", "errors are wrapped with context", "logs go to stdout")
// were rendered as "Always ensure every migration is reversible". Where
// the rule names what to do to the thing, the plain imperative reads
// better and says the same: "Always make every migration reversible",
// "Always keep errors wrapped with context", "Always send logs to
// stdout".
// plainImperative rewrites such an "ensure" object; anything it cannot
// say plainly keeps its "ensure".

var (
	// ensureIs: "ensure every sql query is parameterized", "ensure errors
	// are wrapped with context", "ensure every migration is reversible".
	ensureIs = lazyRegexp(`^ensure ((?:(?:every|each|all|our) )?[a-z0-9_.-]+(?: [a-z0-9_.-]+){0,4}?) (?:is|are) ([a-z]+)((?: (?:with|by|via|using|through|in|on|as|before|after|at|from|into|against|under) .+)?)$`)
	// ensureValue: "ensure all times in the api are iso 8601 in utc",
	// "ensure every handler is a pure function".
	ensureValue = lazyRegexp(`^ensure ((?:every|each|all) [a-z0-9_.-]+(?: [a-z0-9_.-]+){0,5}?) (?:is|are) (.+)$`)
	// ensureGoes: "ensure prs go to master", "ensure all user-facing
	// strings go through the i18n helper", "ensure secrets live in vault".
	ensureGoes = lazyRegexp(`^ensure ((?:(?:every|each|all|our) )?[a-z0-9_.-]+(?: [a-z0-9_.-]+){0,4}?) (go|goes|live|lives|belong|belongs|stay|stays) (to|through|via|in|into|under) (.+)$`)
)

// onlyTail is a way of doing a thing said as the only one: "squash merge
// only", "rebase only".
var onlyTail = lazyRegexp(`^[a-z]+(?:[ -][a-z]+){0,2} only$`)

// changeRequests name the requests that go to a branch.
var changeRequests = map[string]bool{"prs": true, "all prs": true, "pull requests": true, "all pull requests": true,
	"mrs": true, "merge requests": true, "all merge requests": true}

// irregularParticiples are participles that do not end in -ed, with their
// verbs.
var irregularParticiples = map[string]string{"written": "write", "kept": "keep", "made": "make", "built": "build",
	"sent": "send", "held": "hold", "taken": "take", "given": "give", "shown": "show", "split": "split",
	"bound": "bind", "hidden": "hide", "drawn": "draw", "run": "run", "set": "set", "put": "put"}

// goesVerbs say what to do to a thing for it to go somewhere.
var goesVerbs = map[string]string{"go to": "send %s to", "goes to": "send %s to", "go through": "pass %s through",
	"goes through": "pass %s through", "go via": "send %s via", "goes via": "send %s via", "go in": "put %s in",
	"goes in": "put %s in", "go into": "put %s into", "goes into": "put %s into", "go under": "put %s under",
	"goes under": "put %s under", "live in": "keep %s in", "lives in": "keep %s in", "live under": "keep %s under",
	"lives under": "keep %s under", "belong in": "put %s in", "belongs in": "put %s in", "stay in": "keep %s in",
	"stays in": "keep %s in"}

// plainImperative rewrites an "ensure" object as the act it asks for.
func plainImperative(obj string) string {
	if !strings.HasPrefix(obj, "ensure ") {
		return obj
	}
	if head, tail, ok := strings.Cut(obj, ", "); ok {
		if !onlyTail().MatchString(tail) {
			return obj
		}
		// "prs go to master, squash merge only": the rule, then a second
		// one said as a way to do it only
		if plain := plainImperative(head); plain != head {
			return plain + "; " + tail
		}
		return obj
	}
	if m := ensureGoes().FindStringSubmatch(obj); m != nil {
		if changeRequests[m[1]] && (m[3] == "to" || m[3] == "into") {
			return "open " + m[1] + " against " + m[4] // "open prs against master"
		}
		if (m[3] == "through" || m[3] == "via") && (massNoun(m[1]) || lastOf(m[1]) == "logging") {
			return "use " + m[4] + " for " + m[1] // "use slog for logging"
		}
		if form, ok := goesVerbs[m[2]+" "+m[3]]; ok && !badStart()[headWord(m[1])] {
			return strings.Replace(form, "%s", m[1], 1) + " " + m[4]
		}
	}
	if m := ensureIs().FindStringSubmatch(obj); m != nil && !badStart()[headWord(m[1])] {
		part := m[2]
		base, ok := irregularParticiples[part]
		if !ok && !stateParticiples[part] && part != "based" && part != "used" {
			base, ok = participleBase(part)
		}
		if !ok && strings.HasSuffix(part, "ed") && len(part) > 5 && !stateParticiples[part] && !stateWords()[part] {
			base, ok = part, true // "parameterized", "paginated": a participle of a verb not listed
		}
		if ok && base != "" {
			// "keep every sql query parameterized", "keep errors wrapped
			// with context": the participle keeps the words the person
			// used, which recall and a reader look for
			return "keep " + m[1] + " " + part + m[3]
		}
		if m[3] == "" && !strings.HasSuffix(part, "ing") && !strings.HasSuffix(part, "ed") && !stateWords()[part] {
			if _, tool := lookupTool(part); !tool && !isConvention(part) {
				return "make " + m[1] + " " + part // "make every migration reversible"
			}
		}
	}
	if m := ensureValue().FindStringSubmatch(obj); m != nil {
		val := m[2]
		switch first := firstWord(val); {
		case first == "a" || first == "an":
			return "make " + m[1] + " " + val // "make every handler a pure function"
		case first == "in":
			val = strings.TrimPrefix(val, "in ") // "all dates are in utc"
		case prepositions()[first] || first == "not" || first == "never" || strings.HasSuffix(first, "ing") || strings.HasSuffix(first, "ed"):
			return obj
		}
		return "use " + val + " for " + m[1] // "use iso 8601 in utc for all times in the api"
	}
	return obj
}

// headWord is the first word of a noun phrase after its quantifier: "all
// user-facing strings" is headed by "user-facing".
func headWord(np string) string {
	for _, q := range []string{"all ", "every ", "each ", "our "} {
		np = strings.TrimPrefix(np, q)
	}
	return firstWord(np)
}
