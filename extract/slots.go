package extract

import (
	"slices"
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// Slot statements: "my timezone is CET", "our CI is GitHub Actions", "my
// favorite language is Go", "this repo is written in TypeScript", "this is a
// Next.js app".

var (
	slotIsRe  = lazyRegexp(`^(my|our|the|this (?:repo|project|app)'s|the (?:repo|project|app)'s|this (?:repo|project|app)|the (?:repo|project|app)) ((?:[a-z/-]+ ){0,2}[a-z/-]+)(?: is| are| =|:|'s) (.+)$`)
	builtInRe = lazyRegexp(`^(?:` + subj[1:len(subj)-1] + `|it|this|everything|the whole thing) (?:is|are) (?:mostly |entirely |all |fully )?(?:(?:written|built|implemented|coded|made|developed|done) (?:in|with|on|using)|in) (.+)$`)
	// dataInRe: "our data lives in Postgres", "everything is stored in MySQL".
	dataInRe = lazyRegexp(`^(?:our |the |all (?:our |the )?|everything|all)(?:data|records|state)? ?(?:lives|live|is stored|are stored|is kept|are kept|sits|sit|is persisted|are persisted) in (.+)$`)
	// toolVerbRe: "dprint formats everything now", "ruff lints the code".
	toolVerbRe = lazyRegexp(`^([a-z0-9.+# -]+?) (formats|lints|bundles|type-?checks|runs (?:the |our |all )?tests|runs ci|does (?:the )?(?:formatting|linting|bundling))\b`)
	productRe  = lazyRegexp(`^(?:we|i) (?:ship|build|make|maintain|develop|have|write|sell|run) (?:a|an|the|our) [a-z0-9 .-]+? (?:written|built|implemented|made) (?:in|with) (.+)$`)
	kindOfRe   = lazyRegexp(`^(?:this|it|we|(?:this|the|our) (?:repo|repository|project|codebase|app|service|product)) (?:is|are) (?:a|an) (.+?) (?:shop|house|team|company|project|repo|repository|codebase|app|application|service|monorepo|library|lib|cli|api|backend|frontend|website|site|tool|package|module|server|shop)$`)
	toolUserRe = lazyRegexp(`^i am (?:a|an) (?:big |huge |happy |longtime |long-time |die-hard |heavy )?(.+?) (user|person|guy|gal|girl|fan|shop)$`)
	toolDoesRe = lazyRegexp(`^([a-z0-9.+# -]+?) (?:handles|does|takes care of|is used for|is responsible for|runs|manages) (?:all )?(?:of )?(?:our |the )?(.+)$`)
	favoriteRe = lazyRegexp(`^(?:favorite|favourite|preferred|go-to) (.+)$`)
)

// slotPredicate maps the noun of "my X is Y" to its open-valued
// relation's predicate (relations.ByNoun).
var slotPredicate = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range relations.All() {
		if r.Category != "" {
			continue
		}
		for _, n := range r.Nouns {
			m[n] = r.Predicate
		}
	}
	return m
})

// projectSlots are the nouns of slotPredicate that may be said of the
// project ("our default branch is main"); the rest only of the user.
var projectSlots = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range relations.All() {
		if r.Category == "" && r.Said(relations.Project) {
			for _, n := range r.Nouns {
				m[n] = true
			}
		}
	}
	return m
})

var (
	// slotReversed: "Postgres is our database", "Sara is my manager now".
	slotReversed = lazyRegexp(`^(.+?) (?:is|are) (?:now |currently |still )?(my|our|the) (?:new |current |main |primary |default |official )?((?:[a-z/-]+ ){0,2}[a-z/-]+)$`)
	// slotChanged: "I changed my timezone to CET", "the API port changed
	// to 4000".
	slotChangedBy = lazyRegexp(`^(?:i|we) ` + adv + `(?:changed|switched|updated|set|moved|bumped) (my|our|the) ((?:[a-z/-]+ ){0,2}[a-z/-]+?) (?:from (\S+) )?to (.+)$`)
	slotChanged   = lazyRegexp(`^(my|our|the) ((?:[a-z/-]+ ){0,2}[a-z/-]+) (?:has |was |just |now )?(?:changed|moved|switched|been changed|been moved) to (.+)$`)
	// slotBare: "CI is Buildkite", "package manager: pnpm" (tool slots only).
	slotBare = lazyRegexp(`^((?:[a-z/-]+ ){0,2}[a-z/-]+) (?:is|are|=|:) (.+)$`)
	// slotLabel: "Frontend: Svelte", "New manager: Dana", "Hosting: AWS".
	slotLabel = lazyRegexp(`^((?:[a-z/-]+ ){0,2}[a-z/-]+)\s*:\s*(.+)$`)
	// bareSlot is a slot named without "my" or "our": "node version is 20".
	bareSlot = lazyRegexp(`^((?:[a-z]+ )?(?:version|port|timezone|editor|deploy branch))\s+is\s+(.+)$|^(?:new|current) ((?:[a-z]+ )?[a-z]+)\s+is\s+(.+)$`)
	// possessiveName: "my manager's name is Lin".
	possessiveName = lazyRegexp(`^(my|our) ([a-z]+)(?:'s|s)? (?:name|first name|full name) is (.+)$`)
	// whatWeUse: "Jest is what we use for unit tests".
	whatWeUse = lazyRegexp(`^(.+?) is (?:what|where) (we|i) (?:use|run|rely on|deploy with|deploy|deploy to|host|host on)(?:\s+(for|as|to) ([^,]+?))?(\s*,?\s+(?:not|instead of|rather than) .+)?$`)
	// valueAlt: "3.13, was 3.11", "Monzo now, not Revolut", "Lee, not Kim".
	valueAlt = lazyRegexp(`^(.+?)\s*,?\s*(?:not|instead of|rather than|was|formerly|previously|used to be|no longer)\s+(.+?)\s*,?$`)
	// oldSlot modifiers name a value that no longer holds: "my old manager".
	oldSlot = lazyRegexp(`^(?:old|previous|former|ex|last|first) `)
)

// personSlots are further names people give a slot that holds a person:
// "my team lead is Fatima".
var personSlots = sync.OnceValue(func() map[string]string {
	return map[string]string{"team lead": "manager_is", "tech lead": "manager_is", "lead": "manager_is",
		"direct manager": "manager_is", "engineering manager": "manager_is", "em": "manager_is", "skip": "",
		"reporting manager": "manager_is", "new boss": "manager_is", "new manager": "manager_is"}
})

// valueAndOld splits a value from the old one beside it: "3.13, was 3.11"
// is ("3.13", "3.11"), "Monzo now, not Revolut" ("Monzo", "Revolut").
func valueAndOld(v string) (value, old string) {
	v = strings.TrimSpace(v)
	for _, p := range []string{"now ", "currently ", "still ", "actually "} {
		v = strings.TrimPrefix(v, p)
	}
	if m := valueAlt().FindStringSubmatch(v); m != nil {
		if o, ok := nounPhrase(m[2], 4); ok {
			return strings.TrimSuffix(strings.TrimSpace(m[1]), " now"), o
		}
	}
	return v, ""
}

// slotOf resolves the noun of "my X is Y": a tool slot's category or an
// open slot's predicate; a noun no relation knows may still end in one
// ("staging port", "api port").
func slotOf(slot string) (cat, pred string, ok bool) {
	slot = strings.TrimSuffix(strings.TrimSuffix(slot, " here"), " now")
	if p := personSlots()[slot]; p != "" {
		return "", p, true
	}
	for _, s := range []string{slot, lastOf(slot)} {
		if c, ok := slotCategory()[s]; ok {
			return c, "", true
		}
		if p, ok := slotPredicate()[s]; ok {
			return "", p, true
		}
	}
	return "", "", false
}

func matchSlot(c *clause) []Fact {
	t := c.text
	if m := whatWeUse().FindStringSubmatch(t); m != nil {
		sub := *c
		sub.text = m[2] + " use " + m[1]
		if m[3] != "" {
			sub.text += " " + m[3] + " " + m[4]
		}
		sub.text += m[5] // "pnpm is what we use, not npm"
		return matchUse(&sub)
	}
	changed := false
	if m := possessiveName().FindStringSubmatch(t); m != nil {
		t = m[1] + " " + m[2] + " is " + m[3]
	} else if m := slotChangedBy().FindStringSubmatch(t); m != nil {
		t, changed = m[1]+" "+m[2]+" is "+m[4], true
		if m[3] != "" {
			t += " instead of " + m[3] // "we changed the port from 3000 to 3100"
		}
	} else if m := slotChanged().FindStringSubmatch(t); m != nil {
		if strings.HasPrefix(m[3], "a ") || strings.HasPrefix(m[3], "an ") {
			return nil // "the team moved to a new office" names no value
		}
		t, changed = m[1]+" "+m[2]+" is "+m[3], true
	} else if m := labelled(t); m != nil && !strings.Contains(m[2], ":") {
		label := strings.TrimPrefix(strings.TrimPrefix(m[1], "new "), "current ")
		if cat, pred, known := slotOf(label); known || projectPart().MatchString(label) {
			owner := "our"
			if r, ok := relations.ByPredicate(pred); cat == "" && ok && !r.Said(relations.Project) {
				owner = "my"
			}
			t = owner + " " + label + " is " + m[2]
		}
	} else if m := slotReversed().FindStringSubmatch(t); m != nil && !strings.HasPrefix(m[1], "my ") && !strings.HasPrefix(m[1], "our ") {
		if _, _, known := slotOf(m[3]); known && !badStart()[firstWord(m[1])] {
			t = m[2] + " " + m[3] + " is " + m[1]
		}
	} else if m := slotBare().FindStringSubmatch(t); m != nil {
		// "CI is Buildkite" (but "CI is red again" names no tool), "Stack
		// is Rails + Postgres"
		if _, ok := slotCategory()[m[1]]; !ok && projectPart().MatchString(m[1]) && !strings.HasPrefix(m[1], "the ") {
			t = "our " + t
		} else if ok {
			if v, ok := nounPhrase(m[2], 4); ok {
				if _, tool := lookupTool(v); tool {
					t = "our " + t
				}
			}
		}
	}
	m := slotIsRe().FindStringSubmatch(t)
	if m == nil {
		return nil
	}
	owner, slot, value := m[1], m[2], m[3]
	if p, rest, ok := strings.Cut(value, " "); ok && (p == "on" || p == "in" || p == "with" || p == "using" || p == "at") {
		if _, tool := lookupTool(firstWords(rest, 3)); tool || len(strings.Fields(rest)) <= 2 && capitalized(c.span, firstWord(rest)) {
			value = rest // "our CI is on GitLab"
		} else {
			return nil // "my manager is on vacation", "our CI is on fire"
		}
	}
	subject := SubjectProject
	if owner == "my" {
		subject = SubjectUser
	}
	slot = strings.TrimSuffix(strings.TrimPrefix(slot, "name "), "'s")
	slot = strings.TrimSuffix(slot, " of choice") // "our editor of choice"
	slot = strings.TrimPrefix(strings.TrimPrefix(slot, "new "), "current ")
	if oldSlot().MatchString(slot) {
		return nil // "my old manager is Tom" says who it was
	}
	favorite := false
	if f := favoriteRe().FindStringSubmatch(slot); f != nil {
		slot, favorite = f[1], true
	}
	value, old := valueAndOld(value)
	cat, pred, known := slotOf(slot)
	if known && cat != "" {
		if (changed || owner == "the") && !namesTool(value) {
			// "I moved the tests to a new folder", "the tests are failing":
			// a tool slot changed or named by "the" needs a tool
			return nil
		}
		return slotTools(subject, cat, value, old)
	}
	if !known && subject == SubjectProject && projectPart().MatchString(slot) {
		return partTools(value) // "our backend is Django + Celery"
	}
	if !known {
		if favorite && subject == SubjectUser && len(strings.Fields(slot)) <= 2 {
			pred = "favorite_" + snake(slot, 2) + "_is"
		} else {
			return nil
		}
	}
	if subject == SubjectProject && !projectSlots()[slot] && !projectSlots()[lastOf(slot)] {
		return nil
	}
	obj, ok := nounPhrase(value, 4)
	if !ok {
		return nil
	}
	if (pred == "port_is" || strings.HasSuffix(pred, "_version_is")) && !versionLike().MatchString(obj) {
		return nil
	}
	return []Fact{{Subject: subject, Predicate: pred, Object: obj, Replaces: old, shownObject: showValue(pred, obj, c.span)}}
}

// slotTools reads the value of a tool slot: "our CI is GitHub Actions".
func slotTools(subject, cat, value, old string) []Fact {
	var out []Fact
	if t, known := lookupTool(old); known {
		old = t.Name
	}
	for _, part := range splitList(value) {
		obj, ok := nounPhrase(part, 4)
		if !ok || !hasLetter().MatchString(obj) {
			continue
		}
		pred := categoryPredicate()[cat]
		if t, known := lookupTool(obj); known {
			obj = t.Name
		} else if len(strings.Fields(obj)) > 2 || strings.HasSuffix(firstWord(obj), "ing") || objectTail().MatchString(obj) {
			continue // "failing on CI" is no tool
		}
		out = append(out, Fact{Subject: subject, Predicate: pred, Object: obj, Replaces: old})
	}
	return out
}

// projectPart matches a noun naming a part of the project.
var projectPart = lazyRegexp(`^(?:[a-z0-9.-]+ )?(?:` + projectNouns + `)$`)

// partTools reads the known tools a part of the project is made of; words
// that are not tools say nothing.
func partTools(value string) []Fact {
	var out []Fact
	value = strings.NewReplacer("/", " and ", " with ", " and ", " on ", " and ").Replace(value)
	for _, part := range splitList(value) {
		obj, ok := nounPhrase(part, 3)
		if !ok {
			continue
		}
		if t, known := lookupTool(obj); known {
			out = append(out, Fact{Subject: SubjectProject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name})
		}
	}
	return out
}

// matchBuiltIn reads "this repo is written in TypeScript" and "this is a
// Go project": only known tools count, "a small project" says nothing.
func matchBuiltIn(c *clause) []Fact {
	var value string
	switch {
	case builtInRe().MatchString(c.text):
		value = builtInRe().FindStringSubmatch(c.text)[1]
	case kindOfRe().MatchString(c.text):
		value = kindOfRe().FindStringSubmatch(c.text)[1]
	case productRe().MatchString(c.text):
		value = productRe().FindStringSubmatch(c.text)[1]
	case dataInRe().MatchString(c.text):
		m := dataInRe().FindStringSubmatch(c.text)
		obj, _ := nounPhrase(m[1], 3)
		if t, ok := lookupTool(obj); ok && slices.Contains(t.Categories, catDatabase) {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[catDatabase], Object: t.Name}}
		}
		return nil
	case toolVerbRe().MatchString(c.text):
		m := toolVerbRe().FindStringSubmatch(c.text)
		t, known := lookupTool(m[1])
		cat := verbCategory(m[2])
		if !known || !slices.Contains(t.Categories, cat) {
			return nil
		}
		return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[cat], Object: t.Name}}
	case toolDoesRe().MatchString(c.text):
		// "Prettier handles formatting": a tool named as the subject of a job
		m := toolDoesRe().FindStringSubmatch(c.text)
		t, known := lookupTool(m[1])
		hint, isSlot := slotCategory()[m[2]]
		if !known || !isSlot {
			return nil
		}
		return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[pickCategory(t, nil, hint)], Object: t.Name}}
	case toolUserRe().MatchString(c.text):
		m := toolUserRe().FindStringSubmatch(c.text)
		t, known := lookupTool(m[1])
		if !known {
			return nil
		}
		pred := categoryPredicate()[t.Categories[0]]
		if m[2] == "fan" {
			pred = "likes"
		}
		return []Fact{{Subject: SubjectUser, Predicate: pred, Object: t.Name}}
	default:
		return nil
	}
	var out []Fact
	old := ""
	if v, alt, kind := splitAlternative(value); kind == "instead" {
		if t, ok := lookupTool(strings.TrimSpace(alt)); ok {
			value, old = v, t.Name // "the backend is in Go, not Rust"
		}
	}
	for _, part := range splitList(strings.ReplaceAll(value, "/", " and ")) {
		obj, ok := nounPhrase(part, 3)
		if !ok {
			continue
		}
		t, known := lookupTool(obj)
		if !known {
			continue
		}
		f := Fact{Subject: SubjectProject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name}
		if o, ok := lookupTool(old); ok && old != "" && shareCategory(t, o) {
			f.Replaces = old
		}
		out = append(out, f)
	}
	return out
}

var (
	// deployBranchRe: "we deploy from the release branch", "we now ship
	// from main instead of release".
	deployBranchRe = lazyRegexp(`^` + subj + ` ` + adv + `(?:deploy|deploys|deployed|are deploying|release|releases|ship|ships|cut releases|cut our releases|build releases) (?:everything |to production |to prod |prod |production |releases )?(?:from|off of|off) (?:the |our )?([a-z0-9._/-]+)(?: branch)?(?:\s*,?\s+(?:instead of|not|rather than) (?:the |our )?([a-z0-9._/-]+)(?: branch)?)?$`)
	// portRe: "the API listens on port 8080", "the dev server runs on port
	// 5173".
	portIsRe      = lazyRegexp(`^(?:the |our )?(?:[a-z0-9.-]+ ){0,2}port(?: number)?(?: (?:for|of|on) (?:the |our )?[a-z0-9.-]+(?: [a-z0-9.-]+)?)? (?:is|=|:) (\d{2,5})$`)
	deploysFromRe = lazyRegexp(`^(?:production |prod |staging |our |the |all )*(?:deploys|deployments|releases|release builds|production builds) (?:now |currently )?(?:(?:come|go out|happen|are cut|are made|run|are built|are deployed|ship|go|come out|get cut|are shipped) )?(?:now )?(?:from|off) (?:the |our )?([a-z0-9._/-]+)(?: branch)?(?: now)?(?:\s*,?\s+(?:instead of|not|rather than|and not) (?:the |our |from )?([a-z0-9._/-]+)(?: branch)?)?$`)
	portRe        = lazyRegexp(`^(?:the |our |my )?(?:[a-z0-9.-]+ ){0,3}?(?:listens|listen|runs|run|is running|are running|is served|serves|lives|sits|binds|is exposed|is available|is up|is|are) (?:on|at|to) (?:port |localhost:|https?://localhost:|:)(\d{2,5})(?:\s*,?\s+(?:not|instead of) (?:port )?(\d{2,5}))?$`)
	// listensOn: "our API server listens on 8443" (the verb says it is a port).
	listensOn = lazyRegexp(`^(?:the |our |my )?(?:[a-z0-9.-]+ ){0,3}?(?:listens|binds|serves) (?:on|at|to) (\d{2,5})$`)
)

// matchDeployBranch reads the branch a project deploys from.
func matchDeployBranch(c *clause) []Fact {
	if !containsAny(c.text, " from ", " off ") {
		return nil
	}
	if m := deploysFromRe().FindStringSubmatch(c.text); m != nil && !badStart()[m[1]] {
		if _, tool := lookupTool(m[1]); !tool {
			return []Fact{{Subject: SubjectProject, Predicate: "deploy_branch_is", Object: m[1], Replaces: m[2]}}
		}
	}
	if !opensWithSubject(c.text) {
		return nil
	}
	m := deployBranchRe().FindStringSubmatch(c.text)
	if m == nil || badStart()[m[2]] {
		return nil
	}
	if _, tool := lookupTool(m[2]); tool {
		return nil // "we deploy from GitHub Actions" names no branch
	}
	return []Fact{{Subject: SubjectProject, Predicate: "deploy_branch_is", Object: m[2], Replaces: m[3]}}
}

// matchPort reads the port a part of the project listens on.
func matchPort(c *clause) []Fact {
	if !strings.Contains(c.text, "port") && !strings.Contains(c.text, "localhost:") && !strings.Contains(c.text, " :") && !strings.Contains(c.text, "listen") {
		return nil
	}
	if m := listensOn().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1]}}
	}
	if m := portIsRe().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1]}}
	}
	m := portRe().FindStringSubmatch(c.text)
	if m == nil || strings.HasPrefix(c.text, "i ") || strings.HasPrefix(c.text, "we ") || strings.HasPrefix(c.text, "it ") {
		return nil
	}
	return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1], Replaces: m[2]}}
}

// namesTool reports whether a value phrase names a known tool.
func namesTool(value string) bool {
	v, ok := nounPhrase(value, 4)
	if !ok {
		return false
	}
	_, known := lookupTool(v)
	return known
}

// verbCategory is the category of the tool that does a job: a formatter
// formats, a linter lints.
func verbCategory(verb string) string {
	switch {
	case strings.Contains(verb, "format"):
		return catFormatter
	case strings.Contains(verb, "lint"):
		return catLinter
	case strings.Contains(verb, "bundl"):
		return catBundler
	case strings.Contains(verb, "test"):
		return catTestRunner
	case strings.Contains(verb, "ci"):
		return catCI
	}
	return ""
}

// firstWords is the first n words of s, without punctuation after them.
func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	for len(ws) > 0 {
		cand := strings.Trim(strings.Join(ws[:min(n, len(ws))], " "), ",.;:!")
		if _, ok := lookupTool(cand); ok || n == 1 {
			return cand
		}
		n--
	}
	return ""
}

// labelled reads a slot written as a label ("editor: helix") or named
// without an owner ("node version is 20").
func labelled(t string) []string {
	if m := slotLabel().FindStringSubmatch(t); m != nil {
		return m
	}
	m := bareSlot().FindStringSubmatch(t)
	if m != nil && m[1] == "" {
		m = []string{m[0], m[3], m[4]} // "new manager is Tom"
	}
	return m
}
