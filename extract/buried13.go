package extract

import (
	"regexp"
	"slices"
	"strings"
)

// Readings of session 13 (EXT13b) for facts a person buries in a longer
// message: a fact clause before or after the real request ("I'm in
// Nairobi btw so prices in KES if you can"), a statement with its
// consequence ("I'm the only backend dev at Fernwood Digital so nobody
// else is going to review it"), a rule said as that consequence ("I'm
// learning C, so explain the why"), a person named with their role in an
// aside ("Oyelaran (our tech lead) bounced my PR"), where a data job
// writes or what it runs against ("it writes into the ANALYTICS schema
// in Snowflake", "runs against BigQuery"), traits of the person said in
// passing (an allergy, an injury, a diet, a job on night shifts, a weekly
// sport), and changes told without a word of change ("they moved standup
// to 10:15", "got transferred to the payments team", "the current one is
// Pretzel"). Each reading is a shape of English with a cheap cue before
// its pattern; none reads another person's setup, a question or a plan.

// buried reads what a clause (c, from rc) says beside or instead of what
// the matchers found in it (found).
func (r *reading) buried(rc rawClause, c *clause, found []Fact) []Fact {
	if c.question && !namesAny(found) {
		return r.questionHead(c)
	}
	if c.question || c.text == "" {
		return nil
	}
	var out []Fact
	if !namesAny(found) {
		out = append(out, r.buriedInstead(rc, c)...)
	}
	whole := analyze(rc) // c may be a segment of the clause by now
	whole.span = c.span
	if whole.question {
		return out
	}
	out = append(out, r.soRule(&whole, append(found, out...))...)
	out = append(out, onlyBeside(&whole, append(found, out...))...)
	out = append(out, passingTraits13(c, append(found, out...), r.text)...)
	return out
}

// namesAny reports whether any of fs names a slot: an open slot without
// its noun ("the current one is Pretzel") names none.
func namesAny(fs []Fact) bool {
	for _, f := range fs {
		if f.Predicate != "" && !strings.HasPrefix(f.Predicate, "_") {
			return true
		}
	}
	return false
}

// qHead is a statement said before a question in one sentence: "I drive
// a 2014 Corolla, what oil should I use", "I'm on a Pixel 6, is the
// battery supposed to die this fast".
var qHead = lazyRegexp(`(?i)^((?:i|we|my|our|this|the)\b.{4,}?), (?:so |and |but )?(?:what|which|how|why|when|where|who|is|are|does|do|did|can|could|should|would|any|anything)\b`)

// questionHead reads the statement a question opens with.
func (r *reading) questionHead(c *clause) []Fact {
	m := qHead().FindStringSubmatch(c.span)
	if m == nil || strings.HasPrefix(strings.ToLower(m[1]), "if ") {
		return nil
	}
	return r.readAs13(m[1], c, false)
}

// buriedInstead holds the readings for a clause that gave nothing.
func (r *reading) buriedInstead(rc rawClause, c *clause) []Fact {
	t := c.text
	if strings.Contains(t, ", ") {
		if fs := r.questionHead(c); fs != nil {
			return fs
		}
	}
	if strings.Contains(t, " so ") {
		if m := soCut().FindStringSubmatch(c.span); m != nil && !soNotConsequence().MatchString(strings.ToLower(m[2])) {
			if fs := r.readAs13(m[1], c, false); len(fs) > 0 {
				return fs
			}
			if fs := passingTraits13(&clause{text: m[1], span: c.span}, nil, ""); len(fs) > 0 {
				return fs
			}
		}
	}
	if fs := r.condRules(c); fs != nil {
		return fs
	}
	if fs := r.phoneOf(c); fs != nil {
		return fs
	}
	if fs := r.writtenWith(c); fs != nil {
		return fs
	}
	if fs := r.teamOf(c); fs != nil {
		return fs
	}
	if fs := r.dataSink(c); fs != nil {
		return fs
	}
	if fs := r.buildsWith(c); fs != nil {
		return fs
	}
	if fs := r.movedTo(c); fs != nil {
		return fs
	}
	if fs := r.currentOne(c); fs != nil {
		return fs
	}
	if fs := r.gotWrong(c); fs != nil {
		return fs
	}
	if fs := r.gotAfterSold(c); fs != nil {
		return fs
	}
	if fs := r.handlesArea(c); fs != nil {
		return fs
	}
	if fs := r.shortSlotValue(c); fs != nil {
		return fs
	}
	if fs := r.toolThing(c); fs != nil {
		return fs
	}
	return nil
}

// readAs13 reads text as a clause standing for c (its span, its flags), and
// leaves no trace when it finds nothing.
func (r *reading) readAs13(text string, c *clause, change bool) []Fact {
	rw := analyze(rawClause{text: text})
	if rw.question || rw.text == "" {
		return nil
	}
	rw.span = c.span
	rw.change = rw.change || change || c.change
	rw.correction = rw.correction || c.correction
	saved := *r
	fs := r.extractClause(&rw)
	if !namesAny(fs) {
		fs = r.freshInstead(rawClause{text: text}, &rw)
	}
	if !namesAny(fs) && len(strings.TrimSpace(text)) < len(c.span) {
		sub := rw
		sub.span = strings.TrimSpace(text) // a head is shorter than its clause
		fs = r.buriedInstead(rawClause{text: text}, &sub)
		rw.change = rw.change || sub.change
	}
	if !namesAny(fs) {
		fs = passingTraits13(&rw, nil, "")
	}
	if !namesAny(fs) {
		*r = saved
		return nil
	}
	if rw.change {
		c.change = true
	}
	return fs
}

var (
	// soCut parts a statement from what follows from it: "i am in nairobi
	// btw so prices in kes if you can".
	soCut = lazyRegexp(`(?i)^(.{6,}?),? so (.+)$`)
	// soNotConsequence is a "so" that starts no consequence: "so far",
	// "so much", "so that".
	soNotConsequence = lazyRegexp(`^(?:far|much|many|long|that|often|well|good|bad|to|on|and|yeah|yes|no|basically|anyway)\b`)
)

var (
	// soRuleRe is a rule said as what follows from a statement: "i am
	// learning c, so explain the why", "nobody here knows c# so do not
	// suggest it", "i am in nairobi btw so prices in kes if you can".
	soRuleRe = lazyRegexp(`(?:^|, )([^,]{4,}?),? so (?:please |pls )?([^,]+?)(?:,? (?:if you can|if possible|please|pls|thanks|thx|lol))?$`)
	// ruleVerb opens an instruction to the assistant.
	ruleVerb = lazyRegexp(`^(?:do not|never|always|avoid|skip|keep|explain|use|write|give|show|quote|list|stick to|prefer|stop|assume|include|add) `)
	// inUnits asks for figures in a unit or currency: "prices in kes".
	inUnits = lazyRegexp(`^(prices|amounts|costs|figures|numbers|temperatures|temps|distances|weights|measurements|units|times|dates|recipes|quantities) in ([a-z0-9$€£¥]+(?: [a-z]+)?)$`)
	// knowsHead is a statement of what the speaker or the team knows:
	// "i am learning c", "nobody here knows c#".
	knowsHead = lazyRegexp(`(?:^|\b)(?:i am (?:learning|new to|still learning|not familiar with|a beginner (?:in|at|with))|i (?:do not|cannot|can not) (?:know|read|write|speak)|(?:nobody|no one|none of us)(?: here| on the team| on my team)? (?:knows?|reads?|writes?|speaks?|uses?)) (\S+)`)
	// deictic words point at something the rule alone does not name.
	deictic = lazyRegexp(`\b(?:there|then|that|this|these|those|them|it|here)\b`)
)

// whWord opens a question or a clause, never a skill.
var whWord = lazyRegexp(`^(?:why|what|how|where|when|who|which|whether|that|this|it|if|about|anything|much)$`)

// soRule reads a rule said as the consequence of a standing statement
// about the speaker or the house (a fact the clause gave, or what they
// know), beside that statement. "the build is broken so fix it" and "it
// is late so keep it short" give no rule: the head states nothing that
// lasts.
func (r *reading) soRule(c *clause, found []Fact) []Fact {
	var head, tail string
	if m := soRuleRe().FindStringSubmatch(c.text); m != nil && strings.Contains(c.text, " so ") {
		head, tail = m[1], strings.TrimSpace(m[2])
	} else if n := len(r.clauses); n > 0 && ruleVerb().MatchString(c.text) && strings.Contains(r.text, " so "+strings.Fields(c.span)[0]) {
		// "nobody on my team reads perl so never suggest it", parted
		// before the rule
		head, tail = r.clauses[n-1].text, c.text
	} else {
		return nil
	}
	// a ban follows from what the house uses ("we use pnpm so never run
	// npm"); a positive request follows only from the person ("i am in
	// nairobi so prices in kes"): "we use poetry, so add the dependency
	// with poetry add" asks for the task at hand
	ban := strings.HasPrefix(tail, "do not ") || strings.HasPrefix(tail, "never ") || strings.HasPrefix(tail, "avoid ") || strings.HasPrefix(tail, "stop ")
	standing := false
	for _, f := range found {
		if f.Kind != KindGuideline && !f.Negated && (f.Subject == SubjectUser || ban && f.Subject == SubjectProject) {
			standing = true
		}
	}
	k := knowsHead().FindStringSubmatch(head)
	if k != nil && (ordinaryWord(k[1]) || whWord().MatchString(k[1])) {
		k = nil // "nobody knows why it fails so do not touch it" names no skill
	}
	if k != nil {
		standing = true
	}
	if !standing {
		return nil
	}
	if k != nil && (strings.HasSuffix(tail, " it") || strings.HasSuffix(tail, " them")) {
		// "nobody here knows c# so do not suggest it": it is what they
		// do not know
		tail = tail[:strings.LastIndexByte(tail, ' ')+1] + k[1]
	}
	if u := inUnits().FindStringSubmatch(tail); u != nil {
		return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: "give " + tail,
			shownObject: "give " + u[1] + " in " + display(c.span, u[2])}}
	}
	if !ruleVerb().MatchString(tail) || deictic().MatchString(tail) {
		return nil
	}
	rw := analyze(rawClause{text: tail})
	if rw.question || rw.text == "" {
		return nil
	}
	rw.span, rw.standing = c.span, true
	saved := *r
	fs := r.extractClause(&rw)
	var out []Fact
	for _, f := range fs {
		if f.Kind == KindGuideline {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		*r = saved
	}
	return out
}

// kinWords are the people (and pets) of the speaker's a trait is said of.
const kinWords = `wife|husband|partner|girlfriend|boyfriend|fiancee?|son|daughter|kid|child|baby|toddler|brother|sister|mom|mum|dad|mother|father`

var (
	// "my daughter mira has a peanut allergy", "i have a bad shellfish
	// allergy"
	allergyHas = lazyRegexp(`(?:^|\b)(i|my (?:` + kinWords + `))(?: [a-z]+)? (?:has|have|has got|have got) (?:an? )?(?:(?:severe|serious|bad|mild|nasty|deadly|life-threatening|really bad) )?([a-z]+(?: [a-z]+)?) allergy\b`)
	// "i am allergic to shellfish", "my son is allergic to eggs"
	allergicTo = lazyRegexp(`(?:^|\b)(i am|my (?:` + kinWords + `)(?: [a-z]+)? is) (?:severely |very |deathly |super |really |badly |mildly )?allergic to ([a-z]+(?: [a-z]+)?)`)
	// "i have got rsi in my right wrist", "i have carpal tunnel", "ibs
	// flare"
	ailmentRe    = lazyRegexp(`(?:^|\b)i (?:have|have got|got|am dealing with|suffer from|am recovering from) (?:an? )?(?:(?:bad|chronic|mild|severe|nasty) )?(rsi|carpal tunnel|tendinitis|tendonitis|ibs|crohn's|celiac disease|coeliac disease|back pain|sciatica|tinnitus|adhd|long covid|arthritis|a herniated disc|a slipped disc|plantar fasciitis|tennis elbow|chronic fatigue|fibromyalgia|a bad back|bad knees|a bad knee|a bad shoulder|a frozen shoulder)\b(?: in (?:my|both) ((?:right |left )?(?:wrists?|hands?|arms?|shoulders?|back|knees?|elbows?|neck|fingers?|thumbs?)))?`)
	ailmentFlare = lazyRegexp(`(?:^|, |\b)(ibs|crohn's|eczema|psoriasis|arthritis|gout|migraine|rsi|colitis) flare(?:-?up)?\b`)
	// "i am doing low-fodmap", "i am on a keto diet"
	dietRe = lazyRegexp(`(?:^|\b)i am (?:doing|on|following|trying|sticking to|eating) (?:an? |the )?(strict )?((?:low|high)[- ](?:fodmap|carb|fat|sodium|salt|sugar|protein|calorie|histamine)|keto|paleo|whole30|carnivore|mediterranean|intermittent fasting|gluten[- ]free|dairy[- ]free|plant[- ]based|vegan|vegetarian|pescatarian)(?: diet)?\b`)
	// "i am an icu nurse on night shifts", "i am a paramedic"
	tradeRole = lazyRegexp(`^i (?:am|work(?: (?:(?:night|day|early|late|evening|morning|rotating|12-hour|twelve hour)[- ]shifts?|nights|nightshift|nightshifts|night shift))? as) (?:an? |the only |the )((?:[a-z]+ ){0,2}(?:nurse|doctor|physician|surgeon|paramedic|emt|pharmacist|dentist|vet|veterinarian|lawyer|attorney|paralegal|accountant|bookkeeper|electrician|plumber|carpenter|mechanic|chef|cook|baker|barista|firefighter|pilot|midwife|therapist|psychologist|social worker|librarian|journalist|photographer|musician|farmer|police officer|caregiver|carer|resident|radiographer|pharmacy tech|security guard|bartender|waiter|waitress|cashier|driver|courier|warehouse worker))(?: at ([a-z][a-z' .&-]+?))?(?: (?:on|doing|working) ((?:night|day|early|late|evening|morning|rotating|12-hour|twelve hour)[- ]shifts?|nights|nightshift|nightshifts|night shift))?$`)
	// "i work night shifts", "i am on night shifts"
	shiftsRe = lazyRegexp(`(?:^|\b)i (?:work|am on|do|am working|mostly work) ((?:night|day|early|late|evening|morning|rotating|12-hour|twelve hour)[- ]shifts?|nights|nightshift|nightshifts|night shift)\b`)
	// "i go climbing tue and thu evenings", "i do yoga on mondays"
	sportDays = lazyRegexp(`(?:^|\b)i (?:go|do|have) ([a-z]+ing|yoga|pilates|crossfit|karate|judo|jiu-jitsu|bjj|boxing|ballet|football|soccer|tennis|squash|badminton|choir|band practice|swim practice) (on |every )?((?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?(?:(?:,| and| &|/) ?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?)*(?: (?:mornings?|evenings?|nights?|afternoons?|lunchtimes?))?|(?:morning|evening|night|weekday|lunchtime)s?(?: at \d{1,2}(?::\d\d)?(?: ?[ap]m)?)?)\b`)
	// "my wife noor is pregnant, due in feb"
	dueRe = lazyRegexp(`(?:^|\b)(i am|my (?:wife|partner|girlfriend|fiancee?)(?: [a-z]+)? is) pregnant(?:,| and| -| —)? (?:she is |we are |i am |the baby is )?due (?:in |on |around |early |late |mid |mid-)*(` + monthRe + `)\b`)
	// "this is on our single a100 80gb", "we train on 8 h100s"
	gpuRe = lazyRegexp(`(?:^|\b)(?:this is|it is|we are|i am|we|i|training is|it runs|runs|everything is|we train|i train)(?: running| training)? (?:on|with) (?:our |my |an? |the |one |two |four |eight |\d+ ?x? ?)?(?:single |lone |spare |old )?((?:nvidia )?(?:(?:a100|h100|h200|v100|a10g?|l40s?|a6000|mi300x?)s?|(?:rtx|gtx) ?\d{4}(?: ?ti)?))(?: (\d+ ?gb))?\b`)
)

// passingTraits13 reads the person's traits said in passing (an allergy, an
// ailment, a diet, a trade and its shifts, a weekly sport, a baby due)
// and the GPU a project runs on, beside what else the clause says
// (found). Another person's ("my coworker has RSI") is not read, except
// a child's or partner's allergy or due date, which shapes what the
// person asks for.
func passingTraits13(c *clause, found []Fact, whole string) []Fact {
	t := c.text
	var out []Fact
	add := func(f Fact) {
		for _, g := range append(found, out...) {
			if g.Subject == f.Subject && g.Predicate == f.Predicate {
				return
			}
		}
		out = append(out, f)
	}
	if strings.Contains(t, "allerg") {
		if m := allergyHas().FindStringSubmatch(t); m != nil && !ordinaryWord(m[2]) {
			add(Fact{Subject: kinSubject(m[1]), Predicate: "diet_is", Object: m[2] + " allergy", shownObject: display(c.span, m[2]) + " allergy"})
		} else if m := allergicTo().FindStringSubmatch(t); m != nil && !ordinaryWord(m[2]) {
			add(Fact{Subject: kinSubject(strings.TrimSuffix(m[1], " is")), Predicate: "diet_is", Object: "allergic to " + m[2], shownObject: "allergic to " + display(c.span, m[2])})
		}
	}
	if strings.Contains(t, "i ") {
		if m := ailmentRe().FindStringSubmatch(t); m != nil {
			v := m[1]
			if m[2] != "" {
				v += " in " + m[2]
			}
			add(Fact{Subject: SubjectUser, Predicate: "health_is", Object: v, shownObject: ailmentShown(v)})
		}
		if m := dietRe().FindStringSubmatch(t); m != nil {
			add(Fact{Subject: SubjectUser, Predicate: "diet_is", Object: m[1] + m[2], shownObject: m[1] + display(c.span, m[2])})
		}
		if m := tradeRole().FindStringSubmatch(t); m != nil {
			add(Fact{Subject: SubjectUser, Predicate: "role_is", Object: m[1], shownObject: display(c.span, m[1])})
			if m[3] != "" {
				add(Fact{Subject: SubjectUser, Predicate: "work_hours_are", Object: m[3]})
			} else if n := shiftsRe().FindStringSubmatch(t); n != nil {
				add(Fact{Subject: SubjectUser, Predicate: "work_hours_are", Object: n[1]})
			}
			if m[2] != "" {
				if e, ok := employer(c.span, m[2]); ok {
					shown := display(c.span, e)
					if shown == e {
						shown = upperWords(e) // "st mary" as written was "St Mary's"
					}
					add(Fact{Subject: SubjectUser, Predicate: "works_at", Object: e, shownObject: shown})
				}
			}
		} else if m := shiftsRe().FindStringSubmatch(t); m != nil {
			add(Fact{Subject: SubjectUser, Predicate: "work_hours_are", Object: m[1]})
		}
		if m := sportDays().FindStringSubmatch(t); m != nil && !errands[m[1]] {
			when := m[2]
			if when == "" {
				when = "on "
			}
			when += m[3]
			add(Fact{Subject: SubjectUser, Predicate: "hobby_is", Object: m[1] + " " + when})
			if scheduleBan().MatchString(t) || scheduleBan().MatchString(lowerNormalize(whole)) {
				// "… so dont put stuff there": those hours are taken
				add(Fact{Subject: SubjectUser, Predicate: "work_hours_are", Object: "not " + when + " (" + m[1] + ")"})
			}
		}
	}
	if strings.Contains(t, "flare") {
		if m := ailmentFlare().FindStringSubmatch(t); m != nil {
			add(Fact{Subject: SubjectUser, Predicate: "health_is", Object: m[1], shownObject: ailmentShown(m[1])})
		}
	}
	if strings.Contains(t, "pregnant") {
		if m := dueRe().FindStringSubmatch(t); m != nil {
			add(Fact{Subject: kinSubject(strings.TrimSuffix(m[1], " is")), Predicate: "due_date_is", Object: m[2], shownObject: upperFirst(m[2])})
		}
	}
	if strings.Contains(t, " on ") || strings.Contains(t, " with ") {
		if m := gpuRe().FindStringSubmatch(t); m != nil {
			g := m[1]
			if n := len(g); n > 2 && g[n-1] == 's' && g[n-2] >= '0' && g[n-2] <= '9' {
				g = g[:n-1] // "8x A100s" is the A100
			}
			v := strings.TrimSpace(g + " " + m[2])
			add(Fact{Subject: SubjectProject, Predicate: "gpu_is", Object: v, shownObject: strings.ToUpper(v)})
		}
	}
	return out
}

// scheduleBan asks that nothing be put in the hours just named.
var scheduleBan = lazyRegexp(`\b(?:do not|never|no) (?:put|schedule|book|plan|add)(?: anything| stuff| meetings| calls| things)? (?:there|then|in those|on those|at those)\b|\bkeep (?:those|them|that time) (?:free|clear|open)\b`)

// errands are habits that are no hobby: "i go shopping on saturdays".
var errands = map[string]bool{"shopping": true, "grocery": true, "nothing": true, "something": true, "everything": true, "thing": true, "morning": true, "evening": true}

// kinSubject is the subject a trait is said of: "i" is the user, "my
// daughter mira" the user's daughter.
func kinSubject(who string) string {
	if who == "i" || who == "i am" {
		return SubjectUser
	}
	w := strings.Fields(who)
	if len(w) >= 2 && w[0] == "my" {
		return SubjectUser + "'s " + w[1]
	}
	return SubjectUser
}

// ailmentShown writes an ailment's abbreviation in capitals: "RSI in
// right wrist", "IBS".
func ailmentShown(v string) string {
	w := strings.Fields(v)
	switch w[0] {
	case "rsi", "ibs", "adhd":
		w[0] = strings.ToUpper(w[0])
	}
	return strings.Join(w, " ")
}

var (
	// "i am on the platform team at work", "got transferred to the
	// payments team as of this month", "i joined the data team"
	teamRe = lazyRegexp(`^(?:i )?(?:am|have been|(?:just |finally )?(?:got |was |been |have been )?(?:transferred|moved|reassigned|switched|rotated|reorged)|(?:just |finally )?joined|(?:just |finally )?switched) (?:on|to|into|over to)? ?the ([a-z0-9][a-z0-9-]*(?: [a-z0-9-]+)?) team(?: (?:at work|now|these days|here)| as of [a-z ]+| since [a-z ]+| (?:last|this) (?:week|month|quarter|sprint))*(?:,|$)`)
)

// teamOf reads the team the person is on, said alone ("I'm on the
// platform team at work") or as a move ("got transferred to the payments
// team as of this month"). A team said beside a role or an employer ("I
// work at Stripe on the payments team") is read by them, not here.
func (r *reading) teamOf(c *clause) []Fact {
	if !strings.Contains(strings.ToLower(c.span), " team") {
		return nil
	}
	t := lowerNormalize(c.span) // "i'm on the x team at work" is worded "i work at work" by now
	m := teamRe().FindStringSubmatch(t)
	if m == nil || ordinaryWord(firstWord(m[1])) || m[1] == "same" || m[1] == "other" || m[1] == "new" {
		return nil
	}
	if !strings.HasPrefix(t, "i am") && !strings.HasPrefix(t, "i have been on") {
		c.change = true
	}
	return []Fact{{Subject: SubjectUser, Predicate: "team_is", Object: m[1], shownObject: display(c.span, m[1])}}
}

var (
	// "runs against bigquery", "it writes into the analytics schema in
	// snowflake", "the job is scheduled in airflow", "everything lands in
	// redshift"
	againstRe = lazyRegexp(`(?:^|\b)(?:runs?|running|executes?|queries|query) against (?:the |our )?(?:(?:prod|production|staging|dev|local|live|replica|read replica) )?([a-z][\w.+-]*)`)
	sinkRe    = lazyRegexp(`(?:^|\b)(?:writes?|writing|loads?|loading|lands?|landing|dumps?|syncs?|streams?|inserts?|publishes|publish) (?:in|into|to) (?:the |our )?(?:[\w.]+ (?:schema|dataset|table|database|db|bucket|warehouse|topic|index) (?:in|on) (?:the |our )?)?([a-z][\w.+-]*)`)
	schedRe   = lazyRegexp(`(?:^|\b)(?:is|are|gets?|get) (?:scheduled|orchestrated|triggered|run) (?:in|by|with|via|through|from) ([a-z][\w.+-]*)`)
)

// toldPast says a clause tells of a time gone.
var toldPast = lazyRegexp(`\b(?:used to|was|were|previously|formerly|back then|back when|at my (?:last|old|previous) job)\b`)

// elsewhere says a clause is about another's setup or an example.
var elsewhere = lazyRegexp(`^(?:they|their|his|her)\b|\b(?:tutorial|example|sample|demo|docs|documentation|course|book|upstream)\b`)

// dataCats are the kinds of tool a job runs against, writes into or is
// scheduled in.
var dataCats = map[string]bool{"warehouse": true, "database": true, "data_pipeline": true, "queue": true, "cache": true}

// dataSink reads the store a data job runs against or writes into, and
// the scheduler it runs in, as what the project uses: "models are in
// models/marts, runs against BigQuery". Only a known tool of a data kind
// counts ("runs against the staging env" names none).
func (r *reading) dataSink(c *clause) []Fact {
	t := c.text
	if !containsAny(t, "against", " in", " to", " by", " with", " via", " through", " from") {
		return nil
	}
	if toldPast().MatchString(t) || elsewhere().MatchString(t) {
		return nil // "our analytics used to land in Redshift", "they run against bigquery in the tutorial"
	}
	var out []Fact
	for _, re := range []func() *regexp.Regexp{againstRe, sinkRe, schedRe} {
		for _, m := range re().FindAllStringSubmatch(t, 2) {
			tl, ok := lookupTool(m[1])
			if !ok {
				continue
			}
			data := false
			for _, cat := range tl.Categories {
				data = data || dataCats[cat]
			}
			if !data {
				continue
			}
			out = append(out, r.readAs13("we use "+m[1], c, false)...)
		}
	}
	return out
}

var (
	// "we build it with west, zephyr" (a gloss after the tool), "we
	// build everything with bazel"
	buildWithRe = lazyRegexp(`(?:^|\b)we (?:build|compile) (?:it|this|everything|the firmware|the project|the app|the code)? ?(?:with|using|via) ([a-z][\w.+-]*)(, [a-z][\w.+-]*)?$`)
)

// hedgeGloss are words in parentheses that qualify rather than gloss.
var hedgeGloss = map[string]bool{"mostly": true, "usually": true, "sometimes": true, "kinda": true, "probably": true, "maybe": true, "often": true, "again": true, "lol": true, "sigh": true, "ugh": true, "obviously": true}

// buildsWith reads the build tool a project is built with when the
// taxonomy does not know it: a name shaped like a tool, or a plain word
// glossed with its ecosystem ("we build it with west (zephyr)"). "we
// build it with care" names none.
func (r *reading) buildsWith(c *clause) []Fact {
	if !strings.Contains(c.text, "build") && !strings.Contains(c.text, "compile") {
		return nil
	}
	m := buildWithRe().FindStringSubmatch(c.text)
	if m == nil || notValues()[m[1]] {
		return nil
	}
	if _, known := lookupTool(m[1]); known {
		return nil
	}
	gloss := strings.TrimPrefix(m[2], ", ")
	if !toolShaped(m[1]) && (m[2] == "" || !strings.Contains(strings.ToLower(c.span), m[1]+" (") || ordinaryWord(gloss) || strings.HasSuffix(gloss, "ly") || hedgeGloss[gloss]) {
		return nil // a plain word is a tool only glossed in parentheses with its ecosystem
	}
	return []Fact{{Subject: SubjectProject, Predicate: "uses_build_tool", Object: m[1], shownObject: display(c.span, m[1])}}
}

var (
	// "they moved standup to 10:15", "standup got pushed to 10"
	movedToRe = lazyRegexp(`^(?:they |we |my manager |the team |someone )?(?:just |finally )?(?:moved|pushed|shifted|changed|bumped|rescheduled)(?: the| our| my)? ([a-z][a-z -]{2,30}?) (?:to|back to) (\d{1,2}(?::\d\d)?(?: ?[ap]m)?)\b|^(?:the |our |my )?([a-z][a-z -]{2,30}?) (?:got |was |is )(?:moved|pushed|shifted|changed|bumped|rescheduled)(?: back)? to (\d{1,2}(?::\d\d)?(?: ?[ap]m)?)\b`)
	clockRe   = lazyRegexp(`\b\d{1,2}(?::\d\d)?(?: ?[ap]m)?\b`)
)

// movedTo reads a meeting moved to another time as the new value of the
// fact that gave its old time: "they moved standup to 10:15" after "I
// have standup at 9:30 every day" is a standup at 10:15 every day.
func (r *reading) movedTo(c *clause) []Fact {
	m := movedToRe().FindStringSubmatch(c.text)
	if m == nil {
		m = movedToRe().FindStringSubmatch(lowerNormalize(c.span)) // "standup got moved to 10" is reworded by now
	}
	if m == nil {
		return nil
	}
	what, when := m[1]+m[3], m[2]+m[4]
	for _, cand := range r.candidates() {
		if cand.Negated || !strings.HasPrefix(cand.Object, what+" ") {
			continue
		}
		loc := clockRe().FindStringIndex(cand.Object)
		if loc == nil {
			continue
		}
		obj := cand.Object[:loc[0]] + when + cand.Object[loc[1]:]
		obj, _, _ = strings.Cut(obj, " so ") // "… every day so mornings are choppy"
		obj, _, _ = strings.Cut(obj, ", ")
		return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: obj, Replaces: cand.Object}}
	}
	if meetingWord().MatchString(what) {
		// the old time is not at hand (a meeting is no single-valued
		// slot, so no belief of it comes with the text): the new time
		// stands as the meeting's
		return []Fact{{Subject: SubjectUser, Predicate: "has_meeting", Object: what + " at " + when}}
	}
	return nil
}

// meetingWord names a recurring meeting.
var meetingWord = lazyRegexp(`^(?:the |our |my )?(?:(?:daily |weekly )?(?:standup|stand-up|retro|retrospective|sprint planning|1:1|one-on-one|1-on-1|scrum|all-hands)|(?:daily|weekly|monthly) (?:meeting|call|sync|check-in|planning|review))s?$`)

var (
	// "biscuit was my old dog", "the corolla was my old car"
	oldOneRe = lazyRegexp(`^(?:(?:wait|no|sorry|oh|oops|actually|nah)[, ]+)*(?:the )?([a-z][a-z0-9-]*(?: [a-z0-9-]+)?) (?:was|is) (?:my|the) (?:old|previous|last|former|first) ([a-z]+)\b`)
	// "the current one is pretzel", "my new one is called pretzel"
	currentOneRe = lazyRegexp(`^(?:the|my) (?:current|new|present) (?:one|[a-z]+) (?:is|is called|is named|'s) ([a-z][a-z0-9-]*(?: [a-z0-9-]+)?)$`)
)

// currentOne reads "the current one is Pretzel" after "Biscuit was my
// old dog" in the same text as the kind's new value: my dog is Pretzel,
// in place of Biscuit.
func (r *reading) currentOne(c *clause) []Fact {
	if !strings.Contains(c.text, "current") && !strings.Contains(c.text, "new") && !strings.Contains(c.text, "present") {
		return nil
	}
	m := currentOneRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	for i := len(r.clauses) - 1; i >= 0; i-- {
		o := oldOneRe().FindStringSubmatch(lowerNormalize(r.clauses[i].span))
		if o == nil {
			continue
		}
		c.change = true
		said := "my " + o[2] + " is " + display(c.span, m[1])
		sub := *c
		sub.span = said // the name keeps its capital where the matchers look for it
		fs := r.readAs13(said, &sub, true)
		for j := range fs {
			if fs[j].Replaces == "" && fs[j].Kind != KindGuideline {
				fs[j].Replaces = o[1]
			}
		}
		return fs
	}
	return nil
}

var (
	// "i got hannah's birthday wrong earlier", "i had the port wrong"
	gotWrongRe = lazyRegexp(`^i (?:got|had|said|wrote|typed|gave you) (?:([a-z]+)'s |my |the |our )?([a-z][a-z ]{1,24}?) wrong\b`)
	// "it is march 4 not the 14th", "it is actually 5433"
	itIsValue = lazyRegexp(`^(?:it is|its|it should be|should be|it was) (?:actually |really )?(.+?)(?:,? not (?:the )?(.+))?$`)
)

// gotWrong reads the value after a slot the person says they got wrong:
// "I got Hannah's birthday wrong earlier, it's March 4 not the 14th"
// corrects the birthday believed of Hannah.
func (r *reading) gotWrong(c *clause) []Fact {
	m := itIsValue().FindStringSubmatch(c.text)
	if m == nil || len(r.clauses) == 0 {
		return nil
	}
	w := gotWrongRe().FindStringSubmatch(lowerNormalize(r.clauses[len(r.clauses)-1].span))
	if w == nil {
		return nil
	}
	who, noun := w[1], w[2]
	for _, cand := range r.candidates() {
		if cand.Negated || cand.Kind != KindFact {
			continue
		}
		if who != "" && !strings.Contains(cand.Subject, who) {
			continue
		}
		if p := strings.ReplaceAll(noun, " ", "_"); cand.Predicate != p+"_is" && cand.Predicate != p+"_are" && cand.Predicate != p {
			continue
		}
		v := strings.TrimSpace(m[1])
		return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: v, shownObject: upperFirst(display(c.span, v)),
			Replaces: cand.Object, Correction: true}}
	}
	if who != "" && !ordinaryWord(who) && (noun == "birthday" || noun == "name" || noun == "email" || noun == "phone number") {
		// the slot is another person's, which no belief given with the
		// text holds: the corrected value stands as theirs
		v := strings.TrimSpace(m[1])
		return []Fact{{Subject: who, Predicate: strings.ReplaceAll(noun, " ", "_") + "_is", Object: v, shownObject: upperFirst(display(c.span, v)),
			shownSubject: upperFirst(display(c.span, who)), Correction: true}}
	}
	return nil
}

var (
	// "got a used model 3 last weekend", "bought a new iphone 15"
	gotNewRe = lazyRegexp(`^(?:i |we )?(?:just |finally )?(?:got|bought|picked up|ended up with) (?:myself )?(?:an? |the )?(?:(?:used|new|brand new|second-hand|secondhand|refurbished|refurb|cheap) )?([a-z0-9][\w.+-]*(?: [\w.+-]+)?)`)
)

// gotAfterSold reads a thing got after the text gave one up as the new
// value of the slot the old one held: "sold the corolla finally!! got a
// used Model 3 last weekend" after "I drive a 2014 Corolla".
func (r *reading) gotAfterSold(c *clause) []Fact {
	m := gotNewRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	var old string
	for i := len(r.clauses) - 1; i >= 0 && old == ""; i-- {
		if g := gaveUpRe().FindStringSubmatch(lowerNormalize(r.clauses[i].span)); g != nil {
			old = g[1]
			if w := strings.Fields(old); len(w) == 2 && (gotWhenTail().MatchString(" "+w[1]) || strings.HasSuffix(w[1], "ly")) {
				old = w[0] // "sold the corolla finally"
			}
		}
	}
	if old == "" {
		return nil
	}
	v := strings.TrimSpace(gotWhenTail().ReplaceAllString(m[1], ""))
	if v == "" || ordinaryWord(firstWord(v)) {
		return nil
	}
	for _, cand := range r.candidates() {
		if cand.Negated || !cand.Exclusive && cand.Predicate != "car_is" {
			continue
		}
		o := strings.ToLower(cand.Object)
		if strings.Contains(o, old) || strings.Contains(old, o) || strings.Contains(o, firstWord(old)) && len(firstWord(old)) > 2 {
			return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: v, shownObject: display(c.span, v), Replaces: cand.Object}}
		}
	}
	return nil
}

// gotWhenTail is a time said after a value: "model 3 last weekend".
var gotWhenTail = lazyRegexp(`\s+(?:last|this|yesterday|today|on)(?:\s.*)?$`)

var (
	// "on this repo tomasz handles infra", "nadia owns infra for this
	// repo", "priya looks after the ci here"
	handlesRe = lazyRegexp(`^(?:on |in |for )?(?:this (?:repo|project|codebase|team)|here)?,? ?([a-z][a-z-]+) (?:handles|owns|runs|looks after|manages|is in charge of|takes care of|is responsible for) (?:the |our |all )?(infra|infrastructure|ci|devops|deploys|deployments|releases|the database|database|db|migrations|security|ops|on-call|oncall|billing|auth|frontend|backend|design|qa|testing|data)(?: (?:for|on|in) this (?:repo|project|codebase)| here)?$`)
)

// handlesArea reads who owns an area of the project: "on this repo
// Tomasz handles infra" is the project's infra owner. A pronoun or a
// tool is no owner ("it handles auth", "terraform handles infra").
func (r *reading) handlesArea(c *clause) []Fact {
	m := handlesRe().FindStringSubmatch(c.text)
	if m == nil || ordinaryWord(m[1]) || standIns()[m[1]] || !capitalized(c.span, m[1]) {
		return nil
	}
	if _, tool := lookupTool(m[1]); tool {
		return nil
	}
	area := m[2]
	if area == "infrastructure" {
		area = "infra"
	}
	// the owner of an area is the slot the table gives its owner (the
	// reviewer), as "our infra owner is Nadia" reads
	if fs := r.readAs13("our "+area+" owner is "+display(c.span, m[1]), c, false); fs != nil {
		return fs
	}
	return []Fact{{Subject: SubjectProject, Predicate: strings.ReplaceAll(area, " ", "_") + "_owner_is", Object: m[1], shownObject: display(c.span, m[1])}}
}

// namedRole is a person named with their role in an aside: "Oyelaran
// (our tech lead) bounced my PR", "Lena, my manager, wants it by friday".
var namedRole = lazyRegexp(`\b([A-Z][a-z]+(?:[- ][A-Z][a-z]+)?)(?: \(|, )(?:our|my) ([A-Za-z]+(?: [a-z]+)?)(?:\)|,)`)

// roleNamed is a person's role before their name: "our tech lead
// Baptiste", "my manager Lena".
var roleNamed = lazyRegexp(`\b(?:[Oo]ur|[Mm]y) ([a-z]+(?: [a-z]+)?) ([A-Z][a-z]+)\b`)

// personPredicate are the slots whose value is a person of the person's
// work.
var personPredicate = map[string]bool{"manager_is": true, "tech_lead_is": true, "reviewer_is": true, "pm_is": true, "product_manager_is": true, "designer_is": true, "mentor_is": true}

// asides13 are the statements of a text said in an aside: a person named
// with their role. The role must be a slot's noun ("our tech lead", "my
// manager"); "Sam (my neighbour)" names none, and "is Lena (my manager)
// around?" asks.
func asides13(text string) []rawClause {
	if !strings.Contains(text, "our ") && !strings.Contains(text, "my ") && !strings.Contains(text, "Our ") && !strings.Contains(text, "My ") {
		return nil
	}
	var out []rawClause
	for _, loc := range roleNamed().FindAllStringSubmatchIndex(text, 3) {
		// "our tech lead Baptiste hates ORMs": the role, then the name
		role, name := strings.ToLower(text[loc[2]:loc[3]]), text[loc[4]:loc[5]]
		if asked().MatchString(strings.ToLower(text[:loc[0]])) || strings.HasPrefix(text[loc[1]:], " or ") {
			continue
		}
		w := strings.ToLower(name)
		if ordinaryWord(w) || knownTool(w) || calendarWord().MatchString(w) {
			continue
		}
		if _, pred, known := slotOf(role); known && personPredicate[pred] {
			out = append(out, rawClause{text: "our " + role + " is " + name})
		}
	}
	for _, loc := range namedRole().FindAllStringSubmatchIndex(text, 3) {
		name, role := text[loc[2]:loc[3]], strings.ToLower(text[loc[4]:loc[5]])
		if end := strings.IndexAny(text[loc[1]:], ".!?\n"); end >= 0 && text[loc[1]+end] == '?' {
			continue
		}
		if asked().MatchString(strings.ToLower(text[:loc[0]])) {
			continue
		}
		w := strings.ToLower(name)
		if ordinaryWord(w) || knownTool(w) || calendarWord().MatchString(w) {
			continue
		}
		if _, _, known := slotOf(role); !known {
			continue
		}
		out = append(out, rawClause{text: "our " + role + " is " + name})
	}
	return out
}

// buriedNeedsContext reports whether a clause (as written, and its
// working text) holds a change of this file whose old value only the
// conversation names: "they moved standup to 10:15", "got a used Model 3
// last weekend" after selling the old car, "it's March 4 not the 14th".
func buriedNeedsContext(written, text string) bool {
	return movedToRe().MatchString(text) || shortSlotIn(text) || phoneRe().MatchString(text) || gotWrongRe().MatchString(text) || teamRe().MatchString(text)
}

var (
	// a phone named by its maker's line: "pixel 6", "iphone 15 pro",
	// "galaxy s23"
	phoneModel = `((?:iphone|pixel|galaxy|oneplus|xiaomi|redmi|poco|fairphone|moto|motorola|nokia|huawei|oppo|vivo|nothing phone|xperia)(?: (?:\d+[a-z]?|[a-z]\d+[a-z+]*|pro|max|plus|mini|ultra|lite|xl|a|fe|se)){0,3})`
	// "i am on a pixel 6", "switched to an iphone 15 last week", "got a
	// galaxy s23"
	phoneRe = lazyRegexp(`^(?:(?:i|we) )?(?:am |have |have been |just |finally |recently )*(on|using|rocking|switched to|moved to|changed to|went to|went with|got|bought|upgraded to|jumped to|switched over to) (?:myself )?(?:an? |the |my )?(?:new |used |refurbished )?` + phoneModel + `(?:$| (?:last|this|yesterday|today|now|since|for|btw|fyi|lol)\b)`)
)

// phoneOf reads the person's phone said by its model: "I'm on a Pixel 6,
// is the battery supposed to die this fast", "switched to an iPhone 15
// last week" (a change of the phone believed).
func (r *reading) phoneOf(c *clause) []Fact {
	m := phoneRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	if m[1] != "on" && m[1] != "using" && m[1] != "rocking" {
		c.change = true
	}
	v := strings.TrimSpace(m[2])
	return []Fact{{Subject: SubjectUser, Predicate: "phone_is", Object: v, shownObject: phoneShown(display(c.span, v))}}
}

// phoneShown writes a phone's line as its maker does: "iPhone 15".
func phoneShown(v string) string {
	if strings.HasPrefix(strings.ToLower(v), "iphone") {
		return "iPhone" + v[len("iphone"):]
	}
	return upperFirst(v)
}

// buriedNeedsText reports whether a whole text holds a change of this file
// told over two clauses: "sold the corolla finally!! got a used Model 3".
func buriedNeedsText(text string) bool {
	l := strings.ToLower(text)
	return gaveUpRe().MatchString(l) && strings.Contains(l, "got ") || strings.Contains(l, "current one") || strings.Contains(l, " wrong")
}

var (
	// condHead is the condition a rule opens with, up to its first
	// instruction: "when you write emails for me keep them short and …".
	condHead = lazyRegexp(`^(when(?:ever)? you [a-z ]{3,40}?),? ((?:keep|skip|avoid|use|always|never|do not|make|write|drop|cut|leave out|omit|add|include|put|stick to|sign|end|start) .+)$`)
	// andRule is a second instruction joined by "and".
	andRule = lazyRegexp(` and (?:also |always |please )?((?:keep|skip|avoid|use|never|do not|make|write|drop|cut|leave out|omit|add|include|put|stick to|sign|end|start) )`)
	// skipQuoted is a phrase in single quotes the person wants left out:
	// "skip the 'i hope this finds you well' crap".
	skipQuoted = lazyRegexp(`^(?:skip|avoid|drop|cut|leave out|omit|lose|ditch|never use|do not use|never write|do not write|never start with|do not start with|never say|do not say|stop using|stop saying|no more) (?:the |any |all |that |those |with )?'([^']{6,80})'(?: (crap|stuff|line|lines|phrase|phrases|opener|openers|bit|thing|nonsense|fluff|filler|sign-off|greeting|intro))?$`)
)

// condRules reads the instructions a condition opens, each on its own:
// "when you write emails for me keep them short and skip the 'I hope
// this finds you well' crap" is two rules for emails. A phrase quoted to
// be left out is kept as written, though its words alone would read as a
// hope.
func (r *reading) condRules(c *clause) []Fact {
	if !strings.HasPrefix(c.text, "when") {
		return nil
	}
	m := condHead().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	cond, rest := m[1], m[2]
	var parts []string
	for {
		loc := andRule().FindStringSubmatchIndex(rest)
		if loc == nil {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:loc[0]])
		rest = rest[loc[2]:]
	}
	var out []Fact
	for _, p := range parts {
		text := cond + ", " + p
		quote := ""
		if q := skipQuoted().FindStringSubmatch(p); q != nil {
			quote = q[1]
			text = cond + ", never use the " + quotedStandIn
			if q[2] != "" {
				text += " " + q[2]
			}
		} else if strings.Contains(p, "'") {
			continue
		}
		fs := r.readAs13(text, c, false)
		for _, f := range fs {
			if f.Kind != KindGuideline {
				continue
			}
			if quote != "" {
				shown := "'" + display(c.span, quote) + "'"
				f.Object = strings.Replace(f.Object, quotedStandIn, "'"+quote+"'", 1)
				f.shownObject = strings.Replace(f.shownObjectOr(), quotedStandIn, shown, 1)
			}
			out = append(out, f)
		}
	}
	return out
}

// quotedStandIn stands for a quoted phrase while a rule is read.
const quotedStandIn = "qphrase"

// onlySegment is a part of a clause that names what alone is used:
// "we're on godot 4.2, gdscript only, …".
var onlySegment = lazyRegexp(`(?:^|, )([a-z][a-z0-9+#.-]*) only(?:,|$)`)

// onlyBeside reads "<X> only" said beside the stack the clause names as
// the rule to use X alone: "we're on godot 4.2, gdscript only". Said
// alone ("weekdays only", "internal only") it is no rule.
func onlyBeside(c *clause, found []Fact) []Fact {
	if !strings.Contains(c.text, " only") {
		return nil
	}
	stack := false
	for _, f := range found {
		if f.Kind != KindGuideline && !f.Negated && strings.HasPrefix(f.Predicate, "uses") {
			stack = true
		}
		if f.Kind == KindGuideline && strings.HasSuffix(f.Object, " only") {
			return nil
		}
	}
	m := onlySegment().FindStringSubmatch(c.text)
	if !stack || m == nil || timeWords()[m[1]] || ordinaryWord(m[1]) || m[1] == "me" || m[1] == "you" {
		return nil
	}
	if t, ok := lookupTool(m[1]); ok && !slices.Contains(t.Categories, "language") {
		return nil
	} else if !ok && wordVector(m[1]) != nil {
		return nil // a word of English ("tabs only", "english only") is no language the code is in
	}
	return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: "use " + m[1] + " only",
		shownObject: "use " + display(c.span, m[1]) + " only"}}
}

// writingIn is a piece of writing the person is working on and what it
// is written with: "I am writing my master thesis in LaTeX, with biblatex
// and biber".
var writingIn = lazyRegexp(`^i am (?:writing|typesetting|working on) my ((?:master'?s? |bachelor'?s? |phd |doctoral |final |)(?:thesis|dissertation|book|novel|paper|cv|resume|notes|blog)) (?:in|with|using) ([a-z][\w.+#-]*)(?:,? (?:with|using|plus|and) ([a-z][\w.+#-]*(?: and [a-z][\w.+#-]*)?))?$`)

// writtenWith reads what the person's writing is made with as an open
// slot of theirs: my thesis is in LaTeX with biblatex and biber.
func (r *reading) writtenWith(c *clause) []Fact {
	if !strings.HasPrefix(c.text, "i am ") {
		return nil
	}
	m := writingIn().FindStringSubmatch(c.text)
	if m == nil || ordinaryWord(m[2]) {
		return nil
	}
	doc := m[1]
	if w := strings.Fields(doc); len(w) > 1 {
		doc = w[len(w)-1]
	}
	v := m[2]
	if m[3] != "" {
		v += " with " + m[3]
	}
	return []Fact{{Subject: SubjectUser, Predicate: doc + "_is", Object: "in " + v, shownObject: "in " + display(c.span, v)}}
}

// shortSlot is a slot named short with a bare number: "min target is 16
// from the next release".
var shortSlot = lazyRegexp(`^(?:the |our |my )?([a-z]+(?: [a-z]+){0,3}) is (?:now |going to be )?(v?\d+(?:\.\d+)*)(?: (?:now|from .+|starting .+|going forward|onwards))?$`)

// shortWords are the clipped forms of slot words.
var shortWords = map[string]string{"min": "minimum", "max": "maximum", "dep": "deployment", "deploy": "deployment", "ver": "version", "v": "version"}

// shortSlotValue reads a value given to a believed slot named with fewer
// or clipped words, in one part of a clause: "product finally agreed to
// drop iOS 15, min target is 16 from the next release" after "the app's
// minimum deployment target is iOS 15" is a minimum deployment target of
// iOS 16. Every word said must be one of the slot's, and the bare number
// takes the old value's name.
func (r *reading) shortSlotValue(c *clause) []Fact {
	if !strings.Contains(c.text, " is ") {
		return nil
	}
	for _, part := range strings.Split(c.text, ", ") {
		m := shortSlot().FindStringSubmatch(part)
		if m == nil {
			continue
		}
		words := strings.Fields(m[1])
		if len(words) < 2 {
			continue
		}
		for _, cand := range r.candidates() {
			if cand.Negated || !strings.HasSuffix(cand.Predicate, "_is") {
				continue
			}
			slot := strings.Split(strings.TrimSuffix(cand.Predicate, "_is"), "_")
			all := true
			for _, w := range words {
				if x, ok := shortWords[w]; ok {
					w = x
				}
				all = all && slices.Contains(slot, w)
			}
			old := strings.Fields(cand.Object)
			if !all || len(old) != 2 || !versionLike().MatchString(old[1]) || old[1] == m[2] {
				continue
			}
			v := old[0] + " " + m[2]
			return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: v, Replaces: cand.Object,
				shownObject: displayLike(old[0]) + " " + m[2]}}
		}
	}
	return nil
}

// displayLike writes word as a believed value shows it: "ios" as "iOS".
func displayLike(word string) string {
	switch word {
	case "ios":
		return "iOS"
	case "macos":
		return "macOS"
	}
	return upperFirst(word)
}

// shortSlotIn reports whether a part of a clause gives a slot named short
// a bare number.
func shortSlotIn(text string) bool {
	for _, part := range strings.Split(text, ", ") {
		if shortSlot().MatchString(part) {
			return true
		}
	}
	return false
}

// theToolThing names the project by the tool it is built on: "B is the
// bevy prototype in rust", "this is the godot port in gdscript".
var theToolThing = lazyRegexp(`^(?:this|it|this one|this repo|[a-z]) is (?:the|our|a|my) ([a-z][\w.+#-]*) (?:prototype|port|rewrite|version|app|game|project|client|server|backend|frontend|service|one|build|mvp|poc|demo)(?: (?:in|written in|using) ([a-z][\w.+#-]*))?$`)

// toolThing reads the tools a project named by them is made with: a
// known tool before the project's noun, and the language after "in".
// "A is the old prototype in rust" names no tool before the noun and
// gives nothing.
func (r *reading) toolThing(c *clause) []Fact {
	m := theToolThing().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	if _, ok := lookupTool(m[1]); !ok {
		return nil
	}
	out := r.readAs13("we use "+m[1], c, false)
	if out == nil {
		return nil
	}
	if m[2] != "" {
		if _, ok := lookupTool(m[2]); ok {
			out = append(out, r.readAs13("we use "+m[2], c, false)...)
		}
	}
	return out
}
