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
	slotIsRe  = lazyRegexp(`^(my|our|the|this (?:repo|project|app)'s|the (?:repo|project|app)'s|this (?:repo|project|app)|the (?:repo|project|app)) ((?:[a-z0-9/-]+ ){0,2}[a-z][a-z0-9/-]*)(?: is| are| =|:|'s) (.+)$`)
	builtInRe = lazyRegexp(`^(?:` + subj[1:len(subj)-1] + `|it|this|everything|the whole thing) (?:is|are) (?:mostly |entirely |all |fully )?(?:(?:written|built|implemented|coded|made|developed|done) (?:in|with|on|using)|in) (.+)$`)
	// dataInRe: "our data lives in Postgres", "everything is stored in
	// MySQL", "we store everything in MongoDB here" (a database only: "we
	// store everything in git" is a rule).
	dataInRe = lazyRegexp(`^(?:(?:our |the |all (?:our |the )?|everything|all)(?:data|records|state)? ?(?:lives|live|is stored|are stored|is kept|are kept|sits|sit|is persisted|are persisted)|(?:we|i) (?:keep|store|persist|put|save) (?:all )?(?:of )?(?:our |the |my )?(?:data|records|state)|(?:we|i) (?:keep|store|persist|save) (?:everything|it all|all of it|all our stuff)) in (.+?)(?: here| now| these days| nowadays)?$`)
	// toolVerbRe: "dprint formats everything now", "ruff lints the code".
	toolVerbRe = lazyRegexp(`^([a-z0-9.+# -]+?) (formats|lints|bundles|type-?checks|runs (?:the |our |all )?tests|runs ci|does (?:the )?(?:formatting|linting|bundling))\b`)
	productRe  = lazyRegexp(`^(?:we|i) (?:ship|build|make|maintain|develop|have|write|sell|run) (?:a|an|the|our) [a-z0-9 .-]+? (?:written|built|implemented|made) (?:in|with) (.+)$`)
	kindOfRe   = lazyRegexp(`^(?:this|it|we|(?:this|the|our) (?:repo|repository|project|codebase|app|service|product)) (?:is|are) (?:a|an) (.+?) (?:shop|house|team|company|project|repo|repository|codebase|app|application|service|monorepo|library|lib|cli|api|backend|frontend|website|site|tool|package|module|server|shop)$`)
	toolUserRe = lazyRegexp(`^i am (?:a|an) (?:big |huge |happy |longtime |long-time |die-hard |heavy )?(.+?) (user|person|guy|gal|girl|fan|shop)$`)
	toolDoesRe = lazyRegexp(`^([a-z0-9.+# -]+?) (?:handles|does|takes care of|is used for|is responsible for|runs|manages|builds|tests|deploys|ships|checks|lints|formats|bundles|hosts|stores) (?:all )?(?:of )?(?:our |the )?(.+?)(?: here| for us| in this repo| now| these days)?$`)
	allOfIt    = lazyRegexp(`^(?:everything|all of it|it all|the lot|the whole thing|all the things)(?: now| these days| nowadays)?$`)
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

// changeCause ends a change with the event it came with, which says
// nothing of the value: "… to orders-v2 after the split", "… because of a
// clash".
const changeCause = `(?:\s*,?\s+(?:after|because of|due to|as part of|with|for) (?:the|a|an|our) [a-z0-9-]+(?: [a-z0-9-]+){0,3})?`

var (
	// slotReversed: "Postgres is our database", "Sara is my manager now".
	slotReversed = lazyRegexp(`^(.+?) (?:is|are|has been|have been) (?:now |currently |still )?(my|our|the) (?:new |current |main |primary |default |official )?((?:[a-z/-]+ ){0,2}[a-z/-]+)$`)
	// slotChanged: "I changed my timezone to CET", "the API port changed
	// to 4000".
	slotChangedBy = lazyRegexp(`^(?:i|we) ` + adv + `(?:changed|switched|updated|set|moved|bumped) (my|our|the) ((?:[a-z0-9/-]+ ){0,2}?[a-z0-9/-]+?) (?:over )?(?:from (\S+) )?(?:over )?to (.+?)` + changeCause + `$`)
	slotChanged   = lazyRegexp(`^(my|our|the) ((?:[a-z0-9/-]+ ){0,2}[a-z0-9/-]+) (?:has |was |just |now )?(?:changed|moved|switched|went|been changed|been moved|jumped|got bumped|was bumped|got renamed|was renamed|been renamed|got changed|got moved|got switched) (?:from (\S+) )?to (.+?)` + changeCause + `$`)
	// slotBare: "CI is Buildkite", "package manager: pnpm" (tool slots only).
	slotBare = lazyRegexp(`^((?:[a-z/-]+ ){0,2}[a-z][a-z0-9/-]*) (?:is|are|=|:) (.+)$`)
	// slotLabel: "Frontend: Svelte", "New manager: Dana", "Hosting: AWS".
	slotLabel = lazyRegexp(`^((?:[a-z/-]+ ){0,2}[a-z/-]+)\s*:\s*(.+)$`)
	// bareSlot is a slot named without "my" or "our": "node version is 20".
	bareSlot = lazyRegexp(`^((?:[a-z]+ )?(?:version|port|timezone|editor|deploy branch)|(?:max |maximum )?line length)\s+is\s+(.+)$|^(?:new|current) ((?:[a-z]+ )?[a-z]+)\s+is\s+(.+)$`)
	// possessiveName: "my manager's name is Lin".
	possessiveName = lazyRegexp(`^(my|our) ([a-z]+)(?:'s|s)? (?:name|first name|full name) is (.+)$`)
	// whatWeUse: "Jest is what we use for unit tests".
	whatWeUse = lazyRegexp(`^(.+?) is (?:what|where) (we|i) (?:use|run|rely on|deploy with|deploy|deploy to|host|host on)(?:\s+(for|as|to) ([^,]+?))?(\s*,?\s+(?:not|instead of|rather than) .+)?$`)
	// valueAlt: "3.13, was 3.11", "Monzo now, not Revolut", "Lee, not Kim".
	valueAlt = lazyRegexp(`^(.+?)\s*,?\s*(?:not|instead of|rather than|was|formerly|previously|used to be|no longer)\s+(.+?)\s*,?$`)
	// oldSlot modifiers name a value that no longer holds: "my old manager".
	oldSlot = lazyRegexp(`^(?:old|previous|former|ex|last|first) `)
)

// kindMoved is a kind of tool said to have moved, without an owner.
var kindMoved = lazyRegexp(`^((?:[a-z0-9/-]+ )?[a-z][a-z0-9/-]*) (?:moved|switched|migrated|changed|went|got renamed|was renamed|has been renamed|got changed|was changed|got moved|got switched) (?:over )?(?:from \S+ )?to `)

// sinceTail is when a value "has been" in its slot from: "vitest has
// been our test runner since the vite move".
var sinceTail = lazyRegexp(`( (?:has|have) been .+?) (?:since|for) .+$`)

// personSlots are further names people give a slot that holds a person:
// "my team lead is Fatima".
var personSlots = sync.OnceValue(func() map[string]string {
	return map[string]string{"team lead": "manager_is", "tech lead": "tech_lead_is", "technical lead": "tech_lead_is", "lead": "manager_is",
		"direct manager": "manager_is", "engineering manager": "manager_is", "em": "manager_is", "skip": "",
		"reporting manager": "manager_is", "new boss": "manager_is", "new manager": "manager_is"}
})

// valueAndOld splits a value from the old one beside it: "3.13, was 3.11"
// is ("3.13", "3.11"), "Monzo now, not Revolut" ("Monzo", "Revolut").
func valueAndOld(v string) (value, old string) {
	v = strings.TrimSpace(v)
	for _, p := range []string{"now ", "currently ", "still ", "actually ", "spelled ", "spelt "} {
		v = strings.TrimPrefix(v, p) // "my name is actually spelled John"
	}
	v = strings.TrimSuffix(v, " is") // "Tom isn't my manager, Priya is"
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
	if m := kindMoved().FindStringSubmatch(t); m != nil {
		if _, _, ok := slotOf(m[1]); ok && !determiner().MatchString(firstWord(m[1])) && firstWord(m[1]) != "my" && firstWord(m[1]) != "our" {
			t = "our " + t // "translations moved to lingui last sprint"
		}
	}
	if m := possessiveName().FindStringSubmatch(t); m != nil {
		t = m[1] + " " + m[2] + " is " + m[3]
	} else if m := slotChangedBy().FindStringSubmatch(t); m != nil {
		t, changed = m[1]+" "+m[2]+" is "+m[4], true
		if m[3] != "" {
			t += " instead of " + m[3] // "we changed the port from 3000 to 3100"
		}
	} else if m := slotChanged().FindStringSubmatch(t); m != nil {
		if strings.HasPrefix(m[4], "a ") || strings.HasPrefix(m[4], "an ") {
			return nil // "the team moved to a new office" names no value
		}
		t, changed = m[1]+" "+m[2]+" is "+m[4], true
		if m[3] != "" {
			t += " instead of " + m[3] // "the api port changed from 8000 to 8088"
		}
	} else if m := labelled(t); m != nil && !strings.Contains(m[2], ":") {
		label := strings.TrimPrefix(strings.TrimPrefix(m[1], "new "), "current ")
		if cat, pred, known := slotOf(label); known || projectPart().MatchString(label) {
			owner := "our"
			if r, ok := relations.ByPredicate(pred); cat == "" && ok && !r.Said(relations.Project) {
				owner = "my"
			}
			t = owner + " " + label + " is " + m[2]
		}
	} else if m := slotReversed().FindStringSubmatch(teamTail().ReplaceAllString(sinceTail().ReplaceAllString(strings.TrimSuffix(t, " for now"), "$1"), "")); m != nil && !strings.HasPrefix(m[1], "my ") && !strings.HasPrefix(m[1], "our ") {
		if _, _, known := slotOf(m[3]); known && !badStart()[firstWord(m[1])] {
			t = m[2] + " " + m[3] + " is " + m[1]
		} else if noun, ok := toolHeadNoun(m[1], m[3]); ok {
			t = m[2] + " " + noun + " is " + m[1] // "vitest is the runner now": the test runner
		}
	} else if m := slotBare().FindStringSubmatch(t); m != nil {
		// "CI is Buildkite" (but "CI is red again" names no tool), "Stack
		// is Rails + Postgres"
		if _, ok := slotCategory()[m[1]]; !ok && projectPart().MatchString(m[1]) && !strings.HasPrefix(m[1], "the ") {
			t = "our " + t
		} else if ok {
			v, _ := usageObject(m[2]) // "State management is Jotai in the dashboard app"
			if v, ok := nounPhrase(v, 4); ok {
				if _, tool := lookupTool(v); tool {
					t = "our " + t
				}
			}
		}
	}
	if !containsAny(t, " repo", " project", " codebase", " app ", " service ", " for this ", " here ") {
		// no house scope in the subject
	} else if m := scopedSlot().FindStringSubmatch(t); m != nil {
		if _, _, known := slotOf(m[2]); known || projectPart().MatchString(m[2]) {
			// "max line length in this repo is 88": the house's scope
			// inside the subject of a slot
			owner := strings.TrimSpace(m[1])
			if owner == "" || owner == "the" {
				owner = "our"
			}
			t = owner + " " + m[2] + " " + m[3]
		}
	}
	m := slotIsRe().FindStringSubmatch(t)
	if m == nil {
		return nil
	}
	owner, slot, value := m[1], m[2], m[3]
	if w, rest, ok := strings.Cut(value, " "); ok && stackParticiple().MatchString(w) && prepositionOpens().MatchString(rest) {
		return nil // "our deps are managed with pip-tools": how, read by matchStack
	}
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
	if _, named := slotPredicate()[slot]; oldSlot().MatchString(slot) && !named {
		return nil // "my old manager is Tom" says who it was
	}
	favorite := false
	if f := favoriteRe().FindStringSubmatch(slot); f != nil {
		slot, favorite = f[1], true
	}
	value, old := valueAndOld(value)
	cat, pred, known := slotOf(slot)
	if known && cat == catLanguage && naturalLanguages[strings.TrimSpace(value)] {
		return nil // "English is my second language" speaks of no code
	}
	if _, tool := lookupTool(strings.TrimSpace(value)); pred == "native_language_is" && tool {
		return nil // "Python is my first language" names the first one learnt
	}
	if known && cat != "" {
		if (changed || owner == "the") && !namesTool(value) {
			// "I moved the tests to a new folder", "the tests are failing":
			// a tool slot changed or named by "the" needs a tool
			return nil
		}
		return slotTools(subject, cat, value, old, activityNouns[lastOf(slot)])
	}
	if !known && subject == SubjectProject && activityNouns[lastOf(slot)] {
		if t, tool := lookupTool(strings.TrimSpace(firstWords(value, 3))); tool && len(t.Categories) > 0 {
			// "the pipelines are dbt": work named by its activity, with the
			// tool that does it
			return slotTools(subject, t.Categories[0], value, old, true)
		}
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
	if (pred == "k8s_namespace_is" || pred == "k8s_cluster_is") && !isK8sName(obj) {
		return nil // "the cluster is down again"
	}
	return []Fact{{Subject: subject, Predicate: pred, Object: obj, Replaces: old, shownObject: showValue(pred, obj, c.span)}}
}

// prepositionOpens is a phrase that opens with a preposition of means.
var prepositionOpens = lazyRegexp(`^(?:with|by|via|through|using) `)

// kinCategory is a narrower kind a broad category's nouns also name:
// "logging" is observability ("logging is Datadog") or the logging
// library ("logging is zerolog"), as the tool says.
var kinCategory = map[string]string{relations.CatObservability: relations.CatLogging}

// activityNouns name work done rather than the kind of tool that does
// it: "builds are bazel" says what builds, and the tool says what kind it
// is.
var activityNouns = map[string]bool{"build": true, "builds": true, "deploys": true, "deployments": true, "releases": true, "pipelines": true}

// slotTools reads the value of a tool slot: "our CI is GitHub Actions".
func slotTools(subject, cat, value, old string, loose bool) []Fact {
	var out []Fact
	if t, known := lookupTool(old); known {
		old = t.Name
	}
	for _, part := range splitList(value) {
		if cat == catOS {
			if t, ok := toolIn(part, catOS); ok {
				part = t.Name // "an M2 MacBook Air", "a ThinkPad with Ubuntu"
			}
		}
		if p := purposeTail().FindStringSubmatch(strings.TrimSpace(part)); p != nil {
			if _, known := lookupTool(p[1]); known {
				part = p[1] // "ClickHouse for analytics and Postgres for the app": each for its use
			}
		}
		if _, known := lookupTool(strings.TrimSpace(part)); !known {
			part, _ = usageObject(part) // "BullMQ on Redis", "Jotai in the dashboard app"
		}
		obj, ok := nounPhrase(part, 4)
		if !ok || !hasLetter().MatchString(obj) {
			continue
		}
		if _, known := lookupTool(obj); !known && !strings.Contains(obj, " ") && strings.HasSuffix(obj, "ly") {
			continue // "our CI is Jenkins, sadly": an adverb, not a tool
		}
		pred := categoryPredicate()[cat]
		if t, known := lookupTool(obj); known {
			if kin := kinCategory[cat]; kin != "" && !slices.Contains(t.Categories, cat) && slices.Contains(t.Categories, kin) {
				pred = categoryPredicate()[kin] // "logging is zerolog": the logger
			} else if stackCats[cat] && !slices.Contains(t.Categories, cat) {
				continue // "our dashboard is React" names no observability tool
			}
			if loose && !slices.Contains(t.Categories, cat) && categoryPredicate()[t.Categories[0]] != "" {
				// "builds are bazel": the tool says what it is when the
				// noun is loose about it
				pred = categoryPredicate()[t.Categories[0]]
			}
			obj = t.Name
		} else if len(strings.Fields(obj)) > 2 || strings.HasSuffix(firstWord(obj), "ing") || objectTail().MatchString(obj) {
			continue // "failing on CI" is no tool
		}
		out = append(out, Fact{Subject: subject, Predicate: pred, Object: obj, Replaces: old})
	}
	return out
}

// builtPrefix opens a part's value with how it is made.
var builtPrefix = lazyRegexp(`^(?:mostly |entirely |all )?(?:written|built|implemented|made|developed|done|coded) (?:in|with|on|using) `)

// projectPart matches a noun naming a part of the project.
var projectPart = lazyRegexp(`^(?:[a-z0-9.-]+ )?(?:` + projectNouns + `)$`)

// partTools reads the known tools a part of the project is made of; words
// that are not tools say nothing.
func partTools(value string) []Fact {
	var out []Fact
	value = builtPrefix().ReplaceAllString(value, "") // "our API is written in Kotlin with Ktor"
	value = strings.NewReplacer("/", " and ", " with ", " and ", " on ", " and ", " using ", " and ").Replace(value)
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
		if known && !isSlot && allOfIt().MatchString(m[2]) {
			// "zustand does everything", "Biome handles all of it now": a
			// tool doing the whole job of its kind is the one in use
			hint, isSlot = "", true
		}
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
	for _, part := range splitList(strings.NewReplacer("/", " and ", " using ", " and ", " with ", " and ", " on top of ", " and ").Replace(value)) {
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
	// notDeployedFrom: "we don't ship from prod-deploy anymore".
	notDeployedFrom = lazyRegexp(`^(?:we|i) (?:do not|no longer) (?:deploy|ship|release|cut releases) (?:to prod |to production |prod |production )?(?:from|off of|off) (?:the |our )?([a-z0-9._/-]+)(?: branch)?(?: anymore| any more| now)?$`)
	// allGoesOutFrom: "everything goes out from trunk now".
	allGoesOutFrom = lazyRegexp(`^(?:everything|it all|all of it|all releases|prod|production) (?:now |currently )?(?:goes out|go out|ships|is shipped|gets shipped|is deployed|gets deployed|is released|gets released) (?:now )?(?:from|off) (?:the |our )?([a-z0-9._/-]+)(?: branch)?(?: now)?$`)
	// serverOn is a server said to be on a number without the word
	// "port": "django runserver is on 8000 here", "vite runs on 5173".
	// The number has four or five digits, so a version ("node is on 20")
	// is none.
	serverOn = lazyRegexp(`^(?:the |our |my )?((?:[a-z0-9.-]+ ){0,2}[a-z0-9.-]+) (?:is|runs|is running|are|run|are running|serves|comes up) on :?(\d{4,5})(?: here| locally| for me| by default| in dev| in development)?$`)
	// serverNoun is the last word of a thing that serves on a port.
	serverNoun = lazyRegexp(`(?:^|\s)(?:server|runserver|devserver|api|app|backend|frontend|service|site|website|worker|gateway|proxy|ui|dashboard|admin)$`)
	// portRe: "the API listens on port 8080", "the dev server runs on port
	// 5173".
	portIsRe      = lazyRegexp(`^(?:the |our )?(?:[a-z0-9.-]+ ){0,2}port(?: number)?(?: (?:for|of|on) (?:the |our )?[a-z0-9.-]+(?: [a-z0-9.-]+)?)? (?:is|=|:) (\d{2,5})$`)
	deploysFromRe = lazyRegexp(`^(?:production |prod |staging |our |the |all )*(?:deploys|deployments|releases|release builds|production builds|deploy|deployment|release) (?:now |currently )?(?:(?:come|go out|happen|are cut|are made|run|are built|are deployed|ship|go|come out|get cut|are shipped|is|are|comes|goes out|happens|is cut|is made|ships|goes) )?(?:now )?(?:from|off) (?:the |our )?([a-z0-9._/-]+)(?: branch)?(?: now)?(?:\s*,?\s+(?:instead of|not|rather than|and not) (?:the |our |from )?([a-z0-9._/-]+)(?: branch)?)?(?:\s+(?:with|after|via|using|on) (?:a |an |the )?[a-z0-9 ._-]+)?$`)
	portRe        = lazyRegexp(`^(?:the |our |my )?(?:[a-z0-9.-]+ ){0,3}?(?:listens|listen|runs|run|is running|are running|is served|serves|lives|sits|binds|is exposed|is available|is up|is|are) (?:on|at|to) (?:port |localhost:|https?://localhost:|:)(\d{2,5})(?:\s*,?\s+(?:not|instead of) (?:port )?(\d{2,5}))?$`)
	// scopedSlot: a slot named with the house's scope, "max line length
	// in this repo is 88".
	scopedSlot = lazyRegexp(`^(the |our |my )?((?:[a-z0-9-]+ ){0,3}[a-z0-9-]+) (?:(?:in|for|of) (?:this|the|our) (?:repo|repository|project|codebase|monorepo|app|service)|for this(?: one)?|here) ((?:is|are) .+)$`)
	// portMoved: "the API moved from port 8000 to 8088", "we moved the
	// api to port 9000": a service's port changed.
	portMoved = lazyRegexp(`^(?:(?:we|i) (?:have )?(?:just )?(?:moved|changed|switched) (?:the |our )?(?:[a-z0-9.-]+ ){0,2}?[a-z0-9.-]+|(?:the |our |my )?(?:[a-z0-9.-]+ ){0,2}?[a-z0-9.-]+ (?:has |was |just |now )*(?:moved|changed|switched|been moved)(?: over)?) (?:from (?:port )?(\d{2,5}) to (?:port )?|to port )(\d{2,5})` + changeCause + `$`)
	// listensOn: "our API server listens on 8443" (the verb says it is a port).
	listensOn = lazyRegexp(`^(?:the |our |my )?(?:[a-z0-9.-]+ ){0,3}?(?:listens|binds|serves) (?:on|at|to) (\d{2,5})(?:\s*,?\s+(?:not|instead of|rather than) (?:port )?(\d{2,5}))?$`)
)

// branchName says whether a word these looser shapes give reads as a
// branch: a usual branch's name, or a name with a dash, a slash, a dot,
// an underscore or a digit ("prod-deploy", "release/2.x"); "the office"
// and "laptops" are none.
func branchName(w string) bool {
	switch w {
	case "main", "master", "trunk", "develop", "dev", "development", "release", "releases", "staging", "production", "prod", "stable", "next", "canary", "live", "deploy", "deployment":
		return true
	}
	return strings.ContainsAny(w, "-_/.0123456789") && hasLetter().MatchString(w)
}

// matchDeployBranch reads the branch a project deploys from.
func matchDeployBranch(c *clause) []Fact {
	if !containsAny(c.text, " from ", " off ") {
		return nil
	}
	if m := notDeployedFrom().FindStringSubmatch(c.text); m != nil && branchName(m[1]) {
		if _, tool := lookupTool(m[1]); !tool {
			// "we don't ship from prod-deploy anymore": the branch given up,
			// not a rule against shipping
			return []Fact{{Subject: SubjectProject, Predicate: "deploy_branch_is", Object: m[1], Negated: true}}
		}
	}
	if m := allGoesOutFrom().FindStringSubmatch(c.text); m != nil && branchName(m[1]) {
		if _, tool := lookupTool(m[1]); !tool {
			return []Fact{{Subject: SubjectProject, Predicate: "deploy_branch_is", Object: m[1]}} // "everything goes out from trunk now"
		}
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
	if strings.Contains(c.text, " on ") {
		if m := serverOn().FindStringSubmatch(c.text); m != nil && (serverNoun().MatchString(m[1]) || knownTool(lastOf(m[1]))) {
			// "django runserver is on 8000 here", "rails runs on 3000": a
			// server and the number it is reached on
			return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[2]}}
		}
	}
	if !strings.Contains(c.text, "port") && !strings.Contains(c.text, "localhost:") && !strings.Contains(c.text, " :") && !strings.Contains(c.text, "listen") &&
		!strings.Contains(c.text, "binds") && !strings.Contains(c.text, "serves") {
		return nil
	}
	if m := listensOn().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1], Replaces: m[2]}}
	}
	if m := portMoved().FindStringSubmatch(c.text); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[2], Replaces: m[1]}}
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

// The rest of the stack and the person's machine, in the forms people
// use for them: "infra is managed with Terraform", "exceptions are
// reported to Sentry", "we track errors in Rollbar", "Pinia handles
// state", "CSS modules for styling", "I'm on a ThinkPad running Fedora",
// "the staging namespace is payments-stg".

// stackNouns are words that name a slot only in these forms: too common
// ("errors", "events", "infra") to show that a prompt needs the slot, or
// to read as "our X is Y" (all our infra is on GCP says where it runs).
var stackNouns = sync.OnceValue(func() map[string]string {
	m := map[string]string{
		"infra": relations.CatIaC, "infrastructure": relations.CatIaC, "cloud resources": relations.CatIaC, "resources": relations.CatIaC,
		"errors": relations.CatErrorTracker, "exceptions": relations.CatErrorTracker, "crashes": relations.CatErrorTracker, "crash reports": relations.CatErrorTracker,
		"events": relations.CatQueue, "domain events": relations.CatQueue, "messages": relations.CatQueue, "jobs": relations.CatQueue, "background jobs": relations.CatQueue, "async jobs": relations.CatQueue, "tasks": relations.CatQueue,
		"dashboards": relations.CatObservability, "traces": relations.CatObservability, "alerts": relations.CatObservability,
		"features": relations.CatFeatureFlags, "flags": relations.CatFeatureFlags, "rollouts": relations.CatFeatureFlags,
		"credentials": relations.CatSecrets, "keys": relations.CatSecrets, "api keys": relations.CatSecrets, "passwords": relations.CatSecrets, "tokens": relations.CatSecrets, "env vars": relations.CatSecrets,
		"strings": relations.CatI18n, "copy": relations.CatI18n,
		"models": relations.CatORM, "data access": relations.CatORM, "queries": relations.CatORM, "database access": relations.CatORM,
		"deps": relations.CatPackageManager, "dependencies": relations.CatPackageManager, "packages": relations.CatPackageManager,
		"components": relations.CatStyling, "ui": relations.CatStyling,
		"pipelines": relations.CatCI, "dates": relations.CatDates, "datetimes": relations.CatDates, "date formatting": relations.CatDates, "time zones": relations.CatDates,
	}
	for n, c := range slotCategory() {
		if _, ok := m[n]; !ok {
			m[n] = c
		}
	}
	return m
})

// stackCats are the categories whose slot a sentence's verb and tool
// settle: a tool of one of them named with its slot is a fact.
var stackCats = map[string]bool{
	relations.CatState: true, relations.CatStyling: true, relations.CatORM: true, relations.CatQueue: true,
	relations.CatIaC: true, relations.CatBuildTool: true, relations.CatErrorTracker: true,
	relations.CatObservability: true, relations.CatFeatureFlags: true, relations.CatSecrets: true,
	relations.CatI18n: true, relations.CatWarehouse: true, relations.CatDataPipeline: true, relations.CatOnCall: true,
	relations.CatDates: true, relations.CatLogging: true, relations.CatLocalEnv: true,
}

const stackVerbs = `(?:done|handled|managed|defined|declared|described|stored|kept|reported|tracked|sent|shipped|pushed|collected|logged|written|provisioned|run|built|configured|powered|covered|taken care of|served|published|routed|processed|toggled|gated|controlled|translated|localized|localised|modeled|modelled|mapped|queued)`

var (
	// stackPassive: "infra is managed with Terraform", "exceptions are
	// reported to Sentry", "metrics live in Prometheus", "events go
	// through NATS", "feature flags are in LaunchDarkly".
	stackPassive = lazyRegexp(`^(?:the |our |all (?:of )?(?:our |the )?|all |my )?((?:[a-z0-9/-]+ ){0,2}[a-z0-9/-]+?)(?: (?:for|in|on|from) (?:the |our )?[a-z0-9-]+(?: [a-z0-9-]+)?)? (?:(?:is|are|get|gets) (?:all |now |currently |mostly |still )?(?:` + stackVerbs + ` )?|(?:live|lives|go|goes|end up|ends up|sit|sits|flow|flows|run|runs|happen|happens|land|lands|get sent|gets sent|ship|ships|stream|streams|feed|feeds|get shipped|gets shipped|get forwarded|gets forwarded)(?: all)? )(?:with|by|in|to|into|via|through|using|on|over|inside|onto) (.+)$`)
	// stackDoes: "Pinia handles state in the Vue app", "Bugsnag catches
	// the crashes from the mobile app".
	stackDoes = lazyRegexp(`^([a-z0-9.+#/ -]+?) (?:handles|catches|collects|stores|manages|powers|takes care of|tracks|receives|holds|does|runs|builds|translates|serves|gates|controls) (?:all )?(?:of )?(?:our |the |all our )?((?:[a-z0-9/-]+ ){0,2}?[a-z0-9/-]+)(?: (?:in|for|from|across|on|of) .+)?$`)
	// stackWeVerb: "we track errors in Rollbar", "we provision everything
	// with Pulumi", "we publish jobs to SQS".
	stackWeVerb = lazyRegexp(`^(we|i) ` + adv + `(?:track|report|log|send|ship|push|publish|style|theme|provision|define|declare|manage|store|keep|toggle|gate|flag|translate|localize|localise|build|compile|model|queue|enqueue|process|collect|monitor|write|do|handle|put|stream|emit|describe|codify) (?:all |all of |most of )?(?:our |the |my )?(?:((?:[a-z0-9/-]+ ){0,2}?[a-z0-9/-]+) )?(?:with|in|to|into|via|through|using|on|over|inside|onto|as) (.+)$`)
	// stackFor: "CSS modules for styling", "Redux for state".
	stackFor = lazyRegexp(`^([a-z0-9.+#/ -]+?) (?:for|as) (?:the |our |all )?((?:[a-z0-9/-]+ ){0,2}[a-z0-9/-]+)$`)
	// machineRe: "I'm on a ThinkPad running Fedora", "I use a MacBook
	// with macOS Sonoma".
	machineRe = lazyRegexp(`^i ` + adv + `(?:am on|am using|use|work on|run|am running|have|am working on|develop on|code on) (.+)$`)
	// k8sSlot: "the staging namespace is payments-stg", "the k8s
	// namespace for prod is checkout-prod", "the cluster is eks-main".
	k8sSlot = lazyRegexp(`^(?:the |our )?(?:(?:k8s|kubernetes|kube) )?(?:(?:staging|stage|prod|production|dev|qa|test|preview|main|primary) )?(?:(?:k8s|kubernetes|kube) )?(namespace|cluster)(?: (?:for|in|on|of) (?:the )?(?:staging|stage|prod|production|dev|qa|test|preview|api|app|backend|frontend))? (?:is|=|:) (?:called |named )?([a-z0-9][a-z0-9._/-]*)$`)
	// k8sIn: "staging runs in the payments-staging namespace".
	k8sIn = lazyRegexp(`^(?:staging|stage|prod|production|dev|qa|the api|the app|the backend|the service|everything|it|we|our pods|the pods) (?:runs|run|lives|live|is deployed|are deployed|deploys|deploy|is|are|sits|sit) (?:in|to|on|into) (?:the )?([a-z0-9][a-z0-9._-]*) (namespace|cluster)$`)
	// preferLang: "I'm much more comfortable in Python than in Go", "I'd
	// rather write Ruby", "Rust is the language I think in".
	preferLang = lazyRegexp(`^i am (?:much |way |far |a lot |a bit |so much |far )?(?:more comfortable|happier|more productive|more fluent|more at home|better|faster|stronger|most comfortable|most productive|happiest|best) (?:in|with|writing|at|using|coding in|working in) ([a-z0-9#+.]+)(?: than .+)?$|^i would (?:much )?rather (?:write|use|code in|work in|write it in) ([a-z0-9#+.]+)(?: than .+)?$`)
	langIThink = lazyRegexp(`^([a-z0-9#+.]+) is (?:the|my) (?:language|lang) i (?:think in|know best|am most comfortable (?:in|with)|am best at|am fastest in|prefer)$|^my (?:strongest|best|go-to|preferred) language is ([a-z0-9#+.]+)$`)
	// beenAt: "I've been at Stripe for three years now".
	beenAtRe = lazyRegexp(`^i (?:have|had) been (?:at|with|working at|working for|employed at|employed by) (.+)$`)
	// weMoved: "we relocated to Vienna over the summer" (the family).
	weMovedRe = lazyRegexp(`^we (?:just |recently |finally |have )*(?:moved|relocated)(?: back| over)?(?: from ([a-z .-]+?))? to ([a-z][a-z .-]+?)(?: in \d{4}| last (?:year|month|week|summer|winter|spring|fall))?$`)
	// tzSuffix: "it's GMT for me", "UTC+2 for me".
	tzSuffix = lazyRegexp(`^(?:it is |its )?([a-z0-9:+ /_-]+?) (?:for me|here|on my end|where i am)$`)
	// devServerOn: "the dev server runs on 5173".
	devServerOn = lazyRegexp(`^(?:the |our |my )?(?:[a-z0-9.-]+ )?(?:dev server|server|api|app|frontend|backend|web server|site|web app|service|staging|prod|production|worker|gateway|proxy|db|database|redis|postgres|admin|dashboard|docs|metrics|metrics endpoint|health checks?|healthchecks?|grpc|grpc server) (?:runs|is running|is|are|lives|sits|is served|are served|is exposed|are exposed|starts|listens|is listening|is bound|binds|is available|are available) (?:on|at|to) (?:port |:)?(\d{2,5})(?: locally| in dev| in development| on my machine| here| by default)?$`)
	// storeOnVersion: a data store said to be on a number, without
	// "port" or a colon before it.
	storeOnVersion = lazyRegexp(`\b(?:db|database|redis|postgres) (?:runs|is running|is|lives|sits) (?:on|at) \d`)
	// linesCap: "we cap lines at 88 characters", "lines can be up to 100
	// characters".
	linesCap = lazyRegexp(`^(?:(?:we|i) (?:cap|limit|wrap|keep) (?:our |the |all )?(?:lines|line length|line width|code) (?:at|to|under|below)|(?:our |the )?(?:lines|line length) (?:can be|may be|are|should be|must be|is|go|can go) (?:up to|at most|max|no more than|no longer than|limited to|capped at)) (\d{2,3})(?: (?:chars|characters|columns|cols))?(?: here| in this repo)?$`)
	// deadlineRe: "the v2 launch deadline is March 14".
	deadlineRe = lazyRegexp(`^(?:the |our )?(?:[a-z0-9.-]+ ){0,2}(?:deadline|launch date|release date|ship date|go-live date|due date) is (?:on |set for |now |still )?((?:[a-z]+ )?\d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:next|this) (?:week|month|friday|monday|tuesday|wednesday|thursday)|end of (?:the )?(?:month|quarter|year|sprint|week)|q[1-4](?: \d{4})?|[a-z]+ \d{1,2}(?:st|nd|rd|th)?)$`)
	// meetingRe: "my 1:1 with my manager is on Tuesdays at 2pm", "I have
	// a weekly 1:1 with Marta on Mondays", "my team sync is every
	// Thursday at 10".
	meetingIs   = lazyRegexp(`^my (?:weekly |biweekly |bi-weekly |daily |monthly )?(` + meetings + `)(?: with ([a-z' ]+?))? (?:is|happens|takes place|falls) (?:on |at )?(.+)$`)
	meetingHave = lazyRegexp(`^i (?:have|got) (?:a |my |an )?(weekly |biweekly |bi-weekly |daily |monthly )?(` + meetings + `)(?: with ([a-z' ]+?))? ((?:on|at) .+|(?:every|each) .+)$`)
	// targetVersion: "we target Python 3.11", "the minimum supported
	// Rust version is 1.75".
	targetVersion = lazyRegexp(`^(?:we|i|this repo|the project|our code|the code) ` + adv + `(?:target|support|require|are on|build for|test against|still support) (?:only )?([a-z.#+]+) ?v?(\d+(?:\.\d+)*)(?:\+| and (?:up|above|later|newer))?$|^(?:the |our )?(?:minimum supported|min supported|minimum|min|required|supported|target|targeted) ([a-z.#+]+) version is v?(\d+(?:\.\d+)*)$`)
	// newMachine: "Got a new Mac", "just bought a ThinkPad with Fedora".
	newMachine = lazyRegexp(`^(?:i )?(?:just |finally )?(?:got|bought|have got|am getting|picked up|received) (?:a |an |my )?(?:new |shiny new |brand new |new work )?(.+)$`)
	// goodbyeTool: "goodbye Windows", "bye bye webpack".
	goodbyeTool = lazyRegexp(`^(?:goodbye|bye bye|bye|farewell|so long|rip) ([a-z0-9 .+#-]+)$`)
	// prTarget: "PRs go against the next branch", "we merge everything
	// into develop".
	prTarget = lazyRegexp(`^(?:(?:all )?(?:prs|pull requests|mrs|merge requests|changes|everything|features|feature branches) (?:go|goes|should go|are opened|get opened|target|are merged|get merged|merge|land|are based on|branch off|come off) (?:against|into|to|on|onto|off|from) |(?:we|i) ` + adv + `(?:merge|target|open prs against|open all prs against|base prs on|branch off) (?:everything |all prs |prs |all |our prs )?(?:(?:into|against|onto|on|off|from) )?)(?:the )?([a-z0-9._/-]+)(?: branch)?$`)
)

// stackSlot resolves the noun of a stack sentence to its category.
func stackSlot(noun string) (string, bool) {
	noun = strings.TrimSpace(noun)
	for _, n := range []string{noun, lastTwo(noun), lastOf(noun)} {
		if c, ok := stackNouns()[n]; ok {
			return c, true
		}
	}
	return "", false
}

func lastTwo(s string) string {
	ws := strings.Fields(s)
	if len(ws) < 2 {
		return s
	}
	return strings.Join(ws[len(ws)-2:], " ")
}

// stackTool reads the tool a value names for a category: the tool must
// fill it, and one of the first words of the value must be it ("Terraform,
// applied from CI", "BullMQ on Redis").
func stackTool(value, cat string) (*tool, bool) {
	value, _ = usageObject(strings.TrimSpace(value))
	for _, part := range splitList(value) {
		obj, ok := nounPhrase(part, 4)
		if !ok {
			continue
		}
		for n := min(3, len(strings.Fields(obj))); n >= 1; n-- {
			head := strings.Join(strings.Fields(obj)[:n], " ")
			if t, ok := lookupTool(head); ok && slices.Contains(t.Categories, cat) {
				return t, true
			}
		}
	}
	return nil, false
}

// toolIn finds a tool of category anywhere in a short value: "a ThinkPad
// running Fedora", "an M2 MacBook Air".
func toolIn(value, cat string) (*tool, bool) {
	ws := strings.Fields(strings.Trim(value, " ,.;:!"))
	if len(ws) > 8 {
		return nil, false
	}
	for i := range ws {
		for n := min(3, len(ws)-i); n >= 1; n-- {
			if t, ok := lookupTool(strings.Trim(strings.Join(ws[i:i+n], " "), ",.;:!()")); ok && slices.Contains(t.Categories, cat) {
				return t, true
			}
		}
	}
	return nil, false
}

func stackFact(subject, cat string, t *tool) []Fact {
	return []Fact{{Subject: subject, Predicate: categoryPredicate()[cat], Object: t.Name, shownObject: t.Display}}
}

func matchStack(c *clause) []Fact {
	t := c.text
	if m := k8sSlot().FindStringSubmatch(t); m != nil {
		return k8sFact(m[1], m[2])
	}
	if m := k8sIn().FindStringSubmatch(t); m != nil {
		return k8sFact(m[2], m[1])
	}
	if m := prTarget().FindStringSubmatch(t); m != nil && !badStart()[m[1]] {
		if _, tool := lookupTool(m[1]); !tool && branchLike().MatchString(m[1]) {
			out := []Fact{{Subject: SubjectProject, Predicate: "default_branch_is", Object: m[1]}}
			if strings.HasPrefix(t, "we ") {
				out = append(out, guidelineFact(c, strings.TrimPrefix(t, "we "), false, 0)...)
			}
			return out
		}
	}
	if m := deadlineRe().FindStringSubmatch(t); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "deadline_is", Object: m[1], shownObject: upperWords(display(c.span, m[1]))}}
	}
	if f := meetingFact(c); f != nil {
		return f
	}
	if m := targetVersion().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(m[1] + m[3]); ok {
			if pred, ok := relations.VersionPredicate(tl.Name); ok {
				return []Fact{{Subject: SubjectProject, Predicate: pred, Object: m[2] + m[4]}}
			}
		}
	}
	if m := newMachine().FindStringSubmatch(t); m != nil {
		if tl, ok := toolIn(m[1], catOS); ok {
			return stackFact(SubjectUser, catOS, tl)
		}
	}
	if m := goodbyeTool().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(strings.TrimSpace(m[1])); ok {
			cat := tl.Categories[0]
			subject := SubjectProject
			if personalCategory()[cat] {
				subject = SubjectUser
			}
			f := stackFact(subject, cat, tl)
			f[0].Negated = true
			return f
		}
	}
	if m := linesCap().FindStringSubmatch(t); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "line_length_is", Object: m[1]}}
	}
	if m := devServerOn().FindStringSubmatch(t); m != nil && !(len(m[1]) < 3 && storeOnVersion().MatchString(t)) {
		// "postgres is on 16 now" names its version, not a port
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1]}}
	}
	if m := preferLang().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(m[1] + m[2]); ok && slices.Contains(tl.Categories, catLanguage) {
			return []Fact{{Subject: SubjectUser, Predicate: "preferred_language_is", Object: tl.Name, shownObject: tl.Display}}
		}
	}
	if m := langIThink().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(m[1] + m[2]); ok && slices.Contains(tl.Categories, catLanguage) {
			return []Fact{{Subject: SubjectUser, Predicate: "preferred_language_is", Object: tl.Name, shownObject: tl.Display}}
		}
	}
	if m := beenAtRe().FindStringSubmatch(t); m != nil && (durationTail().MatchString(m[1]) || strings.Contains(m[1], " now") ||
		durationTail().MatchString(strings.TrimRight(lowerNormalize(c.span), ".!"))) { // "since March" was cut as an aside
		if e, ok := employer(c.span, strings.TrimSuffix(m[1], " now")); ok {
			return []Fact{{Subject: SubjectUser, Predicate: "works_at", Object: e, shownObject: display(c.span, e)}}
		}
	}
	if m := weMovedRe().FindStringSubmatch(t); m != nil {
		if p, ok := place(m[2]); ok && capitalized(c.span, firstWord(p)) && !codeHosts[firstWord(p)] {
			f := Fact{Subject: SubjectUser, Predicate: "lives_in", Object: p, shownObject: upperWords(display(c.span, p))}
			f.Replaces, _ = place(m[1])
			return []Fact{f}
		}
	}
	if m := tzSuffix().FindStringSubmatch(t); m != nil && timezoneLike().MatchString(m[1]) && len(m[1]) >= 3 &&
		(strings.ToUpper(display(c.span, m[1])) == display(c.span, m[1]) || strings.Contains(m[1], "/") || strings.HasSuffix(m[1], " time")) {
		return []Fact{{Subject: SubjectUser, Predicate: "timezone_is", Object: m[1], shownObject: showValue("timezone_is", m[1], c.span)}}
	}
	if m := machineRe().FindStringSubmatch(t); m != nil {
		if tl, ok := toolIn(m[1], catOS); ok && !strings.Contains(m[1], "server") {
			return stackFact(SubjectUser, catOS, tl)
		}
	}
	if m := stackFor().FindStringSubmatch(t); m != nil {
		if cat, ok := stackSlot(m[2]); ok && stackCats[cat] {
			if tl, ok := stackTool(m[1], cat); ok {
				return stackFact(SubjectProject, cat, tl)
			}
		}
	}
	if m := stackWeVerb().FindStringSubmatch(t); m != nil {
		subject := SubjectProject
		if m[1] == "i" {
			subject = SubjectUser
		}
		if cat, ok := stackSlot(m[2]); ok {
			if tl, ok := stackTool(m[3], cat); ok {
				return stackFact(subject, cat, tl)
			}
		}
		if tl, ok := firstTool(m[3]); ok && stackCats[tl.Categories[0]] {
			return stackFact(subject, tl.Categories[0], tl)
		}
	}
	if m := stackPassive().FindStringSubmatch(t); m != nil {
		if cat, ok := stackSlot(m[1]); ok {
			if tl, ok := stackTool(m[2], cat); ok {
				return stackFact(SubjectProject, cat, tl)
			}
		}
	}
	if m := managedWith().FindStringSubmatch(t); m != nil && toolShaped(m[2]) {
		// "deps are managed with pip-tools": a kind of work done with a
		// named thing the tool table does not know
		if cat, ok := stackSlot(m[1]); ok {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[cat], Object: m[2], shownObject: display(c.span, m[2])}}
		}
	}
	if m := stackDoes().FindStringSubmatch(t); m != nil {
		if cat, ok := stackSlot(m[2]); ok && stackCats[cat] {
			if tl, ok := lookupTool(m[1]); ok && slices.Contains(tl.Categories, cat) {
				return stackFact(SubjectProject, cat, tl)
			}
		}
	}
	return nil
}

// managedWith is a kind of work said to be done with one named thing:
// "deps here are managed with pip-tools", "builds are done with
// just-build". Unlike stackPassive it takes a name the tool table does
// not know, so it asks for a verb of tooling and a preposition of means.
var managedWith = lazyRegexp(`^(?:the |our |all (?:of )?(?:our |the )?|my )?((?:[a-z0-9/-]+ ){0,2}[a-z0-9/-]+?)(?: here| in this (?:repo|project|codebase))? (?:is|are|get|gets) (?:all |now |currently |still |mostly )?(?:managed|handled|done|installed|pinned|locked|resolved|run|built|taken care of) (?:with|by|via|through|using) ([a-z0-9][a-z0-9._+-]*[a-z0-9])(?: here| now| these days| nowadays| in this (?:repo|project|codebase))?$`)

// toolShaped says whether an unknown word reads as the name of a tool:
// it holds a dash, a dot or a digit ("pip-tools", "poetry2nix"), and is
// no file ("package.json"). A plain word ("hand") or a capitalised one
// ("Renovate", a bot that bumps dependencies) could be anything.
func toolShaped(w string) bool {
	if fileLike().MatchString(w) || strings.Contains(w, "/") {
		return false
	}
	return strings.ContainsAny(w, "-.0123456789") && hasLetter().MatchString(w)
}

// fileLike is a word that names a file by its extension.
var fileLike = lazyRegexp(`\.(?:json|toml|lock|txt|ya?ml|cfg|ini|xml|md|py|js|ts|go|rs|rb|sh|mod|sum)$`)

// firstTool is the tool a value opens with, if any.
func firstTool(value string) (*tool, bool) {
	value, _ = usageObject(strings.TrimSpace(value))
	obj, ok := nounPhrase(value, 4)
	if !ok {
		return nil, false
	}
	for n := min(3, len(strings.Fields(obj))); n >= 1; n-- {
		if t, ok := lookupTool(strings.Join(strings.Fields(obj)[:n], " ")); ok {
			return t, true
		}
	}
	return nil, false
}

// k8sFact reads a Kubernetes namespace or cluster name: an identifier,
// not a word of a sentence ("the cluster is down").
func k8sFact(kind, name string) []Fact {
	if !isK8sName(name) {
		return nil
	}
	pred := "k8s_namespace_is"
	if kind == "cluster" {
		pred = "k8s_cluster_is"
	}
	return []Fact{{Subject: SubjectProject, Predicate: pred, Object: name, shownObject: name}}
}

// isK8sName reports whether a value looks like the name of a namespace
// or cluster: one identifier with a digit, dash, dot or underscore in it
// ("payments-stg", "gke-prod-eu"), not a word of a sentence ("down").
func isK8sName(name string) bool {
	return k8sName().MatchString(name) && !k8sWords[name] && strings.ContainsAny(name, "-_.0123456789")
}

var (
	k8sName    = lazyRegexp(`^[a-z0-9][a-z0-9._/-]*$`)
	branchLike = lazyRegexp(`^[a-z0-9][a-z0-9._/-]*$`)
)

// k8sWords follow "the cluster is" without naming one.
var k8sWords = map[string]bool{"down": true, "up": true, "full": true, "broken": true, "slow": true, "healthy": true,
	"unhealthy": true, "new": true, "old": true, "busy": true, "fine": true, "ok": true, "okay": true, "gone": true,
	"empty": true, "ready": true, "big": true, "small": true, "huge": true, "overloaded": true, "dead": true, "red": true,
	"green": true, "shared": true, "there": true, "here": true, "missing": true, "wrong": true, "different": true}

// codeHosts are where code moves to, not people: "we moved to GitHub".
var codeHosts = map[string]bool{"github": true, "gitlab": true, "bitbucket": true, "jira": true, "linear": true,
	"notion": true, "slack": true, "discord": true, "teams": true, "confluence": true, "codeberg": true, "sourcehut": true}

// meetings name the recurring meetings a person keeps.
const meetings = `1:1|1-on-1|one-on-one|one on one|team sync|sync|standup|stand-up|retro|sprint planning|planning|team meeting|staff meeting|check-in`

// meetingFact reads a recurring meeting of the person's: "User has a 1:1
// with their manager on Tuesdays at 2pm".
func meetingFact(c *clause) []Fact {
	var kind, with, when string
	if m := meetingIs().FindStringSubmatch(c.text); m != nil {
		kind, with, when = m[1], m[2], m[3]
	} else if m := meetingHave().FindStringSubmatch(c.text); m != nil {
		kind, with, when = strings.TrimSpace(m[1]+m[2]), m[3], m[4]
	} else {
		return nil
	}
	if !meetingWhen().MatchString(when) {
		return nil // "my 1:1 is going badly"
	}
	obj := kind
	if with != "" {
		w := strings.NewReplacer("my ", "their ").Replace(with)
		if !strings.HasPrefix(w, "their ") {
			w = upperWords(w)
		}
		obj += " with " + w
	}
	obj += " " + meetingWhenPrefix(when) + display(c.span, when)
	return []Fact{{Subject: SubjectUser, Predicate: "has_meeting", Object: strings.ToLower(obj), shownObject: obj}}
}

// meetingWhen is when a recurring meeting falls: a weekday or a time.
var meetingWhen = lazyRegexp(`\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b\d{1,2}(?::\d\d)?\s*(?:am|pm)?\b|\bnoon\b|\bmornings?\b|\bafternoons?\b|\bevery (?:day|week|other week|morning)\b`)

func meetingWhenPrefix(when string) string {
	if strings.HasPrefix(when, "on ") || strings.HasPrefix(when, "at ") || strings.HasPrefix(when, "every ") {
		return ""
	}
	if meetingDay().MatchString(when) {
		return "on "
	}
	return "at "
}

var meetingDay = lazyRegexp(`^(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b`)

// toolHeadNoun reads a slot named by the head of its noun ("the runner"
// for the test runner) when the value is a tool of that slot: "vitest is
// the runner now" names the test runner; a head that is itself a slot
// ("manager") never gets here.
func toolHeadNoun(value, head string) (string, bool) {
	t, ok := lookupTool(strings.TrimSpace(strings.TrimSuffix(value, " now")))
	if !ok || strings.Contains(head, " ") {
		return "", false
	}
	for noun, cat := range slotCategory() {
		if strings.HasSuffix(noun, " "+head) && slices.Contains(t.Categories, cat) {
			return noun, true
		}
	}
	return "", false
}
