package recall

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// What a recall shows must not hand Claude a replaced value as if it held.
// settle (slots.go) does that for the episodes whose claims the extractor
// reads. Two more rules cover the episodes it cannot read:
//
//   - A shown belief of an exclusive slot knows its value and the values
//     the slot held or could hold: the members it superseded, its weaker
//     rivals, the other tools of its category ("yarn" when the package
//     manager is pnpm), other versions of its tool ("Go 1.21" when it is
//     1.23). An episode that names one of those and not the current value
//     states an old one: it is left out (or marked, when the prompt asks
//     about the past). One that names both says which is current. One
//     newer than everything the belief rests on that names another tool of
//     the category with words of change ("we migrated to pnpm over the
//     weekend") says the belief is out of date: the belief is marked and
//     the episode comes first. One newer than the belief that names its
//     value with words of change ("we renamed master to main") casts
//     doubt on it: the belief says it may have been replaced, and the
//     episode comes first.
//   - Between two episodes about one topic (they share a content word),
//     the newer one that speaks of a change ("we
//     moved standup to 9:15", "oops, it's stage.acme.dev") replaces the
//     older one ("standup is at 10am").

// slotTruth is one shown belief's slot: how its current value is named,
// and how the values it replaced or competes with are.
type slotTruth struct {
	beliefID  string
	shown     string   // the current value as a reader sees it
	current   []string // lowercase names of the current value
	old       []string // lowercase names of other values, most telling first
	category  []string // other tools of the slot's category, when the prompt needs it
	cues      []string // the words that speak of the slot, when the prompt needs it
	versionOf *regexp.Regexp
	updated   int64 // the belief's last update, Unix ms
	// said are the person's words of the newest message the belief rests
	// on: that message, or its exchange, judges nothing of it.
	said string
	// numbered are the slot's ambiguous nouns, which speak of it beside a
	// number (besideNumber), when the prompt needs it.
	numbered []string
	// affirmed is when the newest candidate episode named the current
	// value without ending it, Unix ms: a message that ends the value
	// counts only after it.
	affirmed int64
}

// changeCue marks words that say a value changed or was corrected: the
// strong ones an update must use (strongChangeWords) and the weaker ones
// that say so beside a value ("now", "starting", "updated").
var changeCue = sync.OnceValue(func() *regexp.Regexp {
	return wordsRE(append(slices.Clone(strongChangeWords), weakChangeWords...))
})

// slotTruths reads the slots of the shown beliefs that are exclusive,
// uncontested facts.
func (s *search) slotTruths(ctx context.Context, beliefs []BeliefHit, states map[string]store.Belief) ([]slotTruth, error) {
	var out []slotTruth
	seen := map[slotKey]bool{}
	for _, h := range beliefs {
		st, ok := states[h.ID]
		if !ok || h.Contested || h.SupersededBy != "" || st.Kind != belief.KindFact || strings.HasPrefix(st.Predicate, "not_") {
			continue
		}
		// A slot that may hold several values ("Project uses Ruby", its
		// languages) has no old values to retire, but a newer message can
		// still end the one shown: "we rewrote everything in Go, no more
		// Ruby".
		exclusive := relations.IsExclusive(st.Predicate)
		k := slotKey{st.Subject, st.Predicate}
		if seen[k] && exclusive {
			continue // one value of an exclusive slot is shown; of others, each
		}
		seen[k] = true
		t := slotTruth{beliefID: h.ID, shown: displayObject(st.Object), updated: st.UpdatedAt}
		if sup, ok := s.support[h.ID]; ok {
			t.said = strings.TrimSpace(ownWords(sup.Content))
		}
		t.current = valueNames(st.Object)
		if !exclusive {
			// no old values, but a newer message about moving the slot's
			// value still doubts it: "I moved local postgres to port 5433"
			if rel, ok := relations.ByPredicate(st.Predicate); ok && rel.Category == "" && s.needsSlot([]claim{{slot: k}}) {
				t.cues, t.numbered = slotCues(rel), rel.Ambiguous
			}
			if s.q.AsOf.IsZero() && s.needsSlot([]claim{{slot: k}}) {
				// the values this belief's slot held before a change
				// superseded them are old ones: "sold the corolla
				// finally!! got a used Model 3"
				old, err := s.r.DB.RecallSlot(ctx, st.Predicate, []string{st.Subject}, s.q.Project, belief.Superseded)
				if err != nil {
					return nil, err
				}
				for _, o := range old {
					for _, n := range append(valueNames(o.Object), bareName(o.Object)) {
						if n != "" && !slices.Contains(t.current, n) && !slices.Contains(t.old, n) {
							t.old = append(t.old, n)
						}
					}
				}
			}
			out = append(out, t)
			continue
		}
		if s.q.AsOf.IsZero() {
			others, err := s.r.DB.RecallSlot(ctx, st.Predicate, []string{st.Subject}, s.q.Project, belief.Superseded, belief.Active, belief.Revised)
			if err != nil {
				return nil, err
			}
			for _, o := range others {
				if o.ID == st.ID || normObject(o.Object) == normObject(st.Object) {
					continue
				}
				for _, n := range valueNames(o.Object) {
					if !slices.Contains(t.current, n) && !slices.Contains(t.old, n) {
						t.old = append(t.old, n)
					}
				}
			}
		}
		if rel, ok := relations.ByPredicate(st.Predicate); !ok {
			// an open slot ("staging_url_is") is spoken of by its own
			// words: "infra moved staging to stg.acme.dev"
			t.cues = slotWords(st.Subject, st.Predicate)
		} else {
			if s.needsSlot([]claim{{slot: k}}) {
				t.cues, t.numbered = slotCues(rel), rel.Ambiguous
			}
			if rel.Category != "" && s.needsSlot([]claim{{slot: k}}) {
				for _, n := range relations.PrimaryToolNames(rel.Category) {
					if relations.Distinctive(n) && !slices.Contains(t.current, n) && !slices.Contains(t.old, n) {
						t.category = append(t.category, n)
					}
				}
			}
			if rel.VersionOf != "" {
				t.versionOf = versionRE(rel.VersionOf)
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// slotCues are the words that speak of a relation's slot: its nouns and
// cues, an ambiguous noun only with a word that makes it the noun ("took
// a job at Spotify", "my manager left"; and besideNumber).
func slotCues(rel relations.Relation) []string {
	var out []string
	for _, c := range append(slices.Clone(rel.Nouns), rel.Cues...) {
		if !slices.Contains(rel.Ambiguous, c) {
			out = append(out, c)
			continue
		}
		for _, d := range []string{"my", "our", "a", "new"} {
			out = append(out, d+" "+c)
		}
	}
	return out
}

// valueNames returns the lowercase names of a value: the object as stored
// and, for a tool, its name, display and aliases.
func valueNames(object string) []string {
	o := normObject(object)
	names := []string{o}
	if t, ok := relations.LookupTool(o); ok {
		for _, n := range append([]string{t.Name, strings.ToLower(t.Display)}, t.Aliases...) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// bareName returns a value without the year or number that leads it
// ("2014 corolla" → "corolla"), or "" when nothing leads it or nothing
// is left.
func bareName(object string) string {
	words := strings.Fields(normObject(object))
	i := 0
	for i < len(words)-1 && strings.Trim(words[i], "0123456789'") == "" {
		i++
	}
	if i == 0 {
		return ""
	}
	return strings.Join(words[i:], " ")
}

// versionRE matches a tool's name followed by a version: "go 1.21",
// "node@18", "python3.11".
func versionRE(tool string) *regexp.Regexp {
	if re, ok := versionREs.Load(tool); ok {
		return re.(*regexp.Regexp)
	}
	re := compileVersionRE(tool)
	versionREs.Store(tool, re)
	return re
}

// versionREs caches versionRE by tool: it was compiled once per tool
// belief per recall.
var versionREs sync.Map // tool name → *regexp.Regexp

func compileVersionRE(tool string) *regexp.Regexp {
	names := []string{regexp.QuoteMeta(tool)}
	if t, ok := relations.LookupTool(tool); ok {
		for _, a := range t.Aliases {
			names = append(names, regexp.QuoteMeta(a))
		}
	}
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])(?:` + strings.Join(names, "|") + `)[ @-]?v?(\d+(?:\.\d+)*)`)
}

// verdict is what one slot says of one episode.
type verdict struct {
	stale   bool   // it states an old value, not the current one
	newer   bool   // it states a value the belief does not know yet
	doubt   bool   // it speaks of changing the belief's own value
	old     string // the old value it names
	current string // the slot's current value as shown
	value   string // for newer: the value it states
	own     bool   // it is the message the belief rests on
}

// judge reads what an episode says of the slot.
func (t slotTruth) judge(text string, at int64) verdict {
	// The belief's own message, or its exchange, neither doubts it nor
	// says it is newer; it can still state an old value once the belief
	// is outdated.
	said := t.said != "" && strings.TrimSpace(ownWords(text)) == t.said
	v := t.judgeText(text, at)
	if said {
		v.own = true
		if v.newer || v.doubt {
			v.newer, v.doubt, v.value, v.old = false, false, "", ""
		}
	}
	return v
}

// judgeText is judge on the words alone.
func (t slotTruth) judgeText(text string, at int64) verdict {
	own := " " + wordText(ownWords(text)) + " "
	namesCur := false
	for _, n := range t.current {
		if mentions(own, n) {
			namesCur = true
			break
		}
	}
	v := verdict{current: t.shown}
	for _, n := range t.old {
		if mentions(own, n) {
			v.old = n
			break
		}
	}
	if v.old == "" && t.versionOf != nil && !namesCur {
		for _, m := range t.versionOf.FindAllStringSubmatch(ownWords(text), -1) {
			if !slices.Contains(t.current, m[1]) && !strings.HasPrefix(t.current[0], m[1]+".") {
				v.old = m[1]
				break
			}
		}
	}
	cat := ""
	if v.old == "" {
		for _, n := range t.category {
			if mentions(own, n) {
				cat = n
				break
			}
		}
	}
	bare := ""
	if t.versionOf != nil && v.old == "" && !namesCur {
		// "upgraded the project to 3.12 yesterday": a version without
		// its tool's name, after "to", in words of change
		if m := bareVersionTo().FindStringSubmatch(ownWords(text)); m != nil && !slices.Contains(t.current, m[1]) {
			bare = m[1]
		}
	}
	switch {
	case v.old != "" && !namesCur:
		v.stale = true
	case bare != "" && at > t.updated && changeCue().MatchString(ownWords(text)) && !asksOnly(text):
		v.newer, v.value = true, bare
	case cat != "" && !namesCur && at > t.updated && changeCue().MatchString(ownWords(text)) && !asksOnly(text):
		v.newer, v.value = true, displayObject(cat)
	case cat != "" && !namesCur && at > t.updated && !asksOnly(text) && ownStatement(text, cat):
		// "vitest has been great for us since the spring" after "we run
		// tests with jest": another tool of the kind, said as theirs,
		// with no word of change; the belief may be out of date
		v.doubt, v.old = true, ""
	case cat != "" && !namesCur:
		v.stale, v.old = true, cat
	case v.old != "" && namesCur:
		// names both: the note says which holds
	case namesCur && at > t.affirmed && !isQuestion(text) && t.endedIn(text):
		// "pip-tools is gone", "goodbye Windows", "we renamed ledgerd to
		// bookkeeper": a newer message ends the belief's own value
		v.doubt, v.old = true, ""
	case (namesCur || cat == "" && t.speaksOf(own)) && at > t.updated && strongChange().MatchString(ownWords(text)) && !isQuestion(text):
		// "we renamed master to main", "Grace moved teams, Ben is the PM
		// now", "we relocated to Oslo": newer than the belief, about
		// changing its value or its slot
		v.doubt, v.old = true, ""
	case !namesCur && t.namedSlot() && at > t.updated && t.speaksOf(own) && !isQuestion(text) && namesAnother(ownWords(text), t.current):
		// "scratch what I told you about my manager, it's Dana Liu",
		// "started at Datadog on monday": newer than the belief, about its
		// slot, naming someone or something else — words the extractor
		// may not read, but the belief can no longer be shown as sure
		v.doubt, v.old = true, ""
	default:
		v.old = ""
	}
	return v
}

// bareVersionTo finds a version said without its tool after "to":
// "upgraded the project to 3.12", "bumped us to 1.23.4".
var bareVersionTo = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:\b(?:to|onto)|\b(?:we're|we are|we're now|now|all|everything's|everything is) on)\s+v?(\d+\.\d+(?:\.\d+)?)\b`)
})

// endedIn reports whether the person's words in text end the slot's
// current value: "X is gone", "goodbye X", "not X", "from X to", "renamed
// X".
func (t slotTruth) endedIn(text string) bool {
	ended := endedWords(text)
	for _, n := range t.current {
		for _, w := range strings.Fields(wordText(n)) {
			if ended[w] {
				return true
			}
		}
	}
	return false
}

// endedRE finds the words a message says are over: what follows "not",
// "no longer", "goodbye", "renamed", "ditched", … what precedes "is
// gone", "is history", "was retired", and a person who "left for a
// startup", "quit", "stepped down". "from" is endedFromRE's.
var endedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:(?:n't|\b(?:not|no longer|no more|goodbye|bye|farewell|ditched|dropped|dumped|replaced|renamed|retired|away from|last day|pulled the plug|gave up|off of|instead of|rather than|ripped out|rip out|took out|got rid of|removed|killed|phased out|deprecated|uninstalled|(?:got|moved|migrated|came|getting|moving|migrating)\s+off))\s+(?:(?:use|using|uses|used|need|on|with|the|our|my|a|an|to|in|at|for)\s+)*([\pL\pN][\pL\pN.+#:_-]*))|(?:([\pL\pN][\pL\pN.+#:_-]*)\s+(?:is|are|was|were|got|has been|have been)\s+(?:now\s+|finally\s+|officially\s+)?(?:gone|history|out|retired|dead|dropped|deprecated|renamed|replaced|removed|no longer (?:in the picture|around|a thing|used|needed))\b)|(?:([\pL][\pL'-]*)\s+(?:just\s+|has\s+|finally\s+|officially\s+)?(?:left (?:for|the|us|to|our|my|last|in|on)|quit|resigned|retired|stepped down|moved on|moved teams|changed teams|is leaving|went on (?:leave|parental leave|sabbatical))\b)`)
})

// splitOutRE finds what a removal with its object inside says is over.
var splitOutRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b` + splitOut + `\b`) })

// endedFromRE finds what a change moves away from: "from X to Y",
// "switched from X", "migrated off X" is endedRE's. A "from" that only
// says where ("we deploy from the release branch", "pull from main") ends
// nothing.
var endedFromRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:\b(?:moved|moving|switched|switching|migrated|migrating|changed|changing|went|going|ported|porting|converted|upgraded|downgraded|transitioned)\s+(?:[\pL\pN.+#:_-]+\s+){0,3}?from|\bfrom)\s+(?:(?:the|our|my|a|an|using)\s+)*([\pL\pN][\pL\pN.+#:_-]*)((?:\s+[\pL\pN.+#:_-]+){0,3}?\s+(?:to|->|→|over to|in favou?r of)\s)?`)
})

// endedWords returns the lowercase words the person's words in text say
// are over.
func endedWords(text string) map[string]bool {
	out := map[string]bool{}
	own := ownWords(text)
	add := func(w string) {
		if w = strings.ToLower(strings.Trim(w, ".:-")); w != "" && !topicStop[w] {
			out[w] = true
		}
	}
	for _, m := range endedRE().FindAllStringSubmatch(own, -1) {
		add(m[1] + m[2] + m[3])
	}
	for _, m := range splitOutRE().FindAllStringSubmatch(own, -1) {
		add(m[1])
	}
	for _, m := range endedFromRE().FindAllStringSubmatch(own, -1) {
		// a bare "from X" ends X only when a "to" follows: "from pnpm
		// to bun"; after a verb of change it does alone.
		if m[2] != "" || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(m[0])), "from") {
			add(m[1])
		}
	}
	return out
}

// names reports whether the person's words in text name the slot's
// current value.
func (t slotTruth) names(text string) bool {
	own := " " + wordText(ownWords(text)) + " "
	for _, n := range t.current {
		if mentions(own, n) {
			return true
		}
	}
	return false
}

// speaksOf reports whether the padded word text names the slot by one of
// its cues ("relocated" for where someone lives).
func (t slotTruth) speaksOf(padded string) bool {
	var stems map[string]bool
	for _, c := range t.cues {
		if mentions(padded, c) {
			return true
		}
		if strings.Contains(c, " ") {
			continue
		}
		// a one-word cue in another form: "moving" for "moved"
		if stems == nil {
			stems = map[string]bool{}
			for _, w := range strings.Fields(padded) {
				stems[stem(w)] = true
			}
		}
		if stems[stem(c)] {
			return true
		}
	}
	for _, n := range t.numbered {
		if besideNumber(padded, n) {
			return true
		}
	}
	return false
}

// besideNumber reports whether the padded word text holds noun right
// before a number, or with one word between: "port 5433", "port to
// 3001". An ambiguous noun ("port") is the noun there.
func besideNumber(padded, noun string) bool {
	fields := strings.Fields(padded)
	for i, f := range fields {
		if f != noun {
			continue
		}
		for j := i + 1; j < len(fields) && j <= i+2; j++ {
			if fields[j] != "" && fields[j][0] >= '0' && fields[j][0] <= '9' {
				return true
			}
		}
	}
	return false
}

// isQuestion reports whether the person's words end in a question mark.
func isQuestion(text string) bool {
	return strings.HasSuffix(strings.TrimSpace(ownWords(text)), "?")
}

// asksOnly is isQuestion for a message that may name a new value: it
// asks and states nothing when no statement comes before the question
// ("since the move to uv the lockfile is uv.lock — can you update the
// Dockerfile?" states the move) or beside it ("the lockfile is uv.lock now
// that we're on uv, right?").
func asksOnly(text string) bool {
	own := strings.TrimSpace(ownWords(text))
	if !strings.HasSuffix(own, "?") {
		return false
	}
	lower := " " + strings.ToLower(own)
	for _, m := range statesBeside {
		if strings.Contains(lower, m) {
			return false
		}
	}
	body := strings.TrimSuffix(own, "?")
	cut := -1
	// (a request after a comma asks of what the clause before it states:
	// "our render dashboard shows the deploy failed, can you look?")
	for _, sep := range []string{". ", "! ", " — ", " -- ", " - ", "; ", ", can you ", ", could you ", ", would you ", ", can u "} {
		cut = max(cut, strings.LastIndex(body, sep))
	}
	return cut < 0 || strings.Contains(body[:cut], "?")
}

// statesBeside are the words that join a statement to a question.
var statesBeside = []string{" now that ", " since ", " because ", " btw", " fyi", " by the way", " given that "}

// mentions reports whether the padded word text holds name as whole words.
func mentions(padded, name string) bool {
	w := wordText(name)
	return w != "" && strings.Contains(padded, " "+w+" ")
}

// wordText lowercases text and keeps the characters names are written
// with, every other run of characters one space; dots, slashes and
// hyphens inside a word are kept ("fly.io", "ci/cd"), at its ends dropped.
func wordText(text string) string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("./#@+_-", r)
	})
	out := fields[:0]
	for _, f := range fields {
		if f = strings.Trim(f, ".-/"); f != "" {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// retireByBeliefs applies the shown beliefs' slots to the episodes: it
// leaves out (or, when past, marks) those stating an old value, notes
// those naming both, and marks a belief an episode shows to be out of
// date, whose slot is then judged by that episode's value. Episodes that
// update a belief come first.
func retireByBeliefs(truths []slotTruth, beliefs []BeliefHit, eps, extra []EpisodeHit, past bool) ([]BeliefHit, []EpisodeHit) {
	if len(truths) == 0 {
		return beliefs, eps
	}
	// Candidates too far from the prompt to show count only when they
	// say outright that something changed.
	var far []EpisodeHit
	for _, e := range extra {
		if strongChange().MatchString(ownWords(e.Text)) && !isQuestion(e.Text) || doubtsAny(truths, e) {
			far = append(far, e)
		}
	}
	outdated := map[string]string{} // belief ID → the newer value
	doubted := map[string]bool{}
	leads := map[string]bool{}
	notes := map[string]string{} // what a leading episode is told to say
	var led []EpisodeHit         // far candidates that lead
	for i, t := range truths {
		for _, e := range append(slices.Clone(eps), far...) {
			if at := e.CreatedAt.UnixMilli(); at > t.affirmed && t.names(e.Text) && !t.endedIn(e.Text) {
				truths[i].affirmed = at
			}
		}
		t = truths[i]
		var newest int64
		for j, e := range append(slices.Clone(eps), far...) {
			v := t.judge(e.Text, e.CreatedAt.UnixMilli())
			if !v.newer && !v.doubt {
				continue
			}
			if v.newer && e.CreatedAt.UnixMilli() > newest {
				newest, outdated[t.beliefID] = e.CreatedAt.UnixMilli(), v.value
			}
			if v.newer {
				notes[e.ID] = "now: " + v.value + "; earlier: " + t.shown
			}
			if v.doubt {
				doubted[t.beliefID] = true
				if _, ok := notes[e.ID]; !ok {
					notes[e.ID] = "newer than the belief; its earlier value may be replaced by this"
				}
			}
			if !leads[e.ID] && j >= len(eps) {
				led = append(led, e)
			}
			leads[e.ID] = true
		}
		if v, ok := outdated[t.beliefID]; ok {
			// The episode's value is the slot's now; the belief's is old.
			truths[i].old = append(slices.Clone(t.current), t.old...)
			truths[i].current = valueNames(v)
			truths[i].shown = v
			truths[i].category = slices.DeleteFunc(slices.Clone(t.category), func(n string) bool { return slices.Contains(truths[i].current, n) })
			truths[i].updated = newest
		}
	}
	eps = append(led, eps...)
	var first, rest []EpisodeHit
	for _, e := range eps {
		drop := false
		for _, t := range truths {
			v := t.judge(e.Text, e.CreatedAt.UnixMilli())
			if doubted[t.beliefID] && !leads[e.ID] && !past && t.names(e.Text) {
				drop = true // "our PM is Grace", said before Grace moved teams
			}
			switch {
			case v.stale && !past:
				drop = true
			case v.stale:
				if e.SupersededBy == "" {
					e.SupersededBy = v.current
				}
			case v.old != "" && !v.newer && e.Note == "" && e.SupersededBy == "":
				e.Note = "now: " + v.current + "; earlier: " + displayObject(v.old)
			case v.own && e.Note == "" && e.SupersededBy == "" && strongChange().MatchString(ownWords(e.Text)) && !isQuestion(e.Text):
				// "i changed the dev port to 4173 because 3000 kept
				// colliding": the change the belief rests on; what else it
				// names came before
				e.Note = "the change to " + v.current + "; other values it names are earlier"
			}
		}
		switch {
		case drop:
		case leads[e.ID]:
			if e.Note == "" && e.SupersededBy == "" {
				e.Note = notes[e.ID]
			}
			first = append(first, e)
		default:
			rest = append(rest, e)
		}
	}
	if len(outdated)+len(doubted) > 0 {
		beliefs = slices.Clone(beliefs)
		for i, b := range beliefs {
			if v, ok := outdated[b.ID]; ok {
				beliefs[i].SupersededBy = v
			} else if doubted[b.ID] {
				beliefs[i].Doubted = true
			}
		}
	}
	return beliefs, append(first, rest...)
}

// topicWords returns an episode's own content words: lowercased, stop
// words, short words and change cues left out.
func topicWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.Fields(wordText(ownWords(text))) {
		for _, w := range strings.FieldsFunc(f, func(r rune) bool { return r == '.' || r == '/' || r == '-' || r == '#' || r == '@' }) {
			if len(w) < 3 || topicStop[w] || changeCue().MatchString(w) {
				continue
			}
			out[stem(w)] = true
		}
		if strings.ContainsAny(f, "./-#@") {
			out[f] = true // "staging.acme.dev" as a whole, too
		}
	}
	return out
}

// topicStop are words too common to make two messages one topic.
var topicStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and are for from has have how its our that their them then there these they this was were what when where
		which who why will with would you your can could should does did not but all any got get use used uses using also just really please
		okay yes thanks thank here now let lets make made want need needs like think know see look keep every always never still some more most
		much very about into onto over after before again since until because while than only even well too out off way new old one two
		user assistant every other`) {
		m[w] = true
	}
	return m
}()

// retireByTopic leaves out (or marks) an episode a newer one on the same
// topic replaces: the newer speaks of a change and shares a topic word
// with it, and the older states something the newer does not say (its
// value). The newer may be one of extra, the candidates too far from the
// prompt to show by themselves: it then takes the older one's place. The
// newer one is noted as an update of an earlier message.
func retireByTopic(query string, eps, extra []EpisodeHit, tools [][]string, past bool) []EpisodeHit {
	out, _ := retireByTopicOf(query, eps, extra, tools, past)
	return out
}

// retireByTopicOf is retireByTopic that also returns the IDs of the
// episodes it replaced.
func retireByTopicOf(query string, eps, extra []EpisodeHit, tools [][]string, past bool) ([]EpisodeHit, map[string]bool) {
	all := append(slices.Clone(eps), extra...)
	if len(eps) == 0 || len(all) < 2 {
		return noteChanges(slices.Clone(eps), nil), nil
	}
	words := make([]map[string]bool, len(all))
	for i, e := range all {
		words[i] = topicWords(e.Text)
	}
	asked := topicWords(query)
	replaced := make([]int, len(eps)) // index+1 in all of the episode that replaced it
	for n, ne := range all {
		if ne.corrects == "" && (!changeCue().MatchString(ownWords(ne.Text)) || isQuestion(ne.Text)) {
			continue
		}
		far := n >= len(eps)
		if far && ne.corrects == "" && !ne.ofBelief && !strongChange().MatchString(ownWords(ne.Text)) {
			continue // "ok, now write the migration" replaces nothing
		}
		// A follow-up was found by a shown episode's own words, not the
		// prompt's: sharing them is enough.
		followed := far && (ne.followUp || ne.ofBelief)
		ended := endedWords(ne.Text)
		for o, oe := range eps {
			if o == n || replaced[o] != 0 || !oe.CreatedAt.Before(ne.CreatedAt) || sameWords(oe.Text, ne.Text) {
				continue
			}
			if sharesTopic(words[o], words[n]) && (saysMore(words[o], words[n]) || endsWordOf(ended, words[o], oe.Text) || newNumber(oe.Text, ne.Text)) &&
				(!far || followed || sharedAsked(words[o], words[n], asked)) ||
				otherTool(oe.Text, ne.Text, tools) ||
				ne.corrects != "" && strings.TrimSpace(ownWords(oe.Text)) == ne.corrects {
				replaced[o] = n + 1
			}
		}
	}
	out := eps[:0:0]
	placed := map[string]bool{}
	for _, e := range eps {
		placed[e.ID] = true
	}
	for i, e := range eps {
		r := replaced[i]
		if r != 0 && !placed[all[r-1].ID] {
			// The update the prompt's words missed stands where the
			// message it replaced would have.
			placed[all[r-1].ID] = true
			out = append(out, all[r-1])
		}
		if r != 0 {
			if !past {
				continue
			}
			e.SupersededBy = snippet(ownWords(all[r-1].Text), maxRivalBytes)
		}
		out = append(out, e)
	}
	// A kept episode that replaced one says so.
	updates := map[string]bool{} // by the person's words: a prompt and its exchange
	gone := map[string]bool{}
	for i, r := range replaced {
		if r != 0 {
			updates[strings.TrimSpace(ownWords(all[r-1].Text))] = true
			gone[eps[i].ID] = true
		}
	}
	return noteChanges(out, updates), gone
}

// noteChanges notes the kept episodes that replaced one ("updates an
// earlier message", by the person's words in updates) and the change
// messages that name what they ended, so no line names an ended value
// unmarked.
func noteChanges(out []EpisodeHit, updates map[string]bool) []EpisodeHit {
	for i := range out {
		if out[i].Note != "" || out[i].SupersededBy != "" {
			continue
		}
		switch {
		case updates[strings.TrimSpace(ownWords(out[i].Text))]:
			out[i].Note = "updates an earlier message"
		case len(endedWords(out[i].Text)) > 0 && strongChange().MatchString(ownWords(out[i].Text)) && !isQuestion(out[i].Text):
			// "I don't use vim anymore, Helix all the way": the message
			// names what it ended; say so beside it
			out[i].Note = "a change: what it ended (" + strings.Join(endedList(out[i].Text), ", ") + ") is no longer current"
		}
	}
	return out
}

// endsWordOf reports whether a newer message ends one of an older one's
// topic words: "standup is 9:15, not 9:30" ends "Standup is at 9:30".
func endsWordOf(ended, older map[string]bool, olderText string) bool {
	if len(ended) == 0 {
		return false
	}
	tokens := map[string]bool{}
	for _, f := range strings.Fields(strings.ToLower(ownWords(olderText))) {
		tokens[strings.Trim(f, ".,;!?()\"'")] = true
	}
	for w := range ended {
		if older[w] || older[stem(w)] || tokens[w] {
			return true
		}
	}
	return false
}

func endedList(text string) []string {
	m := endedWords(text)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// maxFollowUps bounds the newer episodes looked up by the shown items'
// own words.
const maxFollowUps = 12

// followUps finds newer episodes that may replace what is about to be
// shown though they share no word with the prompt: "we renamed ledgerd to
// bookkeeper" after "the service is called ledgerd", "atlas got renamed to
// compass". It searches the shown beliefs' values and the first shown
// episodes' topic words, and keeps the episodes newer than the oldest
// shown item that speak of a change; they join the candidates too far to
// show (s.unshown), which count only where they replace something.
func (s *search) followUps(ctx context.Context, beliefs []BeliefHit, states map[string]store.Belief, eps []EpisodeHit) error {
	if !s.q.AsOf.IsZero() || len(beliefs)+len(eps) == 0 {
		return nil
	}
	var words []string
	seen := map[string]bool{}
	add := func(w string) {
		if len(w) > 2 && !seen[w] && !topicStop[w] && !changeCue().MatchString(w) {
			seen[w] = true
			words = append(words, w)
		}
	}
	var oldest int64
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || st.Kind != belief.KindFact {
			continue
		}
		for _, w := range strings.Fields(wordText(st.Object)) {
			add(w)
		}
		if oldest == 0 || st.UpdatedAt < oldest {
			oldest = st.UpdatedAt
		}
	}
	// The words that speak of a shown exclusive slot ("moved", "relocated"
	// for where someone lives) come after every value: a change that
	// names neither value ("still unpacking after the move to Manchester").
	for _, b := range beliefs {
		st := states[b.ID]
		if st.Kind != belief.KindFact || !relations.IsExclusive(st.Predicate) {
			continue
		}
		rel, known := relations.ByPredicate(st.Predicate)
		if !known {
			// an open slot speaks of itself by its own words: "staging url"
			// for "Project's staging url is …"
			for _, w := range slotWords(st.Subject, st.Predicate) {
				add(w)
			}
			continue
		}
		for _, c := range append(slices.Clone(rel.Cues), rel.Nouns...) {
			if !strings.Contains(c, " ") && !slices.Contains(rel.Ambiguous, c) && len(c) > 2 && !seen[c] {
				seen[c] = true // a cue may be a word of change itself ("relocated")
				words = append(words, c)
			}
		}
	}
	for i, e := range eps {
		if i == 3 {
			break
		}
		for _, f := range strings.Fields(wordText(ownWords(e.Text))) {
			add(f)
		}
		if at := e.CreatedAt.UnixMilli(); oldest == 0 || at < oldest {
			oldest = at
		}
	}
	if len(words) == 0 {
		return nil
	}
	if len(words) > 24 {
		words = words[:24]
	}
	// Only a newer message with a word of change can replace what is
	// shown: the index is asked for exactly those, newest first.
	hits, err := s.r.DB.ChangeSearch(ctx, strings.Join(words, " "), s.q.Project, changeIndexWords(), oldest, maxFollowUps)
	if err != nil {
		return err
	}
	// A newer message about a shown slot whose values are names may name
	// another without a word of change ("scratch that, it's Dana Liu"):
	// the index is asked for the slot's own words too.
	slotWords, values, personal := namedSlotWords(beliefs, states)
	// What the person says of themselves ("we're in Valencia now") holds
	// wherever they said it: the slots are all theirs, so every project's
	// messages are asked.
	where := s.q.Project
	if personal {
		where = ""
	}
	renamed, ending := map[string]bool{}, map[string]bool{}
	if len(slotWords) > 0 {
		more, err := s.r.DB.ChangeSearch(ctx, strings.Join(slotWords, " "), where, slotWords, oldest, maxFollowUps)
		if err != nil {
			return err
		}
		for _, h := range more {
			renamed[h.ID] = true
		}
		hits = append(hits, more...)
		// "priyanka left for a startup": the shown value, and a word of
		// leaving beside it, without the slot's words
		more, err = s.r.DB.ChangeSearch(ctx, strings.Join(values, " "), where, leavingWords, oldest, maxFollowUps)
		if err != nil {
			return err
		}
		for _, h := range more {
			ending[h.ID] = true
		}
		hits = append(hits, more...)
	}
	known := map[string]bool{}
	for _, e := range eps {
		known[e.ID] = true
	}
	for _, e := range s.unshown {
		known[e.ID] = true
	}
	var ids []string
	for _, h := range hits {
		if !known[h.ID] {
			known[h.ID] = true
			ids = append(ids, h.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	found, err := s.r.DB.RecallEpisodes(ctx, ids, where, maxEpisodeRead)
	if err != nil {
		return err
	}
	for _, e := range found {
		if !s.visible(e.Scope, e.ProjectPath) && !(personal && (renamed[e.ID] || ending[e.ID])) || e.CreatedAt.UnixMilli() <= oldest {
			continue
		}
		own := ownWords(e.Content)
		if isQuestion(e.Content) || !strongChange().MatchString(own) && !(renamed[e.ID] && namesAnother(own, values)) && !ending[e.ID] {
			continue
		}
		s.unshown = append(s.unshown, EpisodeHit{ID: e.ID, SessionID: e.SessionID, Project: e.ProjectPath, Kind: e.Kind,
			Text: e.Content, CreatedAt: e.CreatedAt, consolidated: e.Consolidated, followUp: true})
	}
	return nil
}

// maxCorrected bounds the shown episodes whose next message is read.
const maxCorrected = 3

// corrections finds, for the first shown episodes, the next message of
// their session when it opens by correcting them: "default timezone for
// the reports is UTC", then "hmm no, finance wants them in
// America/Chicago, my bad". The correction names nothing of what it
// corrects, so no search by words finds it; the conversation does. It
// joins the candidates too far to show and replaces the message it
// follows (retireByTopic). A correction of a request ("no, don't run it
// yet") states nothing and is left alone.
func (s *search) corrections(ctx context.Context, beliefs []BeliefHit, eps []EpisodeHit) error {
	if !s.q.AsOf.IsZero() {
		return nil
	}
	next := map[string]string{} // next prompt's ID → the words it follows
	of := map[string][]string{} // next prompt's ID → the beliefs resting on what it follows
	var ids []string
	follow := func(session, after, words, beliefID string) error {
		id, err := s.r.DB.NextPrompt(ctx, session, after)
		if err == nil && id == "" {
			// the last message of its session: what opened the next one
			// may correct it
			id, err = s.r.DB.OpeningPromptAfter(ctx, session, after)
		}
		if err != nil || id == "" {
			return err
		}
		if _, ok := next[id]; !ok {
			next[id] = words
			ids = append(ids, id)
		}
		if beliefID != "" {
			of[id] = append(of[id], beliefID)
		}
		return nil
	}
	for i, e := range eps {
		if i == maxCorrected {
			break
		}
		if err := follow(e.SessionID, e.ID, strings.TrimSpace(ownWords(e.Text)), ""); err != nil {
			return err
		}
	}
	// A shown belief whose newest message was corrected next is in doubt
	// ("deploys happen from the release branch", then "no scratch that,
	// they go out from main").
	for i, b := range beliefs {
		if i == maxCorrected {
			break
		}
		if sup, ok := s.support[b.ID]; ok {
			if err := follow(sup.SessionID, sup.EpisodeID, "", b.ID); err != nil {
				return err
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	found, err := s.r.DB.RecallEpisodes(ctx, ids, s.q.Project, maxEpisodeRead)
	if err != nil {
		return err
	}
	echo := transcript.NormalizePrompt(cutBytes(s.q.Text, maxEpisodeRead))
	for _, e := range found {
		if !s.visible(e.Scope, e.ProjectPath) || transcript.NormalizePrompt(cutBytes(e.Content, maxEpisodeRead)) == echo {
			continue
		}
		rest, ok := extract.OpensCorrection(e.Content)
		if !ok || asksToDo(rest) {
			continue
		}
		for _, id := range of[e.ID] {
			if s.corrected == nil {
				s.corrected = map[string]bool{}
			}
			s.corrected[id] = true
		}
		if len(of[e.ID]) > 0 && !slices.ContainsFunc(eps, func(h EpisodeHit) bool { return h.ID == e.ID }) {
			s.correcting = append(s.correcting, EpisodeHit{ID: e.ID, SessionID: e.SessionID, Project: e.ProjectPath, Kind: e.Kind,
				Text: e.Content, CreatedAt: e.CreatedAt, consolidated: e.Consolidated, Relevant: true,
				Note: "corrects an earlier message; a belief resting on that message may be out of date"})
		}
		if next[e.ID] != "" {
			s.unshown = append(s.unshown, EpisodeHit{ID: e.ID, SessionID: e.SessionID, Project: e.ProjectPath, Kind: e.Kind,
				Text: e.Content, CreatedAt: e.CreatedAt, consolidated: e.Consolidated, followUp: true, corrects: next[e.ID]})
		}
	}
	return nil
}

// withCorrections puts the messages that corrected a shown belief's
// before the episodes found.
func (s *search) withCorrections(eps []EpisodeHit) []EpisodeHit {
	if len(s.correcting) == 0 {
		return eps
	}
	return append(slices.Clone(s.correcting), eps...)
}

// asksToDo reports whether words open with a request rather than a
// statement: "don't run it yet", "please use the other one", "fix the
// test instead".
func asksToDo(words string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(words, " ,:;-"), " ")
	first = strings.Trim(first, ",.!?")
	switch first {
	case "", "don't", "dont", "do", "please", "pls", "stop", "never", "just", "go", "let's", "lets":
		return true
	}
	return extract.IsVerb(first)
}

// otherTool reports whether the older text names one tool of a needed
// category and the newer another, not the older's: "Jenkins builds
// everything here", then "we moved CI over to Buildkite".
func otherTool(older, newer string, tools [][]string) bool {
	o, n := " "+wordText(ownWords(older))+" ", " "+wordText(ownWords(newer))+" "
	for _, names := range tools {
		var oldName string
		for _, name := range names {
			if mentions(o, name) {
				oldName = name
				break
			}
		}
		if oldName == "" || mentions(n, oldName) {
			continue
		}
		for _, name := range names {
			if name != oldName && mentions(n, name) {
				return true
			}
		}
	}
	return false
}

// strongChangeWords are the words of change an update the prompt's words
// missed must use: a move, a switch, a correction, not a bare "now".
var strongChangeWords = []string{"moved", "switched", "switch to", "migrated", "changed", "replaced", "renamed",
	"relocated", "pushed", "postponed", "rescheduled", "slipped", "actually", "correction", "oops", "sorry",
	"i meant", "no longer", "instead", "anymore", "any more", "retired", "is gone", "are gone", "goodbye",
	"ditched", "dropped", "is history", "is out", "no more", "ported", "rewrote", "got a new", "new job",
	"bumped", "upgraded",
	// verbs that end a thing, and the words of a correction
	"ripped out", "got rid of", "got off", "moved off", "migrated off", "phased out", "removed",
	"killed", "shut down", "turned off", "decommissioned",
	"deprecated", "is dead", "that was wrong", "was wrong", "mixed up", "mixing up", "scratch that",
	"no wait", "my bad", "misspoke", "was thinking of", "no, it's", "no it's", "wrong number", "got it wrong",
	// idioms of leaving one thing for another
	"never looked back", "pulled the plug", "last day", "gave up on", "settled into", "settled in",
	// a change said as a noun, and a new employer's first days
	"the move to", "the switch to", "the migration to", "the rename", "first day at", "first week at"}

// weakChangeWords say a value changed only beside one: "now", "starting",
// "left".
var weakChangeWords = []string{"moving", "switching", "migrating", "changing", "replacing", "delayed",
	"downgraded", "adopted", "now", "anymore", "typo", "from now on", "going forward", "starting", "as of",
	"updated", "gone", "history", "rewritten", "left", "quit", "wrong", "upgrade"}

// strongChange matches any of strongChangeWords.
var strongChange = sync.OnceValue(func() *regexp.Regexp {
	// and a thing taken out with its name between the verb's two words:
	// "we ripped redux out in october", "took jquery out"
	return regexp.MustCompile(wordsRE(strongChangeWords).String() + `|(?i)\b` + splitOut + `\b`)
})

// splitOut is a verb of removal with its object between it and "out":
// "ripped redux out", "took the old ORM out"; group 1 is the object's
// last word.
const splitOut = `(?:ripped|ripping|took|taking|threw|throwing|kicked|phased|swapped|pulled|yanked|stripped|tore)\s+(?:the\s+|our\s+|old\s+)*([\pL\pN][\pL\pN.+#:_-]*)\s+out`

// wordsRE matches any of words as whole words, case-insensitively.
func wordsRE(words []string) *regexp.Regexp {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)\b(` + strings.Join(quoted, "|") + `)\b`)
}

// changeIndexWords are the words the full-text index is asked for when it
// looks for follow-ups: each of strongChangeWords, or the word of a phrase
// that carries it ("longer", "meant", "gone"). A phrase whose words are
// all common ("is out", "got a new") is left to the regexp: asking the
// index for "out" or "new" would fill the newest-first window with
// messages that change nothing.
var changeIndexWords = sync.OnceValue(func() []string {
	common := map[string]bool{"more": true, "new": true, "got": true, "out": true, "job": true, "any": true}
	var out []string
	for _, w := range strongChangeWords {
		best := ""
		for _, f := range strings.Fields(w) {
			if len(f) > len(best) && len(f) >= 4 && !common[f] {
				best = f
			}
		}
		if best != "" && !slices.Contains(out, best) {
			out = append(out, best)
		}
	}
	return out
})

// sharedAsked reports whether the two episodes share a word the prompt
// also uses: the topic is the prompt's.
func sharedAsked(a, b, asked map[string]bool) bool {
	for w := range a {
		if b[w] && asked[w] {
			return true
		}
	}
	return false
}

// sameWords reports whether two episodes are the same person's words (a
// prompt and the exchange that holds it).
func sameWords(a, b string) bool {
	return strings.TrimSpace(ownWords(a)) == strings.TrimSpace(ownWords(b))
}

// sharesTopic reports whether two episodes share a content word.
func sharesTopic(a, b map[string]bool) bool {
	for w := range a {
		if b[w] {
			return true
		}
	}
	return false
}

// numberRE finds the numbers a message gives a thing: a version ("14",
// "3.12"), a port, a time ("9:30").
var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b\d+(?:[.:]\d+)*\b`) })

// newNumber reports whether the newer message gives a number the older
// does not and drops one the older gave: "we're on postgres 14", then
// "sorry, it's Postgres 16". topicWords leaves numbers out (two digits
// are too short to make a topic), so saysMore cannot see them change.
func newNumber(older, newer string) bool {
	o := numberRE().FindAllString(ownWords(older), -1)
	n := numberRE().FindAllString(ownWords(newer), -1)
	return slices.ContainsFunc(o, func(x string) bool { return !slices.Contains(n, x) }) &&
		slices.ContainsFunc(n, func(x string) bool { return !slices.Contains(o, x) })
}

// saysMore reports whether the older episode holds a word the newer one
// lacks: the value that changed.
func saysMore(older, newer map[string]bool) bool {
	for w := range older {
		if !newer[w] {
			return true
		}
	}
	return false
}

// outdatedRules marks a shown guideline that tells Claude to use a value
// a shown fact says was replaced: "Never use npm; use pnpm" beside
// "Project uses Bun as its package manager (earlier: pnpm)" is no longer
// current, now Bun. A rule that forbids the old value ("never use pnpm")
// or names the new one as well is left as it is.
func outdatedRules(beliefs []BeliefHit, states map[string]store.Belief) []BeliefHit {
	type change struct{ old, now string }
	var changes []change
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || st.Kind != belief.KindFact || b.Earlier == "" || b.SupersededBy != "" || b.Contested {
			continue
		}
		changes = append(changes, change{b.Earlier, displayObject(st.Object)})
	}
	if len(changes) == 0 {
		return beliefs
	}
	out := beliefs
	for i, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || st.Kind != belief.KindGuideline || b.SupersededBy != "" {
			continue
		}
		padded := " " + wordText(b.Statement) + " "
		for _, c := range changes {
			if mentions(padded, c.now) || !prescribes(b.Statement, c.old) {
				continue
			}
			if &out[0] == &beliefs[0] {
				out = slices.Clone(beliefs)
			}
			out[i].SupersededBy = c.now
			break
		}
	}
	return out
}

// forbidding are the words before a value that say not to use it.
var forbidding = map[string]bool{"never": true, "not": true, "don't": true, "dont": true, "no": true,
	"avoid": true, "instead": true, "than": true, "without": true, "stop": true, "nor": true,
	"don": true, "over": true}

// prescribes reports whether a rule names value other than to forbid it:
// "use pnpm", not "never use pnpm" or "pnpm rather than npm" for npm.
func prescribes(rule, value string) bool {
	words := strings.Fields(wordText(rule))
	name := strings.Fields(wordText(value))
	if len(name) == 0 {
		return false
	}
	found := false
	for i := 0; i+len(name) <= len(words); i++ {
		if !slices.Equal(words[i:i+len(name)], name) {
			continue
		}
		forbidden := false
		for j := max(0, i-3); j < i; j++ {
			if forbidding[words[j]] {
				forbidden = true
			}
		}
		if forbidden {
			return false
		}
		found = true
	}
	return found
}

// doubtsAny reports whether an episode casts doubt on one of the slots.
func doubtsAny(truths []slotTruth, e EpisodeHit) bool {
	for _, t := range truths {
		if t.judge(e.Text, e.CreatedAt.UnixMilli()).doubt {
			return true
		}
	}
	return false
}

// namedSlot reports whether the slot's values are names — a person, a
// company, a place — rather than tools or versions, which have rules of
// their own; and whether the prompt needs it, so its cues are known.
func (t slotTruth) namedSlot() bool {
	return len(t.cues) > 0 && len(t.category) == 0 && t.versionOf == nil
}

// notNames are capitalised words that name no value: the days and months,
// and the words a sentence starts with after a dash or a colon.
var notNames = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true,
	"friday": true, "saturday": true, "sunday": true, "january": true, "february": true, "march": true,
	"april": true, "may": true, "june": true, "july": true, "august": true, "september": true,
	"october": true, "november": true, "december": true, "i": true, "i'm": true, "i've": true, "i'll": true,
	"i'd": true, "ok": true, "okay": true, "thanks": true, "please": true}

// namesAnother reports whether text names, with a capital letter and not
// at the start of a sentence, a name none of whose words is one of the
// current value's: "it's Dana Liu" when the value is kevin park. Short
// all-capital words (API, PR, CET) are not taken for names.
func namesAnother(text string, current []string) bool {
	cur := map[string]bool{}
	for _, c := range current {
		for _, w := range strings.Fields(wordText(c)) {
			cur[w] = true
		}
	}
	start := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
		atStart := start
		start = strings.ContainsAny(f[len(f)-1:], ".!?:;")
		if w == "" || atStart {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(w)
		if !unicode.IsUpper(r) || notNames[lower] || cur[lower] || len(w) <= 4 && strings.ToUpper(w) == w {
			continue
		}
		return true
	}
	return false
}

// namedSlotWords returns the words that speak of the shown exclusive slots
// whose values are names (a person, a company, a place: no tool category,
// no version), their nouns and the words of their cues, and the lowercase
// names of those slots' shown values.
func namedSlotWords(beliefs []BeliefHit, states map[string]store.Belief) (words, values []string, personal bool) {
	seen := map[string]bool{}
	personal = true
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || st.Kind != belief.KindFact || !relations.IsExclusive(st.Predicate) {
			continue
		}
		rel, ok := relations.ByPredicate(st.Predicate)
		if !ok || rel.Category != "" || rel.VersionOf != "" {
			continue
		}
		personal = personal && st.Subject == extract.SubjectUser
		values = append(values, valueNames(st.Object)...)
		for _, c := range append(slices.Clone(rel.Nouns), rel.Cues...) {
			for _, w := range strings.Fields(wordText(c)) {
				if len(w) > 3 && !seen[w] && !topicStop[w] && !slices.Contains(rel.Ambiguous, c) {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
	}
	if len(words) > 24 {
		words = words[:24]
	}
	return words, values, personal && len(words) > 0
}

// leavingWords say a person left the place a named slot gave them: "Tom
// left", "Ana quit", "Ravi retired", "she stepped down", "Mia is leaving".
var leavingWords = []string{"left", "quit", "resigned", "retired", "stepped", "leaving", "departed", "moved"}
