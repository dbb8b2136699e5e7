package extract

import (
	"regexp"
	"slices"
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
	changeTo     = lazyRegexp(`^` + subj + ` ` + adv + `(switched|moved|migrated|changed|transitioned|converted|ported|shifted|upgraded|downgraded|went back|reverted|returned|fell back|rolled back)(?: over| everything| it| back| (?:all (?:of )?)?(?:the|our) (?:whole |entire )?\w+(?: \w+)?(?: over)?| (?:hosting|ci|deploys|deployment|deployments|builds|tests|testing|linting|formatting|the db|database|infra|infrastructure)(?: over)?)? (?:to|onto|over to) (.+?)(?: from (.+))?$`)
	changeAway   = lazyRegexp(`^` + subj + ` ` + adv + `(migrated|moved|switched|went) (?:everything |it all |it |our \w+ |the \w+ |(?:hosting|ci|deploys|deployment|deployments|builds|tests|testing|infra|infrastructure|the db|database) )?(?:away from|off of|off) (.+?)(?: (?:to|onto|for) (.+))?$`)
	replacedWith = lazyRegexp(`^` + subj + ` ` + adv + `(replaced|swapped|swapped out|traded|exchanged) (.+?)(?: out)? (?:with|for) (.+)$`)
	droppedFor   = lazyRegexp(`^` + subj + ` ` + adv + `(dropped|ditched|dumped|abandoned|removed|got rid of|retired|deprecated|killed|ripped out|left) (.+?) (?:for|in favou?r of|and (?:moved|switched|went|migrated) to|and (?:went with|replaced (?:it|them) with|adopted|picked|brought in)) (.+)$`)

	// slotChangedOver: the slot a change names before its new value, "we
	// switched our formatter over to Biome".
	slotChangedOver = lazyRegexp(`\b(?:switched|moved|changed|migrated|converted|ported) (?:our|the) ([a-z]+(?: [a-z]+)??)(?: over)? (?:to|onto|from)\b`)

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
		"got rid", "retir", "deprecat", "kill", "ripped", "left", "dump", "trade", "exchang") {
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
	if m := slotChangedOver().FindStringSubmatch(c.text); m != nil {
		if h, ok := slotCategory()[m[1]]; ok {
			hint = h // "we've switched our formatter over to Biome": the slot named says which
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
	if relations.IsPersonal(pred) {
		ref.subject = SubjectUser // "moved to nushell last week": the person's shell
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
		if first := firstWord(rest); strings.HasSuffix(first, "ing") && first != "using" || first == "and" || first == "then" {
			return nil // "I quit smoking" is no tool given up, nor "i gave up and went home"
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
	// "we used to deploy with capistrano back in 2015, fun times": a past
	// habit names a tool or nothing
	needTool := toolOnly || usedTo || verb != "" && !strings.Contains(verb, "away") && !strings.Contains(verb, " off")
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
	// replacedByRe: "Jest got replaced by Vitest", "webpack was swapped
	// out for Vite": the passive names the old tool first.
	replacedByRe = lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)??) (?:(?:got|was|has been|have been|were|is being) )?(?:replaced|swapped out|swapped|superseded) (?:by|with|for) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)` + changeWhen + `$`)
	toolReplaced = lazyRegexp(`^([a-z0-9.+# -]+?) (?:has |have )?(?:replaced|took over from|taken over from|superseded|is replacing|replaces) ([a-z0-9.+# -]+?)(?: for us| here| for the project| in this repo)?$`)
	// bumpFromRe: "we upgraded from Python 3.9 to 3.12".
	bumpFromRe = lazyRegexp(`^` + subj + ` ` + adv + `(?:bumped|upgraded|updated|moved|switched|migrated|went|downgraded) (?:the |our )?(?:[a-z]+ )?from ([a-z0-9.#+-]+(?: [a-z0-9.#+-]+)??) (?:version |v)?(v?\d+(?:\.\d+)*(?:\.x)?) to (?:[a-z0-9.#+-]+ )?(?:version |v)?(\d+(?:\.\d+)*(?:\.x)?)\b.*$`)
	// allNow: "it's all GitHub Actions now", "GitHub Actions all the way".
	allNow = lazyRegexp(`^(?:it is |we are )?(?:all|100%|fully) (?:on )?(.+?)(?: now| these days)?$|^(.+?) all the way(?: now)?$`)
	// goodbyeHello: "goodbye Jenkins, hello GitHub Actions".
	goodbyeHello = lazyRegexp(`^(?:goodbye|bye bye|bye|farewell|so long|rip) ([a-z0-9.+# -]+?),? (?:and )?(?:hello|welcome|hi) ([a-z0-9.+# -]+)$`)
	// renameBranch: "we renamed master to main", "renamed master -> trunk".
	renameBranch = lazyRegexp(`^` + subj + ` ` + adv + `renamed (?:the |our )?([a-z0-9._/-]+)(?: branch)? (?:to|->|→|into) ([a-z0-9._/-]+)(?: branch)?\b`)
	// renameRe: "we renamed the deploy branch from prod to production".
	renameRe = lazyRegexp(`^` + subj + ` ` + adv + `renamed (?:the |our |my )?(.+?) from (.+?) to (.+)$`)
)

// branchNames are the names a default branch goes by.
var branchNames = map[string]bool{"master": true, "main": true, "trunk": true, "develop": true, "development": true, "dev": true, "default": true}

// matchVersionChange reads a version change of a language or runtime and
// a renamed slot: "we bumped node to 22" is (project, node_version_is,
// 22); "we renamed the default branch from master to main" is (project,
// default_branch_is, main) replacing master.
func matchVersionChange(c *clause) []Fact {
	m := toolReplaced().FindStringSubmatch(c.text)
	if p := replacedByRe().FindStringSubmatch(c.text); p != nil {
		m = []string{p[0], p[2], p[1]} // the passive: old first
	}
	if m != nil {
		newT, ok1 := lookupTool(m[1])
		if !ok1 && strings.Contains(m[1], " ") {
			newT, ok1 = lookupTool(firstWord(m[1])) // "ruff format replaced black": the tool with its subcommand
		}
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
	if m := renameBranch().FindStringSubmatch(c.text); m != nil && branchNames[m[2]] {
		// "we renamed master to main": a branch named like the default one
		return []Fact{{Subject: SubjectProject, Predicate: "default_branch_is", Object: m[3], Replaces: m[2]}}
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

// Ends, arrivals and hand-overs said in passing (issue 14, item 1): "pip-tools
// is gone", "goodbye Windows!", "we're all-in on pnpm", "got a new Mac",
// "she left, it's Omar now", "we renamed ledgerd to bookkeeper" (the slot of
// the old value in play), "we relocated to Oslo", "just got settled in
// Denver", "it's GMT for me now".
var (
	// goodbyeAlone: "goodbye Windows", "so long, Jenkins".
	goodbyeAlone = lazyRegexp(`^(?:goodbye|bye bye|bye|farewell|so long|rip|good riddance(?: to)?|no more) ([a-z0-9.+# -]+?)(?: for good| forever)?$`)
	// toolGone: "pip-tools is gone", "webpack is history", "memcached is out".
	toolGone = lazyRegexp(`^(?:the |our )?([a-z0-9.+# -]+?) (?:is|are|has been|have been|got|was|were) (?:now |completely |fully |officially |finally )?(?:gone|history|dead|out|retired|deprecated|removed|dropped|ripped out|toast|no more|kicked out|out the door)(?: now| for good| too| as well)?$`)
	// allInOn: "we're all-in on pnpm", "we are a Postgres shop now".
	allInOn = lazyRegexp(`^(?:we are|we have gone|we went|i am|i have gone|i went) (?:all[ -]in on|(?:an? |all )?([a-z0-9.+# -]+?) shop)(?: ([a-z0-9.+# -]+?))?(?: now| these days)?$`)
	// gotNewMachine: "got a new Mac", "I got a MacBook at the new job".
	gotNewMachine = lazyRegexp(`^(?:i |we )?(?:just |finally )?(?:got|bought|have|am on|switched to|moved to) (?:a |my |an )?(?:new |shiny new )?(mac|macbook(?: pro| air)?|imac|mac mini|linux (?:laptop|box|machine)|windows (?:laptop|machine|pc|box)|chromebook)\b.*$`)
	// byeTail: "…, goodbye Windows" after an arrival.
	byeTail = lazyRegexp(`\b(?:goodbye|bye bye|bye|farewell|so long|no more) ([a-z0-9.+# -]+?)$`)
	// pronounGone: "she left", "he's gone", "she moved on last month".
	pronounGone = lazyRegexp(`^(?:she|he|they)(?: is| has| have| are| was| were|'s)?(?: just| actually| now)? (?:left|quit|gone|retired|moved on|moved teams|changed teams|moved to another team|stepped down|let go)\b`)
	// renameEntity: "we renamed ledgerd to bookkeeper", "atlas got renamed
	// to compass", "the default branch was renamed to trunk".
	renameEntity = lazyRegexp(`^(?:` + subj + ` ` + adv + `renamed (?:the |our |my )?(.+?)|(?:the |our |my )?(.+?) (?:got|was|has been|is now|is being|have been|were) renamed) (?:from (.+?) )?to (.+)$`)
	// goneThenIt: the value after a pronoun's leaving in one clause.
	goneThenIt = lazyRegexp(`\b(?:it is|now it is|it will be|the new one is) ([a-z][a-z'-]+)(?: now)?$`)
	// inChargeRe: "Ravi is in charge of me now", "Ravi runs the team now".
	inChargeRe = lazyRegexp(`^([a-z][a-z'-]+) (?:is in charge(?: of (?:me|us|the team))?|runs the team|leads the team|is the (?:new )?(?:boss|lead|manager)|took over)(?: now)?$`)
	// weRelocated: "we relocated to Oslo", "we moved over to Denver".
	weRelocated = lazyRegexp(`^we ` + adv + `(?:relocated|moved)(?: up| down| over| out| back| across)? (?:to|over to) ([a-z][a-z.' -]*?)$`)
	// settledIn: "just got settled in Denver", "been living in Nairobi".
	settledIn = lazyRegexp(`^(?:i |we )?(?:just |finally |now )?(?:got |am |are |have |have been |been |getting )?(?:settled|settling|living|based|settled down) in ([a-z][a-z.' -]*?)$`)
	// workingFrom: "I'm working remotely from Lisbon" after "starting this week".
	workingFrom = lazyRegexp(`^i am (?:now )?(?:working|living) (?:remotely )?(?:from|out of) ([a-z][a-z.' -]*?)(?: now)?$`)
	// afterMove: "still unpacking after the move to Manchester".
	afterMove = lazyRegexp(`\b(?:after|since|with) (?:the|our|my) (?:big )?(?:move|relocation) to ([a-z][a-z]+(?: [a-z]+)?)$`)
	// everythingOn: "Everything runs on GCP these days".
	everythingOn = lazyRegexp(`^(?:everything|it all|all of it|the whole stack|all our stuff) (?:runs|is|lives|sits) on ([a-z0-9.+# -]+?)(?: now| these days| nowadays)?$`)
	// tzForMe: "so it's GMT for me", "I'm on CET now".
	tzForMe = lazyRegexp(`^(?:so |and )?(?:it is|i am on|i am in|we are on) ([a-z]{2,5}|utc\s*[+-]\s*\d{1,2}(?::?\d\d)?|gmt\s*[+-]\s*\d{1,2})(?: time)?(?: for me)?(?: now| these days)?(?: (?:since|after) the move\b.*)?$`)
	// wentWith: "finally gave in and went with fish as my shell".
	wentWith = lazyRegexp(`^(?:i |we )?` + adv + `(?:gave in and |caved and )?(?:went with|settled on|opted for|picked|chose|landed on) ([a-z0-9.+# -]+?)(?: as (?:my|our) ([a-z]+(?: [a-z]+)?))?(?: now| in the end)?$`)
	// portTo: "bumped the api port to 9090", "moved the port from 3000 to 3001".
	portTo = lazyRegexp(`^(?:we |i )?` + adv + `(?:bumped|moved|changed|switched|set|updated) (?:the |our )?(?:[a-z]+ )?port (?:from (\d{2,5}) )?to (\d{2,5})\b.*$`)
)

// ChangeHint reports whether text speaks of an end, a hand-over or a
// rename the extractor reads against the conversation and the beliefs in
// play ("she left, it's Omar now", "we renamed ledgerd to bookkeeper").
func ChangeHint(text string) bool { return changeHint().MatchString(strings.ToLower(text)) }

var changeHint = lazyRegexp(`\b(?:renamed|left|gone|moved on|goodbye|no more|history|bumped|in charge|upgraded|downgraded|updated|migrated|switched|swapped|replaced|dropped|ditched|anymore|no longer|these days|nowadays|changed|new)\b|\bmoved (?:to|off|from|over|into)\b`)

// matchEnded reads an end or an arrival said without a usage verb.
func matchEnded(c *clause) []Fact {
	t := c.text
	endOf := func(raw string) []Fact {
		tl, ok := lookupTool(strings.TrimSpace(raw))
		if !ok {
			return nil
		}
		cat := pickCategory(tl, nil, "")
		pred := categoryPredicate()[cat]
		if pred == "" {
			return nil
		}
		subject := SubjectProject
		if relations.IsPersonal(pred) {
			subject = SubjectUser
		}
		return []Fact{{Subject: subject, Predicate: pred, Object: tl.Name, Negated: true, shownObject: tl.Display}}
	}
	if m := goodbyeAlone().FindStringSubmatch(t); m != nil {
		return endOf(m[1])
	}
	if m := toolGone().FindStringSubmatch(t); m != nil {
		return endOf(m[1])
	}
	if m := allInOn().FindStringSubmatch(t); m != nil {
		v := m[1] + m[2]
		if tl, ok := lookupTool(strings.TrimSpace(v)); ok {
			pred := categoryPredicate()[pickCategory(tl, nil, "")]
			if pred != "" {
				return []Fact{{Subject: SubjectProject, Predicate: pred, Object: tl.Name, shownObject: tl.Display}}
			}
		}
		return nil
	}
	if m := wentWith().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(strings.TrimSpace(m[1])); ok {
			hint := ""
			if h, ok := slotCategory()[m[2]]; ok {
				hint = h
			}
			pred := categoryPredicate()[pickCategory(tl, nil, hint)]
			if pred != "" {
				subject := SubjectProject
				if relations.IsPersonal(pred) || strings.HasPrefix(t, "i ") || strings.Contains(t, " as my ") {
					subject = SubjectUser
				}
				return []Fact{{Subject: subject, Predicate: pred, Object: tl.Name, shownObject: tl.Display}}
			}
		}
		return nil
	}
	if m := everythingOn().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(strings.TrimSpace(m[1])); ok && slices.Contains(tl.Categories, catCloud) {
			return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[catCloud], Object: tl.Name, shownObject: tl.Display}}
		}
		return nil
	}
	if m := portTo().FindStringSubmatch(t); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[2], Replaces: m[1]}}
	}
	if m := gotNewMachine().FindStringSubmatch(t); m != nil {
		os := "macos"
		switch {
		case strings.HasPrefix(m[1], "linux"):
			os = "linux"
		case strings.HasPrefix(m[1], "windows"):
			os = "windows"
		case m[1] == "chromebook":
			return nil
		}
		if tl, ok := lookupTool(os); ok {
			f := Fact{Subject: SubjectUser, Predicate: "uses_os", Object: tl.Name, shownObject: tl.Display}
			if g := byeTail().FindStringSubmatch(t); g != nil {
				if old, ok := lookupTool(g[1]); ok && shareCategory(old, tl) && old.Name != tl.Name {
					f.Replaces = old.Name // "got a new Mac, goodbye Windows"
				}
			}
			return []Fact{f}
		}
	}
	return nil
}

// placeIn reads a residence said in passing: "we relocated to Oslo", "just
// got settled in Denver", "(starting this week) I'm working from Lisbon".
// The place must be written with a capital.
func placeIn(c *clause) []Fact {
	var place string
	switch {
	case weRelocated().MatchString(c.text):
		place = weRelocated().FindStringSubmatch(c.text)[1]
	case settledIn().MatchString(c.text):
		place = settledIn().FindStringSubmatch(c.text)[1]
	case workingFrom().MatchString(c.text) && (c.change || strings.Contains(c.text, " now")):
		place = workingFrom().FindStringSubmatch(c.text)[1]
	case afterMove().MatchString(c.text):
		place = afterMove().FindStringSubmatch(c.text)[1]
	default:
		return nil
	}
	place = strings.TrimSpace(whyTail().ReplaceAllString(place, ""))
	if place == "" || !capitalized(c.span, firstWord(place)) || notPersons()[upperFirst(firstWord(place))] {
		return nil
	}
	if _, tool := lookupTool(place); tool {
		return nil
	}
	if _, tool := lookupTool(firstWord(place)); tool || codeHosts[firstWord(place)] {
		return nil // "we moved to GitHub last year"
	}
	return []Fact{{Subject: SubjectUser, Predicate: "lives_in", Object: place, shownObject: display(c.span, place)}}
}

// timezoneFor reads "so it's GMT for me", "I'm on CET now": a time zone
// written in capitals or as an offset.
func timezoneFor(c *clause) []Fact {
	m := tzForMe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	v := m[1]
	if !strings.HasPrefix(v, "utc") && !strings.HasPrefix(v, "gmt") && !strings.Contains(c.span, strings.ToUpper(v)) {
		return nil // "I'm on it", "it's fine for me"
	}
	if len(v) <= 5 && !strings.HasPrefix(v, "utc") && !strings.HasPrefix(v, "gmt") && !knownZone()[v] {
		return nil
	}
	return []Fact{{Subject: SubjectUser, Predicate: "timezone_is", Object: v, shownObject: strings.ToUpper(v)}}
}

// knownZone are time-zone abbreviations people write.
var knownZone = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, z := range strings.Fields(`utc gmt bst ist cet cest eet eest wet west est edt cst cdt mst mdt pst pdt akst hst
		jst kst aest aedt acst awst nzst nzdt sgt hkt pht wib msk brt art clt`) {
		m[z] = true
	}
	return m
})

// handOver reads the clauses that need the conversation or the beliefs in
// play: a pronoun leaving ("she left") makes the last manager named gone,
// so "it's Omar now" replaces them; a rename carries the slot of the old
// value ("we renamed ledgerd to bookkeeper" when ledgerd is a believed
// value). It reports whether the clause was spent.
func (r *reading) handOver(c *clause) ([]Fact, bool) {
	if pronounGone().MatchString(c.text) {
		for _, cand := range r.candidates() {
			if cand.Predicate == "manager_is" && !cand.Negated {
				if m := goneThenIt().FindStringSubmatch(c.text); m != nil && capitalized(c.span, m[1]) && m[1] != cand.Object {
					// "she's gone actually, it's Tobias now" read as one clause
					return []Fact{{Subject: cand.Subject, Predicate: "manager_is", Object: m[1], Replaces: cand.Object,
						shownObject: upperFirst(m[1])}}, true
				}
				r.gone = append(r.gone, cand.Object)
				r.topic = "my manager"
				return nil, true
			}
		}
		return nil, false
	}
	if afterMove().MatchString(c.text) && !c.question {
		// "sorry for the slow replies, still unpacking after the move to
		// Manchester": read before an aside is cut off
		if f := placeIn(c); f != nil {
			return append(timezoneFor(c), f...), true
		}
	}
	if m := portTo().FindStringSubmatch(c.text); m != nil && m[1] == "" {
		// "bumped the api port to 9090": the port in play is the one it
		// replaces
		for _, cand := range r.candidates() {
			if cand.Predicate == "port_is" && !cand.Negated && cand.Object != m[2] {
				return []Fact{{Subject: cand.Subject, Predicate: "port_is", Object: m[2], Replaces: cand.Object}}, true
			}
		}
	}
	if r.topic == "my manager" {
		if m := inChargeRe().FindStringSubmatch(c.text); m != nil && capitalized(c.span, m[1]) {
			c.text = "my manager is " + m[1] // "he's gone, Ravi is in charge of me now"
			return nil, false
		}
	}
	m := renameEntity().FindStringSubmatch(c.text)
	if m == nil {
		return nil, false
	}
	what := m[2] + m[3]
	from, to := m[4], strings.TrimSpace(whyTail().ReplaceAllString(m[5], ""))
	to = strings.TrimSpace(changeTime().ReplaceAllString(to, ""))
	newV, ok := nounPhrase(to, 3)
	if !ok {
		return nil, false
	}
	oldV := from
	if oldV == "" {
		oldV = what
	}
	oldV, _ = nounPhrase(oldV, 3)
	for _, cand := range r.candidates() {
		if cand.Negated || cand.Object == "" || cand.Object != oldV {
			continue
		}
		return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: newV, Replaces: cand.Object,
			shownSubject: cand.shownSubject, shownObject: display(c.span, newV)}}, true
	}
	if from == "" {
		// "we renamed the default branch to trunk": a slot named by its noun
		slot := strings.TrimSuffix(what, " name")
		if r, ok := relations.ByNoun(slot); ok && r.Category == "" && r.Said(relations.Project) && relations.IsExclusive(r.Predicate) {
			return []Fact{{Subject: SubjectProject, Predicate: r.Predicate, Object: newV, shownObject: display(c.span, newV)}}, true
		}
	}
	return nil, false
}

// matchAside reads the ends, arrivals, residences and time zones said in
// passing (matchEnded, placeIn, timezoneFor).
func matchAside(c *clause) []Fact {
	if f := matchEnded(c); f != nil {
		return f
	}
	// "I'm on CET now since the move to Berlin" says both
	return append(timezoneFor(c), placeIn(c)...)
}
