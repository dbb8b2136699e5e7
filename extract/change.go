package extract

import (
	"regexp"
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// Changes and ends of usage: "we switched from pnpm to bun", "we migrated to
// Postgres", "we replaced Jest with Vitest", "we no longer use yarn", "we used
// to use Travis". A change names the new value and, when given, the one it
// replaces; an end is a negated usage.

var (
	changeFromTo = lazyRegexp(`^` + subj + ` ` + adv + `(switched|moved|migrated|changed|transitioned|converted|upgraded|ported|went|gone|shifted)(?: over| everything| it| back| (?:the|our) (?:whole |entire )?\w+(?: over)?)? from (.+?) (?:to|onto|over to) (.+)$`)
	changeTo     = lazyRegexp(`^` + subj + ` ` + adv + `(switched|moved|migrated|changed|transitioned|converted|ported|shifted|upgraded|downgraded)(?: over| everything| it| back| (?:the|our) (?:whole |entire )?\w+(?: over)?| (?:hosting|ci|deploys|deployment|deployments|builds|tests|testing|linting|formatting|the db|database|infra|infrastructure)(?: over)?)? (?:to|onto|over to) (.+?)(?: from (.+))?$`)
	changeAway   = lazyRegexp(`^` + subj + ` ` + adv + `(migrated|moved|switched|went) (?:everything |it all |it |our \w+ |the \w+ )?(?:away from|off of|off) (.+?)(?: (?:to|onto|for) (.+))?$`)
	replacedWith = lazyRegexp(`^` + subj + ` ` + adv + `(replaced|swapped|swapped out) (.+?) (?:with|for) (.+)$`)
	droppedFor   = lazyRegexp(`^` + subj + ` ` + adv + `(dropped|ditched|dumped|abandoned|removed|got rid of|retired|deprecated|killed|ripped out|left) (.+?) (?:for|in favou?r of|and (?:moved|switched|went|migrated) to) (.+)$`)

	noLongerUse = lazyRegexp(`^` + subj + ` ` + adv + `(no longer|do not|does not|did not|never|are not|is not|am not|have not|has not) (?:really |ever |even )?(use|uses|using|used|need|rely on|run on|deploy (?:with|to|on)|depend on) (.+)$`)
	stoppedUse  = lazyRegexp(`^` + subj + ` ` + adv + `(?:stopped|quit|gave up on|gave up) (?:using )?(.+)$`)
	droppedUse  = lazyRegexp(`^` + subj + ` ` + adv + `(dropped|ditched|dumped|abandoned|got rid of|removed|retired|deprecated|ripped out|moved away from|migrated away from|moved off of|moved off|migrated off of|migrated off|switched away from) (.+)$`)
	// passiveChange: "the test suite was ported from mocha to vitest".
	passiveChange = lazyRegexp(`^(?:the|our|this) ([a-z]+(?: [a-z]+)?) (?:was|were|has been|have been|got|is being|is now) (?:fully |finally |completely )?(?:switched|moved|migrated|ported|converted|changed|rewritten) (?:over )?(?:from (.+?) )?(?:to|onto|into|in) (.+)$`)
	usedToUse     = lazyRegexp(`^` + subj + ` (?:used to|once) (?:use|run on|deploy (?:with|to|on)) (.+)$`)
)

// whyTail is a reason or a time after a changed-to value.
var whyTail = lazyRegexp(`\s+(?:after|because|since|when|once|as soon as|so that|so) .*$`)

var slotFrom = lazyRegexp(`\b(?:(?:the|our|my) ([a-z]+(?: [a-z]+)?)|(hosting|ci|deploys|deployment|deployments|testing|linting|formatting|database|infra|infrastructure)) (?:from|to|over to)\b`)

// matchChange reads "we switched from pnpm to bun", "we migrated to Postgres",
// "we replaced Jest with Vitest": the new object replaces the old one.
func matchChange(c *clause) []Fact {
	if !(opensWithSubject(c.text) || passiveChange().MatchString(c.text)) || !containsAny(c.text, "switch", "moved", "migrat", "chang", "transition",
		"convert", "port", "shift", "grade", "went", "gone", "replac", "swap", "drop", "ditch", "abandon", "remov",
		"got rid", "retir", "deprecat", "kill", "ripped", "left", "dump") {
		return nil
	}
	var ref subjectRef
	var verb, oldRaw, newRaw string
	switch {
	case changeFromTo().MatchString(c.text):
		m := changeFromTo().FindStringSubmatch(c.text)
		ref, verb, oldRaw, newRaw = parseSubject(m[1]), m[2], m[3], m[4]
	case changeTo().MatchString(c.text):
		m := changeTo().FindStringSubmatch(c.text)
		ref, verb, newRaw, oldRaw = parseSubject(m[1]), m[2], m[3], m[4]
	case changeAway().MatchString(c.text):
		m := changeAway().FindStringSubmatch(c.text)
		ref, verb, oldRaw, newRaw = parseSubject(m[1]), m[2], m[3], m[4]
	case replacedWith().MatchString(c.text):
		m := replacedWith().FindStringSubmatch(c.text)
		ref, verb, oldRaw, newRaw = parseSubject(m[1]), m[2], m[3], m[4]
	case droppedFor().MatchString(c.text):
		m := droppedFor().FindStringSubmatch(c.text)
		ref, verb, oldRaw, newRaw = parseSubject(m[1]), m[2], m[3], m[4]
	case passiveChange().MatchString(c.text):
		m := passiveChange().FindStringSubmatch(c.text)
		ref, verb, oldRaw, newRaw = parseSubject("our "+m[1]), "switched", m[2], m[3]
	default:
		return nil
	}
	if newRaw == "" {
		return nil // "we moved away from X" alone is handled as a negation
	}
	newRaw = whyTail().ReplaceAllString(newRaw, "") // "back to npm after pnpm gave us trouble"
	if v, alt, kind := splitAlternative(newRaw); kind == "instead" && oldRaw == "" {
		newRaw, oldRaw = v, alt // "we moved to Bun, not Deno"
	}
	hint := ref.hint()
	if m := slotFrom().FindStringSubmatch(c.text); m != nil {
		if h, ok := slotCategory()[m[1]+m[2]]; ok {
			hint = h // "we moved our hosting from AWS to Hetzner"
		}
	}
	if p := purposeTail().FindStringSubmatch(newRaw); p != nil {
		if h, _ := purposeOf(p[2]); h != "" {
			hint = h
		}
		newRaw = p[1]
	}
	newRaw, _ = usageObject(newRaw)
	newObj, ok := nounPhrase(newRaw, 4)
	if !ok || !hasLetter().MatchString(newObj) {
		return nil
	}
	oldObj, _ := nounPhrase(oldRaw, 4)
	newTool, newKnown := lookupTool(newObj)
	oldTool, oldKnown := lookupTool(oldObj)
	if !newKnown && !oldKnown && hint == "" {
		return nil // "we changed the timeout to 30s" names no tool or slot
	}
	if !newKnown && (verb == "moved" || verb == "upgraded" || verb == "downgraded" || ref.subject == SubjectUser && verb != "switched") {
		return nil // "I moved to Tokyo" is a residence (identity.go), "we moved to the new office" nothing
	}
	pred := "uses"
	switch {
	case newKnown:
		pred = categoryPredicate()[pickCategory(newTool, oldTool, hint)]
		newObj = newTool.Name
	case hint != "":
		pred = categoryPredicate()[hint]
	case oldKnown:
		// "from Express to Fastify": the new tool fills the old one's slot
		pred = categoryPredicate()[pickCategory(oldTool, nil, "")]
	}
	if oldKnown {
		oldObj = oldTool.Name
	}
	return []Fact{{Subject: ref.subject, Predicate: pred, Object: newObj, Replaces: oldObj, shownObject: toolDisplay(c.span, newObj)}}
}

// matchStopped reads "we no longer use yarn", "I stopped using Emacs", "we
// dropped Heroku", "we used to use Jenkins": negated usage.
func matchStopped(c *clause) []Fact {
	if !opensWithSubject(c.text) || !containsAny(c.text, " no ", " not ", "never", "stopped", "quit",
		"gave up", "used to", "once", "drop", "ditch", "abandon", "got rid", "remov", "retir", "deprecat",
		"ripped", "away", " off") {
		return nil
	}
	var ref subjectRef
	var rest, verb string
	usedTo, toolOnly := false, false
	switch {
	case noLongerUse().MatchString(c.text):
		m := noLongerUse().FindStringSubmatch(c.text)
		ref, rest = parseSubject(m[1]), m[4]
		// "we don't deploy on Fridays" names no tool: only known tools count
		toolOnly = !strings.HasPrefix(m[3], "us")
		if ref.subject == SubjectProject && ref.slot == "" && (m[2] == "never" || m[2] == "do not") &&
			!strings.Contains(c.span, "anymore") && !strings.Contains(c.span, "any more") {
			// "we never use default exports", "we don't use semicolons": a
			// convention (guideline.go), unless "we don't use Yarn" names a
			// tool the project does without
			toolOnly = true
			if m[2] == "never" {
				return nil
			}
		}
	case stoppedUse().MatchString(c.text):
		m := stoppedUse().FindStringSubmatch(c.text)
		ref, rest = parseSubject(m[1]), m[2]
		if first := firstWord(rest); strings.HasSuffix(first, "ing") && first != "using" {
			return nil // "I quit smoking" is no tool given up
		}
	case droppedUse().MatchString(c.text):
		m := droppedUse().FindStringSubmatch(c.text)
		ref, verb, rest = parseSubject(m[1]), m[2], m[3]
	case usedToUse().MatchString(c.text):
		m := usedToUse().FindStringSubmatch(c.text)
		ref, rest, usedTo = parseSubject(m[1]), m[2], true
	default:
		return nil
	}
	needTool := toolOnly || verb != "" && !strings.Contains(verb, "away") && !strings.Contains(verb, " off")
	objPart, _, _ := splitAlternative(rest)
	var out []Fact
	if p := purposeTail().FindStringSubmatch(objPart); p != nil {
		objPart = p[1]
	}
	for _, part := range splitList(objPart) {
		part, _ = usageObject(part)
		obj, ok := nounPhrase(part, 4)
		if !ok || !hasLetter().MatchString(obj) {
			continue
		}
		u := resolveUse(obj, ref.hint(), "", nil)
		if u.tool == nil && needTool {
			continue
		}
		out = append(out, Fact{Subject: ref.subject, Predicate: u.pred, Object: u.obj, Negated: true, shownObject: toolDisplay(c.span, u.obj)})
	}
	if usedTo {
		for i := range out {
			out[i].Reliability = 0.7
		}
	}
	return out
}

var (
	// bumpRe: "we bumped node to 22", "upgraded Go from 1.22 to 1.23",
	// "we moved the Python version to 3.13".
	bumpRe = lazyRegexp(`^` + subj + ` ` + adv + `(?:bumped|upgraded|updated|moved|pinned|changed|set|switched|migrated|downgraded|raised) (?:the |our |my )?([a-z0-9.#+-]+(?: [a-z0-9.#+-]+)??)(?: version| runtime| toolchain)? (?:from (?:version |v)?(v?\d+(?:\.\d+)*(?:\.x)?) )?to (?:version |v)?(\d+(?:\.\d+)*(?:\.x)?|lts)\b.*$`)
	// toolReplaced: "pnpm replaced npm for us", "Postgres has replaced MySQL".
	toolReplaced = lazyRegexp(`^([a-z0-9.+# -]+?) (?:has |have )?(?:replaced|took over from|superseded) ([a-z0-9.+# -]+?)(?: for us| here| for the project| in this repo)?$`)
	// bumpFromRe: "we upgraded from Python 3.9 to 3.12".
	bumpFromRe = lazyRegexp(`^` + subj + ` ` + adv + `(?:bumped|upgraded|updated|moved|switched|migrated|went|downgraded) (?:the |our )?(?:[a-z]+ )?from ([a-z0-9.#+-]+(?: [a-z0-9.#+-]+)??) (?:version |v)?(v?\d+(?:\.\d+)*(?:\.x)?) to (?:[a-z0-9.#+-]+ )?(?:version |v)?(\d+(?:\.\d+)*(?:\.x)?)\b.*$`)
	// allNow: "it's all GitHub Actions now", "GitHub Actions all the way".
	allNow = lazyRegexp(`^(?:it is |we are )?(?:all|100%|fully) (?:on )?(.+?)(?: now| these days)?$|^(.+?) all the way(?: now)?$`)
	// goodbyeHello: "goodbye Jenkins, hello GitHub Actions".
	goodbyeHello = lazyRegexp(`^(?:goodbye|bye bye|bye|farewell|so long|rip) ([a-z0-9.+# -]+?),? (?:and )?(?:hello|welcome|hi) ([a-z0-9.+# -]+)$`)
	// renameRe: "we renamed the deploy branch from prod to production".
	renameRe = lazyRegexp(`^` + subj + ` ` + adv + `renamed (?:the |our |my )?(.+?) from (.+?) to (.+)$`)
)

// matchVersionChange reads a version change of a language or runtime and
// a renamed slot: "we bumped node to 22" is (project, node_version_is,
// 22); "we renamed the default branch from master to main" is (project,
// default_branch_is, main) replacing master.
func matchVersionChange(c *clause) []Fact {
	if m := toolReplaced().FindStringSubmatch(c.text); m != nil {
		newT, ok1 := lookupTool(m[1])
		oldT, ok2 := lookupTool(m[2])
		if ok1 && ok2 {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[pickCategory(newT, oldT, "")], Object: newT.Name, Replaces: oldT.Name}}
		}
		return nil
	}
	if m := goodbyeHello().FindStringSubmatch(c.text); m != nil {
		// "Goodbye Jenkins, hello GitHub Actions!"
		newT, ok1 := lookupTool(strings.TrimSpace(m[2]))
		oldT, ok2 := lookupTool(strings.TrimSpace(m[1]))
		if ok1 && ok2 && shareCategory(newT, oldT) {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[pickCategory(newT, oldT, "")], Object: newT.Name, Replaces: oldT.Name}}
		}
		return nil
	}
	if m := allNow().FindStringSubmatch(c.text); m != nil {
		// "we dumped CircleCI, it's all GitHub Actions now"
		v := m[1] + m[2]
		if t, ok := lookupTool(strings.TrimSpace(v)); ok {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[t.Categories[0]], Object: t.Name}}
		}
		return nil
	}
	if !opensWithSubject(c.text) {
		return nil
	}
	if m := bumpRe().FindStringSubmatch(c.text); m != nil {
		ref := parseSubject(m[1])
		t, ok := lookupTool(m[2])
		if !ok {
			return nil
		}
		pred, ok := relations.VersionPredicate(t.Name)
		if !ok {
			return nil
		}
		return []Fact{{Subject: ref.subject, Predicate: pred, Object: m[4], Replaces: strings.TrimPrefix(m[3], "v")}}
	}
	if m := bumpFromRe().FindStringSubmatch(c.text); m != nil {
		if t, ok := lookupTool(m[2]); ok {
			if pred, ok := relations.VersionPredicate(t.Name); ok {
				return []Fact{{Subject: parseSubject(m[1]).subject, Predicate: pred, Object: m[4], Replaces: strings.TrimPrefix(m[3], "v")}}
			}
		}
	}
	if m := renameRe().FindStringSubmatch(c.text); m != nil {
		ref := parseSubject(m[1])
		slot := strings.TrimSuffix(m[2], " name")
		pred := ""
		switch {
		case wholeProject()[slot]:
			pred = "name_is"
		default:
			r, ok := relations.ByNoun(slot)
			if !ok || r.Category != "" || !r.Said(relations.Project) {
				return nil
			}
			pred = r.Predicate
		}
		obj, ok1 := nounPhrase(m[4], 3)
		old, ok2 := nounPhrase(m[3], 3)
		if !ok1 || !ok2 {
			return nil
		}
		return []Fact{{Subject: ref.subject, Predicate: pred, Object: obj, Replaces: old, shownObject: display(c.span, obj)}}
	}
	return nil
}

// versionFacts adds the version a tool is named with when credence keeps
// that tool's version as a slot: "we're on Node 20" also says
// (project, node_version_is, 20).
func versionFacts(f Fact) []Fact {
	if f.Kind != KindFact || f.Negated || f.Subject != SubjectProject && f.Subject != SubjectUser {
		return nil
	}
	t, ok := lookupTool(f.Object)
	if !ok {
		return nil
	}
	pred, ok := relations.VersionPredicate(t.Name)
	if !ok {
		return nil
	}
	versions := toolVersion(t).FindAllStringSubmatch(strings.ToLower(f.Span), -1)
	if len(versions) == 0 {
		return nil
	}
	v := Fact{Subject: f.Subject, Predicate: pred, Object: versions[len(versions)-1][1], Correction: f.Correction}
	if len(versions) > 1 {
		v.Replaces = versions[len(versions)-2][1]
	}
	return []Fact{v}
}

var toolVersions sync.Map // tool name → *regexp.Regexp

// toolVersion matches a tool's name or alias followed by a version: "node
// 20", "python3.12", "go 1.22".
func toolVersion(t *tool) *regexp.Regexp {
	if re, ok := toolVersions.Load(t.Name); ok {
		return re.(*regexp.Regexp)
	}
	names := []string{regexp.QuoteMeta(t.Name)}
	for _, a := range t.Aliases {
		names = append(names, regexp.QuoteMeta(a))
	}
	re := regexp.MustCompile(`(?:^|[^a-z0-9])(?:` + strings.Join(names, "|") + `)(?:[ @-]?v?| version )(\d+(?:\.\d+)*(?:\.x)?)\b`)
	toolVersions.Store(t.Name, re)
	return re
}
