package extract

import (
	"strconv"
	"strings"
	"sync"
)

// Identity facts about the user: name, age, role, employer, residence,
// origin, and "my X is Y" slots such as timezone or editor.

var (
	nameRe     = lazyRegexp(`^my (?:full |first |real |actual |preferred )?name is (.+)$`)
	callMeRe   = lazyRegexp(`^(?:i am called|i am named|people call me|everyone calls me|you can call me|call me|i go by|the name is)\s+(.+)$`)
	iAmRe      = lazyRegexp(`^i am ([a-z][a-z'-]+)(?:\s*,\s*(.+))?$`)
	ageRe      = lazyRegexp(`^(?:i am|i just turned|i turned|my age is|i am now)\s+(\d{1,3})(?:\s*(?:years old|years of age|yrs old|year old|yo|y/o))?(?:\s*,?\s*not (\d{1,3}))?$`)
	roleRe     = lazyRegexp(`^i (?:am|work as) (?:now |currently |also |actually )?(?:a|an|the) (.+?)(?: (at|for|with|in|on) (.+))?$`)
	worksAtRe  = lazyRegexp(`^i ` + adv + `(?:work|am working|am employed) (?:at|for|by) (.+)$`)
	notWorkRe  = lazyRegexp(`^i (?:do not|no longer|am no longer|am not) (?:work|working|employed) (?:at|for|by) (.+)$`)
	joinedRe   = lazyRegexp(`^i ` + adv + `joined (.+)$`)
	worksOnRe  = lazyRegexp(`^i ` + adv + `work on (.+)$`)
	livesRe    = lazyRegexp(`^i ` + adv + `(?:live|am living|reside|am based|am located|am living|work remotely from|work from|am working from|work remotely out of) (?:in |out of )?(.+)$`)
	usedToRe   = lazyRegexp(`^i used to (live in|work at|work for) (.+)$`)
	notLiveRe  = lazyRegexp(`^i (?:do not|no longer) live in (.+)$`)
	movedRe    = lazyRegexp(`^i ` + adv + `(?:moved|relocated)(?: back| over| out| away| house)?(?: from (.+?))? to (.+)$`)
	fromRe     = lazyRegexp(`^i am (?:originally )?from (.+)$`)
	havePetRe  = lazyRegexp(`^i (?:have|have got|got|own) (?:a|an) (cat|dog|pet|puppy|kitten|bird|rabbit|hamster|parrot|horse|son|daughter) (?:named|called) (.+)$`)
	petNameRe  = lazyRegexp(`^my (cat|dog|pet|puppy|kitten|son|daughter|wife|husband|partner|kid|brother|sister|bird|rabbit|hamster|fish|parrot|horse)(?:'s name is| is named| is called) (.+)$`)
	projNameRe = lazyRegexp(`^(?:this|the|our) (?:project|repo|repository|app|product|tool|library) is (?:called|named) (.+)$`)
)

// roleNouns end a job title: "senior backend engineer", "CTO".
var roleNouns = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"engineer": true, "developer": true, "dev": true, "programmer": true, "coder": true,
		"designer": true, "manager": true, "pm": true, "student": true, "founder": true,
		"cofounder": true, "co-founder": true, "cto": true, "ceo": true, "vp": true,
		"architect": true, "scientist": true, "analyst": true, "consultant": true,
		"freelancer": true, "contractor": true, "lead": true, "intern": true, "researcher": true,
		"admin": true, "administrator": true, "sre": true, "devops": true, "maintainer": true,
		"teacher": true, "professor": true, "writer": true, "hacker": true, "hobbyist": true,
		"tester": true, "director": true, "owner": true, "specialist": true, "technician": true,
		"physicist": true, "mathematician": true, "statistician": true, "bootcamper": true,
	}
})

// notNames are words that follow "I'm" without being a name.
var notNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sorry": true, "back": true, "done": true, "here": true, "ok": true, "okay": true,
		"fine": true, "not": true, "just": true, "also": true, "still": true, "so": true,
		"going": true, "using": true, "working": true, "trying": true, "thinking": true,
		"new": true, "ready": true, "afraid": true, "sure": true, "glad": true, "happy": true,
		"sad": true, "tired": true, "hungry": true, "busy": true, "stuck": true, "confused": true,
		"lost": true, "curious": true, "excited": true, "grateful": true, "good": true,
		"american": true, "british": true, "canadian": true, "french": true, "german": true,
		"japanese": true, "chinese": true, "indian": true, "spanish": true, "italian": true,
		"dutch": true, "swedish": true, "brazilian": true, "australian": true, "mexican": true,
		"korean": true, "russian": true, "polish": true, "irish": true, "scottish": true,
		"english": true, "vegan": true, "vegetarian": true, "remote": true, "left-handed": true,
		"colorblind": true, "dyslexic": true, "on": true, "in": true, "at": true, "off": true,
		"away": true, "out": true, "finished": true, "available": true, "online": true,
	}
})

// nonPlaces follow "I moved to" or "I live in" without being where one lives.
var nonPlaces = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"main": true, "master": true, "production": true, "prod": true, "staging": true,
		"remote": true, "remote work": true, "the cloud": true, "cloud": true, "terminal": true,
		"the terminal": true, "fear": true, "hope": true, "denial": true, "vim": true,
		"my editor": true, "dev": true, "home": true, "my home": true, "anywhere": true, "bed": true, "management": true, "frontend": true, "backend": true,
	}
})

// place cleans a residence: no tools, articles or long phrases.
func place(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if m := calledRe().FindStringSubmatch(raw); m != nil {
		raw = m[1] // "a small town called Tavira"
	}
	raw = placeTail().ReplaceAllString(raw, "") // "Denver for the new job"
	if strings.HasPrefix(raw, "a ") || strings.HasPrefix(raw, "an ") || strings.HasPrefix(raw, "the new ") {
		return "", false
	}
	p, ok := nounPhrase(raw, 3)
	if !ok || nonPlaces()[p] || !hasLetter().MatchString(p) {
		return "", false
	}
	if _, tool := lookupTool(p); tool {
		return "", false
	}
	if firstWord(p) == "home" || strings.Contains(p, "timezone") || strings.Contains(p, "time zone") {
		return "", false // "I work from home on Mondays"
	}
	if _, tool := lookupTool(firstWord(p)); tool && strings.Contains(p, " ") {
		return "", false // "vitest fyi"
	}
	for _, w := range []string{"team", "company", "department", "group", "office", "branch", "repo", "project"} {
		if strings.Contains(p, w) {
			return "", false
		}
	}
	return p, true
}

// personName cleans a name: at most three words, letters only.
func personName(raw string) (string, bool) {
	n, ok := nounPhrase(raw, 3)
	if !ok || notNames()[n] {
		return "", false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r == ' ' || r == '-' || r == '\'' || r == '.') && r < 0x80 {
			return "", false
		}
	}
	return n, true
}

// placeTail is why or with whom one moved: "for the new job", "with my
// partner".
var placeTail = lazyRegexp(`\s+(?:for|with|because|since|after) (?:the|a|an|my|our|work|family|love|school|good)\b.*$`)

// durationTail says how long something has held: "since 2019", "for two
// years".
var durationTail = lazyRegexp(`\s+(?:since|for (?:the (?:last|past) )?(?:\d+|a|an|two|three|four|five|six|seven|eight|nine|ten|few|many|several|some|almost|nearly|over|about)|back in|in (?:\d{4}|january|february|march|april|may|june|july|august|september|october|november|december|the (?:summer|spring|fall|autumn|winter))|(?:last|this|earlier this|a few|two|three) (?:week|month|year|quarter|summer|spring|fall|autumn|winter|weeks|months|years)\b(?: ago)?)\b.*$`)

// teamTail is the part of a company where one works: "on the APM team".
var teamTail = lazyRegexp(`\s+(?:on|in|with) (?:the|a|an|our|their) (?:[a-z0-9&.-]+ ){0,3}(?:team|group|org|organization|department|division|squad|unit|platform|product|project|app|side|stack|backend|frontend)$`)

// companyNoun describes an employer without naming it: "the parent
// company", "a small consultancy".
var companyNoun = lazyRegexp(`^(?:the|a|an|our|my) (?:[a-z-]+ )?(?:company|firm|startup|agency|group|org|organi[sz]ation|employer|subsidiary|bank|consultancy|studio|corporation|corp)$`)

var calledRe = lazyRegexp(`^(?:a|an|the|this) [a-z -]+? (?:called|named) (.+)$`)

// employer cleans a company name; it must be written with a capital or look
// like a domain, so "I work at night" is no employer.
func employer(span, raw string) (string, bool) {
	if m := calledRe().FindStringSubmatch(strings.TrimSpace(raw)); m != nil {
		raw = m[1] // "a fintech called Ramp"
	}
	head, rest, _ := strings.Cut(raw, ",")
	if companyNoun().MatchString(strings.TrimSpace(head)) && rest != "" {
		// "the parent company, Arvel Group": the name in apposition to a
		// description of the company is the employer
		head, _, _ = strings.Cut(strings.TrimSpace(rest), ",")
	}
	raw = head
	raw, _, _ = strings.Cut(raw, " as ")                              // "Netflix as a data scientist"                                 // "Wise, living in Tallinn"
	raw = durationTail().ReplaceAllString(strings.TrimSpace(raw), "") // "Siemens since 2019"
	raw = teamTail().ReplaceAllString(strings.TrimSpace(raw), "")     // "Datadog on the APM team"
	e, ok := nounPhrase(raw, 4)
	if !ok || !(capitalized(span, e) || strings.Contains(e, ".")) {
		return "", false
	}
	return e, true
}

var (
	roleThenName = lazyRegexp(`^(?:the|our) [a-z][a-z -]*?,? ([a-z][a-z'-]+)$`)
	reportsToRe  = lazyRegexp(`^i ` + adv + `(?:report|am reporting) (?:directly )?to (.+)$`)
	worksAtAsRe  = lazyRegexp(`^i ` + adv + `(?:work|am working) (?:at|for) (.+?) as (?:a |an |the )?(.+)$`)
	leftJoinedRe = lazyRegexp(`^i ` + adv + `(?:left|quit) (.+?),? (?:and|to) (?:have |just |recently )?(?:joined|join|started at|moved to|went to) (.+)$`)
	inPlaceRe    = lazyRegexp(`^i am (?:now |currently )?in ([a-z].*)$`)
	appositiveRe = lazyRegexp(`^my (manager|boss|team lead|tech lead|lead|supervisor|line manager),? ([a-z][a-z'-]+),? (?:is|was|has|wants|who|says|likes|needs)\b`)
	newJobRe     = lazyRegexp(`^(?:i )?(?:have |just )?(?:got|started|took|taken|landed|accepted|am starting|started at|begin) (?:a )?(?:new )?(?:job|role|position|gig)(?: as (?:a |an )?[a-z -]+?)? (?:at|with) (.+)$`)
	startedAtRe  = lazyRegexp(`^(?:i )?` + adv + `(?:started|began|start|am starting) (?:working |work |a job |my new job )?(?:at|with) (.+)$`)
	atEmployerRe = lazyRegexp(`^i am (?:now |currently )?(?:at|with|working at|working for) (.+?)$|^(?:now|currently) (?:working at|working for) (.+?)$`)
	// quitRe: "i quit Google", "I left Meta": the employer no longer is.
	quitRe     = lazyRegexp(`^i ` + adv + `(?:quit|left|resigned from) (?:my job (?:at|with) )?(.+)$`)
	livingInRe = lazyRegexp(`^(?:now |currently |still )?(?:living|based|located|residing) in (.+)$`)
	timezoneRe = lazyRegexp(`^i am (?:now |currently |usually )?(?:on|in) (?:the )?(.+?(?: time)?)(?: ?zone| hours)?$`)
)

func matchIdentity(c *clause) []Fact {
	t := c.text
	user := func(pred, obj string) []Fact {
		return []Fact{{Subject: SubjectUser, Predicate: pred, Object: obj, shownObject: showValue(pred, obj, c.span)}}
	}
	if m := nameRe().FindStringSubmatch(t); m != nil {
		v, old := valueAndOld(m[1])
		if n, ok := personName(cutValueTail(v)); ok {
			f := user("name_is", n)
			f[0].Replaces, _ = personName(old)
			return f
		}
		return nil
	}
	if m := callMeRe().FindStringSubmatch(t); m != nil {
		if n, ok := personName(cutValueTail(m[1])); ok && len(strings.Fields(n)) <= 2 {
			return user("name_is", n)
		}
		return nil
	}
	m := petNameRe().FindStringSubmatch(t)
	if h := havePetRe().FindStringSubmatch(t); h != nil {
		m = []string{h[0], h[1], h[2]}
	}
	if m != nil {
		if n, ok := personName(m[2]); ok {
			return []Fact{{Subject: "user's " + m[1], Predicate: "name_is", Object: n, shownObject: upperWords(display(c.span, n))}}
		}
		return nil
	}
	if m := projNameRe().FindStringSubmatch(t); m != nil {
		if n, ok := nounPhrase(m[1], 4); ok {
			return []Fact{{Subject: SubjectProject, Predicate: "name_is", Object: n, shownObject: display(c.span, n)}}
		}
		return nil
	}
	if m := ageRe().FindStringSubmatch(t); m != nil {
		if age, err := strconv.Atoi(m[1]); err == nil && age >= 5 && age <= 120 {
			f := user("age_is", m[1])
			f[0].Replaces = m[2]
			return f
		}
		return nil
	}
	if m := reportsToRe().FindStringSubmatch(t); m != nil {
		if r := roleThenName().FindStringSubmatch(m[1]); r != nil && capitalized(c.span, r[1]) {
			return user("manager_is", r[1]) // "I report to the CTO, Dmitri": the name after the title
		}
		if strings.HasPrefix(m[1], "the ") || strings.HasPrefix(m[1], "our ") {
			return nil // "I report to the CTO": a title, no name
		}
		v, old := valueAndOld(m[1])
		if n, ok := personName(v); ok && capitalized(c.span, firstWord(n)) {
			f := user("manager_is", n)
			f[0].Replaces, _ = personName(old)
			return f
		}
		return nil
	}
	if m := worksAtAsRe().FindStringSubmatch(t); m != nil {
		if e, ok := employer(c.span, m[1]); ok {
			out := user("works_at", e)
			return append(out, matchRole(&clause{span: c.span, text: "i am a " + m[2]})...)
		}
	}
	if m := leftJoinedRe().FindStringSubmatch(t); m != nil {
		if e, ok := employer(c.span, m[2]); ok {
			f := user("works_at", e)
			f[0].Replaces, _ = employer(c.span, m[1])
			return f
		}
		return nil
	}
	if m := appositiveRe().FindStringSubmatch(t); m != nil && capitalized(c.span, m[2]) && !notNames()[m[2]] {
		return user("manager_is", m[2]) // "my boss, Ken, is super strict"
	}
	if m := startedAtRe().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); !tool {
			if e, ok := employer(c.span, m[1]); ok {
				return user("works_at", e) // "Started at Google last Monday"
			}
		}
	}
	if m := newJobRe().FindStringSubmatch(t); m != nil {
		if e, ok := employer(c.span, m[1]); ok {
			return user("works_at", e)
		}
		return nil
	}
	if m := atEmployerRe().FindStringSubmatch(t); m != nil && (c.jobNews || strings.Contains(c.span, "now") || strings.HasPrefix(t, "i am now")) {
		// "I'm now at Stripe", "Changed jobs - I'm at Figma": only news
		// of a job makes "at X" an employer
		if e, ok := employer(c.span, m[1]+m[2]); ok {
			return user("works_at", e)
		}
	}
	if m := quitRe().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); !tool {
			if e, ok := employer(c.span, m[1]); ok && !notNames()[e] {
				f := user("works_at", e)
				f[0].Negated = true
				return f
			}
		}
	}
	if m := livingInRe().FindStringSubmatch(t); m != nil {
		if p, ok := place(m[1]); ok {
			return []Fact{{Subject: SubjectUser, Predicate: "lives_in", Object: p, shownObject: upperWords(display(c.span, p))}}
		}
	}
	if f := matchRole(c); f != nil {
		return f
	}
	if m := iAmRe().FindStringSubmatch(t); m != nil && !notNames()[m[1]] && capitalized(c.span, m[1]) {
		if _, tool := lookupTool(m[1]); !tool {
			out := user("name_is", m[1])
			if m[2] != "" {
				role := m[2]
				if !strings.HasPrefix(role, "a ") && !strings.HasPrefix(role, "an ") && !strings.HasPrefix(role, "the ") {
					role = "a " + role
				}
				out = append(out, matchRole(&clause{span: c.span, text: "i am " + role})...)
			}
			return out
		}
	}
	if m := timezoneRe().FindStringSubmatch(t); m != nil {
		// "I'm in PST not EST": a zone, and the zone it replaces
		zone, old := valueAndOld(m[1])
		if timezoneLike().MatchString(zone) && zone != "time" &&
			(strings.Contains(t, "time") || zone != "" && strings.ToUpper(display(c.span, zone)) == display(c.span, zone)) {
			f := user("timezone_is", zone)
			if old != "" && timezoneLike().MatchString(old) {
				f[0].Replaces = old
			}
			return f
		}
	}
	if m := notWorkRe().FindStringSubmatch(t); m != nil {
		if e, ok := employer(c.span, m[1]); ok {
			f := user("works_at", e)
			f[0].Negated = true
			return f
		}
		return nil
	}
	if m := worksAtRe().FindStringSubmatch(t); m != nil {
		v, old := valueAndOld(m[1])
		if e, ok := employer(c.span, v); ok {
			f := user("works_at", e)
			f[0].Replaces, _ = employer(c.span, old)
			return f
		}
		return nil
	}
	if m := joinedRe().FindStringSubmatch(t); m != nil {
		if e, ok := employer(c.span, m[1]); ok {
			out := user("works_at", e)
			if _, role, ok := strings.Cut(m[1], " as "); ok {
				// "I just joined Canva as a designer"
				if !strings.HasPrefix(role, "a ") && !strings.HasPrefix(role, "an ") && !strings.HasPrefix(role, "the ") {
					role = "a " + role
				}
				out = append(out, matchRole(&clause{span: c.span, text: "i am " + role})...)
			}
			return out
		}
		return nil
	}
	if m := worksOnRe().FindStringSubmatch(t); m != nil {
		if o, ok := nounPhrase(m[1], 5); ok {
			return user("works_on", o)
		}
		return nil
	}
	return matchResidence(c)
}

// cutValueTail ends a name where a comment on it begins: "John, with an h"
// is John.
func cutValueTail(v string) string {
	if loc := nameTail().FindStringIndex(v); loc != nil {
		return v[:loc[0]]
	}
	return v
}

var nameTail = lazyRegexp(`\s*,?\s+(?:with (?:an?|two|one|double) [a-z]\b|spelled\b|spelt\b|as in\b)|\s*,\s*`)

func matchResidence(c *clause) []Fact {
	t := c.text
	live := func(p string, negated bool) []Fact {
		return []Fact{{Subject: SubjectUser, Predicate: "lives_in", Object: p, Negated: negated, shownObject: upperWords(display(c.span, p))}}
	}
	if m := usedToRe().FindStringSubmatch(t); m != nil {
		// "I used to live in Paris": no longer true, and no new value named
		if m[1] == "live in" {
			if p, ok := place(m[2]); ok {
				return live(p, true)
			}
		} else if e, ok := employer(c.span, m[2]); ok {
			return []Fact{{Subject: SubjectUser, Predicate: "works_at", Object: e, Negated: true, shownObject: display(c.span, e)}}
		}
		return nil
	}
	if m := notLiveRe().FindStringSubmatch(t); m != nil {
		if p, ok := place(m[1]); ok {
			return live(p, true)
		}
		return nil
	}
	if m := livesRe().FindStringSubmatch(t); m != nil {
		v, old := valueAndOld(m[1])
		where, forWhom, working := strings.Cut(v, " for ")
		if working && strings.Contains(t, "work") {
			v = where // "I work remotely from Montreal for a startup called Plume"
		}
		if p, ok := place(v); ok {
			f := live(p, false)
			f[0].Replaces, _ = place(old)
			if e, ok := employer(c.span, forWhom); working && ok {
				f = append(f, Fact{Subject: SubjectUser, Predicate: "works_at", Object: e, shownObject: display(c.span, e)})
			}
			return f
		}
		return nil
	}
	if m := inPlaceRe().FindStringSubmatch(t); m != nil {
		// "I'm in Singapore": a place only when written as a name
		v, old := valueAndOld(m[1])
		v = strings.TrimSuffix(v, " now")
		if p, ok := place(v); ok && old != "" && capitalized(c.span, firstWord(p)) {
			f := live(p, false)
			f[0].Replaces, _ = place(strings.TrimSuffix(old, " anymore")) // "I'm in Berlin now, not Munich anymore"
			return f
		}
		if p, ok := place(m[1]); ok && capitalized(c.span, firstWord(p)) && !(timezoneLike().MatchString(p) && strings.ToUpper(display(c.span, p)) == display(c.span, p)) {
			return live(p, false)
		}
	}
	if m := movedRe().FindStringSubmatch(t); m != nil {
		p, ok := place(m[2])
		if !ok {
			return nil
		}
		f := live(p, false)
		if old, ok := place(m[1]); ok {
			f[0].Replaces = old
		}
		return f
	}
	if m := fromRe().FindStringSubmatch(t); m != nil {
		if p, ok := place(m[1]); ok {
			return []Fact{{Subject: SubjectUser, Predicate: "is_from", Object: p, shownObject: upperWords(display(c.span, p))}}
		}
	}
	return nil
}

// matchRole reads "I'm a backend engineer (at Acme)" and "I work as a
// designer": a role, and an employer when one is named.
func matchRole(c *clause) []Fact {
	m := roleRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	roleText, _, _ := strings.Cut(m[1], ",")                                                           // "a frontend dev, mostly React"
	roleText = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(roleText), "new "), "current ") // "the new CTO"
	if w := firstWord(roleText); ordinalWords[w] && strings.Contains(roleText, " ") {
		roleText = roleText[len(w)+1:] // "I'm the only dev on this project": a dev
	}
	role, ok := nounPhrase(cutAfterRole(roleText), 5)
	if !ok {
		return nil
	}
	words := strings.Fields(role)
	if !roleNouns()[words[len(words)-1]] {
		return nil
	}
	out := []Fact{{Subject: SubjectUser, Predicate: "role_is", Object: role, shownObject: display(c.span, role)}}
	if m[2] == "at" || m[2] == "for" {
		if e, ok := employer(c.span, m[3]); ok {
			out = append(out, Fact{Subject: SubjectUser, Predicate: "works_at", Object: e, shownObject: display(c.span, e)})
		}
	}
	return out
}

// ordinalWords rank a role among others; they are no part of it.
var ordinalWords = map[string]bool{"only": true, "sole": true, "first": true, "second": true, "third": true, "last": true, "other": true}

// cutAfterRole ends a role where a participle follows its noun: "solo dev
// working on a SaaS" is a solo dev.
func cutAfterRole(s string) string {
	ws := strings.Fields(s)
	for i := 1; i < len(ws); i++ {
		if roleNouns()[ws[i-1]] && strings.HasSuffix(ws[i], "ing") {
			return strings.Join(ws[:i], " ")
		}
	}
	return s
}

// upperWords capitalises each word of a name or place written in lower case.
func upperWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = upperFirst(w)
	}
	return strings.Join(words, " ")
}
