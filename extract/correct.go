package extract

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/embed/wordvec"
	"github.com/credence-mem/credence/internal/editdist"
	"github.com/credence-mem/credence/relations"
)

// Corrections that name only a value: "actually it's John, with an h",
// "sorry, I meant GitHub Actions", "no, Dallas", "Vitest, not Jest". The
// value attaches to the slot it corrects: the one holding the old value
// when it is named ("not Jest"); else, for a tool, the slot of its
// category; else a value spelled like it ("Jon" for "John"); else the last
// fact stated just before, when the value is of its kind (a name for a
// name, a number for a port).

var (
	// notAlternative: "X, not Y", "X not Y", "X instead of Y", "not Y, X".
	notAlternative = lazyRegexp(`^(.+?)\s*,?\s+(?:not|instead of|rather than|and not)\s+(.+)$|^not\s+(.+?)\s*[,;:-]+\s*(?:but\s+|it is\s+)?(.+)$`)
	// correctionLead are words before the value that say nothing more:
	// "it's", "make that", "I meant", "spelled".
	correctionLead = lazyRegexp(`^(?:that should say |it should say |should say |that should read |should read |it should read |i meant to write |it is actually |it is |it was |it should be |it should have been |it is spelled |it is spelt |its |make that |that should be |that is |should be |should have been |i meant |i mean |meant |the answer is |the right one is |spelled |spelt |rather )+`)
	// valueTail ends a value where a comment on it begins: "John, with an
	// h", "Aoife (A-O-I-F-E)", "Kubernetes we deploy to".
	valueTail = lazyRegexp(`\s*,?\s+(?:with (?:an?|two|one|double) [a-z]\b|spelled\b|spelt\b|as in\b|like the\b|(?:that |which |where )?(?:we|i|you|they|it)\b|for (?:the|our|my)\b|sorry\b|my bad\b|typo\b|lol\b|technically\b|officially\b|strictly speaking\b|to be (?:precise|exact)\b).*$|\s*,\s*.*$`)
)

// notValues are words that follow a correction without being a value:
// "sorry, wrong window", "no, the other one", "correction noted".
var notValues = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"typo", "wrong", "mistake", "that", "this", "yes", "no", "yeah", "nope",
		"thanks", "thank you", "ok", "okay", "fine", "noted", "nothing", "never mind", "nevermind",
		"wrong window", "wrong chat", "wrong tab", "wrong thread", "wrong one", "wrong file", "my bad",
		"sorry", "both", "neither", "either", "right", "correct", "true", "false", "done", "ignore",
		"ignore that", "disregard", "disregard that", "all good", "good", "great", "cool", "same",
		"the same", "wait", "hold on", "hmm", "oops", "whoops", "again", "too", "also", "here",
		"there", "now", "later", "today", "yesterday", "tomorrow", "what", "why", "how", "who"} {
		m[w] = true
	}
	return m
})

// candidate is a value a bare correction may correct.
type candidate struct {
	Fact
	near bool // stated just before: in this text or the last utterance
	own  bool // stated in this text
}

// candidates lists the values a correction may correct, the most likely
// first: this text's facts (newest first), then the conversation's, then
// the believed slot values.
func (r *reading) candidates() []candidate {
	var out []candidate
	for i := len(r.facts) - 1; i >= 0; i-- {
		if r.facts[i].Kind == KindFact {
			out = append(out, candidate{r.facts[i], true, true})
		}
	}
	recent := r.recentFacts()
	for i := len(recent) - 1; i >= 0; i-- {
		out = append(out, recent[i])
	}
	for _, s := range r.ctx.Slots {
		out = append(out, candidate{Fact: Fact{Subject: s.Subject, Predicate: s.Predicate, Object: s.Object, Kind: KindFact}})
	}
	return out
}

// recentFacts reads the conversation's earlier utterances once; the facts
// of the last one are near.
func (r *reading) recentFacts() []candidate {
	if !r.recentRead {
		r.recentRead = true
		// the facts of the last utterance that stated any are near: "I'm
		// based in Barcelona", "can you help me with a cron job?",
		// "correction: Madrid" still corrects Barcelona
		var read [][]Fact
		last := -1
		for i, text := range r.ctx.Recent {
			var fs []Fact
			for _, f := range Extract(text) {
				if f.Kind == KindFact {
					fs = append(fs, f)
				}
			}
			read = append(read, fs)
			if len(fs) > 0 {
				last = i
			}
		}
		for i, fs := range read {
			for _, f := range fs {
				r.recent = append(r.recent, candidate{Fact: f, near: i == last})
			}
		}
	}
	return r.recent
}

// correct reads a bare correction and attaches it to the slot it corrects.
func (r *reading) correct(c *clause) []Fact {
	x, y, ok := correctionValues(c)
	if !ok {
		return nil
	}
	fromSaid := false
	if y == "" && r.said != "" && r.said != x {
		y, fromSaid = r.said, true // "I said Flask earlier but it's actually FastAPI"
	}
	if f := r.correctVersion(c, x); f != nil {
		return f
	}
	// "it's Lisbon now" after "I live in Berlin": a value said to hold now
	// changes the slot it fits, as a repair would correct it
	changed := !c.correction && (nowSaid().MatchString(strings.TrimRight(lowerNormalize(c.span), ".!")) ||
		soItIs().MatchString(c.text) && changedAfter().MatchString(strings.ToLower(r.text))) &&
		!timeWords()[x] && !notValues()[x] && !monthOrDay().MatchString(x)
	newTool, newKnown := lookupTool(x)
	if strings.HasPrefix(c.text, "i am in ") || strings.HasPrefix(c.text, "i live in ") {
		newKnown = false // "hold on, I'm in Phoenix": a place, though a framework has its name
	}
	oldTool, oldKnown := lookupTool(y)
	canon := func(v string, t *tool, known bool) string {
		if known {
			return t.Name
		}
		return v
	}
	X, Y := canon(x, newTool, newKnown), canon(y, oldTool, oldKnown)
	cands := r.candidates()
	pick := func(cand candidate) []Fact {
		if cand.Object == X && X != "" || !fits(cand.Predicate, x, c.span, newKnown) {
			return nil
		}
		if newKnown && relations.IsToolPredicate(cand.Predicate) && !fillsSlot(newTool, cand.Predicate) {
			return nil
		}
		obj, sh := X, shown(cand.Predicate, x, c.span)
		if strings.HasSuffix(cand.Predicate, "branch_is") {
			// "I meant the prod branch": the slot's own noun is not its value
			obj, sh = strings.TrimSuffix(obj, " branch"), strings.TrimSuffix(sh, " branch")
		}
		f := Fact{Subject: cand.Subject, Predicate: cand.Predicate, Object: obj, Replaces: cand.Object,
			Negated: cand.Negated && !changed && !cand.own, Correction: !changed, shownObject: sh}
		// "we don't use eslint here, it's biome": a value set against one
		// this text just denied holds
		f.shownSubject = cand.shownSubject
		return []Fact{f}
	}
	if Y != "" {
		for _, cand := range cands {
			if cand.Object == Y {
				return pick(cand)
			}
		}
		if !oldKnown && fromSaid {
			// "i wrote Gitlab but its Bitbucket Pipelines": what was said is
			// no value known here; the correction still names its slot
			Y = ""
		} else if !oldKnown {
			return nil
		}
	}
	if Y != "" {
		cat := pickCategory(oldTool, newTool, "")
		if !newKnown || !slices.Contains(newTool.Categories, cat) {
			return nil // "remmber we use pnpm, not npm": only a tool corrects a tool here
		}
		pred := categoryPredicate()[cat]
		return pick(candidate{Fact: Fact{Subject: SubjectProject, Predicate: pred, Object: Y, Kind: KindFact}})
	}
	if !c.correction && !changed {
		return nil // "it's John" alone corrects nothing
	}
	if zoneValue(x, c.span) {
		// "hold on, I'm in Arizona, so it's MST": a time zone corrects the
		// time zone, whatever else was said just before
		for _, cand := range cands {
			if cand.Predicate == "timezone_is" {
				return pick(cand)
			}
		}
		return pick(candidate{Fact: Fact{Subject: SubjectUser, Predicate: "timezone_is", Kind: KindFact}})
	}
	if newKnown {
		for _, cand := range cands {
			if fillsSlot(newTool, cand.Predicate) {
				return pick(cand)
			}
		}
		// "I said Flask earlier but it's actually FastAPI": nothing stated
		// holds the slot, but the tool names it ("python now" alone changes
		// nothing known)
		if changed {
			return nil
		}
		cat := pickCategory(newTool, nil, "")
		pred := categoryPredicate()[cat]
		if pred == "" || len(strings.Fields(c.text)) > 5 {
			return nil
		}
		subject := SubjectProject
		if personalCategory()[cat] {
			subject = SubjectUser
		}
		old := ""
		if fromSaid {
			old = y
		}
		return pick(candidate{Fact: Fact{Subject: subject, Predicate: pred, Object: old, Kind: KindFact}})
	}
	for _, cand := range cands {
		if !relations.IsToolPredicate(cand.Predicate) && similar(cand.Object, X) {
			return pick(cand)
		}
	}
	for _, cand := range cands {
		if cand.near {
			if f := pick(cand); f != nil || !namedSlot(cand.Predicate) || !sameKind(x, cand.Object) {
				return f // the fact stated just before, when the value fits it
			}
			// "lol no, it's berlin" after "I live in Munich": a name typed
			// in lower case, of the kind of the value it corrects
			f := pick(candidate{Fact: cand.Fact})
			if f == nil {
				f = []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: X, Replaces: cand.Object, Correction: true,
					shownObject: showValue(cand.Predicate, x, c.span), shownSubject: cand.shownSubject}}
			}
			return f
		}
		break
	}
	if cand, ok := kindOf(x, c.span, cands); ok {
		return pick(cand)
	}
	if cand, ok := onlyOfKind(x, c.span, cands); ok && c.correction {
		return pick(cand)
	}
	return nil
}

// onlyOfKind finds the believed value a bare correction replaces in a
// new session, when nothing was said before it: the one slot believed
// whose values are of the correction's kind. "no wait, it's Lars, I
// mixed up names" corrects the manager when a manager is the only
// person believed, ".nvmrc says 20" the version when it is the only
// number; with two such slots, or anything said before, it says nothing.
func onlyOfKind(x, span string, cands []candidate) (candidate, bool) {
	kind := valueKind(x, span)
	if kind == "" {
		return candidate{}, false
	}
	// a name the word vectors do not know may be a person's or a
	// company's ("Deezer" after "I work at Spotify"); one they know as a
	// company is a company's (session 13)
	company := kind == "person" && companyLike(x)
	person := kind == "person" && (wordVector(x) == nil || !company)
	var found []candidate
	seen := map[string]bool{}
	for _, cand := range cands {
		if cand.near {
			return candidate{}, false
		}
		if cand.Negated || seen[cand.Subject+" "+cand.Predicate] || strings.EqualFold(cand.Object, x) {
			continue
		}
		seen[cand.Subject+" "+cand.Predicate] = true
		switch k := slotKind(cand.Predicate); {
		case k == "person" && (person || kind != "person"), k != "person" && k == kind:
			found = append(found, cand)
		case k == "" && company && companySlot(cand):
			found = append(found, cand)
		}
	}
	if len(found) != 1 {
		return candidate{}, false
	}
	return found[0], true
}

// valueKind is the kind of a bare value: a number or a person's name.
func valueKind(x, span string) string {
	switch {
	case versionLike().MatchString(x):
		return "number"
	case len(strings.Fields(x)) <= 2 && capitalized(span, firstWord(x)) && !knownTool(x) && personName1().MatchString(x) && personLike(x):
		return "person"
	}
	return ""
}

// personLike says whether a capitalised word reads as a person's name
// rather than a place: nearer, in the pretrained vectors, to common given
// names than to cities ("Lars", "Agnes", not "Madrid"). A word the
// vectors do not know is taken as a name, as rare names are.
func personLike(x string) bool {
	xv := wordVector(x)
	if xv == nil {
		return true
	}
	return meanCosine(xv, personWords) > meanCosine(xv, placeWords)
}

// personWords and placeWords are prototypes of the two kinds of
// capitalised value a bare correction confuses.
var (
	personWords = []string{"john", "mary", "david", "anna", "peter"}
	placeWords  = []string{"paris", "london", "berlin", "tokyo", "chicago"}
)

func meanCosine(v []float32, words []string) float64 {
	sum, n := 0.0, 0
	for _, w := range words {
		if wv := wordVector(w); wv != nil {
			sum += float64(embed.Cosine(v, wv))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// slotKind is the kind of value a slot holds, for onlyOfKind.
func slotKind(predicate string) string {
	switch {
	case predicate == "port_is" || predicate == "age_is" || strings.HasSuffix(predicate, "_version_is"):
		return "number"
	case predicate == "name_is" || predicate == "manager_is" || predicate == "tech_lead_is" || predicate == "product_manager_is" || predicate == "reviewer_is":
		return "person"
	}
	return ""
}

// companyLike says whether a capitalised name may be a company's: one the
// word vectors do not know (as most brands are not), or one nearer
// companies than people and places ("Netflix", not "Lars" or "Madrid").
func companyLike(x string) bool {
	v := wordVector(x)
	if v == nil {
		return true
	}
	c := meanCosine(v, companyWords)
	return c > meanCosine(v, personWords) && c > meanCosine(v, placeWords)
}

var companyWords = []string{"google", "microsoft", "amazon", "netflix", "ibm"}

// companySlot says whether a believed value names a company or a service
// (an employer, a client, a streaming service), not a place, a tool of
// the taxonomy or a value of many words.
func companySlot(cand candidate) bool {
	switch cand.Predicate {
	case "works_at", "employer_is", "client_is", "company_is", "customer_is":
		return true
	case "lives_in", "located_in", "timezone_is", "hometown_is", "born_in", "native_language_is":
		return false
	}
	if relations.IsToolPredicate(cand.Predicate) || len(strings.Fields(cand.Object)) > 2 || knownTool(cand.Object) || versionLike().MatchString(cand.Object) {
		return false
	}
	if v := wordVector(firstWord(cand.Object)); v != nil {
		return companyLike(firstWord(cand.Object)) && !cityLike(firstWord(cand.Object))
	}
	return personName1().MatchString(strings.ToLower(cand.Object))
}

// personName1 is one or two words that can be a person's name.
var personName1 = lazyRegexp(`^[a-z][a-z'-]+(?: [a-z][a-z'-]+)?$`)

// kindOf finds the believed value a bare correction replaces when nothing
// near names its slot: the value of the same kind, read from the
// pretrained word vectors. "Sorry, I meant Porto", two sessions after "I
// live in Lisbon", is about where the person lives because Porto is a
// word like Lisbon (a city), not like Kevin (a name) or Shopify (a
// company). The nearest value must fit the slot, be near enough and
// clearly nearer than any other slot's.
func kindOf(x, span string, cands []candidate) (candidate, bool) {
	xv := wordVector(x)
	if xv == nil {
		return candidate{}, false
	}
	best, second := -1.0, -1.0
	var pickC candidate
	seen := map[string]bool{}
	for _, cand := range cands {
		if cand.Negated || relations.IsToolPredicate(cand.Predicate) || seen[cand.Predicate] || strings.EqualFold(cand.Object, x) ||
			!fits(cand.Predicate, x, span, false) {
			continue
		}
		seen[cand.Predicate] = true // the most recent value of each slot
		cv := wordVector(cand.Object)
		if cv == nil {
			continue
		}
		sim := embed.Cosine(xv, cv)
		switch {
		case sim > best:
			second, best, pickC = best, sim, cand
		case sim > second:
			second = sim
		}
	}
	if best < minKindSimilarity || best-second < minKindMargin {
		return candidate{}, false
	}
	return pickC, true
}

// The nearness a bare correction's value needs to a believed value of the
// same kind, and the lead it needs over the next slot's value.
const (
	minKindSimilarity = 0.3
	minKindMargin     = 0.1
)

// wordVector is the mean pretrained vector of the words of a value, nil
// when none of them is known.
func wordVector(v string) []float32 {
	t, err := wordvec.Default()
	if err != nil {
		return nil
	}
	out := make([]float32, t.Dim())
	n := 0
	for _, w := range strings.Fields(strings.ToLower(v)) {
		if i, ok := t.Find(strings.Trim(w, ".,;:!?")); ok {
			t.AddTo(out, i, 1)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return out
}

// correctVersion reads a correction naming a tool with its version ("it's
// Go 1.21"): the version slot of that tool, replacing the version stated
// before.
func (r *reading) correctVersion(c *clause, x string) []Fact {
	v := strings.TrimSpace(relations.VersionSuffix(x))
	if v == "" {
		return nil
	}
	t, ok := lookupTool(x)
	if !ok {
		return nil
	}
	pred, ok := relations.VersionPredicate(t.Name)
	if !ok {
		return nil
	}
	v = strings.TrimLeft(strings.TrimLeft(v, "@-"), "v")
	for _, cand := range r.candidates() {
		if cand.Predicate == pred && cand.Object != v {
			return []Fact{{Subject: cand.Subject, Predicate: pred, Object: v, Replaces: cand.Object, Correction: true}}
		}
	}
	if !c.correction {
		return nil
	}
	return []Fact{{Subject: SubjectProject, Predicate: pred, Object: v, Correction: true}}
}

// correctionValues reads the new value (and the old one, when named) of a
// bare correction: "it is john, with an h" is ("john", ""), "github
// actions, not circleci" ("github actions", "circleci").
func correctionValues(c *clause) (x, y string, ok bool) {
	t := correctionLead().ReplaceAllString(c.text, "")
	t = strings.TrimSuffix(strings.TrimSuffix(t, " actually"), " then")
	if m := notAlternative().FindStringSubmatch(t); m != nil {
		if m[1] != "" {
			x, y = m[1], m[2]
		} else {
			x, y = m[4], m[3]
		}
	} else {
		x = t
	}
	if c.correction {
		// "wait no, I'm at Nokia": the value after the words that place it
		x = placedAt().ReplaceAllString(strings.TrimSpace(x), "")
	}
	if m := wasBefore().FindStringSubmatch(x); m != nil && y == "" {
		x, y = m[1], m[2] // "it's Datadog where I work, Splunk was before": the old value after
	}
	if m := nounThenNumber().FindStringSubmatch(strings.TrimSpace(x)); m != nil && versionLike().MatchString(strings.TrimSpace(y)) {
		x = m[1] // "port 5433 not 5432"
	}
	x, ok = correctionValue(x)
	if !ok {
		return "", "", false
	}
	if y != "" {
		if y, ok = correctionValue(y); !ok {
			return "", "", false
		}
	}
	return x, y, true
}

var (
	// placedAt: "i am at", "i work for" before a corrected employer or place.
	placedAt = lazyRegexp(`^(?:i am (?:at|with|in)|i work (?:at|for)|i live in|we are on|we use) `)
	// wasBefore: a value, then the old one said to be past: "Datadog,
	// Splunk was before", "Lisbon, Porto was my old place".
	wasBefore = lazyRegexp(`^(.+?)\s*,\s*([a-z0-9.+# -]+?) (?:was|used to be) (?:before|earlier|previously|the old one|my (?:old|last|previous|former) (?:one|job|employer|company|place|city|editor|manager))$`)
	// nounThenNumber: "port 5433" beside an old number.
	nounThenNumber = lazyRegexp(`^[a-z]+(?: [a-z]+)? (v?\d+(?:\.\d+)*)$`)
)

// correctionValue cleans one value of a correction.
func correctionValue(v string) (string, bool) {
	v = strings.TrimSpace(valueTail().ReplaceAllString(strings.TrimSpace(v), ""))
	if head, tail, ok := strings.Cut(v, ", "); ok && len(strings.Fields(head)) <= 3 && len(strings.Fields(tail)) >= 2 {
		v = head // "utc+3, forgot daylight saving ended": the value, then why
	}
	v = correctionLead().ReplaceAllString(v, "")
	if strings.Contains(v, "'s ") {
		return "", false // "no, that's Ana's manager": someone else's, no value
	}
	first := firstWord(v)
	if first == "i" || first == "we" || first == "you" || first == "they" || notValues()[v] {
		return "", false
	}
	n, ok := nounPhrase(v, 4)
	if !ok || notValues()[n] || strings.ContainsAny(n, "/\\=(){}<>") {
		return "", false
	}
	return n, true
}

// fillsSlot reports whether tool t can be the value of predicate.
func fillsSlot(t *tool, predicate string) bool {
	for _, cat := range t.Categories {
		if categoryPredicate()[cat] == predicate {
			return true
		}
	}
	return false
}

// fits reports whether value is of the kind predicate holds: a name for a
// name, a number for a port or a version, a time zone for a time zone.
func fits(predicate, value, span string, known bool) bool {
	numeric := versionLike().MatchString(value)
	switch {
	case relations.IsToolPredicate(predicate):
		return known || !numeric && !strings.Contains(value, " ") && !modifierWord(value)
	case predicate == "name_is" || predicate == "manager_is" || predicate == "lives_in" ||
		predicate == "is_from" || predicate == "works_at":
		return !numeric && capitalized(span, firstWord(value)) && !known && !zoneValue(value, span)
	case numericSlot().MatchString(predicate):
		return value != "" && value[0] >= '0' && value[0] <= '9' && len(strings.Fields(value)) <= 2 // "100", "100 chars"
	case predicate == "age_is" || predicate == "port_is" || strings.HasSuffix(predicate, "_version_is"):
		return numeric
	case predicate == "timezone_is":
		return timezoneLike().MatchString(value)
	case predicate == "role_is":
		return roleNouns()[lastOf(value)]
	case predicate == "located_in":
		return !numeric
	}
	return !numeric && len(strings.Fields(value)) <= 3
}

var (
	versionLike  = lazyRegexp(`^v?\d+(?:\.\d+)*(?:\.x)?$`)
	timezoneLike = lazyRegexp(`^(?:[a-z]{2,5}|utc\s*[+-]\s*\d{1,2}(?::?\d\d)?|gmt\s*[+-]\s*\d{1,2}|(?:pacific|eastern|central|mountain|atlantic|alaska|hawaii|india|china|japan|korea|australian eastern|central european|eastern european|western european|british summer)(?: standard| daylight)?(?: time)?|[a-z]+/[a-z_]+)$`)
)

// nowSaid is a bare value said to hold now: "it's Lisbon now", "now
// it's fly", "Priya now".
var nowSaid = lazyRegexp(`^(?:it is |now it is |it is now |that is |now )?[a-z0-9][\w.+#:-]*(?: [\w.+#:-]+){0,2} now$|^now (?:it is |we use |i use |we are on |i am on )?[a-z0-9][\w.+#:-]*(?: [\w.+#:-]+){0,2}$`)

// changedAfter is a change the speaker names after a bare value: "it's
// main, we renamed it".
var changedAfter = lazyRegexp(`[,;-]\s*(?:we|i|they|someone) (?:just |recently )?(?:renamed|changed|switched|moved|migrated|swapped|replaced|upgraded|bumped) (?:it|them|that|over|things)\b|[,;-]\s*it (?:changed|was renamed|got renamed|moved)\b`)

// monthOrDay is a date word, which no slot of a name holds.
var monthOrDay = lazyRegexp(`^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|today|tonight|tomorrow|morning|evening|afternoon|noon|midnight|late|early|over|done|here|time|ok|okay)$`)

// namedSlot says whether a predicate holds a name written with a capital
// (a person, a place, an employer).
func namedSlot(predicate string) bool {
	switch predicate {
	case "name_is", "manager_is", "lives_in", "is_from", "works_at":
		return true
	}
	return false
}

// sameKind says whether a value typed in lower case is a word of the
// kind of old ("berlin" of "munich") in the pretrained word vectors.
func sameKind(value, old string) bool {
	if strings.Contains(value, " ") || versionLike().MatchString(value) {
		return false
	}
	v, o := wordVector(value), wordVector(old)
	return v != nil && o != nil && embed.Cosine(v, o) >= minLowerKindSimilarity
}

// minLowerKindSimilarity is how near a lower-case correction must be to
// the value it corrects: nearer than a bare correction's kind, since no
// capital says it is a name.
const minLowerKindSimilarity = 0.45

// zoneValue says whether a corrected value is written as a time zone:
// an abbreviation in capitals ("MST", "CEST") or an offset ("UTC+2").
func zoneValue(value, span string) bool {
	if !timezoneLike().MatchString(value) {
		return false
	}
	d := display(span, value)
	return strings.ContainsAny(d, "+-/0123456789") || len(d) <= 5 && strings.ToUpper(d) == d && strings.HasSuffix(d, "T")
}

// similar reports whether two values look like one spelt two ways: "jon"
// and "john", "katarzna" and "katarzyna", "sam" and "samantha".
func similar(a, b string) bool {
	if a == b || len(a) < 3 || len(b) < 3 {
		return false
	}
	if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
		return true
	}
	d := editdist.Distance(a, b)
	return d <= 2 && d*3 <= max(len(a), len(b))
}

// shown is how a corrected value is written in its statement.
func shown(predicate, value, span string) string {
	if t, ok := lookupTool(value); ok {
		return t.Display
	}
	return showValue(predicate, value, span)
}

// showValue writes an open value as the person wrote it, with names and
// places capitalised even when they were typed in lower case.
func showValue(predicate, value, span string) string {
	d := display(span, value)
	switch predicate {
	case "name_is", "manager_is", "lives_in", "is_from", "works_at":
		return upperWords(d)
	case "timezone_is":
		if len(d) <= 5 && !strings.ContainsFunc(d, unicode.IsUpper) {
			return strings.ToUpper(d)
		}
	}
	return d
}

// selfCorrections settles a slot the text gives two values with a
// correction between them: "this service runs on node 16... no wait,
// that's the old repo. this one is on node 20" states 20, which replaces
// 16 (the slip stays a fact of its own, which the correction supersedes).
func (r *reading) selfCorrections() {
	for ci, cl := range r.clauses {
		for j := cl.from; j < cl.to && j < len(r.facts); j++ {
			g := r.facts[j]
			if g.Kind != KindFact || g.Negated || !g.Exclusive || g.Replaces != "" {
				continue
			}
			for ck := ci - 1; ck >= 0 && g.Replaces == ""; ck-- {
				for i := r.clauses[ck].from; i < r.clauses[ck].to && i < len(r.facts); i++ {
					f := r.facts[i]
					if f.Kind != KindFact || f.Negated || f.Predicate != g.Predicate || f.Subject != g.Subject || f.Object == g.Object ||
						!correctedBetween(r.clauses, ck, ci) {
						continue
					}
					g.Correction, g.Replaces = true, f.Object
					g.Statement = render(g)
					r.facts[j] = g
					break
				}
			}
		}
	}
}

// correctedBetween reports whether a clause after the k-th, up to and
// including the i-th, said it corrects.
func correctedBetween(cls []clauseFacts, k, i int) bool {
	for x := k + 1; x <= i && x < len(cls); x++ {
		if cls[x].correction {
			return true
		}
	}
	return false
}

// takeGivenUpSlot puts a new value in the slot of the value the same text
// just gave up, when it is a tool of that slot: "I don't use Sublime
// anymore, Zed is my daily driver" is about the editor, though "daily
// driver" alone may name a machine's OS.
func (r *reading) takeGivenUpSlot(f *Fact) {
	t, ok := lookupTool(f.Object)
	if !ok {
		return
	}
	for _, g := range r.facts {
		if g.Kind == KindFact && g.Negated && g.Predicate == f.Predicate && f.Replaces != "" && g.Object == f.Replaces {
			return // it already takes the slot of the one it replaces ("Biome does both now")
		}
	}
	for i := len(r.facts) - 1; i >= 0; i-- {
		g := r.facts[i]
		if g.Kind != KindFact || !g.Negated || g.Predicate == f.Predicate || slotSubject(g.Subject) != slotSubject(f.Subject) {
			continue
		}
		old, ok := lookupTool(g.Object)
		if !ok || old.Name == t.Name || !fillsSlot(t, g.Predicate) || !shareCategory(old, t) {
			continue
		}
		f.Predicate, f.Subject = g.Predicate, g.Subject
		if f.Replaces == "" {
			f.Replaces = g.Object
		}
		return
	}
}
