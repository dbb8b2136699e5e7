package extract

import (
	"strings"
	"sync"
)

// Preferences: "I prefer pnpm over npm", "I like tabs", "I hate semicolons",
// "I'm not a fan of ORMs". A preferred tool lands on its category predicate
// (exclusive, it competes with "we use X"); any other preference stays on
// prefers / likes / dislikes, which are additive (seed 001, scenario B).

const userSubj = `^(i|we) ` + adv

var (
	preferRe     = lazyRegexp(userSubj + `prefer (.+)$`)
	ratherRe     = lazyRegexp(`^(i|we) rather (?:use |have |go with )?(.+?) than (?:use |using |have |go with )?(.+)$`)
	fanRe        = lazyRegexp(`^i am (not )?(?:a |an )?(?:big |huge |massive |great |real )?fan of (.+)$`)
	likeMoreRe   = lazyRegexp(userSubj + `(?:like|love|enjoy) (.+?) (?:better than|more than|over) (.+)$`)
	likeRe       = lazyRegexp(`^i ` + adv + `(like|love|enjoy|adore|appreciate|dig) (.+)$`)
	notLikeRe    = lazyRegexp(`^i (?:really )?(?:do not|did not|never) (?:really |particularly |much |especially )?(like|love|enjoy) (.+)$`)
	dislikeRe    = lazyRegexp(`^i ` + adv + `(dislike|hate|loathe|despise|detest|cannot stand|can not stand|cannot bear|abhor|am not a fan of|am sick of|am tired of) (.+)$`)
	gerundTool   = lazyRegexp(`^(?:to use|using|use|working with|working in|to work with|to work in|writing|to write|coding in|to code in|programming in|to program in|developing in|to develop in)\s+(.+)$`)
	toInfinitive = lazyRegexp(`^to\s+`)
)

// preferenceObject resolves what is preferred: "using pnpm" is the tool pnpm,
// "to write tests first" stays a phrase.
func preferenceObject(raw string) (obj string, t *tool, ok bool) {
	if m := gerundTool().FindStringSubmatch(raw); m != nil {
		if o, ok := nounPhrase(m[1], 4); ok {
			if t, ok := lookupTool(o); ok {
				return t.Name, t, true
			}
		}
	}
	raw = toInfinitive().ReplaceAllString(raw, "")
	head := raw
	if p := purposeTail().FindStringSubmatch(head); p != nil {
		head = p[1] // "Bun for scripts" is a preference for Bun
	}
	head, _ = usageObject(head)
	if o, ok := nounPhrase(head, 4); ok {
		if t, ok := lookupTool(o); ok {
			return t.Name, t, true
		}
	}
	obj, ok = nounPhrase(raw, 8)
	if !ok {
		return "", nil, false
	}
	if t, known := lookupTool(obj); known {
		return t.Name, t, true
	}
	return obj, nil, true
}

var (
	// preferWhenYou: "I prefer when you ask before big refactors".
	preferWhenYou = lazyRegexp(`^i ` + adv + `(?:prefer|like|love|appreciate) (?:it )?(?:when|if) you (.+)$`)
	// ratherYou: "I'd rather you show me the diff (than the whole file)".
	ratherYou = lazyRegexp(`^i ` + adv + `(?:(?:would )?rather|prefer) (?:that )?you (.+?)(?: (?:than|instead of|rather than) (.+))?$`)
	// wantPractice: "I want explanations before code".
	wantPractice = lazyRegexp(`^i ` + adv + `(?:want|need|expect|would like|like) ([a-z][a-z -]+)$`)
	// dislikeWhen: "I hate it when you apologise", "I dislike when answers
	// are padded".
	dislikeWhen = lazyRegexp(`^i ` + adv + `(?:dislike|hate|do not like|cannot stand|can not stand|am annoyed) (?:it )?(?:when|if) (.+)$`)
	// likeMyShort: "I like my functions short".
	likeMyShort = lazyRegexp(`^i ` + adv + `(?:like|prefer|want) (?:my|our|the) ([a-z -]+?) ((?:(?:heavily|well|thoroughly|fully|properly|strictly|very|really) )?(?:short|small|simple|lean|focused|tiny|flat|readable|minimal|pure|explicit|typed|documented|commented|tested))$`)
	// wantStyle: "I want short answers", "I like concise replies".
	wantStyle = lazyRegexp(`^i ` + adv + `(?:want|like|prefer|need|appreciate|love) ((?:short|shorter|concise|brief|terse|detailed|thorough|longer|simple|minimal|small|smaller|focused|clear|direct|plain)(?:,? (?:and )?[a-z]+)? (?:answers|responses|replies|explanations|summaries|commits|prs|pull requests|functions|diffs|messages|comments|code|examples))$`)
)

var (
	// likeMyDone: "I like my tests table-driven", "I like my commit
	// messages in the imperative": how the speaker wants a kind of
	// artifact of theirs to be.
	likeMyDone = lazyRegexp(`^i ` + adv + `(?:like|prefer|want|love) (my |our |every |each |all (?:my |our )?)((?:[a-z0-9_-]+ ){0,2}?[a-z0-9_-]+) ((?:in|with|without|as|under|below|at|on|behind|next to) [a-z0-9 _-]+|[a-z][a-z0-9_-]*(?:-[a-z]+)*)$`)
	// notWantKind: "I don't want any emojis", "I don't want comments
	// in the code".
	notWantKind = lazyRegexp(`^i ` + adv + `(?:do not|never) (?:want|need) (?:any |no )?((?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+s)(?: (?:in|on) (?:the |my |our )?[a-z0-9 _.-]+)?$`)
	// likeWhenKind: "I like when PRs are small", "I love it when commits
	// are atomic": how things of a kind are, said as a taste.
	likeWhenKind = lazyRegexp(`^i ` + adv + `(?:like|love|prefer|appreciate) (?:it )?(?:when|if) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) (?:are|stay|remain) ([a-z][a-z0-9 _-]*)$`)
	// likeKindTo: "I like PRs to have screenshots", "I want commits to
	// reference the ticket".
	likeKindTo = lazyRegexp(`^i ` + adv + `(?:like|want|prefer|expect|love) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+s) to (have|include|contain|carry|reference|link|mention|start with|end with) (.+)$`)
	// likeDoing: "I like to see a plan before you write code", "I like
	// seeing the full diff": a taste for an act.
	likeDoing = lazyRegexp(`^i ` + adv + `(?:like|love|prefer|enjoy|appreciate) (?:to ([a-z]+)|([a-z]+ing)) (.+)$`)
)

// tasteForWork reads a taste that is about how work is done, not about
// the person: the artifacts of the work, how they are kept, or an act on
// them ("I like to keep PRs under 300 lines", "I like seeing the full
// diff" are how to work; "I like hiking", "I like to run marathons" are
// about the person). A rule, said softly.
func tasteForWork(c *clause) []Fact {
	workNoun := func(np string) bool {
		return artifacts()[lastOf(np)] || practices()[lastOf(np)]
	}
	if m := likeMyDone().FindStringSubmatch(c.text); m != nil && workNoun(m[2]) && !stateWords()[m[3]] {
		np := m[2]
		if q := strings.TrimSpace(m[1]); q == "every" || q == "each" {
			np = q + " " + np // "I want every function documented"
		} else if strings.HasPrefix(q, "all") {
			np = "all " + np
		}
		if prepositions()[firstWord(m[3])] || firstWord(m[3]) == "as" || firstWord(m[3]) == "next" {
			return practiceGuideline(c, "write "+np+" "+m[3], false)
		}
		return practiceGuideline(c, "keep "+np+" "+m[3], false)
	}
	if m := likeKindTo().FindStringSubmatch(c.text); m != nil && workNoun(m[1]) {
		// "I like PRs to have screenshots for UI changes": what every
		// one of a kind should carry
		return practiceGuideline(c, "make sure "+m[1]+" "+m[2]+" "+m[3], false)
	}
	if m := notWantKind().FindStringSubmatch(c.text); m != nil && (codePractice(m[1]) || replyPart().MatchString(m[1]) || artifacts()[lastOf(m[1])]) {
		// "I don't want any emojis": a kind of thing not wanted in the work
		return practiceGuideline(c, "use "+m[1], true)
	}
	if m := likeWhenKind().FindStringSubmatch(c.text); m != nil && workNoun(m[1]) && !troubleNouns()[lastOf(m[1])] {
		return practiceGuideline(c, "keep "+m[1]+" "+m[2], false)
	}
	if m := likeDoing().FindStringSubmatch(c.text); m != nil {
		verb := m[1] // after "to", a verb by its place
		if verb == "" {
			v, ok := baseVerb(m[2])
			if !ok {
				v = strings.TrimSuffix(m[2], "ing")                             // "seeing": see
				if !isVerb(v) && (isVerb(v+"e") || strings.HasSuffix(v, "v")) { // no English word ends in "v"
					v += "e" // "having": have
				}
			}
			verb = v
		}
		rest := m[3]
		if verb == "use" || verb == "work" || verb == "code" || verb == "program" || verb == "write" && !anyWorkNoun(rest) {
			return nil // "I like using Go", "I like writing Rust": a taste for a tool (matchLike)
		}
		if strings.Contains(" "+rest+" ", " i ") || timeWords()[lastOf(rest)] {
			// "I like reading the code before I review", "I like writing
			// code at night": the speaker's own habit, a taste of theirs
			act := m[2]
			if act == "" {
				act = verb
			}
			obj := act + " " + rest
			return []Fact{{Subject: SubjectUser, Predicate: "likes", Object: obj, shownObject: display(c.span, obj)}}
		}
		if anyWorkNoun(rest) || strings.Contains(" "+rest+" ", " you ") {
			return practiceGuideline(c, "prefer to "+verb+" "+rest, false)
		}
	}
	return nil
}

// anyWorkNoun says whether a phrase names an artifact of the work or a
// way of doing it: "a plan before you write code", "the full diff".
func anyWorkNoun(phrase string) bool {
	for _, w := range strings.Fields(phrase) {
		w = strings.Trim(w, ",.")
		if artifacts()[w] || practices()[w] || w == "diff" || w == "plan" || w == "diffs" || w == "plans" {
			if _, tool := lookupTool(w); !tool {
				return true
			}
		}
	}
	return false
}

func matchPrefer(c *clause) []Fact {
	if f := tasteForWork(c); f != nil {
		return f
	}
	if m := preferWhenYou().FindStringSubmatch(c.text); m != nil {
		if rest, ok := strings.CutPrefix(m[1], "did not "); ok && startsWithVerb(rest) {
			return practiceGuideline(c, rest, true) // "I'd prefer it if you didn't use classes"
		}
		if startsWithVerb(m[1]) {
			return practiceGuideline(c, m[1], false)
		}
		return nil
	}
	if m := likeMyShort().FindStringSubmatch(c.text); m != nil && (artifacts()[lastOf(m[1])] || practices()[lastOf(m[1])]) {
		return practiceGuideline(c, "keep "+m[1]+" "+m[2], false)
	}
	if m := wantStyle().FindStringSubmatch(c.text); m != nil {
		return practiceGuideline(c, "prefer "+m[1], false)
	}
	if m := ratherYou().FindStringSubmatch(c.text); m != nil && startsWithVerb(m[1]) {
		// "I'd rather you show me the diff than the whole file"
		if alt := m[len(m)-1]; alt != "" && !strings.Contains(alt, " ") && isVerb(alt) {
			return practiceGuideline(c, m[1]+" rather than "+alt, false) // "I'd rather you ask than guess"
		}
		return practiceGuideline(c, "prefer to "+m[1], false)
	}
	if m := wantPractice().FindStringSubmatch(c.text); m != nil && !determiner().MatchString(firstWord(m[1])) && firstWord(m[1]) != "you" && codePractice(m[1]) {
		return practiceGuideline(c, "prefer "+m[1], false) // "I want explanations before code"
	}
	if m := dislikeWhen().FindStringSubmatch(c.text); m != nil {
		// "I really dislike when answers are padded with disclaimers"
		if rest, ok := strings.CutPrefix(m[1], "you "); ok && startsWithVerb(rest) {
			return practiceGuideline(c, rest, true)
		}
		if p := passiveConvention().FindStringSubmatch(m[1]); p != nil && p[2] == "" {
			return practiceGuideline(c, p[1]+" "+p[3], true)
		}
	}
	var who, objRaw, altRaw string
	switch {
	case preferRe().MatchString(c.text):
		m := preferRe().FindStringSubmatch(c.text)
		who = m[1]
		var kind string
		objRaw, altRaw, kind = splitAlternative(m[2])
		if kind == "" {
			if o, a, ok := strings.Cut(m[2], " to "); ok && !strings.HasPrefix(m[2], "to ") {
				objRaw, altRaw = o, a
			}
		}
	case ratherRe().MatchString(c.text):
		m := ratherRe().FindStringSubmatch(c.text)
		who, objRaw, altRaw = m[1], m[2], m[3]
	case likeMoreRe().MatchString(c.text):
		m := likeMoreRe().FindStringSubmatch(c.text)
		who, objRaw, altRaw = m[1], m[2], m[3]
	default:
		return nil
	}
	if strings.HasPrefix(objRaw, "you ") || strings.HasPrefix(objRaw, "that you ") || strings.HasPrefix(objRaw, "it if") {
		return nil // "I prefer you ..." is a guideline (guideline.go)
	}
	ref := parseSubject(who)
	if head, _, ok := strings.Cut(objRaw, ", "); ok && codePractice(head) && !codePractice(objRaw) {
		objRaw = head // "we prefer small PRs, under 300 lines if possible": the practice, then its measure
	}
	if codePractice(objRaw) {
		// "I prefer early returns over nested ifs" is how to write code
		obj := "prefer " + strings.TrimSpace(objRaw)
		if altRaw != "" {
			obj += " over " + strings.TrimSpace(altRaw)
		}
		return practiceGuideline(c, obj, false)
	}
	var out []Fact
	altObj, altTool, _ := preferenceObject(altRaw)
	for _, part := range splitList(objRaw) {
		obj, t, ok := preferenceObject(part)
		if !ok {
			continue
		}
		pred := "prefers"
		if t != nil {
			pred = categoryPredicate()[pickCategory(t, altTool, "")]
		}
		f := Fact{Subject: ref.subject, Predicate: pred, Object: obj, shownObject: toolDisplay(c.span, obj)}
		if altObj != "" && pred == "prefers" {
			f.detail = " over " + toolDisplay(c.span, altObj)
		}
		out = append(out, f)
	}
	return out
}

func matchLike(c *clause) []Fact {
	var verb, objRaw string
	negated := false
	switch {
	case fanRe().MatchString(c.text):
		m := fanRe().FindStringSubmatch(c.text)
		negated, verb, objRaw = m[1] != "", "like", m[2]
	case notLikeRe().MatchString(c.text):
		m := notLikeRe().FindStringSubmatch(c.text)
		negated, verb, objRaw = true, m[1], m[2]
	case dislikeRe().MatchString(c.text):
		m := dislikeRe().FindStringSubmatch(c.text)
		verb, objRaw = "dislike", m[2]
	case likeRe().MatchString(c.text):
		m := likeRe().FindStringSubmatch(c.text)
		verb, objRaw = m[1], m[2]
	default:
		return nil
	}
	pred := "likes"
	if verb == "dislike" {
		pred = "dislikes"
	}
	if head, _, ok := strings.Cut(objRaw, ", "); ok && codePractice(head) && !codePractice(objRaw) {
		objRaw = head // "I like small commits, one logical change each": the practice, then its measure
	}
	if codePractice(objRaw) && (verb == "like" || verb == "love") {
		// "I'm not a fan of default exports", "I like small commits": how
		// to write code, said as a taste; "I hate semicolons" stays a
		// dislike of the person's
		if negated && strings.Contains(c.text, "fan of") {
			return practiceGuideline(c, "use "+objRaw, true)
		}
		if !negated {
			return practiceGuideline(c, "prefer "+objRaw, false)
		}
	}
	var out []Fact
	for _, part := range splitList(objRaw) {
		obj, _, ok := preferenceObject(part)
		if !ok {
			continue
		}
		out = append(out, Fact{Subject: SubjectUser, Predicate: pred, Object: obj, Negated: negated, shownObject: toolDisplay(c.span, obj)})
	}
	return out
}

// practices are the head nouns of ways to write code and work on it: a
// taste for them is a guideline ("I prefer early returns" is "Prefer
// early returns"), a taste for anything else a fact ("I prefer tabs").
var practices = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`returns functions function exports export imports components commits
		commit prs pr requests tests comments variables names naming types typing classes interfaces
		hooks errors handling exceptions loops queries modules messages diffs composition inheritance
		immutability mutation generics structs enums constants logging assertions asserts mocks mocking
		fixtures callbacks promises await ternaries clauses one-liners globals state effects docstrings
		annotations hints lambdas closures decorators abstractions helpers utilities branches rebases
		merges merging rebasing squashing abbreviations semicolons methods files patterns style
		components, programming code explanations answers responses replies summaries examples`) {
		m[w] = true
	}
	return m
})

// codePractice reports whether a preferred or liked thing is a way to
// write code: "early returns over nested ifs", "small, focused commits".
func codePractice(obj string) bool {
	head, _, _ := splitAlternative(obj)
	if p := purposeTail().FindStringSubmatch(head); p != nil {
		head = p[1]
	}
	head = strings.Trim(head, " ,.")
	if loc := objectTail().FindStringIndex(head); loc != nil && loc[0] > 0 {
		head = head[:loc[0]] // "snake_case in Python"
	}
	if ws := strings.Fields(head); len(ws) > 2 {
		// "integration tests against a real postgres": the head noun
		// comes before its prepositional phrase
		for i, w := range ws[1:] {
			if prepositions()[w] {
				head = strings.Join(ws[:i+1], " ")
				break
			}
		}
	}
	if _, tool := lookupTool(head); tool || head == "" {
		return false
	}
	if conventionWords()[head] {
		return true
	}
	if n := len(strings.Fields(head)); n > 5 {
		return false
	}
	return practices()[lastOf(head)]
}

// practiceGuideline is the guideline a taste for a way of coding states.
func practiceGuideline(c *clause, object string, negative bool) []Fact {
	return guidelineFact(c, object, negative, 0)
}

// prepositions open the phrase that follows a head noun.
var prepositions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`against with without for in on over from using via about through into at by of`) {
		m[w] = true
	}
	return m
})
