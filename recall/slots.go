package recall

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// A prompt that asks about a slot ("Where do I live these days?") or
// needs one ("add lodash" needs the package manager) gets the slot's
// current belief first, whatever words it shares with the statement
// (relations.Needs reads the prompt), and what it is told about the slot
// is the current truth: an episode or belief whose value a later one
// replaced is left out, or, when the prompt asks about the past, shown
// with what replaced it.

// needBoost lifts the current belief of a needed slot above every belief
// the prompt only resembles (their scores are at most 1).
const needBoost = 1

// maxClaimEpisodes bounds the episodes read for the claims they state.
const maxClaimEpisodes = 12

// slotKey names one slot as a prompt from one project sees it.
type slotKey struct{ subject, predicate string }

// claim is one value an episode states for an exclusive slot, and the
// value it says it replaced, if any.
type claim struct {
	slot     slotKey
	object   string
	replaces string
	// open marks a claim of a slot that holds many values at once (the
	// project's ports, the person's meetings): no value of it replaces
	// another, only a correction does (replacedOpen).
	open bool
}

// needCandidates returns the current beliefs of the slots the prompt
// needs: for an exclusive relation the strongest member of the slot (its
// group normalized, contested groups flagged as everywhere else), for the
// others the two most confident, each scored above any resemblance.
func (s *search) needCandidates(ctx context.Context, p belief.Params, turn int64) ([]*beliefCandidate, error) {
	var out []*beliefCandidate
	for _, n := range s.needs {
		asked := n.Relation.Predicate
		members, err := s.slotMembers(ctx, n.Relation.Predicate, n.Subjects)
		if err != nil {
			return nil, err
		}
		if fb, ok := relations.ByPredicate(n.Relation.Fallback); ok && len(members) == 0 {
			// No timezone known: where they live says it. No preferred
			// language known: the languages the person writes say it
			// (only the person's, not the project's).
			if members, err = s.slotMembers(ctx, fb.Predicate, fallbackSubjects(fb, n.Subjects)); err != nil {
				return nil, err
			}
			n.Relation = fb
		}
		if len(members) == 0 {
			if members, err = s.habitElsewhere(ctx, n); err != nil {
				return nil, err
			}
		}
		if fw, ok := relations.ByPredicate("uses_framework"); ok && len(members) == 0 && frameworkBundled[asked] {
			// A model, a migration or a schema in a Rails, Django, Laravel
			// or Phoenix app is the framework's own: with no ORM known, the
			// framework says how it is written.
			if members, err = s.slotMembers(ctx, fw.Predicate, fallbackSubjects(fw, n.Subjects)); err != nil {
				return nil, err
			}
			n.Relation = fw
		}
		groups := map[groupKey][]store.Belief{}
		var order []groupKey
		for _, m := range members {
			k := keyOf(m)
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], m)
		}
		for _, k := range order {
			g := groups[k]
			raw := make([]float64, len(g))
			for i, m := range g {
				raw[i] = m.Confidence(p, s.now, turn)
			}
			conf := raw
			if n.Relation.Exclusive && len(g) > 1 {
				conf = belief.Normalize(raw, p.Epsilon)
			}
			idx := make([]int, len(g))
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(a, b int) bool { return conf[idx[a]] > conf[idx[b]] })
			take := 2
			if n.Relation.Exclusive {
				take = 1
			}
			for _, i := range idx[:min(take, len(idx))] {
				c := &beliefCandidate{b: g[i], raw: raw[i], conf: conf[i], need: n.Relation.Predicate}
				c.strength = s.retrievalStrength(g[i], p)
				c.boost = needBoost + n.Score/10
				if n.Relation.Exclusive && len(g) > 1 && p.Contested(raw) {
					c.hit.Contested = true
					for j, m := range g {
						if j != i {
							c.hit.Rivals = append(c.hit.Rivals, Rival{ID: m.ID, Statement: m.Statement, Confidence: round3(conf[j])})
						}
					}
				}
				if c.conf < s.r.Opts.MinConfidence && !c.hit.Contested {
					continue
				}
				if n.Relation.Exclusive && !c.hit.Contested {
					if c.earlier, err = s.earlierValue(ctx, g[i]); err != nil {
						return nil, err
					}
				}
				out = append(out, c)
			}
		}
		guides, err := s.needGuidelines(ctx, n, p, turn)
		if err != nil {
			return nil, err
		}
		out = append(out, guides...)
	}
	return out, nil
}

// frameworkBundled are the relations whose work a full-stack framework
// does itself when no tool of their own is known.
var frameworkBundled = map[string]bool{"uses_orm": true, "uses_i18n": true}

// habitElsewhere returns, for a slot the query's project holds nothing
// of, what the person said they use in another project: "I always use
// pnpm, npm is way too slow for me", said in one repository, is how they
// set up the next one. Only the person's own (subject user), the most
// recently confirmed; a project's own tools stay in their project.
func (s *search) habitElsewhere(ctx context.Context, n relations.Need) ([]store.Belief, error) {
	if s.q.Project == "" || !s.q.AsOf.IsZero() || !slices.Contains(n.Subjects, extract.SubjectUser) {
		return nil, nil
	}
	all, err := s.r.DB.RecallSlot(ctx, n.Relation.Predicate, []string{extract.SubjectUser}, "")
	if err != nil || len(all) == 0 {
		return nil, err
	}
	said, err := s.newestSupport(ctx, all)
	if err != nil {
		return nil, err
	}
	var newest *store.Belief
	for i, b := range all {
		// "I use yarn in this repo" is the repository's; "I always use
		// pnpm" is the person's
		own := strings.ToLower(ownWords(said[b.ID].Content))
		if !habitWords().MatchString(own) || placeWords().MatchString(own) {
			continue
		}
		if newest == nil || b.UpdatedAt > newest.UpdatedAt {
			newest = &all[i]
		}
	}
	if newest == nil {
		return nil, nil
	}
	return []store.Belief{*newest}, nil
}

// newestSupport returns the newest message each of the beliefs rests on
// (store.DB.NewestSupport).
func (s *search) newestSupport(ctx context.Context, bs []store.Belief) (map[string]store.Support, error) {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ID
	}
	return s.r.DB.NewestSupport(ctx, ids)
}

// habitWords say a person's way of working wherever they are; placeWords
// tie what they say to the repository they say it in.
var (
	habitWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:always|usually|generally|normally|personally|every (?:project|repo|time)|all my|everything i|for me|i prefer|my go-to|by default|whenever i|anywhere|everywhere)\b`)
	})
	placeWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:here|this (?:repo|repository|project|codebase|one|service|app|package|module)|in this|we|our)\b`)
	})
)

// fallbackSubjects are the subjects a fallback relation is read for: the
// needed relation's subjects it can be said of, else its own.
func fallbackSubjects(fb relations.Relation, need []string) []string {
	var out []string
	for _, s := range need {
		if fb.Said(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return fb.Of
	}
	return out
}

// earlierValue returns the value a slot's current belief replaced, for the
// line that states it ("Project uses Bun as its package manager
// (earlier: pnpm)"): the most recently superseded member of its slot with
// another value, or "".
func (s *search) earlierValue(ctx context.Context, cur store.Belief) (string, error) {
	if !s.q.AsOf.IsZero() {
		return "", nil
	}
	old, err := s.r.DB.RecallSlot(ctx, cur.Predicate, []string{cur.Subject}, s.q.Project, belief.Superseded)
	if err != nil {
		return "", err
	}
	var last store.Belief
	for _, b := range old {
		if keyOf(b) == keyOf(cur) && normObject(b.Object) != normObject(cur.Object) && b.UpdatedAt >= last.UpdatedAt {
			last = b
		}
	}
	if last.Object == "" {
		return "", nil
	}
	if t, ok := relations.LookupTool(last.Object); ok {
		return t.Display, nil // a tool by its own spelling
	}
	return spelledAs(last.Object, last.Statement), nil
}

// spelledAs returns value as the statement writes it, when the statement
// holds it in another case: objects are stored lowercased ("kim"), the
// statement keeps the person's spelling ("User's manager is Kim").
func spelledAs(value, statement string) string {
	lower, v := strings.ToLower(statement), strings.ToLower(value)
	if len(lower) != len(statement) || len(v) != len(value) {
		return value // a case change altered the byte length; keep it as stored
	}
	if i := strings.Index(lower, v); i >= 0 && v != "" {
		return statement[i : i+len(value)]
	}
	return value
}

// displayObject names a value as a reader would: a tool by its own
// spelling, anything else as stored.
func displayObject(o string) string {
	if t, ok := relations.LookupTool(o); ok {
		return t.Display
	}
	return o
}

// searchBeliefRows reads the rows of the beliefs of the query's project
// whose text matches any of words, at most limit of them.
func (s *search) searchBeliefRows(ctx context.Context, words []string, limit int) ([]store.Belief, error) {
	search := beliefIDs
	if s.r.Cache != nil {
		search = func(ctx context.Context, db *store.DB, words, project string, limit int) ([]string, error) {
			return s.r.Cache.beliefSearch(ctx, db, words, project, limit)
		}
	}
	ids, err := search(ctx, s.r.DB, strings.Join(words, " "), s.q.Project, limit)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return s.r.DB.RecallBeliefs(ctx, ids)
}

// needGuidelines returns the guidelines that bear on a needed tool
// relation: those that name one of its tools ("Never use npm; use pnpm"
// for "install express"), scored just below the slot's own belief.
func (s *search) needGuidelines(ctx context.Context, n relations.Need, p belief.Params, turn int64) ([]*beliefCandidate, error) {
	if n.Relation.Category == "" || !s.q.AsOf.IsZero() {
		return nil, nil
	}
	names := relations.ToolNames(n.Relation.Category)
	bs, err := s.searchBeliefRows(ctx, names, maxNeedGuidelines*4)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	var out []*beliefCandidate
	for _, b := range bs {
		if b.Kind != belief.KindGuideline || b.Status != belief.Active || !s.visible(b.Scope, b.ProjectPath) || !namesAny(b.Statement, names) {
			continue
		}
		c := &beliefCandidate{b: b, raw: b.Confidence(p, s.now, turn), need: n.Relation.Predicate}
		c.conf = c.raw
		if c.conf < s.r.Opts.MinConfidence {
			continue
		}
		c.strength = s.retrievalStrength(b, p)
		c.boost = needBoost + n.Score/10 - 0.05
		out = append(out, c)
		if len(out) == maxNeedGuidelines {
			break
		}
	}
	return out, nil
}

// maxNeedGuidelines bounds the guidelines one needed relation brings.
const maxNeedGuidelines = 2

// namesAny reports whether text names one of the words as a whole word.
func namesAny(text string, words []string) bool {
	t := " " + strings.ToLower(strings.Map(func(r rune) rune {
		if r == ',' || r == ';' || r == '(' || r == ')' || r == '"' || r == '\'' {
			return ' '
		}
		return r
	}, text)) + " "
	for _, w := range words {
		if strings.Contains(t, " "+w+" ") || strings.Contains(t, " "+w+". ") {
			return true
		}
	}
	return false
}

// slotMembers returns the active beliefs of a slot visible to the query:
// as they are now, or as they were at Query.AsOf.
func (s *search) slotMembers(ctx context.Context, predicate string, subjects []string) ([]store.Belief, error) {
	if s.q.AsOf.IsZero() {
		return s.r.DB.RecallSlot(ctx, predicate, subjects, s.q.Project)
	}
	var out []store.Belief
	for _, b := range s.asOf {
		if b.Status == belief.Active && b.Predicate == predicate && slices.Contains(subjects, b.Subject) && s.visible(b.Scope, b.ProjectPath) {
			out = append(out, b)
		}
	}
	return out, nil
}

// claims reads the claims of facts an episode's own words state, the
// exclusive ones and the open ones: the person's side of an exchange, the
// whole of a prompt or a note.
func claims(text string) []claim {
	text = ownWords(text)
	if bareQuestion(text) {
		return nil // asks, states nothing; and the extractor's first call is costly
	}
	var out []claim
	for _, f := range extract.Extract(text) {
		if f.Kind != extract.KindFact || f.Negated {
			continue
		}
		out = append(out, claim{slotKey{f.Subject, f.Predicate}, normObject(f.Object), normObject(f.Replaces), !f.Exclusive})
	}
	return out
}

// ownWords returns the person's part of an exchange episode ("User: …
// \n\nAssistant: …"), or the whole text of any other.
func ownWords(text string) string {
	rest, ok := strings.CutPrefix(text, "User: ")
	if !ok {
		return text
	}
	user, _, _ := strings.Cut(rest, "\n\nAssistant: ")
	return user
}

func normObject(o string) string { return strings.ToLower(strings.TrimSpace(o)) }

// historyWords mark a prompt about the past ("what did we use before
// bun?"): there an earlier value is shown, marked, not left out.
var historyWords = []string{"before", "previously", "used to", "earlier", "originally", "formerly", "history", "old ", "last time", "prior", "changed", "switched"}

func asksAboutPast(q string) bool {
	q = " " + strings.ToLower(q) + " "
	for _, w := range historyWords {
		if strings.Contains(q, w) {
			return true
		}
	}
	return false
}

// settle makes what a recall found state the current truth of every
// exclusive slot it touches. The current value of a slot is, in order:
// the newest episode the consolidator has not read yet that states one (a
// fact told a minute ago outranks what the beliefs knew before it); else
// the slot's strongest active belief; else the newest episode that
// states one. An episode or belief stating another value is left out, or,
// when the prompt asks about the past, kept and marked with the current
// value. It returns the beliefs and episodes to show, episodes that state
// a needed slot's current value first.
func (s *search) settle(ctx context.Context, beliefs []BeliefHit, eps []EpisodeHit, states map[string]store.Belief) ([]BeliefHit, []EpisodeHit, error) {
	read := eps
	if len(read) > maxClaimEpisodes {
		read = read[:maxClaimEpisodes]
	}
	said := map[string][]claim{}
	type fresh struct {
		object string
		at     int64
		text   string
	}
	newestFresh := map[slotKey]fresh{}
	newestAny := map[slotKey]fresh{}
	for _, e := range read {
		for _, c := range s.claimsOf(e.ID, e.Text) {
			said[e.ID] = append(said[e.ID], c)
			at := e.CreatedAt.UnixMilli()
			if f, ok := newestAny[c.slot]; !ok || at > f.at {
				newestAny[c.slot] = fresh{c.object, at, e.Text}
			}
			if !e.consolidated {
				if f, ok := newestFresh[c.slot]; !ok || at > f.at {
					newestFresh[c.slot] = fresh{c.object, at, e.Text}
				}
			}
		}
	}
	ends, err := s.negations(ctx, beliefs, states)
	if err != nil {
		return nil, nil, err
	}
	// The slots' beliefs: those found, and the strongest of each slot an
	// episode speaks of (unless a newer denial ended its value).
	current := map[slotKey]string{}
	shown := map[slotKey]string{} // the current value as a reader sees it
	for slot := range newestAny {
		if f, ok := newestFresh[slot]; ok {
			current[slot], shown[slot] = f.object, f.object
			continue
		}
		top, err := s.strongest(ctx, slot)
		if err != nil {
			return nil, nil, err
		}
		if _, ended := endedBelief(ends, top); top.ID != "" && !ended {
			current[slot], shown[slot] = normObject(top.Object), top.Statement
			continue
		}
		current[slot], shown[slot] = newestAny[slot].object, newestAny[slot].object
	}
	past := asksAboutPast(s.q.Text)
	keptB := []BeliefHit{}
	for _, b := range beliefs {
		st := states[b.ID]
		slot := slotKey{st.Subject, st.Predicate}
		if f, ok := newestFresh[slot]; ok && relations.IsExclusive(st.Predicate) && normObject(st.Object) != f.object {
			if !past {
				continue
			}
			b.SupersededBy = f.object
		}
		if end, ok := endedBelief(ends, st); ok && b.SupersededBy == "" {
			if !past {
				continue // "Project no longer uses Jest" says it
			}
			b.SupersededBy = end.statement
		}
		keptB = append(keptB, b)
	}
	beliefStates := states
	corrected, err := s.replacedOpen(ctx, read)
	if err != nil {
		return nil, nil, err
	}
	var first, rest []EpisodeHit
	for _, e := range eps {
		stale, states := "", false
		if by := corrected[e.ID]; by != "" {
			// a corrected value of an open slot: the correction is no
			// slot's current value the context shows, so the message
			// stays, marked with it
			e.SupersededBy = by
		}
		for _, c := range said[e.ID] {
			if cur, ok := current[c.slot]; ok {
				if cur != c.object {
					stale = shown[c.slot]
				} else {
					states = true
				}
			}
			if end, ok := endedClaim(ends, c, e.CreatedAt.UnixMilli()); ok && stale == "" {
				stale, states = end.statement, false
			}
		}
		switch {
		case stale != "" && !past:
			continue
		case stale != "":
			e.SupersededBy = stale
		}
		if note := endNote(ends, e.ID); note != "" && e.Note == "" && e.SupersededBy == "" {
			e.Note = note
		}
		if note := s.shapeNote(e.Text); note != "" && e.Note == "" && e.SupersededBy == "" {
			e.Note = note
		}
		if e.Note == "" && e.SupersededBy == "" && stale == "" {
			e.Note = toolNote(e.Text, keptB, beliefStates)
		}
		if states && stale == "" && s.needsSlot(said[e.ID]) {
			// "We switched from pnpm to bun": say which is current.
			for _, c := range said[e.ID] {
				if c.replaces != "" && c.replaces != c.object {
					e.Note = "now: " + displayObject(c.object) + "; earlier: " + displayObject(c.replaces)
				}
			}
			first = append(first, e)
		} else {
			rest = append(rest, e)
		}
	}
	keptE := append(append([]EpisodeHit{}, first...), rest...)
	truths, err := s.slotTruths(ctx, keptB, states)
	if err != nil {
		return nil, nil, err
	}
	keptB, keptE = retireByBeliefs(truths, keptB, keptE, s.unshown, past)
	var replaced map[string]bool
	keptE, replaced = retireByTopicOf(s.q.Text, keptE, append(slices.Clone(s.unshown), s.beliefMessages(keptB, keptE)...), s.neededTools(), past)
	keptB = restsOnReplaced(keptB, s.support, replaced)
	keptB = movedOn(keptB, states, s.support, past)
	return s.withSaid(s.doubtCorrected(doubtEnded(keptB, keptE, states, s.support)), keptE), keptE, nil
}

// ownStatement reports whether a message (one that does not only ask)
// states what the person or the project has, naming name: not someone
// else's tools, a page about one, or a plan, and with "we", "our", "I",
// "my", "this repo" or "the" before the name.
func ownStatement(text, name string) bool {
	own := ownWords(text)
	if othersOrPlans().MatchString(strings.ToLower(own)) {
		return false
	}
	padded := " " + wordText(own) + " "
	return ownMarker().MatchString(padded) || strings.Contains(padded, " the "+name+" ") ||
		elidedSubject().MatchString(strings.TrimSpace(padded))
}

// elidedSubject opens a message that leaves out its "I" or "we", as
// people do in chat: "been using Helix full time since spring", "loving
// bun so far", "using zed these days".
var elidedSubject = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:honestly|tbh|lately|so|ok|okay|anyway|fwiw|btw) )*(?:(?:have |ve )?been (?:using|on|running|living in|working in|working with|coding in|writing)|using|started using|loving|enjoying|finally on|all in on)\b`)
})

// othersOrPlans are the words of a message about someone else's tools, a
// page about one, or a plan ("we could try vitest"): not what the person
// now uses. A request ("could you look?") is no plan.
var othersOrPlans = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:coworkers?|co-workers?|colleagues?|friends?|someone|somebody|people|he|she|they|his|her|their|docs|documentation|guide|tutorial|blog|article|wants? to|thinking (?:about|of)|considering|should we|might|maybe|(?:we|i) (?:would|could)|we'd|i'd|if we|next (?:quarter|year|month|week|sprint))\b`)
})

// ownMarker says a message speaks of the person's or the project's own.
var ownMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:we|we're|we've|our|ours|us|i|i'm|i've|my|mine|here|repo|codebase|project)\b`)
})

// restsOnReplaced marks a shown belief whose newest message a newer one
// replaced (retireByTopic): "Always write the docs in American English"
// rests on "write the docs in American English", which "actually, switch
// to British English for the docs" replaced, so the rule may be out of
// date though the extractor read no new rule from the correction.
func restsOnReplaced(beliefs []BeliefHit, support map[string]store.Support, replaced map[string]bool) []BeliefHit {
	if len(replaced) == 0 {
		return beliefs
	}
	out := slices.Clone(beliefs)
	for i, b := range out {
		sup, ok := support[b.ID]
		if !ok || b.SupersededBy != "" || b.Earlier != "" {
			continue
		}
		if replaced[sup.EpisodeID] {
			out[i].Doubted = true
		}
	}
	return out
}

// movedOn hands a slot that holds several values at once (ports, linters,
// environments: not exclusive, so the consolidator supersedes none) from
// an older shown belief to a newer one of the same slot whose message names
// the older value with words of change: "starting this week the api listens
// on 8090, 8080 clashed with the proxy" ends "listens on port 8080". The
// older is left out, or marked replaced when the prompt asks about the past.
func movedOn(beliefs []BeliefHit, states map[string]store.Belief, support map[string]store.Support, past bool) []BeliefHit {
	if len(beliefs) < 2 {
		return beliefs
	}
	ended := map[string]string{} // older belief → the newer statement
	for _, nb := range beliefs {
		n, ok := states[nb.ID]
		sup, said := support[nb.ID]
		if !ok || !said || sup.Content == "" {
			continue
		}
		if r, ok := relations.ByPredicate(n.Predicate); !ok || r.Exclusive {
			continue
		}
		own := ownWords(sup.Content)
		if !changeCue().MatchString(own) {
			continue
		}
		padded := " " + wordText(own) + " "
		strong := strongChange().MatchString(own)
		for _, ob := range beliefs {
			o, ok := states[ob.ID]
			older := o.CreatedAt < n.CreatedAt
			osup, osaid := support[ob.ID]
			if osaid {
				older = osup.At < sup.At
			}
			if !ok || ob.ID == nb.ID || o.Subject != n.Subject || o.Predicate != n.Predicate ||
				!older || strings.EqualFold(o.Object, n.Object) {
				continue
			}
			// the newer message names the older value, or, with a strong
			// word of change, the same thing the older one was said of:
			// "the frontend dev server runs on port 3000", then "we moved
			// the frontend to vite, so it's on 5173 now"
			if mentions(padded, o.Object) || strong && osaid && sameThing(own, ownWords(osup.Content), n.Predicate, o.Object, n.Object) {
				ended[ob.ID] = nb.Statement
			}
		}
	}
	if len(ended) == 0 {
		return beliefs
	}
	var out []BeliefHit
	for _, b := range beliefs {
		now, ok := ended[b.ID]
		switch {
		case !ok:
			out = append(out, b)
		case past:
			b.SupersededBy = now
			out = append(out, b)
		}
	}
	return out
}

// sameThing reports whether two messages that give a slot two values
// speak of the same thing: they share a search term that is neither value
// nor a word of the slot's relation ("frontend" in "the frontend dev
// server runs on port 3000" and "we moved the frontend to vite, so it's on
// 5173 now", not "port" or "runs").
func sameThing(newer, older, predicate string, values ...string) bool {
	skip := map[string]bool{}
	for _, v := range values {
		for _, t := range queryTerms(v) {
			skip[t] = true
		}
	}
	if r, ok := relations.ByPredicate(predicate); ok {
		for _, list := range [][]string{r.Nouns, r.Cues, r.Weak} {
			for _, p := range list {
				for _, t := range queryTerms(p) {
					skip[t] = true
				}
			}
		}
	}
	have := map[string]bool{}
	for _, t := range queryTerms(older) {
		have[t] = true
	}
	for _, t := range queryTerms(newer) {
		if have[t] && !skip[t] && !topicStop[t] && len(t) > 2 && !changeCue().MatchString(t) {
			return true
		}
	}
	return false
}

// minSaidTerms is how many of the message's search terms a rule's statement
// must leave out for the message to be shown beside it.
const minSaidTerms = 2

// withSaid gives each shown rule whose statement leaves out part of the
// message it rests on that message in the person's words (BeliefHit.Said),
// unless the message is shown anyway: the extractor keeps one clause of
// "we never use ORMs in this codebase. raw sql through sqlc only", and the
// rest is the part the next task needs.
func (s *search) withSaid(beliefs []BeliefHit, eps []EpisodeHit) []BeliefHit {
	var out []BeliefHit
	for i, b := range beliefs {
		sup, ok := s.support[b.ID]
		if b.Kind != belief.KindGuideline || !ok || sup.Content == "" ||
			slices.ContainsFunc(eps, func(e EpisodeHit) bool { return e.ID == sup.EpisodeID }) {
			continue
		}
		words := strings.TrimSpace(ownWords(sup.Content))
		if holdsMore(words, b.Statement) {
			if out == nil {
				out = slices.Clone(beliefs)
			}
			out[i].Said = words
		}
	}
	if out == nil {
		return beliefs
	}
	return out
}

// holdsMore reports whether a message holds at least minSaidTerms search
// terms its statement does not.
func holdsMore(message, statement string) bool {
	have := map[string]bool{}
	for _, t := range queryTerms(statement) {
		have[t] = true
	}
	n := 0
	for _, t := range queryTerms(message) {
		if !have[t] {
			n++
		}
	}
	return n >= minSaidTerms
}

// beliefMessages are the messages the shown beliefs rest on that are not
// shown themselves, as follow-ups: "starting this month release day moved
// to Friday", the message of the belief "Project's release day is
// Friday", replaces an older shown "release day is Tuesday" on its topic,
// as it would if the prompt's words had found it.
func (s *search) beliefMessages(beliefs []BeliefHit, eps []EpisodeHit) []EpisodeHit {
	var out []EpisodeHit
	for _, b := range beliefs {
		sup, ok := s.support[b.ID]
		if !ok || sup.EpisodeID == "" || slices.ContainsFunc(eps, func(e EpisodeHit) bool { return e.ID == sup.EpisodeID }) {
			continue
		}
		out = append(out, EpisodeHit{ID: sup.EpisodeID, SessionID: sup.SessionID, Kind: sup.Kind, Text: sup.Content,
			CreatedAt: time.UnixMilli(sup.At).UTC(), Relevant: true, ofBelief: true})
	}
	return out
}

// doubtCorrected marks a shown belief whose newest message was corrected
// by the next one (corrections).
func (s *search) doubtCorrected(beliefs []BeliefHit) []BeliefHit {
	if len(s.corrected) == 0 {
		return beliefs
	}
	out := slices.Clone(beliefs)
	for i, b := range out {
		if s.corrected[b.ID] && b.SupersededBy == "" {
			out[i].Doubted = true
		}
	}
	return out
}

// readSupport dates each shown belief by the newest message it rests on
// (store.DB.NewestSupport), not by when it was consolidated: "I'm in
// Perth", then "sorry, I meant Perth in Scotland" a minute later, are
// consolidated together, and only the messages say the second came after.
// A belief without a dated message keeps its own time.
func (s *search) readSupport(ctx context.Context, beliefs []BeliefHit, states map[string]store.Belief) error {
	if len(beliefs) == 0 {
		return nil
	}
	ids := make([]string, 0, len(beliefs))
	for _, b := range beliefs {
		ids = append(ids, b.ID)
	}
	said, err := s.r.DB.NewestSupport(ctx, ids)
	if err != nil {
		return err
	}
	s.support = said
	for id, sup := range said {
		if st, ok := states[id]; ok && sup.At < st.UpdatedAt {
			st.UpdatedAt = sup.At
			states[id] = st
		}
	}
	return nil
}

// doubtEnded marks a shown belief that names what a newer shown message
// says is over: "Always open PRs against master" beside "after we renamed
// master -> trunk last sprint …". Slots are judged by retireByBeliefs; this
// reads any belief's own words, a rule's too, so none is shown as current
// beside the message that ended it.
func doubtEnded(beliefs []BeliefHit, eps []EpisodeHit, states map[string]store.Belief, support map[string]store.Support) []BeliefHit {
	var out []BeliefHit
	for i, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || b.SupersededBy != "" || b.Doubted {
			continue
		}
		words := " " + wordText(b.Statement) + " "
		said := strings.TrimSpace(ownWords(support[b.ID].Content))
		for _, e := range eps {
			if e.CreatedAt.UnixMilli() <= st.UpdatedAt || isQuestion(e.Text) || !strongChange().MatchString(ownWords(e.Text)) {
				continue
			}
			if said != "" && strings.TrimSpace(ownWords(e.Text)) == said {
				continue // the belief's own message, as its exchange
			}
			if slices.ContainsFunc(endedList(e.Text), func(w string) bool { return len(w) > 2 && mentions(words, w) }) {
				if out == nil {
					out = slices.Clone(beliefs)
				}
				out[i].Doubted = true
				break
			}
		}
	}
	if out == nil {
		return beliefs
	}
	return out
}

// neededTools lists, for each tool category the prompt needs, the names
// of its tools that name them in running text (relations.Distinctive).
func (s *search) neededTools() [][]string {
	var out [][]string
	for _, n := range s.needs {
		if n.Relation.Category == "" {
			continue
		}
		var names []string
		for _, name := range relations.PrimaryToolNames(n.Relation.Category) {
			if relations.Distinctive(name) {
				names = append(names, name)
			}
		}
		out = append(out, names)
	}
	return out
}

// namesNeededTool reports whether the person's words in text name a tool
// of a category the prompt needs ("we migrated to pnpm over the weekend"
// for "install the deps"), which the extractor may not read as a claim.
func (s *search) namesNeededTool(text string) bool {
	var own string
	for _, n := range s.needs {
		// the relation, then the one whose value answers for it: the
		// warehouse for a query where no database is known
		rs := []relations.Relation{n.Relation}
		if fb, ok := relations.ByPredicate(n.Relation.Fallback); ok {
			rs = append(rs, fb)
		}
		for _, r := range rs {
			if r.Category == "" {
				continue
			}
			if own == "" {
				own = " " + wordText(ownWords(text)) + " "
			}
			for _, name := range relations.PrimaryToolNames(r.Category) {
				if relations.Distinctive(name) && mentions(own, name) {
					return true
				}
			}
		}
	}
	return false
}

// speaksOfNeededSlot reports whether the person's words in text state
// something in the words of a slot the prompt needs whose values are not
// tools: "I'm based in Wellington these days" for "anything fun to do
// around here?", "Priya is my manager" for "who do I send my update
// to?", though the extractor read no fact from them. A question states
// nothing; the sentences before a message's closing question may ("this
// is on our single A100 80GB, bs 32 is the max that fits. what should I
// look at first?").
func (s *search) speaksOfNeededSlot(text string) string {
	stated := statedPart(ownWords(text))
	if stated == "" {
		return ""
	}
	var own string
	for _, n := range s.needs {
		if !slices.Contains(n.Subjects, extract.SubjectUser) && !slices.Contains(n.Subjects, extract.SubjectProject) {
			continue
		}
		// The slot's own words, then those of the slot whose value
		// answers for it: "I've relocated to Vancouver" for "what's my
		// local time?".
		rs := []relations.Relation{n.Relation}
		if fb, ok := relations.ByPredicate(n.Relation.Fallback); ok {
			rs = append(rs, fb)
		}
		for _, r := range rs {
			if r.Category != "" {
				continue
			}
			if own == "" {
				own = " " + wordText(stated) + " "
			}
			if statesShape(r, stated) {
				return r.Predicate
			}
			if len(r.States) > 0 {
				// a trait said in passing ("I'm vegetarian"): its own
				// words, not the tasks that need it ("dinner")
				for _, p := range r.States {
					if mentions(own, p) {
						return r.Predicate
					}
				}
				continue
			}
			for _, p := range append(slices.Clone(r.Nouns), r.Cues...) {
				if len(p) > 3 && !slices.Contains(r.Ambiguous, p) && mentions(own, p) {
					return r.Predicate
				}
			}
		}
	}
	return ""
}

// statedPart returns the person's words of a message up to its closing
// question, when it ends in one: the sentences before it, or nothing when
// the question is all it says.
func statedPart(own string) string {
	own = strings.TrimSpace(own)
	if !strings.HasSuffix(own, "?") {
		return own
	}
	cut := -1
	for _, sep := range []string{". ", "! ", "? ", "\n"} {
		cut = max(cut, strings.LastIndex(strings.TrimSuffix(own, "?"), sep))
	}
	if cut < 0 {
		return ""
	}
	return strings.TrimSpace(own[:cut+1])
}

// statesShape reports whether the person's words hold a value of the
// slot's shape: "everything runs in eu-west-1" states a region, "we're
// pinned to Python 3.10" the Python version, in none of the slot's words.
func statesShape(r relations.Relation, own string) bool {
	if r.VersionOf != "" && versionRE(r.VersionOf).MatchString(own) {
		return true
	}
	return r.Shape != "" && shapeRE(r.Shape).MatchString(strings.ToLower(own))
}

// shapeNote says which of two values of a needed slot's shape a message
// holds is current: "correction: eu-central-1, Frankfurt. eu-west-1 is
// our old account" corrects to the first it names, "moved the api from
// 8080 to 9090" changes to the one after "to". A message that does
// neither says nothing of which is current, and gets no note.
func (s *search) shapeNote(text string) string {
	own := strings.ToLower(ownWords(text))
	for _, n := range s.needs {
		r := n.Relation
		if r.Shape == "" {
			continue
		}
		var vals []string
		for _, m := range shapeRE(r.Shape).FindAllString(own, 8) {
			v := strings.TrimSpace(m[strings.LastIndexAny(m, " :")+1:])
			if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		if len(vals) < 2 {
			continue
		}
		now, earlier := vals[0], vals[1:]
		if regexp.MustCompile(`\bfrom (?:\w+ )?` + regexp.QuoteMeta(vals[0]) + `\b.*\bto (?:\w+ )?` + regexp.QuoteMeta(vals[1]) + `\b`).MatchString(own) {
			now, earlier = vals[1], []string{vals[0]}
		} else if _, ok := extract.OpensCorrection(own); !ok && !strings.Contains(own, " not ") {
			continue
		}
		return "now: " + now + "; earlier: " + strings.Join(earlier, ", ")
	}
	return ""
}

// toolNote says which of two tools of one slot a message names is
// current, when a shown belief holds one of them and the message says
// something changed: beside "Project uses GitHub Actions for CI", "we
// finally killed teamcity, everything runs on GitHub Actions since
// tuesday" gets "now: GitHub Actions; earlier: TeamCity" (the extractor
// read no change from it, so nothing else marks the old name).
func toolNote(text string, beliefs []BeliefHit, states map[string]store.Belief) string {
	own := ownWords(text)
	var padded string
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || b.SupersededBy != "" {
			continue
		}
		r, ok := relations.ByPredicate(st.Predicate)
		if !ok || r.Category == "" || !r.Exclusive {
			continue
		}
		if padded == "" {
			if !changeCue().MatchString(own) {
				return ""
			}
			padded = " " + wordText(own) + " "
		}
		cur, ok := relations.LookupTool(strings.ToLower(st.Object))
		if !ok || !mentions(padded, st.Object) {
			continue
		}
		for _, name := range relations.ToolNames(r.Category) {
			if !relations.Distinctive(name) || !mentions(padded, name) {
				continue
			}
			if t, ok := relations.LookupTool(name); ok && t != cur {
				return "now: " + displayObject(st.Object) + "; earlier: " + displayObject(t.Name)
			}
		}
	}
	return ""
}

// shapeRE compiles a relation's Shape once.
func shapeRE(shape string) *regexp.Regexp {
	if re, ok := shapeREs.Load(shape); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(shape)
	shapeREs.Store(shape, re)
	return re
}

var shapeREs sync.Map // Shape → *regexp.Regexp

// newestPerSlot keeps, of the episodes kept only because they speak of a
// needed slot in its words, the newest for each slot: nothing read their
// values, so an older one may state what a newer one replaced ("I'm
// based in Austin", then "we moved up to Portland"), and shown beside it
// unmarked it would read as current.
func newestPerSlot(eps []EpisodeHit) []EpisodeHit {
	newest := map[string]int{}
	for i, e := range eps {
		if e.slotOnly == "" {
			continue
		}
		if j, ok := newest[e.slotOnly]; !ok || e.CreatedAt.After(eps[j].CreatedAt) {
			newest[e.slotOnly] = i
		}
	}
	out := eps[:0]
	for i, e := range eps {
		if e.slotOnly == "" || newest[e.slotOnly] == i {
			out = append(out, e)
		}
	}
	return out
}

// needsSlot reports whether any of the claims is of a slot the prompt
// needs.
func (s *search) needsSlot(cs []claim) bool {
	for _, c := range cs {
		for _, n := range s.needs {
			// the slot answering for a needed one counts as needed: where
			// someone lives for their timezone
			if (n.Relation.Predicate == c.slot.predicate || n.Relation.Fallback == c.slot.predicate) && slices.Contains(n.Subjects, c.slot.subject) {
				return true
			}
		}
	}
	return false
}

// strongest returns the slot's most confident active belief visible to
// the query, or a zero Belief.
func (s *search) strongest(ctx context.Context, slot slotKey) (store.Belief, error) {
	members, err := s.slotMembers(ctx, slot.predicate, []string{slot.subject})
	if err != nil {
		return store.Belief{}, err
	}
	turn, err := s.turn(ctx)
	if err != nil {
		return store.Belief{}, err
	}
	top, _ := Current(members, s.r.DB.Params(), s.now, turn)
	return top, nil
}

// Current returns the current value of a slot from its active members,
// the rule recall, MCP memory_recall and the SessionStart digest share:
// the most confident at now and turn (ties to the newest). ok is false
// when there are none.
func Current(members []store.Belief, p belief.Params, now time.Time, turn int64) (top store.Belief, ok bool) {
	best := -1.0
	for _, m := range members {
		if m.Status != belief.Active {
			continue
		}
		c := m.Confidence(p, now, turn)
		if c > best || c == best && m.UpdatedAt > top.UpdatedAt {
			top, best, ok = m, c, true
		}
	}
	return top, ok
}

// replacedOpen returns, by episode ID, for the given episodes that state
// an open claim (a port, a meeting) the beliefs hold only as superseded,
// the statement of the slot's newer active belief that replaced it: "the
// cache redis is on port 6380", then "ugh typo, it's 6381", and the
// first message states a value no longer held. A value still held by an
// active belief, or superseded by nothing newer, is left alone.
func (s *search) replacedOpen(ctx context.Context, eps []EpisodeHit) (map[string]string, error) {
	if !s.q.AsOf.IsZero() {
		return nil, nil
	}
	said := map[slotKey]map[string][]string{} // slot → object → episode IDs
	for _, e := range eps {
		for _, c := range s.openClaimsOf(e.ID, e.Text) {
			if said[c.slot] == nil {
				said[c.slot] = map[string][]string{}
			}
			said[c.slot][c.object] = append(said[c.slot][c.object], e.ID)
		}
	}
	out := map[string]string{}
	for slot, objects := range said {
		members, err := s.r.DB.RecallSlot(ctx, slot.predicate, []string{slot.subject}, s.q.Project, belief.Active, belief.Superseded)
		if err != nil {
			return nil, err
		}
		for object, ids := range objects {
			if by := replacedBy(members, object); by != "" {
				for _, id := range ids {
					out[id] = by
				}
			}
		}
	}
	return out, nil
}

// replacedBy returns the statement of the newest active member created
// after a superseded member whose value is object, when no active member
// holds object.
func replacedBy(members []store.Belief, object string) string {
	var old int64 = -1
	for _, m := range members {
		if normObject(m.Object) != object {
			continue
		}
		if m.Status == belief.Active {
			return ""
		}
		old = max(old, m.CreatedAt)
	}
	by, at := "", old
	for _, m := range members {
		if m.Status == belief.Active && old >= 0 && m.CreatedAt >= at {
			by, at = m.Statement, m.CreatedAt
		}
	}
	return by
}
