package recall

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/embed/wordvec"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/internal/lazyre"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// A prompt that speaks of what a fact is about gets the fact, whatever
// else the two share: "what should I get my wife for our anniversary?"
// is about the wife "User's wife's name is Ingrid" names, "the login
// sessions keep getting lost" about the session store "we use Redis as
// the session store" names. A fact is about its slot: the nouns of its
// predicate and of the relation behind it ("uses_ci" is the CI, the
// pipeline, the builds), and the person or thing it is said of ("user's
// daughter"). The prompt names a slot when one of its words is that noun
// (stemmed) or its near neighbour in the pretrained word vectors ("kid"
// and "son", "car" and "brake" are not; "cats" and "cat", "review" and
// "reviewers" are). The slot noun is what links, never the value or the
// rest of the episode: "fix the flaky test — btw our CI is on Buildkite"
// is about the CI, not about tests.

// neighbourCos is the word-vector cosine from which two words count as
// naming the same thing. The table's vectors have their principal
// components removed, so unrelated words sit near 0, but "message" and
// "text" reach 0.57, "email" and "address" 0.52: the bar is high, and a
// neighbour link is mostly a word's other form ("cats" and "cat" 0.71,
// "sessions" and "session" 0.79) or a close sibling ("daughter" and "son"
// 0.80).
const neighbourCos = 0.6

// maxLinkChecks bounds the episodes, per recall, whose facts are read to
// see whether they link to the prompt: reading runs the extractor (about
// 0.1-0.2 ms an episode, memoized in a Cache).
const maxLinkChecks = 12

// genericSlotWords are words of slot names too general to say what a
// fact is about ("name" is every name, "main" every branch).
var genericSlotWords = map[string]bool{
	"name": true, "first": true, "full": true, "main": true, "primary": true, "default": true,
	"current": true, "new": true, "code": true, "data": true, "type": true, "time": true,
	"uses": true, "use": true, "is": true, "are": true, "in": true, "at": true, "with": true,
	"for": true, "of": true, "to": true, "has": true, "have": true, "user": true, "project": true,
	"the": true, "my": true, "our": true, "and": true, "on": true, "from": true, "by": true,
	"work": true, "thing": true, "stuff": true, "part": true, "one": true, "way": true,
}

// linkWord is a content word of the prompt: its stem and, when the word
// table has it, its vector.
type linkWord struct {
	stem string
	vec  []float32
	// owned: the prompt says whose it is ("my manager", "our region").
	owned bool
	// ambiguous: the word, stemmed, is an ambiguous slot noun ("cache"
	// is "caching" too).
	ambiguous bool
	// ours: the prompt speaks of the person or the project ("we", "I",
	// "this service", "the api", "locally"), not of the world ("what's the
	// default port for SSH?").
	ours bool
}

// deictic words make a prompt about the person or the project.
var deictic = map[string]bool{"my": true, "our": true, "we": true, "us": true, "i": true, "me": true, "i'm": true,
	"we're": true, "here": true, "locally": true, "local": true, "ours": true, "mine": true}

// ourParts are the parts of a project "the" or "this" points at.
var ourParts = map[string]bool{"api": true, "app": true, "service": true, "project": true, "repo": true, "backend": true,
	"frontend": true, "server": true, "site": true, "codebase": true, "worker": true, "db": true, "database": true}

// promptLinkWords returns the prompt's content words that can name a
// slot: the FTS terms of the query, at least three letters, not generic.
func promptLinkWords(text string) []linkWord {
	q := store.MatchQuery(cutQuery(text), 32)
	if q == "" {
		return nil
	}
	t, _ := wordvec.Default()
	owned := map[string]bool{}
	toks := strings.FieldsFunc(strings.ToLower(cutQuery(text)), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	ours := false // the prompt speaks of us: "the api locally", "this service", "we"
	for i, tok := range toks {
		if deictic[tok] || (tok == "the" || tok == "this") && i+1 < len(toks) && ourParts[toks[i+1]] {
			ours = true
		}
		if tok == "my" || tok == "our" || tok == "your" {
			for j := i + 1; j < len(toks) && j <= i+3; j++ {
				owned[strings.TrimSuffix(toks[j], "'s")] = true // "my partner's birthday"
			}
		}
	}
	// An ambiguous slot noun led by another noun is a thing of another
	// sense: "a context manager", "the file name", "a cron job".
	compound := map[string]bool{}
	for i := 1; i < len(toks); i++ {
		if ambiguousStems()[stem(toks[i])] && !slotQualifier(toks[i-1]) {
			compound[toks[i]] = true
		}
	}
	var out []linkWord
	for _, w := range strings.Split(q, " OR ") {
		w = strings.Trim(w, `"`)
		if len(w) < 3 || genericSlotWords[w] || !hasLetterRune(w) {
			continue
		}
		lw := linkWord{stem: stem(w), owned: owned[w], ours: ours}
		lw.ambiguous = ambiguousStems()[lw.stem]
		if lw.ambiguous && compound[w] {
			lw.ours = false // only "my context manager" would still be someone's
		}
		if t != nil {
			lw.vec = wordVector(t, w)
		}
		out = append(out, lw)
	}
	return out
}

// slotQualifiers are the words that may lead an ambiguous slot noun in
// its slot's sense: "the dev port", "my line manager", "our default
// region", "which job".
var slotQualifiers = map[string]bool{"dev": true, "local": true, "default": true, "line": true, "new": true,
	"current": true, "old": true, "previous": true, "former": true, "direct": true, "skip": true, "actual": true,
	"full": true, "real": true, "first": true, "last": true, "staging": true, "prod": true, "production": true,
	"http": true, "https": true, "ssh": true, "debug": true, "admin": true, "engineering": true, "team": true,
	"which": true, "what": true, "whose": true, "that": true, "open": true, "same": true, "other": true,
	"day": true, "legal": true, "display": true, "work": true, "aws": true, "cloud": true,
	// function words, and the verbs said of a person without an article
	// ("ask manager", "cc boss")
	"your": true, "his": true, "her": true, "their": true, "some": true, "any": true, "each": true, "every": true,
	"no": true, "as": true, "into": true, "about": true, "like": true, "than": true, "do": true, "does": true,
	"did": true, "be": true, "been": true, "if": true, "when": true, "where": true, "who": true, "how": true,
	"why": true, "can": true, "should": true, "could": true, "would": true, "will": true, "please": true,
	"ask": true, "tell": true, "ping": true, "email": true, "message": true, "cc": true, "notify": true, "send": true}

// slotQualifier reports whether word, before an ambiguous slot noun,
// leaves it in its slot's sense: a function word, a possessive, a number,
// a part of the project ("the api port") or a qualifier of the slot.
func slotQualifier(word string) bool {
	w := strings.TrimSuffix(word, "'s")
	return w != word || slotQualifiers[w] || ourParts[w] || deictic[w] || stopNoun[w] || !hasLetterRune(w) || len(w) < 3
}

func hasLetterRune(w string) bool {
	for _, r := range w {
		if r >= 'a' && r <= 'z' {
			return true
		}
	}
	return false
}

// wordVector returns a word's vector from the table, nil when absent.
func wordVector(t *wordvec.Table, w string) []float32 {
	i, ok := t.Find(w)
	if !ok {
		return nil
	}
	v := make([]float32, t.Dim())
	t.AddTo(v, i, 1)
	return v
}

// slotWords returns the words that say what a fact of subject and
// predicate is about: the noun of a possessive subject ("user's wife"),
// the words of the predicate, and the nouns of its relation.
func slotWords(subject, predicate string) []string {
	var words []string
	add := func(phrase string) {
		for _, w := range strings.FieldsFunc(strings.ToLower(phrase), func(r rune) bool {
			return r == ' ' || r == '_' || r == '-' || r == '/'
		}) {
			if len(w) >= 2 && !genericSlotWords[w] {
				words = append(words, w)
			}
		}
	}
	if _, rest, ok := strings.Cut(subject, "'s "); ok {
		add(rest) // "user's wife"
	} else if subject != extract.SubjectUser && subject != extract.SubjectProject && subject != "assistant" {
		add(subject) // "design system" located in packages/ui
	}
	r, known := relations.ByPredicate(predicate)
	if !known {
		// an open slot is named by its predicate: "commute_is"
		add(strings.TrimSuffix(strings.TrimSuffix(predicate, "_is"), "_are"))
		return words
	}
	// A known relation by its nouns only, not its predicate's words
	// ("lives_in" is no answer to "explain live reload").
	for _, n := range r.Nouns {
		// The head of each noun: "text editor" is an editor, not text.
		f := strings.Fields(n)
		add(f[len(f)-1])
	}
	return words
}

// ambiguousStems are ambiguousWords, stemmed.
var ambiguousStems = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range ambiguousWords() {
		m[stem(w)] = true
	}
	return m
})

// ambiguousWords are the slot nouns the relations table marks as common
// words in other senses ("port", "region", "manager", "cache"): a prompt
// names such a slot only as someone's ("my manager", "our region"), not in
// "what's a region in Rust's borrow checker?".
var ambiguousWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range relations.All() {
		for _, a := range r.Ambiguous {
			f := strings.Fields(a)
			m[f[len(f)-1]] = true
		}
	}
	return m
})

// slotAnchor is a word a fact is about, stemmed, with its vector.
type slotAnchor struct {
	stem string
	vec  []float32
	// ambiguous: the word has other common senses; only a possessed
	// prompt word links to it.
	ambiguous bool
}

// kinClasses are the words a person uses for the people and animals of
// their household as a class: "my kid" is the daughter, "my dog" the
// beagle. A fact about someone of the person's is also about the class
// whose word its noun is near (cosine ≥ kinCos), for a prompt that says
// whose ("my kid", not "a child node").
var kinClasses = []string{"dog", "cat", "pet", "kid", "child", "baby", "partner", "spouse", "parent", "sibling"}

// kinCos is the word-vector cosine from which a noun belongs to a kin
// class: "beagle" is a dog at 0.36, "daughter" a kid at 0.39.
const kinCos = 0.35

// kinAnchors returns the kin classes a noun belongs to, as ambiguous
// anchors.
func kinAnchors(t *wordvec.Table, noun string) []slotAnchor {
	if as, ok := kinMemo.Load(noun); ok {
		return as.([]slotAnchor)
	}
	var out []slotAnchor
	if v := wordVector(t, noun); v != nil {
		for _, k := range kinClassAnchors(t) {
			if k.stem != stem(noun) && embed.Cosine(v, k.vec) >= kinCos {
				out = append(out, k)
			}
		}
	}
	kinMemo.Store(noun, out)
	return out
}

// kinMemo keeps the kin classes of each noun seen; nouns are few.
var kinMemo sync.Map

// kinClassAnchors are the kin classes as anchors, read from the table once.
var kinClassAnchors = func(t *wordvec.Table) []slotAnchor {
	kinOnce.Do(func() {
		for _, k := range kinClasses {
			if kv := wordVector(t, k); kv != nil {
				kinClassVecs = append(kinClassVecs, slotAnchor{stem: stem(k), vec: kv, ambiguous: true})
			}
		}
	})
	return kinClassVecs
}

var (
	kinOnce      sync.Once
	kinClassVecs []slotAnchor
)

// anchorsOf returns the slot words of facts, stemmed and with vectors.
func anchorsOf(facts []extract.Fact) []slotAnchor {
	t, _ := wordvec.Default()
	seen := map[string]bool{}
	var out []slotAnchor
	for _, f := range facts {
		if f.Kind != extract.KindFact || f.Negated {
			continue
		}
		for _, w := range slotWords(f.Subject, f.Predicate) {
			st := stem(w)
			if seen[st] {
				continue
			}
			seen[st] = true
			a := slotAnchor{stem: st, ambiguous: ambiguousWords()[w]}
			if t != nil {
				a.vec = wordVector(t, w)
			}
			out = append(out, a)
		}
		if _, noun, ok := strings.Cut(f.Subject, "'s "); ok && t != nil && !strings.Contains(noun, " ") {
			for _, k := range kinAnchors(t, noun) {
				if !seen[k.stem] {
					seen[k.stem] = true
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// linked reports whether a prompt word names one of the anchors: the same
// word, or a close neighbour of a word the prompt says is someone's ("my
// kid"): a neighbour in a general question ("the first child node") is a
// sense too far.
func linked(words []linkWord, anchors []slotAnchor) bool {
	for _, a := range anchors {
		for _, w := range words {
			if (a.ambiguous || w.ambiguous) && !w.owned && !w.ours {
				continue
			}
			if w.stem == a.stem {
				return true
			}
			if w.owned && w.vec != nil && a.vec != nil && embed.Cosine(w.vec, a.vec) >= neighbourCos {
				return true
			}
		}
	}
	return false
}

// beliefLinked reports whether a fact belief is about what the prompt
// names.
func (s *search) beliefLinked(b store.Belief) bool {
	if len(s.links) == 0 || b.Kind != belief.KindFact || b.Predicate == "" {
		return false
	}
	if linked(s.links, anchorsOf([]extract.Fact{{Kind: extract.KindFact, Subject: b.Subject, Predicate: b.Predicate}})) {
		return true
	}
	return s.asks != 0 && beliefAnswers(b)&s.asks != 0 && sharesWord(s.links, b.Statement)
}

// answerKinds are the kinds of answer a question asks for or a fact
// gives, as bits.
type answerKinds uint8

const (
	answerPerson answerKinds = 1 << iota // who
	answerTime                           // when
	answerPlace                          // where
)

// factRes are the expressions of this file, compiled on first use.
var factRes lazyre.Set

var (
	askWho   = factRes.New(`\bwho(?:m|se)?\b`)
	askWhen  = factRes.New(`\bwhen\b|\bwhat time\b|\bwhich day\b|\bhow often\b`)
	askWhere = factRes.New(`\bwhere\b`)
	// ruleShaped marks the words of a standing rule: what always or never
	// holds, what is required, banned or to be avoided.
	ruleShaped = factRes.New(`(?i)\b(?:always|never|don'?t|do not|must(?:n'?t)?|should(?:n'?t)?|banned|not allowed|(?:are|is)n'?t allowed|forbidden|prohibited|off[- ]limits|avoid|required|only use|no exceptions)\b`)
	// timeValue is a time, a day or a cadence: "2:30", "9am", "every
	// second Tuesday", "March 3rd", "nightly".
	timeValue = factRes.New(`\b\d{1,2}:\d{2}\b|\b\d{1,2} ?(?:am|pm)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:january|february|march|april|june|july|august|september|october|november|december)\b|\b(?:daily|nightly|weekly|monthly|hourly|every)\b`)
)

// ownsSomething reports whether a prompt speaks of something of the
// person's: "my dog", "my kid's school".
func ownsSomething(prompt string) bool {
	for _, l := range promptLinkWords(prompt) {
		if l.owned {
			return true
		}
	}
	return false
}

// asksFor reads the kind of answer a prompt asks for.
func asksFor(prompt string) answerKinds {
	q := strings.ToLower(cutQuery(prompt))
	var k answerKinds
	if askWho().MatchString(q) {
		k |= answerPerson
	}
	if askWhen().MatchString(q) {
		k |= answerTime
	}
	if askWhere().MatchString(q) {
		k |= answerPlace
	}
	return k
}

// beliefAnswers reads the kinds of answer a fact belief gives: a person
// for a role or an owner, a time for a date or a schedule, a place for a
// residence, a host or an address.
func beliefAnswers(b store.Belief) answerKinds {
	var k answerKinds
	p := b.Predicate
	switch {
	case p == "manager_is", p == "tech_lead_is", p == "product_manager_is", strings.HasSuffix(p, "_owner_is"),
		strings.HasSuffix(p, "_owners_is"), p == "name_is" && strings.Contains(b.Subject, "'s "):
		k |= answerPerson
	case p == "lives_in", p == "is_from", p == "located_in", p == "deploys_with", strings.Contains(p, "url"):
		k |= answerPlace
	case p == "birthday_is", p == "deadline_is", p == "has_meeting":
		k |= answerTime
	}
	if timeValue().MatchString(strings.ToLower(b.Object)) {
		k |= answerTime
	}
	return k
}

// sharesWord reports whether text holds one of the prompt's content words
// (stemmed).
func sharesWord(words []linkWord, text string) bool {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(cutBytes(text, maxEpisodeRead)), notWordRune) {
		have[stem(w)] = true
	}
	for _, w := range words {
		if len(w.stem) >= 4 && have[w.stem] {
			return true
		}
	}
	return false
}

// episodeLinked reports whether a fact the person states in an episode is
// about what the prompt names. It reads at most maxLinkChecks episodes a
// recall.
func (s *search) episodeLinked(id, text string) bool {
	if len(s.links) == 0 || s.linkChecks >= maxLinkChecks {
		return false
	}
	s.linkChecks++
	ef := s.anchors.of(id, text)
	if linked(s.links, ef.anchors) {
		return true
	}
	if s.asks&answerTime != 0 && len(ef.anchors) > 0 && timeValue().MatchString(strings.ToLower(cutBytes(ownWords(text), maxEpisodeRead))) {
		// a when-question and a fact that gives a time; read only then,
		// the expression is the costliest part of the reading
		ef.answers |= answerTime
	}
	// "write tests for the OrderRepository" and "mocking the database in
	// tests is banned here": a rule the person set for what the prompt
	// names, whatever else the two share; the extractor may not have
	// read it as one.
	if own := ownWords(text); !isQuestion(text) && ruleShaped().MatchString(own) && sharesWord(s.links, own) {
		return true
	}
	// "how should I cite a software package in my thesis?" and "I am
	// writing my master thesis in LaTeX, with biblatex": a thing of the
	// person's own in both, whatever the extractor read of the message.
	if !isQuestion(text) && sharesOwned(s.links, ownWords(text)) {
		return true
	}
	// "who should review my PR?" and "Oskar is the maintainer of this
	// repo, he reviews everything": a question for a person, an episode
	// that names one for something the question names.
	return s.asks != 0 && ef.answers&s.asks != 0 && sharesWord(s.links, ownWords(text))
}

// sharesOwned reports whether a message says "my" or "our" of a thing the
// prompt says is the person's ("my thesis", "my sister"), other than the
// things of the work at hand ("my code", "my test"), which every coding
// session has.
func sharesOwned(links []linkWord, own string) bool {
	toks := strings.FieldsFunc(strings.ToLower(cutBytes(own, maxEpisodeRead)), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for i, tok := range toks {
		if tok != "my" && tok != "our" {
			continue
		}
		for j := i + 1; j < len(toks) && j <= i+3; j++ {
			w := strings.TrimSuffix(toks[j], "'s")
			if workThings[w] {
				break
			}
			if ownedModifiers[w] {
				continue // "my new thesis"
			}
			st := stem(w)
			if slices.ContainsFunc(links, func(l linkWord) bool { return l.owned && l.stem == st }) {
				return true
			}
		}
	}
	return false
}

// workThings are the things of the work at hand that everyone calls
// theirs, which link nothing: "my code", "our tests", "my branch".
var workThings = map[string]bool{"code": true, "test": true, "tests": true, "function": true, "file": true,
	"files": true, "branch": true, "pr": true, "commit": true, "commits": true, "build": true, "script": true,
	"query": true, "app": true, "project": true, "repo": true, "repository": true, "laptop": true,
	"machine": true, "computer": true, "terminal": true, "screen": true, "question": true, "answer": true,
	"message": true, "changes": true, "change": true, "work": true, "time": true, "day": true, "life": true,
	"head": true, "mind": true, "way": true, "thing": true, "things": true, "stuff": true, "fault": true,
	"point": true, "task": true, "tasks": true, "ticket": true, "issue": true, "bug": true, "error": true,
	"output": true, "logs": true, "setup": true, "config": true, "side": true, "end": true, "service": true,
	"api": true, "server": true, "data": true}

// ownedModifiers say which of the person's things, never what it is: "my
// new thesis", "my own dog".
var ownedModifiers = map[string]bool{"own": true, "local": true, "current": true, "new": true, "old": true,
	"first": true, "last": true, "next": true, "best": true, "favorite": true, "favourite": true, "little": true,
	"big": true, "older": true, "younger": true}

// anchorMemo keeps the slot anchors read from episodes, like claimMemo.
type anchorMemo struct{ memo[episodeFacts] }

// episodeFacts is what the facts an episode states are about, and the
// kinds of answer they give.
type episodeFacts struct {
	anchors []slotAnchor
	answers answerKinds
}

func (m *anchorMemo) of(id, text string) episodeFacts {
	if m == nil {
		return readEpisodeFacts(text)
	}
	return m.get(id, text, readEpisodeFacts)
}

// episodeAnchors reads what the facts the person states in an episode are
// about, by a light reading of their grammar (the extractor's first run in
// a one-shot hook process costs more than the hook's whole budget):
//
//   - a possessed noun said to be something or named: "my commute is
//     about 50 minutes", "our CI is on Buildkite", "my daughter Mila has
//     chickenpox", "my sister, Ana, …", "Mila is my daughter";
//   - what one has that is named: "I have a beagle named Waffles", "we've
//     got two cats, Pixel and Nori";
//   - what a name is said to be: "Sam and Priya are the code owners for
//     the billing module", "Oskar is the maintainer of this repo";
//   - a part of the project said to be kept or served somewhere: "search
//     is backed by Meilisearch", "we keep the sessions in Redis", "Redis
//     … as the session store";
//   - the slot of every known tool it names ("Honeybadger" is the error
//     tracker).
func readEpisodeFacts(text string) episodeFacts {
	own := cutBytes(ownWords(text), maxEpisodeRead)
	ef := episodeFacts{anchors: episodeAnchors(own)}
	for _, sent := range strings.FieldsFunc(own, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' || r == '\n' }) {
		ef.answers |= sentenceAnswers(sent)
	}
	return ef
}

// sentenceAnswers reads whether a sentence names a person for a role or a
// thing ("Oskar is the maintainer of this repo", "Marta owns the ingestion
// pipeline", "my teammate Arjun") or an address ("staging lives at
// stg.acme.dev").
func sentenceAnswers(sent string) answerKinds {
	ts := tokens(sent)
	var k answerKinds
	paths := 0
	for i, t := range ts {
		r := []rune(t.raw)
		name := len(r) > 1 && unicode.IsUpper(r[0]) && isWordToken(t.low) && !stopNoun[t.low] && i > 0
		if name && i+1 < len(ts) {
			switch ts[i+1].low {
			case "owns", "maintains", "runs", "leads", "reviews", "handles", "approves":
				k |= answerPerson
			case "is", "are":
				if i+2 < len(ts) && (ts[i+2].low == "the" || ts[i+2].low == "our" || ts[i+2].low == "my") {
					k |= answerPerson
				}
			}
		}
		if i == 0 && len(r) > 1 && unicode.IsUpper(r[0]) && i+2 < len(ts) && (ts[1].low == "owns" || ts[1].low == "maintains" || (ts[1].low == "is" || ts[1].low == "are") && (ts[2].low == "the" || ts[2].low == "our" || ts[2].low == "my")) {
			k |= answerPerson
		}
		if strings.Contains(t.low, "://") {
			k |= answerPlace // a URL
		}
		if strings.Contains(t.low, "/") && strings.ContainsFunc(t.low, unicode.IsLetter) {
			paths++
		}
	}
	if paths >= 2 {
		k |= answerPlace // a layout: "apps/ has the frontends, … libs/ shared code"
	}
	return k
}

func episodeAnchors(own string) []slotAnchor {
	var words []string
	for _, sent := range strings.FieldsFunc(own, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' || r == '\n' }) {
		words = append(words, sentenceAnchors(sent)...)
	}
	var facts []extract.Fact
	for _, w := range words {
		// the noun as someone of the person's: "my daughter Mila" is also
		// about the kid
		facts = append(facts, extract.Fact{Kind: extract.KindFact, Subject: extract.SubjectUser + "'s " + w, Predicate: w})
	}
	// A tool named where someone states how things are ("btw our CI is on
	// Buildkite", "errors go to Honeybadger"): written with a capital, or
	// in a sentence with a speaker ("we", "our", "I", "my"). "the
	// difference between a mutex and a semaphore" names no CI.
	own = cutBytes(own, maxEpisodeRead)
	padded := " " + wordText(own) + " "
	speaker := strings.Contains(padded, " we ") || strings.Contains(padded, " our ") || strings.Contains(padded, " i ") ||
		strings.Contains(padded, " my ") || strings.Contains(padded, " we're ") || strings.Contains(padded, " i'm ")
	written := map[string]bool{}
	for _, f := range strings.Fields(own) {
		if r := []rune(strings.Trim(f, ".,;:!?()\"'`")); len(r) > 0 && unicode.IsUpper(r[0]) {
			written[strings.ToLower(string(r))] = true
		}
	}
	for _, tok := range strings.Fields(padded) {
		if pred, ok := toolSlots()[tok]; ok && len(tok) > 2 && (speaker || written[tok]) {
			facts = append(facts, extract.Fact{Kind: extract.KindFact, Subject: extract.SubjectProject, Predicate: pred})
		}
	}
	return anchorsOf(facts)
}

// toolSlots maps each known tool's name and aliases to the predicate of
// its usual category ("buildkite" is uses_ci): a map lookup per word, where
// relations.LookupTool would also try version suffixes.
var toolSlots = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range relations.All() {
		if r.Category == "" {
			continue
		}
		for _, name := range relations.PrimaryToolNames(r.Category) {
			if _, ok := m[name]; !ok {
				m[name] = r.Predicate
			}
		}
	}
	return m
})

// token is a word of a sentence as written and lowercased.
type token struct{ raw, low string }

func tokens(sent string) []token {
	var out []token
	for _, f := range strings.Fields(sent) {
		raw := strings.Trim(f, "\"'()[]`*")
		comma := strings.HasSuffix(raw, ",") || strings.HasSuffix(raw, ":")
		raw = strings.TrimRight(raw, ",:")
		if raw == "" {
			continue
		}
		low := strings.ToLower(raw)
		if low == "we've" || low == "i've" {
			out = append(out, token{raw, strings.TrimSuffix(low, "'ve")}, token{"have", "have"})
			continue
		}
		if strings.HasSuffix(low, "'s") && low != "it's" && low != "that's" && low != "what's" && low != "he's" && low != "she's" {
			out = append(out, token{raw[:len(raw)-2], low[:len(low)-2]}, token{"'s", "'s"})
		} else {
			out = append(out, token{raw, low})
		}
		if comma {
			out = append(out, token{",", ","})
		}
	}
	return out
}

// copulas and naming words that make "my X …" a statement about X.
var statesWords = map[string]bool{"is": true, "are": true, "was": true, "=": true, "named": true, "called": true,
	"lives": true, "works": true, "goes": true, "runs": true, "'s": true, "has": true}

// sentenceAnchors returns the slot nouns one sentence states a fact about.
func sentenceAnchors(sent string) []string {
	ts := tokens(sent)
	var out []string
	noun := func(i int) bool {
		return i < len(ts) && isWordToken(ts[i].low) && !stopNoun[ts[i].low]
	}
	capName := func(i int) bool {
		if i >= len(ts) || !isWordToken(ts[i].low) || stopNoun[ts[i].low] {
			return false
		}
		r := []rune(ts[i].raw)
		return len(r) > 1 && unicode.IsUpper(r[0])
	}
	for i, t := range ts {
		switch t.low {
		case "is", "are", "was", "were", "has", "have":
			// "the docs site is built with Docusaurus", "the backend here
			// is Spring Boot", "the release is on Friday", "the monorepo
			// has three services: api, worker and web"
			out = append(out, definiteSubject(ts, i, noun, capName)...)
		}
		switch t.low {
		case "my", "our":
			if !noun(i + 1) {
				continue
			}
			n := []string{ts[i+1].low}
			j := i + 2
			if j < len(ts) && ts[j].low == "'s" && noun(j+1) { // "my partner's birthday"
				n = append(n, ts[j+1].low)
				j += 2
			} else if noun(j) && !statesWords[ts[j].low] && !capName(j) { // "our container images"
				n = append(n, ts[j].low)
				j++
			}
			switch {
			case j < len(ts) && statesWords[ts[j].low] && ts[j].low != "'s",
				j < len(ts) && ts[j].low == "," && capName(j+1), // "my sister, Ana"
				capName(j), // "my daughter Mila"
				i > 0 && (ts[i-1].low == "is" || ts[i-1].low == "are"): // "Mila is my daughter"
				out = append(out, n...)
			}
		case "have", "got", "own":
			// "I have a beagle named Waffles", "we have got two cats, Pixel"
			j := i + 1
			if j < len(ts) && ts[j].low == "got" {
				j++
			}
			if j < len(ts) && counts[ts[j].low] && noun(j+1) && j+2 < len(ts) &&
				(ts[j+2].low == "named" || ts[j+2].low == "called" || ts[j+2].low == "," && capName(j+3)) {
				out = append(out, ts[j+1].low)
			}
		case "is", "are":
			// "Oskar is the maintainer of this repo", "Sam and Priya are the
			// code owners for the billing module"
			if i > 0 && capName(i-1) && i+1 < len(ts) && (ts[i+1].low == "the" || ts[i+1].low == "our") {
				for k := i + 2; k < len(ts) && k < i+7 && ts[k].low != ","; k++ {
					if noun(k) && !badNoun[ts[k].low] {
						out = append(out, ts[k].low)
					}
				}
			}
			// "search is backed by Meilisearch", "images are pushed to GHCR"
			if i > 0 && noun(i-1) && i+2 < len(ts) && placeVerbs[ts[i+1].low] {
				// the verb too: "write the docker push step" is about where
				// images are pushed
				out = append(out, ts[i-1].low, ts[i+1].low)
			}
		case "as":
			// "we use Redis … as the session store"
			if i+2 < len(ts) && (ts[i+1].low == "the" || ts[i+1].low == "our") && noun(i+2) {
				out = append(out, ts[i+2].low)
				if noun(i + 3) {
					out = append(out, ts[i+3].low)
				}
			}
		case "keep", "store", "host", "push", "publish", "track":
			// "we keep the sessions in Redis"
			if i > 0 && ts[i-1].low == "we" {
				k := i + 1
				if k < len(ts) && (ts[k].low == "the" || ts[k].low == "our" || ts[k].low == "all") {
					k++
				}
				if noun(k) {
					out = append(out, ts[k].low)
				}
			}
		}
	}
	return out
}

// definiteSubject returns the nouns of the subject of a statement whose
// verb is ts[i] ("is", "has"): a noun phrase opened by "the" or "this", or
// the sentence itself ("Deploys are on Fridays"), said to be a value —
// a name, a number, a day, an address — or to have a counted thing ("the
// monorepo has three services"). What is said of the subject is what
// the statement is about: a prompt that names the docs is about "the docs
// site is built with Docusaurus". A state said in common words ("the
// build is red again") states no value and is about nothing lasting.
func definiteSubject(ts []token, i int, noun, capName func(int) bool) []string {
	if i == 0 || interrogatives[ts[0].low] {
		return nil
	}
	k := i - 1
	if ts[k].low == "here" || ts[k].low == "now" {
		k-- // "the backend here is FastAPI"
	}
	var subj []string
	// a capital opens a sentence or writes an acronym ("the API"); a name
	// is no noun of a subject
	written := func(k int) bool { return !capName(k) || k == 0 || ts[k].raw == strings.ToUpper(ts[k].raw) }
	for ; k >= 0 && len(subj) < 3 && noun(k) && !badNoun[ts[k].low] && written(k); k-- {
		subj = append(subj, ts[k].low)
	}
	if len(subj) == 0 || k >= 0 && ts[k].low != "the" && ts[k].low != "this" && ts[k].low != "all" {
		return nil
	}
	if k > 0 && !(ts[k-1].low == "," || ts[k-1].low == "and" || ts[k-1].low == "but" || ts[k-1].low == "so") {
		return nil // the subject must open the sentence or a clause: "why the api is on /v3" states nothing
	}
	if ts[i].low == "has" || ts[i].low == "have" {
		if i+2 < len(ts) && counts[ts[i+1].low] && noun(i+2) {
			return append(subj, ts[i+2].low)
		}
		return nil
	}
	if i+2 < len(ts) && (ts[i+1].low == "called" || ts[i+1].low == "named") {
		return subj // "the worker is called ingestor"
	}
	for j := i + 1; j < len(ts) && j <= i+6 && ts[j].low != ","; j++ {
		if valueLike(ts[j]) || capName(j) && ts[j].raw != strings.ToUpper(ts[j].raw) {
			return subj
		}
	}
	return nil
}

// valueLike reports whether a token is written as a value: a number or a
// version, an address or a path ("stg.acme.dev", "/v3"), a day, a known
// tool.
func valueLike(t token) bool {
	if strings.ContainsAny(t.low, "0123456789") {
		return true
	}
	if inner := strings.Trim(t.low, "./"); strings.ContainsAny(t.low, "/") && strings.ContainsFunc(t.low, unicode.IsLetter) ||
		strings.Contains(inner, ".") && len(inner) > 3 {
		return true
	}
	if _, ok := toolSlots()[t.low]; ok && len(t.low) > 2 {
		return true
	}
	return timeValue().MatchString(t.low)
}

var counts = map[string]bool{"a": true, "an": true, "one": true, "two": true, "three": true, "four": true, "five": true,
	"six": true, "several": true, "2": true, "3": true, "4": true, "5": true, "6": true}

var placeVerbs = map[string]bool{"backed": true, "stored": true, "kept": true, "hosted": true, "pushed": true, "published": true,
	"served": true, "powered": true, "handled": true, "tracked": true, "managed": true, "sent": true, "deployed": true}

// stopNoun are words that cannot be a slot noun after "my", "our", "the".
var stopNoun = map[string]bool{"own": true, "the": true, "a": true, "an": true, "this": true, "that": true, "is": true,
	"are": true, "was": true, "and": true, "or": true, "of": true, "for": true, "in": true, "on": true, "to": true,
	"with": true, "at": true, "by": true, "from": true, "it": true, "its": true, "i": true, "we": true, "you": true,
	"new": true, "old": true, "bad": true, "best": true, "first": true, "last": true, "next": true, "only": true,
	"problem": true, "question": true, "point": true, "guess": true, "code": true, "one": true, "very": true,
	"so": true, "but": true, "not": true, "also": true, "just": true, "now": true, "then": true, "have": true, "has": true}

// badNoun are words inside a noun phrase that say nothing of its own.
var badNoun = map[string]bool{"he": true, "she": true, "they": true, "him": true, "her": true, "them": true,
	"repo": true, "project": true, "team": true, "everything": true, "all": true}

func isWordToken(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return true
}

// identityRE finds the person saying where they live or are, whom they
// work for, which languages they speak: "I'm based in Lisbon", "I'm on
// IST", "I work at a bank", "I speak Portuguese".
var identityRE = factRes.New(`(?i)\b(?:i live|i'm based|i am based|i'm from|i am from|i'm (?:now )?in [A-Z]|i am in [A-Z]|i'm on [A-Z]{2,5}\b|i am on [A-Z]{2,5}\b|i work (?:at|for|in)|i speak|i drive|i do [a-z]+ (?:at|for)|i'm (?:a|an) [a-z]+ (?:at|for)|i(?:'ll| will) be (?:working|living) from|i(?:'ve| have)? (?:just |finally )?(?:moved|relocated) (?:over )?to [A-Z])`)

// projectDeixis are the words that make a message about the project
// rather than the person: a message that holds them stays the project's.
var projectDeixis = map[string]bool{"we": true, "our": true, "us": true, "we're": true, "we've": true, "ours": true,
	"repo": true, "codebase": true, "project": true, "monorepo": true}

// statesTrait reports whether the person says in text, in the first
// person, something a personal slot's words state in passing: "I'm
// vegetarian", "(I only work 6am–1pm btw)", "if you see random characters
// it's our cat walking on the keyboard" (relations.Relation.States).
func statesTrait(text string) bool {
	own := " " + wordText(text) + " "
	if !strings.Contains(own, " i ") && !strings.Contains(own, " i'm ") && !strings.Contains(own, " my ") && !strings.Contains(own, " im ") {
		return false
	}
	for _, r := range personalTraits() {
		for _, w := range r.States {
			if mentions(own, w) {
				return true
			}
		}
	}
	return false
}

// personalTraits are the relations of the person stated in passing.
var personalTraits = sync.OnceValue(func() []relations.Relation {
	var out []relations.Relation
	for _, r := range relations.All() {
		if len(r.States) > 0 && r.Said(extract.SubjectUser) && !r.Said(extract.SubjectProject) {
			out = append(out, r)
		}
	}
	return out
})

// PersonalStatement reports whether a prompt tells something about the
// person — their place, time zone, work, people, things — and nothing
// about the project it was typed in: "my lead is Farah Haddad", "heads
// up, I'm on IST". Such a prompt is the person's wherever it was typed, so
// the hooks store it for every project; a fact about the person told
// while fixing a test in one repository is still true in the next.
func PersonalStatement(text string) bool {
	own := cutBytes(text, maxEpisodeRead)
	for _, w := range strings.FieldsFunc(strings.ToLower(own), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if projectDeixis[w] {
			return false
		}
	}
	if identityRE().MatchString(own) || statesTrait(own) {
		return true
	}
	for _, sent := range strings.FieldsFunc(own, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' || r == '\n' }) {
		if strings.Contains(strings.ToLower(sent), "my ") && len(sentenceAnchors(sent)) > 0 {
			return true
		}
	}
	return false
}
