package extract

import (
	"regexp"
	"strings"
)

// The shapes of fresh.go that say what a project or a person uses, and how
// that changed.

const (
	freshTool = `[a-z][\w.+#-]*(?:\s[a-z][\w.+#-]*)?`
	// freshWhen is a time said after a change: "since last sprint", "now".
	freshWhen = `(?:\s+(?:since\s+(?:last|this)\s+\w+|since\s+\w+|now|these\s+days|nowadays|for\s+a\s+while\s+now|already))*`
)

var (
	// "we ditched airflow for dagster", "i swapped yarn for pnpm"
	ditchedFor = lazyRegexp(`^(we|i)\s+(?:just\s+|finally\s+|recently\s+)?(?:ditched|dropped|dumped|swapped|traded|replaced|ripped\s+out|threw\s+out|killed)\s+(` + freshTool + `)\s+(?:for|with)\s+(` + freshTool + `)\b`)
	// "we track all training runs in wandb", "all our experiments get
	// logged to mlflow", "we log every sweep in comet"
	trackedIn = lazyRegexp(`^(?:we\s+(?:track|log|record)\s+(?:all\s+|every\s+)?(?:of\s+)?(?:our\s+|the\s+)?|(?:all\s+|every\s+)?(?:of\s+)?(?:our\s+|the\s+)?)(?:training\s+|ml\s+|model\s+)?(?:runs?|experiments?|sweeps?|trials?)\s+(?:(?:get|are|is|gets)\s+(?:logged|tracked|recorded)\s+)?(?:in|to|on|with)\s+([a-z][\w.-]*)$`)
	// "this firmware targets an STM32F411", "context: the sketch targets
	// an ATmega328P": a board or chip, named with a figure
	targetsBoard = lazyRegexp(`^(?i:(?:(?:for\s+)?context\s*:?\s*)?(?:this|the|our|my)\s+(?:firmware|board|sketch|code|build|project|app|game|binary|kernel|image|rom|port)\s+(?:targets|is\s+targeting|is\s+built\s+for)\s+(?:an?\s+|the\s+)?)([A-Za-z][\w-]*\d[\w-]*)`)
	// "all the ingestion jobs in here land in BigQuery", "every event we
	// collect ends up in Snowflake", "our analytics stack dumps into Redshift"
	landsIn = lazyRegexp(`^(?:(?:all|every|each)\s+)?(?:of\s+)?(?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){1,5}?(?:lands?|ends?\s+up|gets?\s+loaded|(?:is|are)\s+loaded|dumps?|gets?\s+dumped|flows?|gets?\s+synced|syncs?|goes|go)\s+(?:in|into|to)\s+(` + freshTool + `)(?:\s+(?:fyi|btw|eventually|in\s+the\s+end))?$`)
	// "everything's been on Render since last sprint", "it all runs on
	// Hetzner now"
	stillOnRe = lazyRegexp(`^(?:everything|it|all|we|the\s+whole\s+(?:thing|site|app|stack))(?:'s|\s+is|\s+are|\s+has|\s+have|\s+all)?(?:\s+been)?(?:\s+all)?\s+(?:on|runs\s+on|run\s+on|lives\s+on|moved\s+to|over\s+on)\s+(` + freshTool + `)` + freshWhen + `$`)
	// "got an e-bike instead", "bought a cargo bike instead"
	gotInsteadRe = lazyRegexp(`(?:^|,\s*|\band\s+)(?:(?:i|we)\s+)?(?:just\s+|finally\s+)?(?:got|bought|picked\s+up|went\s+with|use|using|have)\s+(?:myself\s+)?(?:an?\s+|the\s+)?([\w.+#-]+(?:\s[\w.+#-]+)?)\s+instead\b`)
	// "sold the civic", "got rid of my vespa"
	gaveUpRe = lazyRegexp(`\b(?:sold|ditched|dropped|got\s+rid\s+of|gave\s+up(?:\s+on)?|dumped|quit|scrapped|returned)\s+(?:the|my|our)?\s*([\w.+#-]+(?:\s[\w.+#-]+)?)`)
	// "Dmitri Volkov took over the team", "Sun-hee Park took over as tech lead"
	tookTeamRe = regexp.MustCompile(`(?:^|[\s,;:(])([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+(?:has\s+|just\s+)?(?:took|taken|has\s+taken|is\s+taking)\s+over\s+(?:(?:the|my|our)\s+team|as\s+(?:my\s+|our\s+|the\s+)?(manager|boss|lead|team\s+lead|tech\s+lead|eng\s+manager|engineering\s+manager))\b`)
	// "so pescatarian I guess", "so vegan I suppose"
	soStateRe = lazyRegexp(`(?:^|\s)so\s+(?:i\s+am\s+)?(?:an?\s+)?([a-z][a-z-]+)\s+i\s+(?:guess|suppose|reckon)$`)
	// an identifier with a hyphen or a dot: "bge-small", "e5-base"
	idRe = lazyRegexp(`^[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+$`)
	// the kinds of thing an identifier names: "the embedding model here
	// is bge-small" (not "the weather here is nice-ish")
	idKind = lazyRegexp(`\b(?:model|tokenizer|encoder|reranker|checkpoint|dataset|image|bucket|namespace|cluster|region|branch|profile|stack|queue|topic|table|index|schema|template|preset|config)$`)
	// "my flight to Osaka is on the 14th", "my train to Lyon leaves on the 9th"
	tripDateRe = lazyRegexp(`^my\s+(flight|train|bus|ferry|trip|visit|interview|appointment|surgery|exam|move)\s+((?:to|from|with|at)\s+[\w'-]+(?:\s[\w'-]+)?)\s+(?:is|leaves|departs|lands|arrives|is\s+booked)\s+(?:on|for)\s+(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))$`)
	// "base model for this is llama-3-8b", "the embedding model here is bge-small"
	slotForThis = lazyRegexp(`^(?:the\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*)?)\s+(?:for\s+this(?:\s+(?:project|repo|one|service|app|model))?|here|in\s+here|in\s+this\s+repo)\s+is\s+(.+)$`)
	// "I drive a 2012 Civic to work most days", "I ride a Vespa to the office"
	driveTo = lazyRegexp(`^i\s+(?:drive|ride)\s+(an?\s+[\w .-]+?)\s+(?:to\s+(?:work|the\s+office|school|campus|the\s+station)|everywhere|around\s+town)(?:\s+(?:most\s+days|every\s+day|daily|mostly|usually))?$`)
	// "I drive a Corolla", "I ride a Vespa": a vehicle named by its make
	// or model (a capital or a figure), not "I drive a hard bargain"
	driveNamed = regexp.MustCompile(`^[Ii]\s+(?:drive|ride)\s+(an?\s+(?:\d{4}\s+)?[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)?)$`)
	// "we're in Valencia now", "we are in Denver now, movers come friday"
	inPlaceNow = regexp.MustCompile(`^(?:[Ww]e(?:'re|\s+are)|[Ii](?:'m|\s+am))\s+(?:now\s+|finally\s+|officially\s+)?(?:in|living\s+in|based\s+in)\s+([A-Z][\w-]+(?:\s+[A-Z][\w-]+)?)\s+now\b`)
	// words that put a statement in the past or in doubt: "our analytics
	// used to land in Redshift", "events should land in BigQuery"
	notNowRe = lazyRegexp(`\b(?:used\s+to|should|would|could|might|will|may|maybe|once)\b`)
	// a gathering, not a place: "we're in Sprint Review now"
	gatheringWord = lazyRegexp(`(?i)\b(?:meeting|review|standup|stand-up|sprint|call|sync|planning|retro|demo|session|workshop|huddle|offsite|interview|class|lecture|queue|mode|phase|beta|production|prod|staging)\b`)
	// "we're building this in godot 4", "we're making this in unity 6"
	buildingIn = lazyRegexp(`^we\s+are\s+(?:building|making|writing|developing|doing)\s+(?:this|it|the\s+game|the\s+app)\s+(?:in|with|on)\s+([a-z][\w.+#-]*)(\s+v?\d+(?:\.\d+)*)?(?:,\s*(.+))?$`)
	// "…, raw SQL only", "…, gdscript only": what alone is used
	onlyTailRe = lazyRegexp(`^(?:(.+?),\s+)?([\w.+#-]+(?:\s[\w.+#-]+)?)\s+only$`)
	// "no ORMs in this service": a ban over a part of the codebase
	noInScope = lazyRegexp(`^no\s+(.+?)\s+in\s+(?:this|the|our)\s+(?:service|repo|repository|codebase|app|module|package|crate|folder|directory|monorepo|backend|frontend)$`)
	// "no C#", "no visual scripting": a bare ban beside what alone is used
	bareNo = lazyRegexp(`^no\s+([\w.+#-]+(?:\s[\w.+#-]+)?)$`)
)

// storedIn reads data said to end up in a warehouse or a database as that
// store: "all the ingestion jobs in here land in BigQuery fyi".
func (r *reading) storedIn(c *clause) []Fact {
	if !strings.Contains(c.text, " in") && !strings.Contains(c.text, " to ") {
		return nil
	}
	m := landsIn().FindStringSubmatch(c.text)
	if m == nil || notNowRe().MatchString(c.text) {
		return nil
	}
	t, ok := lookupTool(m[1])
	if !ok || !fillsSlot(t, "uses_warehouse") && !fillsSlot(t, "uses_database") {
		return nil
	}
	return r.readAs(c, "we use "+m[1], false)
}

// stillOn reads where everything is after the text gave a tool up: in
// "heroku is history btw, everything's been on Render since last sprint"
// Render takes Heroku's slot.
func (r *reading) stillOn(c *clause) []Fact {
	m := stillOnRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	t, ok := lookupTool(m[1])
	if !ok {
		return nil
	}
	for i := len(r.facts) - 1; i >= 0; i-- {
		g := r.facts[i]
		if g.Kind != KindFact || !g.Negated {
			continue
		}
		if old, ok := lookupTool(g.Object); ok && old.Name != t.Name && fillsSlot(t, g.Predicate) {
			return []Fact{{Subject: g.Subject, Predicate: g.Predicate, Object: t.Name, Replaces: g.Object}}
		}
	}
	return nil
}

// gotInstead reads a thing got instead of one given up as the new value of
// the slot the old one held: "finally sold the civic!! got an e-bike
// instead" after "I drive a 2012 Civic".
func (r *reading) gotInstead(c *clause) []Fact {
	if !strings.Contains(c.text, "instead") {
		return nil
	}
	m := gotInsteadRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	var old string
	for i := len(r.clauses) - 1; i >= 0 && old == ""; i-- {
		if g := gaveUpRe().FindStringSubmatch(strings.ToLower(r.clauses[i].span)); g != nil {
			old = g[1]
		}
	}
	if g := gaveUpRe().FindStringSubmatch(c.text); old == "" && g != nil {
		old = g[1]
	}
	if old == "" {
		return nil
	}
	for _, cand := range r.candidates() {
		if cand.Negated || !cand.Exclusive && cand.Predicate != "car_is" {
			continue
		}
		if strings.Contains(strings.ToLower(cand.Object), old) || strings.Contains(old, strings.ToLower(cand.Object)) {
			return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: m[1], shownObject: display(c.span, m[1]), Replaces: cand.Object}}
		}
	}
	return nil
}

// tookOver reads a person said to have taken over the team as the
// person's new manager (or tech lead): "priyanka left for a startup :(
// Dmitri Volkov took over the team".
func (r *reading) tookOver(c *clause) []Fact {
	if !strings.Contains(c.text, " over ") {
		return nil
	}
	m := tookTeamRe.FindStringSubmatch(c.span)
	if m == nil || strings.EqualFold(m[1], "i") {
		return nil
	}
	if _, tool := lookupTool(strings.ToLower(m[1])); tool {
		return nil
	}
	noun := "manager"
	if strings.Contains(m[2], "lead") && m[2] != "lead" {
		noun = strings.Join(strings.Fields(m[2]), " ")
	}
	fs := r.readAs(c, "my "+noun+" is "+strings.ToLower(m[1])+" now", true)
	for i := range fs {
		fs[i].shownObject = m[1]
	}
	return fs
}

// soState reads a state the speaker concludes they are in: "been eating
// fish again these days so pescatarian I guess" is their diet now. The
// "I guess" concludes; it does not hedge.
func (r *reading) soState(c *clause) []Fact {
	m := soStateRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	saved := *c
	fs := r.readAs(c, "i am "+m[1]+" now", true)
	for i, f := range fs {
		if f.Kind == KindGuideline || f.Subject != SubjectUser {
			*c = saved
			return nil
		}
		for _, cand := range r.candidates() {
			if cand.Subject == f.Subject && cand.Predicate == f.Predicate && !cand.Negated && cand.Object != f.Object {
				fs[i].Replaces = cand.Object // "so pescatarian I guess" after "I'm vegetarian"
				break
			}
		}
	}
	return fs
}

// tripDate reads the date of a journey or an appointment: "my flight to
// Osaka is on the 14th" is the person's flight, on the 14th, to Osaka.
func tripDate(c *clause) []Fact {
	m := tripDateRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	return []Fact{{Subject: SubjectUser, Predicate: m[1] + "_is", Object: m[3],
		shownObject: "on the " + m[3] + ", " + display(c.span, m[2])}}
}

// plainForms are the plain sentences a clause that gave nothing means,
// tried in turn: a slot said "for this" or "here", the car one drives to
// work, a place the speaker is in now, the engine a game is built in.
func (r *reading) plainForms(rc rawClause, c *clause) []clause {
	var out []clause
	add := func(text string, change bool) {
		rw := analyze(rawClause{text: text})
		rw.span, rw.change, rw.correction = c.span, change || rw.change, c.correction || rw.correction
		out = append(out, rw)
	}
	if m := slotForThis().FindStringSubmatch(strings.ToLower(c.span)); m != nil && !strings.Contains(m[2], ",") {
		add("our "+m[1]+" is "+m[2], false)
	}
	if m := noInScope().FindStringSubmatch(c.text); m != nil {
		add("no "+m[1]+" in this project", false)
	}
	if m := driveTo().FindStringSubmatch(c.text); m != nil {
		add("my car is "+m[1], false)
	} else if m := driveNamed.FindStringSubmatch(strings.TrimSpace(rc.text)); m != nil {
		add("my car is "+m[1], false)
	}
	if m := inPlaceNow.FindStringSubmatch(strings.TrimSpace(rc.text)); m != nil && cityLike(m[1]) && !gatheringWord().MatchString(m[1]) {
		if _, tool := lookupTool(strings.ToLower(m[1])); !tool {
			add("I live in "+m[1]+" now", true)
		}
	}
	if m := buildingIn().FindStringSubmatch(c.text); m != nil {
		add("we use "+m[1], false)
	}
	if m := onlyTailRe().FindStringSubmatch(c.text); m != nil && m[1] != "" {
		add(m[1], false)
		if n := noInScope().FindStringSubmatch(m[1]); n != nil {
			add("no "+n[1]+" in this project", false)
		}
	}
	return out
}

// idSlot states a slot said "for this" or "here" whose value is an
// identifier the open-slot matcher does not take as a value ("the
// embedding model here is bge-small").
func idSlot(c *clause) []Fact {
	m := slotForThis().FindStringSubmatch(strings.ToLower(c.span))
	if m == nil || !idRe().MatchString(m[2]) || !openNoun(m[1]) || !idKind().MatchString(m[1]) && !strings.ContainsAny(m[2], "0123456789") {
		return nil
	}
	if _, tool := lookupTool(m[2]); tool {
		return nil
	}
	return []Fact{{Subject: SubjectProject, Predicate: strings.ReplaceAll(m[1], " ", "_") + "_is", Object: m[2]}}
}

// readAs reads text in place of the clause, keeping the clause's span;
// a change marks the old value as replaced.
func (r *reading) readAs(c *clause, text string, change bool) []Fact {
	rw := analyze(rawClause{text: text})
	rw.span, rw.correction = c.span, c.correction
	rw.change = rw.change || change
	fs := r.extractClause(&rw)
	if len(fs) > 0 {
		*c = rw
	}
	return fs
}
