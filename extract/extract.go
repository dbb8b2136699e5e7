package extract

import (
	"slices"
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// matcher reads one kind of statement from a prepared clause.
type matcher func(c *clause) []Fact

// matchers run in order; the first that yields facts wins the clause. Facts
// about identity come before usage so "I moved to Tokyo" is a residence, and
// usage before guidelines so "we never use yarn" is a fact about the project.
var matchers = []matcher{
	matchIdentity,
	matchPersonal,
	matchVersionChange,
	matchChange,
	matchStopped,
	matchAside,
	matchPrefer,
	matchLike,
	matchDeployBranch,
	matchPort,
	matchDeploy,
	matchUse,
	matchSlot,
	matchStack,
	matchBuiltIn,
	matchEntityPath,
	matchOpenSlot,
	matchUbiquitous,
	matchGuideline,
	matchConvention,
	matchReplyRule,
}

// Context is what ExtractWith knows of the conversation around a text: a
// correction that names only the new value ("sorry, I meant John") is
// attached to the slot it corrects from it.
type Context struct {
	// Recent are the earlier utterances of the same conversation, oldest
	// first: the last fact stated there is what a bare correction most
	// likely corrects.
	Recent []string
	// Slots are values currently believed, most relevant first: a bare
	// correction whose value is spelled like one of them ("John" after
	// "Jon") or is of its kind (a tool of the same category) corrects it.
	Slots []SlotValue
}

// SlotValue is one believed value of a slot: (subject, predicate, object)
// in the extractor's canonical form.
type SlotValue struct {
	Subject   string
	Predicate string
	Object    string
}

// Extract returns the explicit facts and guidelines stated in text, in the
// order they appear. It reads at most MaxInputBytes and returns at most
// MaxFacts facts; questions, hypotheticals, hedges, transient states,
// reported speech, code and quotes yield nothing. A correction that names
// only a value is attached to a fact earlier in the same text; ExtractWith
// also looks at the conversation around it.
func Extract(text string) []Fact { return ExtractWith(text, Context{}) }

// ExtractWith is Extract with the conversation around text: a correction
// that names only the new value ("actually it's John", "sorry, I meant
// GitHub Actions") attaches to the slot it corrects — a fact stated
// earlier in the text, then in ctx.Recent (newest first), then a value of
// ctx.Slots — and replaces that value. A correction or change whose old
// value goes unnamed gets it from the same places.
func ExtractWith(text string, ctx Context) []Fact {
	r := &reading{ctx: ctx, seen: map[string]bool{}, text: text}
	for _, rc := range append(append(splitClauses(text), asides(text)...), asides13(text)...) {
		start := len(r.facts)
		c := analyze(rc)
		if r.pendingCorrection {
			c.correction = true
		}
		if !c.correction && len(r.clauses) > 0 && r.clauses[len(r.clauses)-1].correction && soItIs().MatchString(c.text) {
			c.correction = true // "hold on, I'm in Arizona, so it's MST": what follows from a repair repairs too
		}
		r.pendingCorrection = c.correction && c.text == "" // "wait, no - it's Tomas"
		if c.correction && c.text == "" && len(r.clauses) > 0 && start > 0 {
			r.repairedBefore(r.clauses[len(r.clauses)-1]) // "i'm on CST, i mixed them up"
		}
		found := r.freshFirst(&c) // shapes the matchers misread (fresh.go)
		if found == nil {
			found = r.extractClause(&c)
		}
		if len(found) == 0 && c.text != "" {
			// a second reading in plain words (rewrite.go)
			saved := *r
			for _, rw := range r.rewordings(rc, &c) {
				rw.correction = rw.correction || c.correction
				if fs := r.extractClause(&rw); len(fs) > 0 {
					found, c = fs, rw
					break
				}
				*r = saved // a reading that found nothing leaves no trace
			}
		}
		if len(found) == 0 && len(r.clauses) > 0 && (strings.Contains(c.text, "them") || strings.Contains(c.text, "it ")) {
			if rw, ok := r.withAntecedent(c); ok {
				if fs := r.extractClause(&rw); len(fs) > 0 && fs[0].Kind == KindGuideline {
					found, c = fs, rw
				}
			}
		}
		if len(found) > 0 && allClauses(found) {
			found = nil // "i dislike yaml, every config language is better" read as one object
		}
		if len(found) == 0 && c.text != "" {
			if fs, sc, ok := r.segments(rc, c); ok {
				found, c = fs, sc
			}
		} else if len(found) > 0 {
			found = append(found, r.laterSegments(rc, c, found)...)
		}
		found = append(found, r.freshMore(rc, &c, found)...)
		found = append(found, r.buried(rc, &c, found)...) // buried13.go
		if !c.question {
			found = append(found, r.reasonFacts(rc, found)...)
		}
		for _, f := range found {
			if f.Predicate == "" || strings.HasPrefix(f.Predicate, "_") {
				continue // an open slot without its noun names nothing
			}
			if f.Kind != KindGuideline && strings.HasPrefix(f.Subject, SubjectUser+"'s ") {
				if _, tool := lookupTool(f.Object); tool {
					continue // "my colleague's CI is Jenkins": another person's setup
				}
			}
			if f.Kind != KindGuideline && !f.Negated && participleValue(f.Object) && !capitalized(c.span, f.Object) && f.Predicate != "prefers" && f.Predicate != "likes" && f.Predicate != "dislikes" {
				continue // "the main branch is protected" says how it is, not which
			}
			if f.Kind != KindGuideline && verdictWords[f.Object] {
				continue // "the deadline is tight" says how it is, not what it is
			}
			if f.Kind != KindGuideline && (f.Predicate == "deploys_with" || strings.HasPrefix(f.Predicate, "uses")) &&
				timeWords()[strings.TrimSuffix(f.Object, " only")] {
				continue // "we deploy on Fridays only" says when, not where
			}
			if f.Kind != KindGuideline {
				f = trimValue(f, c.span)
				// "Tom isn't my manager, Priya is": the copula after the
				// value only ends the sentence
				for _, tail := range []string{" is", " are", " does", " do"} {
					if o, ok := strings.CutSuffix(f.Object, tail); ok && o != "" {
						f.Object = o
						f.shownObject = strings.TrimSuffix(strings.TrimSuffix(f.shownObject, tail), strings.ToUpper(tail[:2])+tail[2:])
					}
				}
			}
			f = r.finish(f, &c)
			all := append([]Fact{f}, versionFacts(f)...)
			if len(all) > 1 && versionLike().MatchString(f.Replaces) && all[1].Replaces == "" {
				// "we're on Node 20, not 18": the version is what changed
				all[0].Replaces, all[1].Replaces = "", f.Replaces
			}
			if len(all) > 1 && f.Replaces == "" && versionBump().MatchString(c.text) {
				all = all[1:] // "upgraded to Go 1.22" changes the version, not the language
			}
			for i := range all {
				if all[i].Statement == "" {
					all[i] = r.finish(all[i], &c)
				}
			}
			if c.correction && len(all) > 1 && all[0].Replaces == "" && all[1].Replaces != "" {
				all = all[1:] // "no wait, this one is on node 20" corrects the version, not the runtime
			}
			for _, g := range all {
				if r.seen[g.key()] || g.Kind == KindFact && (strings.HasPrefix(g.Predicate, "uses") && stateWords()[g.Object] || clauseObject(g)) {
					continue
				}
				r.seen[g.key()] = true
				r.facts = append(r.facts, g)
				if g.Predicate == "manager_is" && (!strings.Contains(g.Object, " ") || fullName.MatchString(display(c.span, g.Object))) {
					r.person = g.Object // "Priya is my manager, she lives in Pune"
				}
				if len(r.facts) == MaxFacts {
					return r.facts
				}
			}
		}
		r.clauses = append(r.clauses, clauseFacts{text: c.text, span: strings.TrimSpace(rc.text), from: start, to: len(r.facts), correction: c.correction})
	}
	r.selfCorrections()
	r.judgedWrong()
	r.goneAfter()
	r.neighbours()
	r.audience()
	r.alternatives()
	r.limitRules(text)
	r.pronounRules()
	r.partOfKind()
	for i, f := range r.facts {
		if f.Predicate == "manager_is" && f.Replaces == "" && !f.Negated && len(r.gone) > 0 && r.gone[len(r.gone)-1] != f.Object {
			r.facts[i].Replaces = r.gone[len(r.gone)-1] // "my manager is Hugo now, Ines moved to another team"
		}
	}
	r.review()
	r.review13() // precision13.go
	r.retractCorrected()
	out := r.facts[:0]
	for _, f := range r.facts {
		if !f.retracted {
			out = append(out, f)
		}
	}
	return out
}

// retractCorrected marks for dropping a value the same text stated and
// then corrected: in "I'm in Porto, no wait, Coimbra" the speaker took
// Porto back in the same breath, so only the repair (which replaces it)
// stands. A change ("we moved from Heroku to Render") keeps its old value
// as what it replaces and states no fact of it, so only corrections do
// this.
func (r *reading) retractCorrected() {
	for j, g := range r.facts {
		if g.Kind != KindFact || g.Negated || !g.Correction || g.Replaces == "" {
			continue
		}
		for i := range r.facts[:j] {
			f := r.facts[i]
			if f.Kind == KindFact && !f.Negated && f.Exclusive && f.Subject == g.Subject && f.Predicate == g.Predicate &&
				strings.EqualFold(f.Object, g.Replaces) {
				r.facts[i].retracted = true
			}
		}
	}
}

// alternatives gives a prohibition the tool to use instead when the text
// names it after the prohibition: "Never use npm; use pnpm".
func (r *reading) alternatives() {
	for i, f := range r.facts {
		if f.Kind == KindGuideline && strings.HasPrefix(f.Predicate, "should_not") && f.detail == "" {
			if d := r.alternativeTo(f.Object); d != "" {
				r.facts[i].detail = d
				r.facts[i].Statement = render(r.facts[i])
			}
		}
	}
	// "Never use npm; use pnpm": the instruction to use pnpm is now part
	// of the prohibition, one rule rather than two
	out := r.facts[:0]
	for i, f := range r.facts {
		if !r.absorbed(i, f) {
			out = append(out, f)
		}
	}
	r.facts = out
}

// absorbed reports whether the positive instruction f (the i-th fact) is
// the alternative an earlier prohibition of the same text already names.
func (r *reading) absorbed(i int, f Fact) bool {
	if f.Kind != KindGuideline || f.Predicate != "should" {
		return false
	}
	used, ok := strings.CutPrefix(f.Object, "use ")
	if !ok {
		return false
	}
	for _, g := range r.facts[:i] {
		// "don't use any, use unknown instead": the alternative a ban
		// already names is part of it, whatever it is, when it is said
		// as the alternative (session 13); "… we only use function
		// components" and "… minimal diffs please" are rules of their own
		if !alternativeSaid().MatchString(strings.ToLower(f.Span)) {
			break
		}
		if g.Kind == KindGuideline && strings.HasPrefix(g.Predicate, "should_not") && strings.EqualFold(g.detail, "; "+f.Object) {
			return true
		}
	}
	t, ok := lookupTool(used)
	if !ok {
		return false
	}
	for _, g := range r.facts[:i] {
		if g.Kind == KindGuideline && strings.HasPrefix(g.Predicate, "should_not") && g.detail == "; use "+t.Display {
			return true
		}
	}
	return false
}

// NeedsContext reports whether text holds a correction or a change that
// ExtractWith may resolve with a Context ("actually it's John", "no,
// Tokyo, not Kyoto", "as of today …"): the caller can skip gathering one
// for any other text.
func NeedsContext(text string) bool {
	if buriedNeedsText(text) {
		return true // buried13.go
	}
	for _, rc := range splitClauses(text) {
		c := analyze(rc)
		if c.correction || c.change || notAlternative().MatchString(c.text) || changeHint().MatchString(c.text) {
			return true
		}
		// "mine is Noodle", "we're on 3.12 now", "I use zed now": the slot
		// or the value replaced comes from the conversation
		if mineIs().MatchString(c.text) || bareVersionOn().MatchString(c.text) || changeEnd().MatchString(c.text) {
			return true
		}
		if freshNeedsContext(rc.text, c.text) || buriedNeedsContext(rc.text, c.text) {
			return true // "got an e-bike instead", "we're in Valencia now" (fresh.go)
		}
	}
	return false
}

// SlotPredicates lists the predicates whose believed values a Context's
// Slots should carry: those with a single value (exclusive relations and
// any other "_is" slot), which a bare correction can be about.
func SlotPredicates() []string {
	var out []string
	for _, r := range relations.All() {
		if r.Exclusive || strings.HasSuffix(r.Predicate, "_is") {
			out = append(out, r.Predicate)
		}
	}
	return out
}

// reading is the state of one ExtractWith call.
type reading struct {
	ctx   Context
	text  string // the text read
	facts []Fact
	seen  map[string]bool
	// recent are the facts of ctx.Recent, read on first use.
	recent     []candidate
	recentRead bool
	// gone are people said to have left ("Tom left"): a new manager named
	// after them replaces them.
	gone []string
	// jobNews: the text said the person changed jobs ("new job!").
	jobNews bool
	// person is the last person named, for "she"/"he" in the next clause.
	person            string
	pendingCorrection bool
	// said is a value the text says was said by mistake ("I wrote
	// Gitlab"): the correction that follows replaces it.
	said string
	// topic is a slot the text said changed without its value ("my
	// manager changed"): "it's Wen now" fills it.
	topic string
	// clauses are the text's clauses read so far with the facts each
	// gave (guideline.go: a prohibition takes its alternative or reason
	// from a neighbour that gave none).
	clauses []clauseFacts
}

var (
	// versionBump: a change of version, not of tool.
	versionBump = lazyRegexp(`\b(?:upgraded|downgraded|bumped|updated|upgrading|bumping)\b`)
	// saidForRe: "earlier I said 6000 for the worker port".
	saidForRe = lazyRegexp(`^(?:earlier,? |before,? |previously,? )?i (?:said|wrote|typed|put|told you|mentioned|gave you) ([a-z0-9.+# -]+?) (?:for|as) (the|my|our) ([a-z]+(?: [a-z]+)?)(?: earlier| before| above| by mistake)?$`)
	// didISay: "did i say mariadb?", "did I just write Lyon?".
	didISay = lazyRegexp(`^(?:wait,? |hmm,? |oops,? )?(?:did|have) i (?:just )?(?:say|said|write|wrote|type|typed|put|mention|mentioned) ([a-z0-9.+# -]+?)(?: earlier| before| above| there| again)?$`)
	// saidRe: "I said Flask earlier", "I wrote Gitlab".
	saidRe = lazyRegexp(`^i (?:said|wrote|typed|put|told you|mentioned) ([a-z0-9.+# -]+?)(?: earlier| before| above| by mistake| previously)?$`)
	// noLongerRe: "Hamid is no longer my manager".
	noLongerRe = lazyRegexp(`^([a-z][a-z'-]+) is (?:no longer|not) (my|our) ([a-z]+(?: [a-z]+)?)(?: anymore)?$`)
	// ellipsisRe: "…, Clara is", "Clara is now".
	ellipsisRe = lazyRegexp(`^([a-z][a-z'-]+(?: [a-z][a-z'-]+)?) (?:is|does)(?: now)?$`)
	// tookOverRe: "Ana took over as my manager after Ben left".
	tookOverRe = lazyRegexp(`^([a-z][a-z'-]+) (?:took over|has taken over|is taking over|stepped in|stepped up|has stepped in|replaced [a-z]+) as (my|our) (?:new )?([a-z]+(?: [a-z]+)??)(?: (?:after|when|since|because) ([a-z][a-z'-]+) (?:left|quit|moved on|retired|moved teams|stepped down))?$`)
	// slotIsNotRe: "my name is not Jon" before what it is.
	slotIsNotRe = lazyRegexp(`^(my|our) ([a-z]+(?: [a-z]+)?) (?:is not|was not|is no longer|isn't) ([a-z0-9.+# -]+)$`)
	// replacedAsRe: "Priya replaced Tom as my manager".
	replacedAsRe = lazyRegexp(`^([a-z][a-z'-]+) (?:has )?replaced ([a-z][a-z'-]+) as (my|our) ([a-z]+(?: [a-z]+)?)$`)
	// slotChangedRe: "my manager changed", "our CI is different now".
	slotChangedRe = lazyRegexp(`^(my|our) ([a-z]+(?: [a-z]+)?) (?:changed|has changed|is new|is different(?: now)?|is someone else now)$`)
	// wasOldRe: "Tom was my old manager".
	wasOldRe = lazyRegexp(`^([a-z][a-z'-]+) (?:was|is) (my|our) (?:old|previous|former|last|ex-) ?([a-z]+(?: [a-z]+)?)$`)
	// itIsRe: "it's Wen now", the value of a slot named before.
	itIsRe = lazyRegexp(`^(?:it is|it will be|that is|now it is|the new one is) (?:now )?(.+?)$`)
)

// resolveSlotTalk reads the clauses that speak of a slot over two clauses:
// it rewrites the second into the slot statement the matchers know, and
// says whether the clause was spent on setting the slot up.
func (r *reading) resolveSlotTalk(c *clause) bool {
	t := c.text
	if m := noLongerRe().FindStringSubmatch(t); m != nil && capitalized(c.span, m[1]) {
		r.gone = append(r.gone, m[1])
		r.topic = m[2] + " " + m[3]
		return true
	}
	if m := slotIsNotRe().FindStringSubmatch(t); m != nil {
		// "My name is not Jon, it's John"
		if v, ok := correctionValue(m[3]); ok {
			r.topic, r.said = m[1]+" "+m[2], v
			r.pendingCorrection = true
			return true
		}
	}
	if m := wasOldRe().FindStringSubmatch(t); m != nil && capitalized(c.span, m[1]) {
		r.gone = append(r.gone, m[1]) // "Tom was my old manager, now it's Sam"
		r.topic = m[2] + " " + m[3]
		return true
	}
	if m := slotChangedRe().FindStringSubmatch(t); m != nil {
		r.topic = m[1] + " " + m[2]
		return true
	}
	if m := replacedAsRe().FindStringSubmatch(t); m != nil && capitalized(c.span, m[1]) {
		r.gone = append(r.gone, m[2]) // "Priya replaced Tom as my manager"
		c.text = m[3] + " " + m[4] + " is " + m[1]
		return false
	}
	if m := tookOverRe().FindStringSubmatch(t); m != nil && capitalized(c.span, m[1]) {
		if m[4] != "" {
			r.gone = append(r.gone, m[4])
		}
		c.text = m[2] + " " + m[3] + " is " + m[1]
		return false
	}
	if r.topic == "" {
		return false
	}
	if m := ellipsisRe().FindStringSubmatch(t); m != nil {
		c.text = r.topic + " is " + m[1]
	} else if m := itIsRe().FindStringSubmatch(t); m != nil {
		c.text = r.topic + " is " + m[1]
	}
	return false
}

// extractClause runs the filters and matchers over one clause.
func (r *reading) extractClause(c *clause) []Fact {
	if m := didISay().FindStringSubmatch(c.text); m != nil && c.question {
		// "did i say mariadb? it's percona": the speaker doubting a value
		// they gave is the one the next clause corrects
		if _, tool := lookupTool(m[1]); tool || capitalized(c.span, firstWord(m[1])) || versionLike().MatchString(m[1]) {
			if v, ok := correctionValue(m[1]); ok {
				r.said = v
				r.pendingCorrection = true
			}
		}
		return nil
	}
	if c.text == "" || c.question {
		return nil
	}
	if otherParty().MatchString(c.text) {
		return nil // "the other team deploys to Heroku": theirs, not ours
	}
	if strings.Contains(c.text, " is ") && strings.Contains(c.text, " on ") {
		if f := versionSaid(c.text); f != nil {
			return f // "node's on 22 now"
		}
	}
	if m := phaticDont().FindStringSubmatch(c.text); m != nil && (m[1] != "ask" || r.statedFact()) {
		// "i've gone from emacs to neovim, don't judge", "builds are
		// bazel. don't ask": the speaker's aside on what they just said
		// asks how to take it, not how to work
		return nil
	}
	if jobNewsRe().MatchString(c.text) {
		r.jobNews = true
	}
	c.jobNews = r.jobNews
	if name := leftRe().FindStringSubmatch(c.text); name != nil && capitalized(c.span, name[1]) && !knownTool(name[1]) {
		r.gone = append(r.gone, name[1]) // "Ines moved to another team": gone, not somewhere
		for _, cand := range r.candidates() {
			if cand.Object == name[1] && !cand.Negated && strings.HasSuffix(cand.Predicate, "_is") {
				// "Alice left. It's Bob now": the slot she held is the one
				// the next value fills
				r.topic = "my " + strings.ReplaceAll(strings.TrimSuffix(cand.Predicate, "_is"), "_", " ")
				break
			}
		}
		return nil
	}
	if m := notAlone().FindStringSubmatch(c.text); m != nil && r.topic == "" && !determiner().MatchString(firstWord(m[1])) && firstWord(m[1]) != "a" && firstWord(m[1]) != "an" {
		// "Eh, not ESLint. Biome.": what it is not, then what it is
		if _, tool := lookupTool(m[1]); tool || capitalized(c.span, firstWord(m[1])) {
			if v, ok := correctionValue(m[1]); ok {
				r.said = v
				r.pendingCorrection = true
				return nil
			}
		}
	}
	if f, done := r.handOver(c); done {
		return f
	}
	if done := r.resolveSlotTalk(c); done {
		return nil
	}
	if m := saidForRe().FindStringSubmatch(lowerNormalize(strings.TrimRight(c.span, ".!"))); m != nil {
		// "earlier I said 6000 for the worker port": the value said, and
		// the slot the correction that follows is for
		if v, ok := correctionValue(m[1]); ok {
			owner := m[2]
			if owner == "the" {
				owner = "our"
			}
			r.said, r.topic = v, owner+" "+m[3]
			r.pendingCorrection = true
			return nil
		}
	}
	if m := saidRe().FindStringSubmatch(lowerNormalize(c.span)); m != nil {
		// "I said Flask earlier but it's actually FastAPI": the value said
		// is the one the next clause corrects
		if _, tool := lookupTool(m[1]); tool || capitalized(c.span, firstWord(m[1])) {
			if v, ok := correctionValue(m[1]); ok {
				r.said = v
				r.pendingCorrection = true
				return nil
			}
		}
	}
	if m := oldValueClause().FindStringSubmatch(c.text); m != nil {
		// "…, Splunk was before", "Contoso was my last job": the old value
		// of what was just stated, not a value of its own
		if n := len(r.facts); n > 0 && r.facts[n-1].Kind == KindFact && !r.facts[n-1].Negated && r.facts[n-1].Replaces == "" &&
			!strings.EqualFold(r.facts[n-1].Object, m[1]) {
			r.facts[n-1].Replaces = m[1]
		}
		return nil
	}
	if m := replacedIt().FindStringSubmatch(c.text); m != nil {
		// "moment is deprecated now, date-fns replaced it": "it" is the
		// tool of the new one's kind the text named just before
		if t, ok := lookupTool(m[1]); ok {
			for i := len(r.clauses) - 1; i >= 0 && i >= len(r.clauses)-2; i-- {
				for _, cat := range t.Categories {
					if old, ok := toolNamed(r.clauses[i].span, cat); ok && old.Name != t.Name {
						return []Fact{{Subject: SubjectProject, Predicate: categoryPredicate()[cat], Object: t.Name, Replaces: old.Name, shownObject: t.Display}}
					}
				}
			}
		}
	}
	if f := r.elidedNever(c); f != nil {
		return f
	}
	if f := r.narrative(c); f != nil {
		return f
	}
	if f, handled := matchConditionalGuideline(c); handled {
		return f
	}
	if changeVerb().MatchString(c.text) {
		// "we bumped node to 22 today": the time says when it changed, not
		// that it is passing
		c.text = changeTime().ReplaceAllString(c.text, "")
	}
	if rejectReason(c) != "" {
		return nil
	}
	c.text = cutAside(stripTrailing(c.text))
	if strings.HasPrefix(c.text, "i am ") || strings.HasPrefix(c.text, "i have ") || strings.Contains(c.text, "pronouns") {
		if f := trait(c); f != nil {
			return f
		}
	}
	if strings.HasPrefix(c.text, "i am ") && strings.Contains(c.text, " so ") {
		if f := clockPlace(c); f != nil {
			return f
		}
	}
	if strings.Contains(c.text, " to ") || strings.Contains(c.text, " by ") || strings.Contains(c.text, " from ") {
		if f := reviewer(c); f != nil {
			return f
		}
	}
	for _, m := range matchers {
		if f := m(c); len(f) > 0 {
			return dropStates(f)
		}
	}
	if f := r.elided(c); f != nil {
		return f
	}
	if strings.Contains(c.text, "mine") {
		if f := r.mine(c); f != nil {
			return f
		}
	}
	if strings.Contains(c.text, ".") && strings.ContainsAny(c.text, "0123456789") {
		if f := r.bareVersion(c); f != nil {
			return f
		}
	}
	return r.correct(c)
}

// soItIs is a bare value said as what follows from the clause before:
// "so it's MST", "which makes it 10:30".
var soItIs = lazyRegexp(`^(?:so |which makes it |that makes it |meaning )?(?:it is|its|that is|that makes it|it will be) \S+(?: \S+)?$`)

// phaticDont is a prohibition without an object that asks how to take
// what was said, not how to work: "don't judge", "don't laugh", "don't
// worry", "don't hate me". "Don't ask" is one only after a statement
// ("builds are bazel. don't ask"); alone or after an instruction ("just
// do it, don't ask") it forbids asking.
var phaticDont = lazyRegexp(`^(?:but |and |so |pls |please )?(?:do not|never|no need to) (judge|judge me|laugh|worry|panic|freak out|hate me|blame me|quote me|kill me|shoot me|shoot the messenger|cry|be mad|be angry|get mad|ask|ask why|ask me why)(?: (?:for|about) (?:it|this|that))?(?: lol| haha)?$`)

// statedFact says whether the text so far stated a fact (not a rule).
func (r *reading) statedFact() bool {
	for _, f := range r.facts {
		if f.Kind == KindFact {
			return true
		}
	}
	return false
}

// notAlone is a clause that only says what something is not: "not
// ESLint".
var notAlone = lazyRegexp(`^not ((?:[a-z0-9][a-z0-9.+#-]*)(?: [a-z0-9][a-z0-9.+#-]*)?)(?: anymore)?$`)

// otherParty opens a clause about a team, company or project that is not
// the speaker's.
var otherParty = lazyRegexp(`^(?:the|our|my|a|an)\s+(?:other|another|old|previous|former|sister|partner|client|client's|parent|neighbou?ring)\s+(?:[a-z]+\s+)?(?:team|teams|company|org|project|projects|repo|app|service|startup|job|employer)\b`)

// neverElsewhere: "…, never in the repo" after "we keep secrets in Vault".
var neverElsewhere = lazyRegexp(`^(?:but |and )?(?:never|not) (in|on|at|with|to|into|from|via|for|inside|under|by|through|using|over|outside) (.+)$`)

// keptIn: where a kind of thing is kept, "all secrets live in doppler".
var keptIn = lazyRegexp(`^(?:(?:all |our |the )?((?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+) (?:live|lives|are kept|is kept|are stored|is stored|go|goes|belong|belongs|sit|sits|stay|stays)|we (?:always )?(?:keep|store|put) (?:all |our )?((?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+)) (?:in|on|inside|under) `)

// elidedNever reads a prohibition that leaves out the verb and object of
// the instruction just before it: "We keep secrets in Vault, never in the
// repo" forbids keeping secrets in the repo.
func (r *reading) elidedNever(c *clause) []Fact {
	m := neverElsewhere().FindStringSubmatch(c.text)
	if m == nil || len(r.facts) == 0 {
		return nil
	}
	last := r.facts[len(r.facts)-1]
	if last.Kind == KindFact && len(r.clauses) > 0 {
		// "all secrets live in doppler, never in .env files": where a
		// kind of thing is kept, then where it must never be
		if k := keptIn().FindStringSubmatch(r.clauses[len(r.clauses)-1].text); k != nil && !badStart()[firstWord(k[1]+k[2])] {
			if g, ok := instruction("keep "+k[1]+k[2]+" "+m[1]+" "+m[2], true, "should not"); ok {
				return []Fact{g.fact("", "", c.span)}
			}
		}
		return nil
	}
	if last.Kind != KindGuideline || last.Predicate != "should" {
		return nil
	}
	i := strings.LastIndex(last.Object, " "+m[1]+" ")
	if i <= 0 {
		// "we always run migrations through the makefile, never by hand":
		// the same act, with its last adjunct said otherwise
		i = lastAdjunct(last.Object)
	}
	if i <= 0 {
		return nil
	}
	obj := last.Object[:i]
	if rest, ok := strings.CutPrefix(obj, "ensure "); ok {
		obj = "let " + rest // "secrets go in env vars, never in the code": never let them go there
	}
	g, ok := instruction(obj+" "+m[1]+" "+m[2], true, "should not")
	if !ok {
		return nil
	}
	return []Fact{g.fact("", "", c.span)}
}

// lastAdjunct is where the last prepositional phrase of an instruction's
// object begins ("run migrations| through the makefile"), or -1.
func lastAdjunct(obj string) int {
	ws := strings.Fields(obj)
	for j := len(ws) - 1; j >= 2; j-- {
		switch ws[j] {
		case "in", "on", "at", "with", "via", "through", "using", "by", "from", "into", "to", "inside", "under":
			return strings.Index(obj, " "+strings.Join(ws[j:], " "))
		}
	}
	return -1
}

// judgedWrong drops what a clause judged wrong by the next one said:
// "I think I told you we use GitLab CI — that's wrong, it's Drone" is
// Drone replacing GitLab CI, not both.
func (r *reading) judgedWrong() {
	drop := map[int]bool{}
	for i := 1; i < len(r.clauses); i++ {
		cl, prev := r.clauses[i], r.clauses[i-1]
		if !wrongJudged().MatchString(cl.span) || prev.to <= prev.from || prev.to > len(r.facts) {
			continue
		}
		for j := prev.from; j < prev.to; j++ {
			old := r.facts[j]
			if old.Kind != KindFact || old.Negated {
				continue
			}
			for k := cl.from; k < cl.to && k < len(r.facts); k++ {
				if f := &r.facts[k]; f.Kind == KindFact && f.Subject == old.Subject && f.Predicate == old.Predicate && f.Object != old.Object {
					drop[j] = true
					if f.Replaces == "" {
						f.Replaces = old.Object
						f.Statement = render(*f)
					}
				}
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	out := r.facts[:0]
	for i, f := range r.facts {
		if !drop[i] {
			out = append(out, f)
		}
	}
	r.facts = out
}

// wrongJudged opens a clause that judges the one before it wrong.
var wrongJudged = lazyRegexp(`(?i)^(?:that(?:'s| is| was) (?:wrong|not right|not correct|incorrect|a mistake|a typo|outdated)|scratch that|ignore that|forget that|disregard that|not true)\b`)

// goneAfter folds an end said after the new value into it: "we're on
// GitLab CI now, Jenkins is gone" is GitLab CI replacing Jenkins, one
// statement, not a second one about Jenkins.
func (r *reading) goneAfter() {
	out := r.facts[:0]
	for i, f := range r.facts {
		if f.Kind == KindFact && f.Negated && f.Replaces == "" {
			folded := false
			for j := i - 1; j >= 0; j-- {
				p := &r.facts[j]
				if p.Kind == KindFact && !p.Negated && p.Subject == f.Subject && p.Predicate == f.Predicate && p.Replaces == "" && p.Object != f.Object {
					p.Replaces = f.Object
					p.Statement = render(*p)
					folded = true
					break
				}
			}
			if folded {
				continue
			}
		}
		out = append(out, f)
	}
	r.facts = out
}

// oldValueClause: "Splunk was before", "Deezer was my previous job".
var oldValueClause = lazyRegexp(`^([a-z0-9.+#&' -]+?) (?:was|used to be) (?:before|earlier|previously|the old one|my (?:old|last|previous|former) (?:one|job|employer|company|place|city|editor|manager|team))$`)

// replacedIt: "date-fns replaced it", "ruff has replaced them".
var replacedIt = lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) (?:has |have |just |finally )?(?:replaced|took over from|superseded|succeeded) (?:it|them|that|that one)(?: now| for us| here)?(?: (?:last|this) [a-z]+| yesterday| today| recently| a while ago)?$`)

// knownTool says whether a word names a tool ("Heroku is gone" is no
// person leaving).
func knownTool(w string) bool {
	_, ok := lookupTool(strings.ToLower(w))
	return ok
}

// elided reads a change stated without its subject: "Moved to Lisbon!",
// "switched to pnpm yesterday", "Upgraded node from 18 to 20".
func (r *reading) elided(c *clause) []Fact {
	if !elidedChange().MatchString(c.text) {
		return nil
	}
	for _, subject := range []string{"i ", "we "} {
		if subject == "i " && !strings.Contains(c.text, "moved") && !strings.Contains(c.text, "relocated") && !strings.HasPrefix(c.text, "joined ") && !strings.HasPrefix(c.text, "started ") {
			continue
		}
		sub := *c
		sub.text = subject + c.text
		for _, m := range []matcher{matchIdentity, matchVersionChange, matchChange, matchSlot} {
			if f := m(&sub); len(f) > 0 && (subject == "we " || f[0].Predicate == "lives_in" || f[0].Predicate == "works_at") {
				return f // "Moved the whole codebase over to TypeScript" is the team's move
			}
		}
	}
	return nil
}

// narrative reads third-person statements, with "she" and "he" standing
// for the last person named in the text.
func (r *reading) narrative(c *clause) []Fact {
	f := matchNarrative(c)
	if f == nil && r.person != "" {
		if rest, ok := cutPronoun(c.span); ok {
			sub := *c
			sub.span = upperWords(r.person) + " " + rest
			if rest, ok := strings.CutPrefix(rest, "'s "); ok {
				// "she's in São Paulo": only where a person is, and only a
				// city ("he's in a meeting", "he's in Engineering" are not)
				sub.span = upperWords(r.person) + " is " + rest
			} else {
				f = matchNarrative(&sub)
			}
			if m := personThereRe().FindStringSubmatch(strings.TrimRight(sub.span, ".!")); f == nil && m != nil && cityLike(m[2]) {
				f = []Fact{{Subject: r.person, Predicate: "lives_in", Object: strings.ToLower(m[2]), shownSubject: m[1], shownObject: m[2]}}
			}
		}
	}
	for _, x := range f {
		if x.Subject != SubjectUser && x.Subject != SubjectProject && !strings.Contains(x.Subject, " ") {
			r.person = x.Subject
		}
	}
	return f
}

func cutPronoun(span string) (string, bool) {
	for _, p := range []string{"She's ", "He's ", "she's ", "he's "} {
		if rest, ok := strings.CutPrefix(span, p); ok {
			return "'s " + rest, true // "she's in São Paulo"
		}
	}
	for _, p := range []string{"She ", "He ", "she ", "he "} {
		if rest, ok := strings.CutPrefix(span, p); ok {
			return rest, true
		}
	}
	return "", false
}

var (
	// leftRe: "Tom left", "Dana left the company", "Kim moved teams".
	leftRe = lazyRegexp(`^([a-z][a-z'-]+) (?:left|quit|has left|just left|is gone|retired|moved teams|moved on|moved to (?:another|a different|a new|the other) (?:team|org|organi[sz]ation|department|group|division|company|project|squad|unit|role)|changed teams|switched teams|changed roles|was let go|stepped down|(?:went|is|is out|has gone) on (?:[a-z]+ )?(?:leave|sabbatical))\b`)
	// jobNewsRe: "new job!", "changed jobs", "I switched companies".
	jobNewsRe = lazyRegexp(`\b(?:new job|new role|changed jobs|switched jobs|changed companies|switched companies|job change|started a new job|handed in my (?:badge|notice|laptop)|gave (?:my )?notice|last day at)\b|^i (?:quit|left) (?:my job at )?[a-z]`)
	// elidedChange opens a change whose subject went unsaid.
	elidedChange = lazyRegexp(`^(?:just |finally |recently |officially )?(?:renamed|moved|relocated|switched|migrated|upgraded|bumped|downgraded|changed|transitioned|ditched|dropped|dumped|swapped|replaced|went|joined|started|ripped out) `)
	// changeEnd: "… now", "… these days" end a statement of what holds
	// since a change.
	// heldSince is a value said to hold since a time, or for a while:
	// "been using Helix full time since spring", "vitest has been our
	// runner since the vite move". Said where the slot held another
	// value, it is a change without a word of change.
	heldSince = lazyRegexp(`\bbeen\b.*\b(?:since|for (?:a |an |about |almost |over |nearly |the (?:last|past) |a few |a couple |several |some |\d+ |one |two |three |four |five |six |months|weeks|years|ages|a while))`)
	changeEnd = lazyRegexp(`\s(?:now|these days|nowadays|as of [a-z]+|anymore|from now on)$`)
	// changeVerb marks a clause that states a change; time words in it say
	// when it happened.
	changeVerb = lazyRegexp(`\b(?:switched|moved|migrated|upgraded|downgraded|bumped|replaced|renamed|changed|relocated|joined|started|left|dropped|ditched|transitioned|ripped|swapped|traded|retired)\b`)
	changeTime = lazyRegexp(`\s+(?:today|yesterday|this (?:morning|afternoon|week|weekend|month|sprint|summer|spring|autumn|fall|winter|year|quarter)|last (?:night|week|weekend|month|sprint|year|quarter|summer|spring|autumn|fall|winter|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|over the (?:weekend|holidays|summer)|just now|earlier today|(?:(?:about|around|like|roughly|almost|nearly|over|maybe) )?(?:a|an|one|two|three|a few|\d+) (?:days?|weeks?|months?|years?) (?:ago|back)|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b`)
	// asideTail ends a clause where an aside with its own verb begins:
	// "we're a yarn shop, have been for years", "…, nothing fancy".
	asideTail = lazyRegexp(`\s+(?:from|starting|as of) (?:tomorrow|today|now on|next (?:week|month|sprint|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$|\s+since (?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|today|last \w+|this \w+|\d{4}|january|february|march|april|may|june|july|august|september|october|november|december)$|\s*,?\s+(?:(?:about|around|like|roughly|maybe|almost|nearly|over) )?(?:(?:a few |many |some |two |three |\d+ )?(?:years|months|weeks|days)|(?:a|an|one) (?:year|month|week|day)|ages|a while|a long time|long) ago\b.*$|\s*,\s*(?:by the way|btw|fyi|just so you know|for context|for reference|all green|if (?:that|it) (?:matters|helps))$|\s*,\s*(?:have been|has been|been that way|for years|as always|like always|as usual|nothing fancy|no surprise|of course|obviously|still|so far|which|works great|loving it|love it|much better|way better|finally)\b.*$|\s*,\s*[a-z0-9./_-]+ (?:was|is|got|has been) (?:retired|gone|dropped|removed|deprecated|history|the old one|before)\b.*$`)
)

func cutAside(t string) string { return asideTail().ReplaceAllString(t, "") }

// finish fills what every fact carries: kind, exclusivity, flags, support
// and reliability, span, action, the old value a correction or change
// leaves unnamed, and the statement rendered from the triple.
func (r *reading) finish(f Fact, c *clause) Fact {
	if f.Kind == "" {
		f.Kind = KindFact
	}
	f.Exclusive = IsExclusive(f.Predicate)
	if f.Kind == KindFact && f.Subject == SubjectProject && personalPredicate(f.Predicate) &&
		!teamWords().MatchString(strings.ToLower(c.span)) {
		f.Subject = SubjectUser // "my editor: emacs", "just switched to helix"
	}
	f.Correction = f.Correction || c.correction
	f.Action = ActionNew
	f.Span = c.span
	f.Support = 1
	switch {
	case f.Reliability != 0:
		// set by the matcher ("we used to use X")
	case c.hedged:
		f.Support, f.Reliability = 0.6, 0.6
	case f.Correction:
		f.Reliability = 0.95
	default:
		f.Reliability = 0.9
	}
	if f.Kind == KindFact && f.Correction && !f.Negated {
		r.adoptSlot(&f)
	}
	if f.Kind == KindFact && !f.Negated {
		r.takeGivenUpSlot(&f)
	}
	if f.Kind == KindFact && f.Replaces == "" && !f.Negated {
		f.Replaces = r.oldValue(f, c)
	}
	if f.Replaces == f.Object {
		f.Replaces = ""
	}
	if f.Kind == KindGuideline && strings.HasPrefix(f.Predicate, "should_not") && f.detail == "" {
		f.detail = r.alternativeTo(f.Object)
	}
	f.Statement = render(f)
	return f
}

// adoptSlot moves a corrected tool to the slot of the value it corrects:
// after "we deploy to AWS", "no, we're on Azure" is where the project
// deploys, though "on Azure" alone reads as its cloud.
func (r *reading) adoptSlot(f *Fact) {
	t, ok := lookupTool(f.Object)
	if !ok {
		return
	}
	for _, cand := range r.candidates() {
		if !cand.near {
			break
		}
		old, ok := lookupTool(cand.Object)
		if !ok || cand.Predicate == f.Predicate || old.Name == t.Name || !fillsSlot(t, cand.Predicate) || !fillsSlot(old, cand.Predicate) {
			continue
		}
		if slotSubject(cand.Subject) == slotSubject(f.Subject) {
			f.Predicate, f.Replaces = cand.Predicate, cand.Object
			return
		}
	}
}

// slotSubject folds the person and the project together for tool slots,
// as the consolidator does: "I use" and "we use" fill one slot.
func slotSubject(s string) string {
	if s == SubjectUser {
		return SubjectProject
	}
	return s
}

// oldValue is the value a correction or change replaces when it does not
// name it: the same slot's value stated earlier in the text or the
// conversation, or a person said to have left.
func (r *reading) oldValue(f Fact, c *clause) string {
	if f.Predicate == "manager_is" && len(r.gone) > 0 {
		return r.gone[len(r.gone)-1]
	}
	if f.Correction && r.said != "" && r.said != f.Object && r.topic != "" {
		return r.said // "my name is not Jon, it's John"
	}
	if f.Exclusive {
		// "we dropped prettier, dprint formats everything now": the value
		// this text just gave up is the one the new one replaces
		for i := len(r.facts) - 1; i >= 0; i-- {
			g := r.facts[i]
			if g.Kind == KindFact && g.Negated && g.Predicate == f.Predicate && slotSubject(g.Subject) == slotSubject(f.Subject) && g.Object != f.Object {
				return g.Object
			}
		}
	}
	// a change said without its old value ("I switched to zed", "we're
	// on postgres as of saturday") replaces the slot's value in play
	if !f.Correction && !(f.Exclusive && (c.change || changeVerb().MatchString(c.text) || changeEnd().MatchString(strings.ToLower(strings.TrimRight(c.span, ".!? "))) ||
		heldSince().MatchString(strings.ToLower(c.span)))) {
		return ""
	}
	for _, cand := range r.candidates() {
		if slotSubject(cand.Subject) == slotSubject(f.Subject) && cand.Predicate == f.Predicate && !cand.Negated && cand.Object != f.Object {
			return cand.Object // "I use" and "we use" fill one slot
		}
	}
	return ""
}

// alternativeTo is what a prohibition's sentence adds when the text named
// the tool to use instead: "we use pnpm, never npm" is "Never use npm; use
// pnpm".
func (r *reading) alternativeTo(object string) string {
	banned, ok := strings.CutPrefix(object, "use ")
	if !ok {
		return ""
	}
	t, ok := lookupTool(banned)
	if !ok {
		return ""
	}
	for i := len(r.facts) - 1; i >= 0; i-- {
		f := r.facts[i]
		obj := f.Object
		if f.Kind == KindGuideline {
			if f.Negated || strings.HasPrefix(f.Predicate, "should_not") {
				continue
			}
			obj, _ = strings.CutPrefix(f.Object, "use ")
		} else if f.Negated {
			continue
		}
		if other, ok := lookupTool(obj); ok && other.Name != t.Name && shareCategory(t, other) {
			return "; use " + other.Display
		}
	}
	return ""
}

func shareCategory(a, b *tool) bool {
	for _, c := range a.Categories {
		for _, d := range b.Categories {
			if c == d {
				return true
			}
		}
	}
	return false
}

// rewordings are the second readings of a clause that yielded nothing
// (rewrite.go), none while a slot spoken of over two clauses is pending.
func (r *reading) rewordings(rc rawClause, c *clause) []clause {
	if r.topic != "" || r.said != "" || len(strings.Fields(rc.text)) > 18 {
		return nil // the shapes reworded are short; a long clause costs regexps for nothing
	}
	if m := itIsRe().FindStringSubmatch(c.text); m != nil && len(r.facts) > 0 {
		// "we dumped mysql, it's postgres now": the value given up is
		// what the new one replaces
		last := r.facts[len(r.facts)-1]
		old, ok1 := lookupTool(last.Object)
		v := strings.TrimSuffix(strings.TrimPrefix(m[1], "all "), " now")
		t, ok2 := lookupTool(v)
		if last.Kind == KindFact && last.Negated && ok1 && ok2 && shareCategory(old, t) {
			rw := *c
			rw.text = "we use " + v
			return []clause{rw}
		}
	}
	if rw, ok := r.pronounSlot(c); ok {
		return []clause{rw}
	}
	if rw, ok := answerTool(c); ok {
		return []clause{rw}
	}
	if rw, ok := slotMoved(rc, c); ok {
		return []clause{rw}
	}
	if rw, ok := kindOverKind(rc, c); ok {
		return []clause{rw}
	}
	if head, tail, ok := strings.Cut(c.span, ", "); ok {
		// "I got that wrong, it's pnpm", "Tom was my old manager, now it's
		// Sam": a clause that only sets up a correction, and its value
		h := analyze(rawClause{text: head})
		if m := wasOldRe().FindStringSubmatch(h.text); m != nil && capitalized(head, m[1]) {
			r.gone = append(r.gone, m[1])
			r.topic = m[2] + " " + m[3]
			t := analyze(rawClause{text: tail})
			t.correction = true
			return []clause{t}
		}
		if h.text == "" && h.correction {
			t := analyze(rawClause{text: tail})
			t.correction = true
			return []clause{t}
		}
	}
	if m := bareBump().FindStringSubmatch(c.text); m != nil {
		// "we upgraded to 3.12 last sprint" after "we're on Python 3.9":
		// the version of the language in play changed
		for _, cand := range r.candidates() {
			if lang, ok := strings.CutSuffix(cand.Predicate, "_version_is"); ok && cand.Object != m[1] {
				rw := analyze(rawClause{text: "we upgraded " + lang + " to " + m[1]})
				rw.span, rw.change = c.span, true
				return []clause{rw}
			}
		}
	}
	if m := versionNow().FindStringSubmatch(strings.ToLower(c.span)); m != nil {
		// "it's 1.22 now" after "we're on Go 1.21"
		for _, cand := range r.candidates() {
			if lang, ok := strings.CutSuffix(cand.Predicate, "_version_is"); ok && cand.Object != m[1] {
				rw := analyze(rawClause{text: "our " + lang + " version is " + m[1]})
				rw.span, rw.correction = c.span, true
				return []clause{rw}
			}
		}
	}
	if m := prodRunsOn().FindStringSubmatch(c.text); m != nil {
		// "prod runs on k8s": where production runs is where the project
		// deploys, for a known platform
		if t, ok := lookupTool(m[1]); ok && fillsSlot(t, "deploys_with") {
			rw := analyze(rawClause{text: "we deploy to " + m[1]})
			rw.span, rw.question, rw.directive = c.span, c.question, c.directive
			return []clause{rw}
		}
	}
	if m := toolHere().FindStringSubmatch(c.text); m != nil {
		// "Python 3.9 for this project", "node 20 here": a tool and its
		// version said of the repository is what it is on
		if _, ok := lookupTool(m[1]); ok {
			rw := analyze(rawClause{text: "we are on " + m[1] + " " + m[2]})
			rw.span, rw.question = c.span, c.question
			return []clause{rw}
		}
	}
	if m := toolFromNow().FindStringSubmatch(c.text); m != nil {
		// "Node 22 from now on, 18 is EOL", "pnpm going forward": a tool
		// named without a verb, with the particle of a change, is what is
		// used from then on
		if _, ok := lookupTool(m[1]); ok {
			rw := analyze(rawClause{text: "we use " + m[1] + m[2]})
			rw.span, rw.change, rw.question = c.span, true, c.question
			if m[3] != "" {
				rw.text += " instead of " + m[3]
			}
			return []clause{rw}
		}
	}
	if m := bareToolNow().FindStringSubmatch(c.span); m != nil {
		// "biome these days" after "we use prettier": the slot's new value
		if t, ok := lookupTool(strings.ToLower(m[1])); ok {
			for _, cand := range r.candidates() {
				if old, ok := lookupTool(cand.Object); ok && old.Name != t.Name && shareCategory(old, t) && fillsSlot(t, cand.Predicate) {
					rw := analyze(rawClause{text: "we use " + m[1]})
					rw.span, rw.correction = c.span, true
					return []clause{rw}
				}
			}
		}
	}
	return rewordAll(rc)
}

// stateWords say how something is, not what it is: "the tz database is
// outdated", "db is down" name no database.
var stateWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`down up outdated broken slow fast red green flaky fine ok okay empty full huge
		old new stale dead gone missing failing passing stuck busy offline online weird wrong better worse`) {
		m[w] = true
	}
	return m
})

// dropStates removes tool facts whose object is a state ("Project uses
// outdated as its database"); what is left may be nothing.
func dropStates(fs []Fact) []Fact {
	out := fs[:0]
	for _, f := range fs {
		if f.Kind == KindFact && strings.HasPrefix(f.Predicate, "uses") && stateWords()[f.Object] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// bareBump: a version change that leaves the language unsaid, "we
// upgraded to 3.12 last sprint", "bumped to 22".
var bareBump = lazyRegexp(`^(?:we |i )?(?:just |finally )?(?:upgraded|bumped|updated|moved|went|migrated|jumped)(?: up)?(?: (?:the|our|this) (?:project|repo|repository|app|service|codebase))? to v?(\d+(?:\.\d+)*)\b`)

// versionNow: "it's 1.22 now", "1.22 these days".
var versionNow = lazyRegexp(`^(?:it(?:'s| is) |we(?:'re| are) on )?(?:actually )?v?(\d+(?:\.\d+)*),? (?:now|these days|nowadays|actually)$`)

// segmentSep cuts a clause into the statements set side by side in it: a
// comma, a parenthesis or a dash between two of them ("fix the flaky
// test (CI is Woodpecker, config in .woodpecker.yml)", "finally got off
// Heroku, everything's on Railway since last week").
var segmentSep = lazyRegexp(`\s*[,()\[\]]\s*|\s+[—–]\s+|\s+-\s+`)

// segments is the third reading of a clause that gave nothing as a whole
// and in other words: each statement set beside another in it is read on
// its own, so a fact said in passing inside a request, an aside or a list
// of remarks is not lost because the sentence around it says nothing.
// Only facts are kept: a rule needs the whole sentence, whose other parts
// may limit it ("for this one function, don't add logging"). A clause the
// filters reject as a whole (a question, a condition, reported speech)
// gives nothing, so no part of it can.
func (r *reading) segments(rc rawClause, c clause) ([]Fact, clause, bool) {
	if c.question || r.topic != "" || r.said != "" || !strings.ContainsAny(rc.text, ",()[]—–-") {
		return nil, c, false
	}
	whole := analyze(rc)
	if whole.question || whole.hedged || rejectReason(&whole) != "" || saidAnywhere().MatchString(whole.text) {
		return nil, c, false
	}
	parts := segmentSep().Split(rc.text, -1)
	if len(parts) < 2 || len(parts) > 8 {
		return nil, c, false
	}
	if fs := toolList(parts); len(fs) > 0 && !r.asked(rc.text) {
		return fs, c, true
	}
	for i, p := range parts {
		if len(strings.Fields(p)) < 2 {
			continue
		}
		saved := *r
		sub := analyze(rawClause{text: p})
		if sub.hedged {
			return nil, c, false
		}
		sub.correction = sub.correction || c.correction
		sub.change = sub.change || c.change
		fs := onlyFacts(r.extractClause(&sub))
		if len(fs) == 0 {
			*r = saved
			for _, rw := range r.rewordings(rawClause{text: p}, &sub) {
				rw.correction = rw.correction || c.correction
				if fs = onlyFacts(r.extractClause(&rw)); len(fs) > 0 {
					sub = rw
					break
				}
				*r = saved
			}
		}
		if len(fs) > 0 {
			sub.span = strings.TrimSpace(p)
			return append(fs, moreOfStack(parts[i+1:], fs)...), sub, true
		}
		*r = saved
	}
	return nil, c, false
}

// saidAnywhere: a sentence that reports what was said ("I think I told
// you we use GitLab CI") is about the words, not the project.
var saidAnywhere = lazyRegexp(`\bi (?:said|wrote|typed|told you|mentioned)\b`)

// onlyFacts keeps the facts of fs, or nothing if any is a guideline (a
// part that reads as a rule is no aside).
func onlyFacts(fs []Fact) []Fact {
	for _, f := range fs {
		if f.Kind == KindGuideline || strings.HasPrefix(f.Predicate, "should") {
			return nil
		}
	}
	return fs
}

var (
	// pronounSlotRe: "It's my main editor", "that's our database": the
	// slot of a thing named just before.
	pronounSlotRe = lazyRegexp(`^(?:it|that|this|which) (?:is|was) (?:also |still |now |basically |actually )?(my|our) (?:main |primary |default |daily |go-to |favou?rite |preferred |usual |current )?((?:[a-z/-]+ ){0,2}[a-z/-]+)$`)
	// answerToolRe: "it's cockroachdb", "it's all postgres since the
	// migration": a bare tool given as what something is.
	// itOnPort: "it's on 3001 now".
	itOnPort = lazyRegexp(`^(?:it is|its|it runs|now it is) (?:now )?(?:on|at) (?:port |:)?(\d{2,5})(?: now)?$`)
	// toolEverywhere: "pnpm everywhere now", "uv all the way".
	toolEverywhere = lazyRegexp(`^([a-z0-9][a-z0-9.+# -]*?) (?:everywhere|all the way|across the board|for everything)(?: now| these days)?$`)
	answerToolRe   = lazyRegexp(`^(?:it is|that is|its) (?:all |just |only |basically |mostly |now |still )?([a-z0-9][a-z0-9.+# -]*?)(?: (?:now|these days|nowadays|here|for us|everywhere|all the way))?(?: since .+| for (?:a while|years|months|ages))?$`)
)

// pronounSlot reads "It's my main editor" after "… splitting panes in
// Helix?": the pronoun stands for the last tool the text named, if the
// slot is of that tool's kind.
func (r *reading) pronounSlot(c *clause) (clause, bool) {
	m := pronounSlotRe().FindStringSubmatch(c.text)
	if m == nil || len(r.clauses) == 0 {
		return clause{}, false
	}
	cat, _, known := slotOf(m[2])
	if !known || cat == "" {
		return clause{}, false
	}
	for i := len(r.clauses) - 1; i >= 0 && i >= len(r.clauses)-2; i-- {
		if t, ok := toolNamed(r.clauses[i].span, cat); ok {
			rw := *c
			rw.text = t.Name + " is " + m[1] + " " + m[2]
			return rw, true
		}
	}
	return clause{}, false
}

// toolNamed finds the last tool of a category a span names.
func toolNamed(span, cat string) (*tool, bool) {
	ws := strings.Fields(strings.ToLower(span))
	if len(ws) > 40 {
		ws = ws[len(ws)-40:]
	}
	for i := len(ws) - 1; i >= 0; i-- {
		for n := min(3, len(ws)-i); n >= 1; n-- {
			if t, ok := lookupTool(strings.Trim(strings.Join(ws[i:i+n], " "), ",.;:!?()\"'`")); ok && slices.Contains(t.Categories, cat) {
				return t, true
			}
		}
	}
	return nil, false
}

// answerTool reads a bare tool given as what something is ("what's wrong
// with this query? it's cockroachdb", "mysql is out, it's all postgres
// since the migration"): the tool fills its own slot, the person's for a
// personal tool, else the project's.
func answerTool(c *clause) (clause, bool) {
	if m := itOnPort().FindStringSubmatch(c.text); m != nil {
		rw := *c
		rw.text = "the app runs on port " + m[1] // "the api doesn't run on 8080 anymore, it's on 3001"
		return rw, true
	}
	m := answerToolRe().FindStringSubmatch(offeredTail().ReplaceAllString(c.text, ""))
	if m == nil && strings.Count(c.text, " ") <= 2 && strings.Count(c.span, " ") <= 6 {
		m = toolEverywhere().FindStringSubmatch(strings.Trim(lowerNormalize(c.span), " .!")) // "no more yarn — pnpm everywhere now"
	}
	if m == nil {
		return clause{}, false
	}
	t, ok := lookupTool(strings.TrimSpace(m[1]))
	if !ok {
		return clause{}, false
	}
	rw := *c
	rw.text = "we use " + m[1]
	if personalCategory()[t.Categories[0]] {
		rw.text = "i use " + m[1]
	}
	return rw, true
}

var (
	// slotMovedBy, slotMovedOf: a tool slot changed from one value to
	// another, "We migrated state management from Redux to Zustand",
	// "styling moved from Sass to Tailwind last quarter".
	slotMovedBy = lazyRegexp(`(?i)^(?:we\s+)?(?:have\s+|just\s+|finally\s+)?(?:migrated|moved|switched|changed|ported)\s+(?:our\s+|the\s+)?([a-z][a-z ]*?)\s+from\s+([\w.+#-]+(?:\s[\w.+#-]+)?)\s+(?:to|over\s+to|onto)\s+([\w.+#-]+(?:\s[A-Z][\w.+#-]+)?)(?:\s+(?:last|this|in|on|since)\b.*|\s*,?\s+(?:as of|effective|starting)\b.*)?$`)
	slotMovedOf = lazyRegexp(`(?i)^(?:our\s+|the\s+)?([a-z][a-z ]*?)\s+(?:has\s+)?(?:moved|migrated|switched|changed|went)\s+from\s+([\w.+#-]+(?:\s[\w.+#-]+)?)\s+(?:to|over\s+to|onto)\s+([\w.+#-]+(?:\s[A-Z][\w.+#-]+)?)(?:\s+(?:last|this|in|on|since)\b.*|\s*,?\s+(?:as of|effective|starting)\b.*)?$`)
)

// slotMoved reads a tool slot said to have moved from one tool to
// another; "we moved the helper from utils.go to strings.go" names no
// slot and says nothing.
func slotMoved(rc rawClause, c *clause) (clause, bool) {
	text := rc.text
	if strings.Contains(text, " out of ") {
		text = outOfInto().ReplaceAllString(text, "$1 ${2}from $3 to ") // "moved secrets out of .env files into 1Password"
	}
	m := slotMovedBy().FindStringSubmatch(text)
	if m == nil {
		m = slotMovedOf().FindStringSubmatch(text)
	}
	if m == nil {
		return clause{}, false
	}
	noun := strings.ToLower(strings.TrimSpace(m[1]))
	cat, _, known := slotOf(noun)
	if !known || cat == "" {
		return clause{}, false
	}
	if t, ok := lookupTool(strings.ToLower(m[3])); !ok || !slices.Contains(t.Categories, cat) {
		return clause{}, false
	}
	rw := analyze(rawClause{text: "our " + noun + " is " + m[3] + " instead of " + m[2]})
	rw.span, rw.change = c.span, true
	return rw, true
}

// asRole is a role given for a job just named: "starting monday as a
// data engineer".
var asRole = lazyRegexp(`(?i)^(?:starting\s+(?:\w+\s+)?|from\s+\w+\s+)?as\s+(?:a|an|the)\s+([a-z][a-z -]*[a-z])$`)

// ownSubject opens a statement about the speaker or the project, not
// about someone else's.
var ownSubject = lazyRegexp(`(?i)^\s*(?:(?:and|but|so|now|then|plus)\s+)?(?:we|i|i'm|we're|our|my|it|its|it's|everything|everything's|all|this|these|(?:now\s+|currently\s+)?(?:living|based|working|running|deploying|using)|the\s+(?:project|repo|app|api|service|backend|frontend|codebase|data|database|db|ci|build|builds|deploys?|tests?|server|site|stack))\b`)

// laterSegments reads the statements set after the first in a clause that
// already gave facts, when a comma or dash sets them apart without a
// joining word the splitter knows: "mongo is gone, all the data lives in
// postgres now". A part adds only facts of slots the clause's own facts
// do not hold, so a part that restates or qualifies them adds nothing.
func (r *reading) laterSegments(rc rawClause, c clause, found []Fact) []Fact {
	if c.question || r.topic != "" || r.said != "" || !strings.ContainsAny(rc.text, ",()—–-") {
		return nil
	}
	parts := segmentSep().Split(rc.text, -1)
	if len(parts) < 2 || len(parts) > 6 {
		return nil
	}
	held := map[string]bool{}
	rule := false
	for _, f := range found {
		held[f.Subject+"|"+f.Predicate] = !f.Negated // what is gone leaves its slot to a new value
		if f.Predicate == "works_at" {
			r.jobNews = true // "I don't work at Acme anymore, I'm at Globex", "took a job at Spotify, … as a data engineer"
		}
		if f.Kind == KindGuideline || strings.HasPrefix(f.Predicate, "should") {
			rule = true // a rule's parts qualify it
		}
	}
	var out []Fact
	if !rule {
		out = append(out, moreOfStack(parts[1:], found)...)
	}
	for _, p := range parts[1:] {
		if rule && valueForKind().MatchString(strings.TrimSpace(lowerNormalize(p))) {
			// "snake_case for python, camelCase for js": the same shape
			// of rule again, for another kind
			sub := analyze(rawClause{text: p})
			out = append(out, matchConvention(&sub)...)
			continue
		}
		if rule && !personalPart().MatchString(p) {
			continue // "…, I'm on windows at work" after a rule is a statement of its own
		}
		if m := asRole().FindStringSubmatch(p); m != nil && r.jobNews {
			p = "I am a " + m[1] // "took a job at Spotify, starting monday as a data engineer"
		}
		if len(strings.Fields(p)) < 3 || !ownSubject().MatchString(p) {
			continue // "we use Jest, the other team deploys to Heroku": theirs
		}
		sub := analyze(rawClause{text: p})
		if sub.question || sub.hedged || sub.text == "" {
			continue
		}
		saved := *r
		fs := onlyFacts(r.extractClause(&sub))
		if len(fs) == 0 {
			if rw, ok := answerTool(&sub); ok {
				fs = onlyFacts(r.extractClause(&rw)) // "…, it's Nomad"
			}
		}
		*r = saved
		for _, f := range fs {
			if !held[f.Subject+"|"+f.Predicate] {
				held[f.Subject+"|"+f.Predicate] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// personalPart opens a part that states the speaker's own situation.
var personalPart = lazyRegexp(`(?i)^\s*(?:i'm|i am|i work|i live|i use|my )\b`)

var (
	// oneInstance limits what is asked to one thing or one time: "for
	// this one function, don't add logging", "just this once".
	oneInstance = lazyRegexp(`(?i)\b(?:for|in|on) (?:this|that) (?:one |particular |specific |single )?(?:function|file|method|class|pr|pull request|change|commit|test|module|component|endpoint|script|case|bug|task|ticket|snippet|line|query|call|loop)\b|\b(?:just |only )?this (?:once|time)\b|\bfor now\b|\bjust for (?:this|now|today)\b|\bfor the moment\b`)
	// retraction takes back what the text said before it: "hmm, never
	// mind, just run it", "forget it".
	retraction = lazyRegexp(`(?i)\b(?:never ?mind|forget (?:it|that|what i said)|scratch that|ignore (?:that|what i said|me)|disregard (?:that|what i said))\b`)
	// negatedBefore ends the words before a retraction with a negation.
	negatedBefore = lazyRegexp(`(?i)\b(?:don't|dont|do not|never|not|must not|shouldn't|should not)\s+$`)
	// hereSpot is "here" at the end of a request: at this spot in the code.
	hereSpot = lazyRegexp(`(?i)\bhere\b\s*(?:[,;:(-]|$)`)
)

// limitRules drops the rules a text limits to one occasion: one scoped to
// a single thing or time ("for this one function, don't add logging"),
// taken back later ("please always double-check... hmm, never mind"), or
// asked of this spot in the code without a word that makes it standing
// ("use a set instead of a list here, lookups are O(1)").
func (r *reading) limitRules(text string) {
	retracted := -1
	if loc := retraction().FindStringIndex(text); loc != nil && !negatedBefore().MatchString(text[:loc[0]]) {
		// "don't forget that part" keeps what it points at: a negated
		// "forget that" is no retraction
		retracted = loc[0]
	}
	limited := oneInstance().MatchString(text)
	out := r.facts[:0]
	for _, f := range r.facts {
		if f.Kind == KindGuideline {
			if limited {
				continue
			}
			if retracted >= 0 && f.Span != "" && strings.Index(text, f.Span) >= 0 && strings.Index(text, f.Span) < retracted {
				continue
			}
			ask, _, _ := strings.Cut(f.Span, ",")
			if hereSpot().MatchString(ask) && !standingWord().MatchString(f.Span) && f.Predicate == "should" &&
				startsWithVerb(strings.TrimPrefix(strings.ToLower(f.Span), "please ")) && !declared(f) {
				continue
			}
		}
		out = append(out, f)
	}
	r.facts = out
}

// declared says whether a guideline was read from a statement of how
// things are done ("commit messages follow conventional commits here"),
// not from a request: its object is "ensure" and a subject, which the
// span does not open with. Its "here" is where the house's rules hold,
// not a spot in the code.
func declared(f Fact) bool {
	return strings.HasPrefix(f.Object, "ensure ") && !strings.HasPrefix(strings.ToLower(f.Span), "ensure")
}

// standingWord makes a request a habit wherever it sits.
var standingWord = lazyRegexp(`(?i)\b(?:always|never|every|each|all|any|from now on|going forward|in future|in the future|by default|whenever|make sure|remember|don't|do not|avoid|prefer|stop|no)\b`)

// asked says whether the sentence a clause comes from ends in a
// question: "Postgres, MySQL, or SQLite — which would you pick?" names
// choices, not a stack.
func (r *reading) asked(clauseText string) bool {
	i := strings.Index(r.text, clauseText)
	if i < 0 {
		return strings.Contains(r.text, "?")
	}
	rest := r.text[i+len(clauseText):]
	if j := strings.IndexAny(rest, ".!\n"); j >= 0 {
		rest = rest[:j]
	}
	return strings.Contains(rest, "?")
}

// answerCue opens an answer: "Yes, Postgres."
var answerCue = map[string]bool{"yes": true, "yep": true, "yeah": true, "yup": true, "sure": true, "correct": true, "right": true, "exactly": true}

// toolList reads a list of bare tools as what the project (or, for a
// personal tool, the person) uses: "Context: monorepo, pnpm workspaces,
// turborepo", "We're a small team (3 devs), Rails monolith, Postgres,
// Sidekiq", or one tool given as an answer ("Yes, Postgres."). A single
// tool named in passing is no list.
// moreOfStack reads the bare tools listed after a statement of the
// project's stack: "it's a Flask app, Python 3.10, SQLAlchemy 1.4" goes
// on listing it.
func moreOfStack(parts []string, found []Fact) []Fact {
	if !namesStack(found) {
		return nil
	}
	bare := []string{"yes"} // listed, as an answer is: one tool is enough
	for _, p := range parts {
		w := strings.Trim(strings.ToLower(p), " .!;")
		if _, ok := lookupTool(w); ok || bareVersioned(w) {
			bare = append(bare, p)
		}
	}
	if len(bare) == 1 {
		return nil
	}
	var out []Fact
	for _, f := range toolList(bare) {
		if !slices.ContainsFunc(found, func(g Fact) bool { return g.Object == f.Object }) {
			out = append(out, f) // "not ansible, terraform" named it already
		}
	}
	return out
}

// namesStack says whether found holds a tool of the project's stack.
func namesStack(found []Fact) bool {
	for _, f := range found {
		if _, ok := lookupTool(f.Object); ok && f.Subject == SubjectProject && f.Kind != KindGuideline && !f.Negated {
			return true
		}
	}
	return false
}

// bareVersioned is a tool with its version and nothing else: "python 3.10".
func bareVersioned(w string) bool {
	ws := strings.Fields(w)
	if len(ws) != 2 || !versionLike().MatchString(ws[1]) {
		return false
	}
	_, ok := lookupTool(ws[0])
	return ok
}

func toolList(parts []string) []Fact {
	var tools []*tool
	answer := false
	for i, p := range parts {
		w := strings.Trim(strings.ToLower(p), " .!:;")
		if _, rest, ok := strings.Cut(w, ":"); ok {
			w = strings.TrimSpace(rest) // "context: monorepo"
		}
		if strings.HasPrefix(w, "or ") || strings.Contains(w, " or ") || strings.Contains(w, " vs") {
			return nil // a choice, not a list of what is used
		}
		if i == 0 && answerCue[w] {
			answer = true
			continue
		}
		if w == "" {
			continue
		}
		if t, ok := lookupTool(w); ok {
			tools = append(tools, t)
			continue
		}
		ws := strings.Fields(w)
		if len(ws) == 2 && (listQualifier[ws[1]] || versionLike().MatchString(ws[1])) {
			if t, ok := lookupTool(ws[0]); ok {
				tools = append(tools, t) // "Rails monolith", "pnpm workspaces", "Postgres 16"
			}
		}
	}
	if len(tools) < 2 && !(answer && len(tools) == 1) {
		return nil
	}
	var out []Fact
	for _, t := range tools {
		pred := categoryPredicate()[t.Categories[0]]
		if pred == "" {
			continue
		}
		subject := SubjectProject
		if personalCategory()[t.Categories[0]] {
			subject = SubjectUser
		}
		out = append(out, Fact{Subject: subject, Predicate: pred, Object: t.Name, shownObject: t.Display})
	}
	return out
}

// listQualifier follows a tool in a list without changing what it is.
var listQualifier = map[string]bool{"monolith": true, "workspaces": true, "app": true, "backend": true, "frontend": true,
	"api": true, "stack": true, "setup": true, "cluster": true, "db": true, "database": true, "monorepo": true, "everywhere": true}

// clauseObject: a fact whose object holds a clause of its own ("yaml,
// every config language is better") read too far.
func clauseObject(f Fact) bool {
	return f.Kind != KindGuideline && !strings.HasPrefix(f.Predicate, "should") && (strings.Contains(f.Object, " is ") || strings.HasPrefix(f.Object, "is "))
}

// allClauses says whether every fact found reads a clause as its object.
func allClauses(fs []Fact) bool {
	for _, f := range fs {
		if !clauseObject(f) {
			return false
		}
	}
	return true
}

// apposition is a slot noun with its value in parentheses or between
// commas: "the CI (GitHub Actions) keeps timing out", "our database,
// Postgres 16, is slow".
// relativeAside: "CI (which is now GitHub Actions, not Travis)", "our
// database, which is Postgres,".
var relativeAside = lazyRegexp(`(?i)\b([a-z]+(?:\s[a-z]+)?)\s*[(,]\s*which\s+(?:is|are)\s+(?:now\s+|currently\s+|still\s+)?([^(),.;?]{2,40}?)(?:,\s*not\s+([^(),.;?]{2,30}?))?\s*(?:[),.;]|$)`)

// relativeHow: "the service, which is written in Elixir, …".
var relativeHow = lazyRegexp(`(?i)\b(?:the|our|this)\s+([a-z]+(?:\s[a-z]+)?)\s*[(,]\s*which\s+(?:is|are|was)\s+(written in|built (?:with|on|in)|running on|hosted on|deployed (?:to|on))\s+([a-z0-9.+#-]+(?:\s[a-z0-9.+#-]+)??)\s*[),]`)

var apposition = lazyRegexp(`(?i)\b(?:the|our|my)\s+([a-z]+(?:\s[a-z]+)?)\s+\(([^()]{2,40})\)`)

// kinNamed is a person or a pet of the speaker's named in apposition:
// "my partner Noor is a nurse", "my manager Lin wants it by friday".
var kinNamed = lazyRegexp(`\b[Mm]y (wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|son|daughter|brother|sister|mom|mum|dad|mother|father|manager|boss|dog|cat|puppy|kitten|roommate|flatmate|cofounder|co-founder) ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b`)

// asked is the end of a question's opening before "my …": "is my
// manager Anna or Hannah?", "did my cat Mochi …".
var asked = lazyRegexp(`(?:^|\s)(?:is|was|are|were|does|did|do|has|have|can|could|will|would)\s+$`)

// calendarWord is a day or a month, capitalised without being a name.
var calendarWord = lazyRegexp(`^(?:` + weekdayRe + `|` + monthRe + `|today|tomorrow|tonight)$`)

// soZone is a time zone in capitals said as what follows from the
// clause before: "I'm in Brisbane, so AEST", "…, so UTC+2 for me".
var soZone = lazyRegexp(`(?:^|[,;]\s*|\s)so\s+([A-Z]{1,4}T|UTC\s*[+-]\s*\d{1,2}(?::?\d\d)?|GMT\s*[+-]\s*\d{1,2})(?:\s+for\s+me)?(?:[,.;!]|\s*$)`)

// asides are the statements a text makes inside another, read as
// clauses of their own even when the sentence around them asks or
// requests something: "the CI (GitHub Actions) keeps timing out, can you
// look?" says the CI is GitHub Actions.
func asides(text string) []rawClause {
	var out []rawClause
	if strings.Contains(strings.ToLower(text), "which ") {
		for _, m := range relativeAside().FindAllStringSubmatch(text, 4) {
			// "the tests fail on CI (which is now GitHub Actions, not
			// Travis)": a relative clause states the slot's value
			if _, _, known := slotOf(strings.ToLower(m[1])); !known {
				continue
			}
			if _, ok := lookupTool(strings.ToLower(strings.TrimSpace(m[2]))); !ok {
				continue
			}
			c := "our " + m[1] + " is " + strings.TrimSpace(m[2])
			if m[3] != "" {
				c += ", not " + strings.TrimSpace(m[3])
			}
			out = append(out, rawClause{text: c})
		}
	}
	if strings.Contains(strings.ToLower(text), "which ") {
		for _, m := range relativeHow().FindAllStringSubmatch(text, 4) {
			// "the service, which is written in Elixir, keeps crashing": a
			// relative clause says what the project's part is made with,
			// beside what the sentence asks about it
			if _, ok := lookupTool(strings.ToLower(m[3])); ok {
				out = append(out, rawClause{text: "the " + m[1] + " is " + m[2] + " " + m[3]})
			}
		}
	}
	if strings.Contains(text, "my ") || strings.Contains(text, "My ") {
		for _, loc := range kinNamed().FindAllStringSubmatchIndex(text, 3) {
			// "my partner Noor is a nurse": the name said beside the kin;
			// "is my manager Anna or Hannah?" asks
			kin, name := text[loc[2]:loc[3]], text[loc[4]:loc[5]]
			before, after := strings.ToLower(text[:loc[0]]), strings.ToLower(text[loc[1]:])
			if asked().MatchString(before) || strings.HasPrefix(after, " or ") {
				continue
			}
			if w := strings.ToLower(name); !ordinaryWord(w) && !knownTool(w) && !calendarWord().MatchString(w) {
				out = append(out, rawClause{text: "my " + strings.ToLower(kin) + " is " + name})
			}
		}
	}
	if strings.Contains(text, "so ") {
		for _, m := range soZone().FindAllStringSubmatch(text, 2) {
			// "I'm in Brisbane, so AEST, no daylight saving": the zone
			// that follows from the place, said in passing
			out = append(out, rawClause{text: "my timezone is " + m[1]})
		}
	}
	if !strings.Contains(text, "(") {
		return out
	}
	for _, m := range apposition().FindAllStringSubmatchIndex(text, 4) {
		if end := strings.IndexAny(text[m[1]:], ".!?\n"); end >= 0 && text[m[1]+end] == '?' {
			continue // "Is the CI (GitHub Actions) free for private repos?" asks
		}
		m := []string{text[m[0]:m[1]], text[m[2]:m[3]], text[m[4]:m[5]]}
		if _, _, known := slotOf(strings.ToLower(m[1])); !known {
			continue
		}
		if _, ok := lookupTool(strings.ToLower(strings.TrimSpace(m[2]))); !ok {
			continue
		}
		out = append(out, rawClause{text: "our " + m[1] + " is " + strings.TrimSpace(m[2])})
	}
	return out
}

// reasonRe is a reason given as a statement about the speaker's setup:
// "Base image should be node:20-alpine since we're on Node 20".
var reasonRe = lazyRegexp(`(?i)\b(?:since|because|as|cause|cuz)\s+((?:we|i)(?:'re|'m|\s+are|\s+am|\s+use|\s+run|\s+deploy|\s+work)\b[^,;]*)`)

// reasonFacts reads the facts a clause gives as its reason, beside what
// the clause itself asks or states.
func (r *reading) reasonFacts(rc rawClause, found []Fact) []Fact {
	if !containsAny(strings.ToLower(rc.text), "since ", "because ", "as ", "cause ", "cuz ") {
		return nil
	}
	m := reasonRe().FindStringSubmatch(rc.text)
	if m == nil {
		return nil
	}
	sub := analyze(rawClause{text: m[1]})
	if sub.hedged || sub.question || rejectReason(&sub) != "" {
		return nil
	}
	if whole := analyze(rc); whole.question || whole.hedged || rejectReason(&whole) != "" && rejectReason(&whole) != "transient" {
		return nil // "if we switched, since we use Docker, …" supposes
	}
	saved := *r
	fs := onlyFacts(r.extractClause(&sub))
	*r = saved
	var out []Fact
	for _, f := range fs {
		dup := false
		for _, g := range found {
			if g.Subject == f.Subject && g.Predicate == f.Predicate {
				dup = true
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}

var (
	// durationTail says how long a value has held: "Porto for two years".
	durationTail2 = lazyRegexp(`\s+(?:for|since)\s+(?:about\s+|almost\s+|over\s+|nearly\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple(?:\s+of)?|several|many|\d+)\s+(?:years?|months?|weeks?|days?)(?:\s+now)?$|\s+(?:for|since)\s+(?:ages|a\s+while|forever|\d{4})(?:\s+now)?$`)
	// namedPrefix: "called trunk", "named Rex".
	namedPrefix = lazyRegexp(`^(?:called|named)\s+`)
	// orgPlace: "Klarna in Stockholm": where the employer is.
	orgPlace = lazyRegexp(`^(\S+(?:\s\S+)?)\s+in\s+[a-z][a-z .'-]*$`)
)

// trimValue cuts from a fact's object the words that only qualify it:
// how long it has held ("Porto for two years"), what it is called ("called
// trunk"), and where an employer is ("Klarna in Stockholm").
func trimValue(f Fact, span string) Fact {
	o := f.Object
	if loc := durationTail2().FindStringIndex(o); loc != nil && loc[0] > 0 {
		o = o[:loc[0]]
	}
	o = namedPrefix().ReplaceAllString(o, "")
	o = strings.TrimSuffix(o, " only") // "we deploy on Fridays only"
	if loc := spellingTail().FindStringIndex(o); loc != nil && loc[0] > 0 && capitalized(span, firstWord(o)) {
		o = o[:loc[0]] // "Sophie with a ph": how the name is spelled, not part of it
	}
	if f.Predicate == "works_at" {
		if m := orgPlace().FindStringSubmatch(o); m != nil {
			o = m[1]
		}
	}
	if o != f.Object && o != "" {
		f.Object = o
		f.shownObject = display(span, o)
	}
	return f
}

// spellingTail says how a name just given is spelled: "with a ph", "with
// an h", "with two ls", "with a y not an i".
var spellingTail = lazyRegexp(`,?\s+(?:spel(?:led|t) )?with (?:a |an |one |two |double )?(?:[a-z]|ph|th|ck|ll|ss|nn|tt|[a-z]s|accent|umlaut|hyphen|apostrophe|capital [a-z])(?: at the end| on the [a-z]| not (?:a |an )?[a-z]{1,2})?$`)

// kindOver is one way of working set above another, without a verb:
// "Explanations before code", "Composition over inheritance".
var kindOver = lazyRegexp(`(?i)^([a-z][a-z-]*(?:\s[a-z][a-z-]*){0,2})\s+(before|over|rather\s+than|instead\s+of)\s+([a-z][a-z-]*(?:\s[a-z][a-z-]*){0,2})$`)

// kindOverKind reads a bare "X over Y" as a preference when both sides
// are kinds of work or of code (an artifact, a practice or an abstract
// noun): "readability over cleverness", but not "coffee before noon" or
// "quick context before we start".
func kindOverKind(rc rawClause, c *clause) (clause, bool) {
	m := kindOver().FindStringSubmatch(strings.TrimRight(strings.TrimSpace(rc.text), ".!"))
	if m == nil || !workKind(m[1]) || !workKind(m[3]) {
		return clause{}, false
	}
	rw := analyze(rawClause{text: "prefer " + m[1] + " " + m[2] + " " + m[3]})
	rw.span = c.span
	return rw, true
}

// workKind says whether a short noun phrase names a kind of work or of
// code, without a determiner or a pronoun.
func workKind(np string) bool {
	ws := strings.Fields(strings.ToLower(np))
	for _, w := range ws {
		if determiner().MatchString(w) || w == "a" || w == "an" || w == "we" || w == "i" || w == "you" {
			return false
		}
	}
	last := ws[len(ws)-1]
	if artifacts()[last] || artifacts()[strings.TrimSuffix(last, "s")] || practices()[last] {
		return true
	}
	if _, tool := lookupTool(strings.Join(ws, " ")); tool {
		return true
	}
	for _, suf := range []string{"ion", "ity", "ness", "ism", "ance", "ence", "ment", "ing"} {
		if strings.HasSuffix(last, suf) && len(last) > len(suf)+3 {
			return true
		}
	}
	return last == "explanations" || last == "examples" || last == "code"
}

// verdictWords judge a value rather than give one.
var verdictWords = map[string]bool{"tight": true, "close": true, "soon": true, "near": true, "looming": true,
	"approaching": true, "unclear": true, "tbd": true, "unknown": true, "flexible": true, "fine": true, "ok": true,
	"okay": true, "great": true, "good": true, "bad": true, "terrible": true, "awful": true, "weird": true,
	"annoying": true, "a mess": true, "messy": true, "huge": true, "tiny": true, "important": true}

// themWord finds "them" in a rule's object.
var themWord = lazyRegexp(`\bthem\b`)

// pronounRules resolves "them" in a rule from the things the text named
// before it: "the shared fixtures are in testkit/golden …, never edit
// them by hand" forbids editing the shared fixtures by hand. A rule whose
// "them" names nothing the text said ("never edit them by hand" alone)
// points at the conversation, and is dropped: "Never edit them by hand"
// means nothing in MEMORY.md.
func (r *reading) pronounRules() {
	for i := range r.facts {
		f := &r.facts[i]
		if f.Kind != KindGuideline || !strings.Contains(f.Object, "them") || !themWord().MatchString(innerReference(f.Object)) {
			continue
		}
		things := ""
		for j := i - 1; j >= 0 && things == ""; j-- {
			if p := r.facts[j]; p.Kind == KindFact && p.Subject != SubjectUser && p.Subject != SubjectProject &&
				!strings.Contains(p.Subject, "'") && pluralNoun(p.Subject) {
				things = p.Subject
			}
		}
		if things == "" {
			f.retracted = true
			continue
		}
		f.Object = themWord().ReplaceAllString(f.Object, "the "+things)
		f.shownObject = ""
		f.Statement = render(*f)
	}
}

var (
	// partRule: a rule on one part of something, named with "the" and
	// nothing else: "always write the down step".
	partRule = lazyRegexp(`^(?:write|add|include|fill in) the ((?:[a-z-]+ ){0,2}[a-z-]+)$`)
	// kindOfRule: the kind a rule is about, "every migration".
	kindOfRule = lazyRegexp(`\b(?:every|each) ([a-z-]+)\b`)
)

// partOfKind names the kind a rule on "the" part of something is about,
// from the rule before it in the same text: "every migration must be
// reversible, always write the down step" is "Always write the down step
// for every migration", where "Always write the down step" alone names
// no migration.
func (r *reading) partOfKind() {
	for i := 1; i < len(r.facts); i++ {
		f := &r.facts[i]
		if f.Kind != KindGuideline || f.Predicate != "should" || f.detail != "" {
			continue
		}
		m := partRule().FindStringSubmatch(f.Object)
		if m == nil {
			continue
		}
		if _, tool := lookupTool(m[1]); tool {
			continue // "always run the linter" names a tool, no part
		}
		p := r.facts[i-1]
		if p.Kind != KindGuideline {
			continue
		}
		k := kindOfRule().FindStringSubmatch(p.Object)
		if k == nil || !artifacts()[k[1]] && !artifacts()[k[1]+"s"] {
			continue
		}
		f.Object += " for every " + k[1]
		f.shownObject = display(r.text, f.Object)
		f.Statement = render(*f)
	}
}

var (
	// complainedKind: the kind of thing a complaint about the assistant's
	// habit names, "why do you always write such long docstrings".
	complainedKind = lazyRegexp(`\byou (?:always|keep|constantly|still) [a-z]+(?: me)? (?:such |so many |these |those |all these |all those )?(?:(?:long|short|big|huge|verbose|tiny|vague|generic|useless|pointless|pointless|giant|many|weird|ugly|messy|cryptic) )?((?:[a-z-]+ )?[a-z-]+s)\b`)
	// taskThing: the one thing a task is about, "can you refactor the
	// parser".
	taskThing = lazyRegexp(`^(?:can you |could you |please |pls )?(?:refactor|rewrite|write|build|create|add|fix|update|clean up|split|extract) (the [a-z0-9_-]+(?: [a-z0-9_-]+)?)$`)
	// pronounObject: "keep them short", "keep it dependency-free".
	pronounObject = lazyRegexp(`^((?:always |never |do not |please )?[a-z]+) (them|it) (.+)$`)
)

// withAntecedent reads a rule whose "them" or "it" names what the clause
// before it was about: "why do you always write such long docstrings?
// keep them short" asks to keep docstrings short; "can you refactor the
// parser; keep it dependency-free, that's a hard rule" to keep the parser
// so.
func (r *reading) withAntecedent(c clause) (clause, bool) {
	m := pronounObject().FindStringSubmatch(c.text)
	if m == nil {
		return clause{}, false
	}
	prev := r.clauses[len(r.clauses)-1].text
	thing := ""
	if k := complainedKind().FindStringSubmatch(prev); k != nil && m[2] == "them" && !troubleNouns()[k[1]] {
		thing = k[1]
	} else if k := taskThing().FindStringSubmatch(prev); k != nil && m[2] == "it" {
		thing = k[1]
	}
	if thing == "" {
		return clause{}, false
	}
	c.text = m[1] + " " + thing + " " + m[3]
	return c, true
}
