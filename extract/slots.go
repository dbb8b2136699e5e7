package extract

import (
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// Slot statements: "my timezone is CET", "our CI is GitHub Actions", "my
// favorite language is Go", "this repo is written in TypeScript", "this is a
// Next.js app".

var (
	slotIsRe   = lazyRegexp(`^(my|our|the|this (?:repo|project|app)'s|the (?:repo|project|app)'s|this (?:repo|project|app)|the (?:repo|project|app)) ((?:[a-z/-]+ ){0,2}[a-z/-]+) (?:is|are|=|:) (.+)$`)
	builtInRe  = lazyRegexp(`^(?:` + subj[1:len(subj)-1] + `|it|this|everything|the whole thing) (?:is|are) (?:mostly |entirely |all |fully )?(?:written|built|implemented|coded|made|developed|done) (?:in|with|on|using) (.+)$`)
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

func matchSlot(c *clause) []Fact {
	m := slotIsRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	owner, slot, value := m[1], m[2], m[3]
	subject := SubjectProject
	if owner == "my" {
		subject = SubjectUser
	}
	slot = strings.TrimSuffix(strings.TrimPrefix(slot, "name "), "'s")
	slot = strings.TrimSuffix(slot, " of choice") // "our editor of choice"
	favorite := false
	if f := favoriteRe().FindStringSubmatch(slot); f != nil {
		slot, favorite = f[1], true
	}
	if cat, ok := slotCategory()[slot]; ok {
		return slotTools(c, subject, cat, value, favorite)
	}
	pred, ok := slotPredicate()[slot]
	if !ok && subject == SubjectProject && projectPart().MatchString(slot) {
		return partTools(c, value) // "our backend is Django + Celery"
	}
	if !ok {
		if favorite && subject == SubjectUser && len(strings.Fields(slot)) <= 2 {
			pred = "favorite_" + snake(slot, 2) + "_is"
		} else {
			return nil
		}
	}
	if subject == SubjectProject && !projectSlots()[slot] {
		return nil
	}
	obj, ok := nounPhrase(value, 4)
	if !ok {
		return nil
	}
	shown := display(c.span, obj)
	if pred == "name_is" || pred == "lives_in" || pred == "is_from" || pred == "manager_is" {
		shown = upperWords(shown)
	}
	owner = "User's "
	if subject == SubjectProject {
		owner = "Project's "
	}
	noun := slot
	if favorite {
		noun = "favorite " + slot
	}
	stmt := owner + noun + " is " + shown
	switch pred {
	case "works_at":
		stmt = "User works at " + shown
	case "lives_in":
		stmt = "User lives in " + shown
	}
	return []Fact{{Subject: subject, Predicate: pred, Object: obj, Statement: stmt}}
}

// slotTools reads the value of a tool slot: "our CI is GitHub Actions".
func slotTools(c *clause, subject, cat, value string, favorite bool) []Fact {
	var out []Fact
	for _, part := range splitList(value) {
		obj, ok := nounPhrase(part, 4)
		if !ok || !hasLetter().MatchString(obj) {
			continue
		}
		pred := categoryPredicate()[cat]
		if t, known := lookupTool(obj); known {
			obj = t.Name
		}
		verb := " uses "
		if favorite {
			verb = " prefers "
		}
		out = append(out, Fact{Subject: subject, Predicate: pred, Object: obj,
			Statement: subjectDisplay(subject) + verb + toolDisplay(c.span, obj) + " as " + display(c.span, strings.ReplaceAll(cat, "_", " "))})
	}
	return out
}

// projectPart matches a noun naming a part of the project.
var projectPart = lazyRegexp(`^(?:[a-z0-9.-]+ )?(?:` + projectNouns + `)$`)

// partTools reads the known tools a part of the project is made of; words
// that are not tools say nothing.
func partTools(c *clause, value string) []Fact {
	var out []Fact
	for _, part := range splitList(strings.ReplaceAll(value, "/", " and ")) {
		obj, ok := nounPhrase(part, 3)
		if !ok {
			continue
		}
		if t, known := lookupTool(obj); known {
			out = append(out, Fact{Subject: SubjectProject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name,
				Statement: "Project uses " + t.Display})
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
	case toolDoesRe().MatchString(c.text):
		// "Prettier handles formatting": a tool named as the subject of a job
		m := toolDoesRe().FindStringSubmatch(c.text)
		t, known := lookupTool(m[1])
		hint, isSlot := slotCategory()[m[2]]
		if !known || !isSlot {
			return nil
		}
		return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[pickCategory(t, nil, hint)],
			Object: t.Name, Statement: "Project uses " + t.Display + " for " + display(c.span, m[2])}}
	case toolUserRe().MatchString(c.text):
		m := toolUserRe().FindStringSubmatch(c.text)
		t, known := lookupTool(m[1])
		if !known {
			return nil
		}
		pred, verb := categoryPredicate()[t.Categories[0]], " uses "
		if m[2] == "fan" {
			pred, verb = "likes", " likes "
		}
		return []Fact{{Subject: SubjectUser, Predicate: pred, Object: t.Name, Statement: "User" + verb + t.Display}}
	default:
		return nil
	}
	var out []Fact
	for _, part := range splitList(strings.ReplaceAll(value, "/", " and ")) {
		obj, ok := nounPhrase(part, 3)
		if !ok {
			continue
		}
		t, known := lookupTool(obj)
		if !known {
			continue
		}
		out = append(out, Fact{Subject: SubjectProject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name,
			Statement: "Project is built with " + t.Display})
	}
	return out
}
