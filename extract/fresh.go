package extract

import (
	"strings"
)

// Readings of session 12 (EXT12c) for shapes a fresh writer used that the
// matchers did not know: a fact said in passing before the real request
// ("all the ingestion jobs land in BigQuery fyi. anyway …"), a change told
// as a story ("we ditched airflow for dagster", "X is history,
// everything's on Y", "sold the civic, got an e-bike instead", "X left, Y
// took over the team", "we're in Valencia now"), a bare date repaired
// ("typo, the 17th*"), rules said in clipped chat after a complaint
// ("bullet points, short") or as how the tests are run ("tests hit a real
// postgres, no mocking the db"), and traits of the person the relations
// table has no words for (a health condition, a trip, hours they cannot
// meet, a language they are learning). Each reading is a shape of
// English, cued by a cheap test before its pattern runs.

// freshFirst reads a clause before the matchers do, for shapes they read
// wrongly: a switch told as "ditched X for Y" (read as giving X up only),
// experiments tracked in a tool (read as a rule to log them there), and a
// board the code targets. It returns nil when no shape fits.
func (r *reading) freshFirst(c *clause) []Fact {
	if c.question || c.text == "" {
		return nil
	}
	if fs := r.first13(c); fs != nil {
		return fs // mend13.go
	}
	if c.correction && strings.HasSuffix(c.text, "*") {
		c.text = strings.TrimRight(c.text, "* ") // "typo, the 17th*": the star marks the repair
	}
	if strings.Contains(c.text, " for ") || strings.Contains(c.text, " with ") {
		if m := ditchedFor().FindStringSubmatch(c.text); m != nil {
			old, ok1 := lookupTool(m[2])
			now, ok2 := lookupTool(m[3])
			if ok1 && ok2 && old.Name != now.Name && shareCategory(old, now) {
				rw := *c
				rw.text = m[1] + " switched from " + m[2] + " to " + m[3]
				rw.change = true
				if fs := r.extractClause(&rw); len(fs) > 0 {
					*c = rw
					return fs
				}
			}
		}
	}
	if m := trackedIn().FindStringSubmatch(c.text); m != nil && !notValues()[m[1]] {
		return []Fact{{Subject: SubjectProject, Predicate: "experiment_tracker_is", Object: m[1], shownObject: display(c.span, m[1])}}
	}
	if strings.Contains(c.text, "target") {
		if m := targetsBoard().FindStringSubmatch(c.span); m != nil {
			return []Fact{{Subject: SubjectProject, Predicate: "target_chip_is", Object: strings.ToLower(m[1]), shownObject: m[1]}}
		}
	}
	return nil
}

// freshMore reads what the clause adds beside the facts found in it
// (found) and the facts of the text before it.
func (r *reading) freshMore(rc rawClause, c *clause, found []Fact) []Fact {
	if c.question || c.text == "" {
		return nil
	}
	var out []Fact
	if len(found) == 0 {
		out = append(out, r.freshInstead(rc, c)...)
		if len(out) == 0 {
			out = append(out, r.instead13(rc, c)...) // mend13.go
		}
	}
	// traits said in passing: they stand beside whatever else the clause says
	out = append(out, traits(c)...)
	return out
}

// freshInstead holds the readings for a clause that gave nothing.
func (r *reading) freshInstead(rc rawClause, c *clause) []Fact {
	t := c.text
	if fs := r.storedIn(c); fs != nil {
		return fs
	}
	if fs := r.stillOn(c); fs != nil {
		return fs
	}
	if fs := r.gotInstead(c); fs != nil {
		return fs
	}
	if fs := r.tookOver(c); fs != nil {
		return fs
	}
	if fs := r.soState(c); fs != nil {
		return fs
	}
	if fs := tripDate(c); fs != nil {
		return fs
	}
	if fs := r.builtWith(c); fs != nil {
		return fs
	}
	if fs := r.terseWishes(c); fs != nil {
		return fs
	}
	if strings.HasPrefix(t, "no ") {
		if fs := noGerund(c); fs != nil {
			return fs
		}
	}
	if strings.Contains(t, "real ") {
		if m := realInTests().FindStringSubmatch(t); m != nil {
			return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: "use " + m[2] + " in " + m[1]}}
		}
	}
	for _, rw := range r.plainForms(rc, c) {
		if fs := r.extractClause(&rw); len(fs) > 0 {
			span := c.span
			*c = rw
			return append(fs, onlyUse(span)...)
		}
	}
	if fs := idSlot(c); fs != nil {
		return fs
	}
	if m := bareNo().FindStringSubmatch(t); m != nil && r.saidOnly() {
		return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should_not", Object: "use " + m[1],
			shownObject: "use " + display(c.span, m[1])}}
	}
	return nil
}

// saidOnly reports whether the text gave a rule to use one thing only:
// "gdscript only, no C#" bans C# beside it.
func (r *reading) saidOnly() bool {
	for _, f := range r.facts {
		if f.Kind == KindGuideline && f.Predicate == "should" && strings.HasSuffix(f.Object, " only") {
			return true
		}
	}
	return false
}

// onlyUse is the rule a clause ends with when it names what alone is
// used: "no ORMs in this service, raw SQL only" (read after its head).
func onlyUse(span string) []Fact {
	m := onlyTailRe().FindStringSubmatch(strings.ToLower(span))
	if m == nil || timeWords()[m[2]] || m[2] == "me" || m[2] == "you" {
		return nil
	}
	return []Fact{{Kind: KindGuideline, Subject: SubjectAssistant, Predicate: "should", Object: "use " + m[2] + " only",
		shownObject: "use " + display(span, m[2]) + " only"}}
}

// builtWith reads the engine a game or app is built in when the taxonomy
// does not know it, named with its major version: "we're building this in
// godot 4, gdscript only, no C#".
func (r *reading) builtWith(c *clause) []Fact {
	m := buildingIn().FindStringSubmatch(c.text)
	if m == nil || m[2] == "" || notValues()[m[1]] {
		return nil
	}
	if _, tool := lookupTool(m[1]); tool {
		return nil
	}
	out := []Fact{{Subject: SubjectProject, Predicate: "uses_framework", Object: m[1], shownObject: upperFirst(display(c.span, m[1]))}}
	if m[3] != "" {
		out = append(out, onlyUse(display(c.span, m[3]))...)
	}
	return out
}

// freshNeedsContext reports whether a clause (as written, and its working
// text) holds a change of fresh.go whose old value only the conversation
// names: "got an e-bike instead", "we're in Valencia now".
func freshNeedsContext(written, text string) bool {
	if usedTo().MatchString(text) || needs13(text) {
		return true // "I used to live in Oslo" ends a value only if it is believed (precision13.go); mend13.go's changes
	}
	if strings.Contains(text, "instead") && gotInsteadRe().MatchString(text) {
		return true
	}
	return strings.Contains(text, " now") && inPlaceNow.MatchString(strings.TrimSpace(written))
}
