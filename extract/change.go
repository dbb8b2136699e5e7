package extract

import "strings"

// Changes and ends of usage: "we switched from pnpm to bun", "we migrated to
// Postgres", "we replaced Jest with Vitest", "we no longer use yarn", "we used
// to use Travis". A change names the new value and, when given, the one it
// replaces; an end is a negated usage.

var (
	changeFromTo = lazyRegexp(`^` + subj + ` ` + adv + `(switched|moved|migrated|changed|transitioned|converted|upgraded|ported|went|shifted)(?: over| everything| it| back| the \w+| our \w+)? from (.+?) (?:to|onto|over to) (.+)$`)
	changeTo     = lazyRegexp(`^` + subj + ` ` + adv + `(switched|moved|migrated|changed|transitioned|converted|ported|shifted|upgraded|downgraded)(?: over| everything| it| back| the \w+| our \w+)? (?:to|onto|over to) (.+?)(?: from (.+))?$`)
	changeAway   = lazyRegexp(`^` + subj + ` ` + adv + `(migrated|moved|switched|went) (?:away from|off of|off) (.+?)(?: (?:to|onto|for) (.+))?$`)
	replacedWith = lazyRegexp(`^` + subj + ` ` + adv + `(replaced|swapped|swapped out) (.+?) (?:with|for) (.+)$`)
	droppedFor   = lazyRegexp(`^` + subj + ` ` + adv + `(dropped|ditched|abandoned|removed|got rid of|retired|deprecated|killed|ripped out|left) (.+?) (?:for|in favou?r of|and (?:moved|switched|went|migrated) to) (.+)$`)

	noLongerUse = lazyRegexp(`^` + subj + ` ` + adv + `(?:no longer|do not|does not|did not|never|are not|is not|am not|have not|has not) (?:really |ever |even )?(use|uses|using|used|need|rely on|run on|deploy (?:with|to|on)|depend on) (.+)$`)
	stoppedUse  = lazyRegexp(`^` + subj + ` ` + adv + `(?:stopped|quit|gave up on|gave up) (?:using )?(.+)$`)
	droppedUse  = lazyRegexp(`^` + subj + ` ` + adv + `(dropped|ditched|abandoned|got rid of|removed|retired|deprecated|ripped out|moved away from|migrated away from|moved off of|moved off|migrated off of|migrated off|switched away from) (.+)$`)
	usedToUse   = lazyRegexp(`^` + subj + ` (?:used to|once) (?:use|run on|deploy (?:with|to|on)) (.+)$`)
)

// matchChange reads "we switched from pnpm to bun", "we migrated to Postgres",
// "we replaced Jest with Vitest": the new object replaces the old one.
func matchChange(c *clause) []Fact {
	if !opensWithSubject(c.text) || !containsAny(c.text, "switch", "moved", "migrat", "chang", "transition",
		"convert", "port", "shift", "grade", "went", "replac", "swap", "drop", "ditch", "abandon", "remov",
		"got rid", "retir", "deprecat", "kill", "ripped", "left") {
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
	default:
		return nil
	}
	if newRaw == "" {
		return nil // "we moved away from X" alone is handled as a negation
	}
	hint := ref.hint()
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
	stmt := subjectDisplay(ref.subject) + " switched" + strings.TrimPrefix(ref.forSlot(c.span), " for")
	if oldObj != "" {
		stmt += " from " + toolDisplay(c.span, oldObj)
	}
	stmt += " to " + toolDisplay(c.span, newObj)
	return []Fact{{Subject: ref.subject, Predicate: pred, Object: newObj, Replaces: oldObj, Statement: stmt}}
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
		ref, rest = parseSubject(m[1]), m[3]
		// "we don't deploy on Fridays" names no tool: only known tools count
		toolOnly = !strings.HasPrefix(m[2], "us")
	case stoppedUse().MatchString(c.text):
		m := stoppedUse().FindStringSubmatch(c.text)
		ref, rest = parseSubject(m[1]), m[2]
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
		verbPhrase := " does not use "
		if usedTo || verb != "" || strings.Contains(c.text, "no longer") || strings.Contains(c.text, "stopped") {
			verbPhrase = " no longer uses "
		}
		f := Fact{Subject: ref.subject, Predicate: u.pred, Object: u.obj, Negated: true,
			Statement: subjectDisplay(ref.subject) + verbPhrase + toolDisplay(c.span, u.obj) + ref.forSlot(c.span)}
		out = append(out, f)
	}
	if usedTo {
		for i := range out {
			out[i].Reliability = 0.7
		}
	}
	return out
}
