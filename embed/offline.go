package embed

import (
	"context"
	"fmt"
	"math"
	"sync"
)

const (
	// offlineVersion names the feature recipe. Any change to the weights,
	// tokenizer, stemmer or lexicon moves vectors, so it must bump this and
	// with it the embedder ID, which makes `credence reindex` re-embed.
	offlineVersion = 1
	// OfflineDim is the offline embedder's vector length. 384 matches the
	// small sentence-transformer models, keeps an F32_BLOB at 1.5 KiB, and
	// leaves the hashing noise between unrelated texts near 0.05.
	OfflineDim = 384
	// maxOfflineInput is how many bytes of a text the offline embedder
	// reads. The claims it compares are sentences; the cap bounds the work
	// a pasted log or binary blob can cause in the hook hot path.
	maxOfflineInput = 8 << 10
)

// featureWeights sets how much each kind of feature counts. The values in
// offlineWeights were chosen on testdata/pairs.jsonl (docs/EMBEDDERS.md).
type featureWeights struct {
	word     float64 // a content word
	stop     float64 // a stop word: enough that "use X" differs from "X"
	bigram   float64 // two content words in order within a clause
	chars    float64 // all 3-5 byte n-grams of one word together
	class    float64 // the relation class of a known tool ("pkgmanager")
	slot     float64 // the word before a known tool, paired with its class
	entity   float64 // multiplier for names: known tools, capitalized words, numbers
	light    float64 // multiplier for verbs that carry little ("use", "prefer")
	negKeep  float64 // multiplier for a word inside a negation's scope
	negation float64 // the negated twin of a word inside a negation's scope
}

// offlineWeights are the weights of offline-v1.
var offlineWeights = featureWeights{
	word:     1.0,
	stop:     0.1,
	bigram:   0.25,
	chars:    0.25,
	class:    0.8,
	slot:     0.8,
	entity:   2.0,
	light:    0.3,
	negKeep:  0.3,
	negation: 1.2,
}

// Hash seeds keep feature kinds apart: the stop word "us" and the stem of
// "use" must not land on the same feature.
const (
	seedWord uint64 = iota + 1
	seedStop
	seedBigram
	seedChars
	seedClass
	seedSlot
	seedNegated
	seedEmpty
)

// Offline is the built-in embedder: signed feature hashing of words, word
// bigrams, character n-grams and developer-domain synonyms into OfflineDim
// dimensions. It is deterministic, pure Go, needs nothing downloaded and is
// safe for concurrent use.
type Offline struct {
	id  string
	dim int
	w   featureWeights
}

// NewOffline returns the built-in offline embedder.
func NewOffline() *Offline {
	return newOffline(OfflineDim, offlineWeights)
}

// newOffline builds an offline embedder with other settings, for the
// calibration experiments; the package exposes only the shipped one.
func newOffline(dim int, w featureWeights) *Offline {
	return &Offline{id: fmt.Sprintf("offline-v%d-%d", offlineVersion, dim), dim: dim, w: w}
}

// ID returns "offline-v<version>-<dim>", e.g. "offline-v1-384".
func (o *Offline) ID() string { return o.id }

// Dim returns OfflineDim.
func (o *Offline) Dim() int { return o.dim }

// Embed returns one unit-length vector per text. Only the first 8 KiB of a
// text count. A text with no words (empty, punctuation, binary) gets the
// same fixed vector, which is unit length and unrelated to real text.
func (o *Offline) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedEach(ctx, "offline", texts, o.embedOne)
}

// embedEach embeds texts one by one with a built-in embedder, stopping when
// ctx is done.
func embedEach(ctx context.Context, name string, texts []string, one func(string) []float32) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s embed text %d of %d: %w", name, i+1, len(texts), err)
		}
		out[i] = one(t)
	}
	return out, nil
}

// scratch holds the per-call buffers so a hook embedding one query does not
// allocate more than its result and one lowercased copy of the text.
type scratch struct {
	tz  tokenizer
	bag featureBag
}

var scratchPool = sync.Pool{New: func() any { return &scratch{bag: newFeatureBag(256)} }}

func (o *Offline) embedOne(text string) []float32 { return o.embedTokens(text, nil) }

// embedTokens returns the vector of text and, when see is not nil, hands
// see the text's tokens first (they are valid only during the call), so
// the static embedder tokenizes once for both of its parts.
func (o *Offline) embedTokens(text string, see func([]token)) []float32 {
	if len(text) > maxOfflineInput {
		text = text[:maxOfflineInput]
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	tokens := sc.tz.tokenize(text)
	if see != nil {
		see(tokens)
	}
	bag := &sc.bag
	bag.reset()
	o.addFeatures(bag, tokens)
	if bag.len() == 0 {
		bag.add(hashString(seedEmpty, ""), 1)
	}
	return bag.project(o.dim)
}

// isContrast reports whether a word puts what follows it on the losing
// side of a choice: "use X instead of Y", "X rather than Y". "over" does the
// same after a preference ("prefer X over Y") and is an ordinary word
// otherwise ("over HTTP").
func isContrast(word string, preferred bool) bool {
	switch word {
	case "instead", "rather", "than":
		return true
	case "over":
		return preferred
	}
	return false
}

// addFeatures turns tokens into weighted hashed features.
func (o *Offline) addFeatures(bag *featureBag, tokens []token) {
	w := &o.w
	lx, stop := builtLexicon(), stopWords()
	var prev uint64
	havePrev, negated, preferred := false, false, false
	for i := 0; i < len(tokens); i++ {
		tok := tokens[i]
		if tok.clause {
			havePrev, negated, preferred = false, false, false
		}
		if isContrast(tok.text, preferred) {
			bag.add(hashString(seedStop, tok.text), w.stop)
			negated = true
			continue
		}
		if stop[tok.text] {
			bag.add(hashString(seedStop, tok.text), w.stop)
			continue
		}
		e := lx.lookup(stem(tok.text))
		if e.phraseHead && i+1 < len(tokens) && !tokens[i+1].clause {
			if p, ok := lx.phrases[[2]string{stem(tok.text), stem(tokens[i+1].text)}]; ok {
				e = lx.lookup(p)
				e.renamed = true
				i++
			}
		}
		s := e.canonical
		classes := e.classes
		if e.ambiguous && !tok.proper {
			classes = nil
		}
		weight := w.word
		switch {
		case e.light:
			weight *= w.light
		case tok.proper || len(classes) > 0 || hasDigit(s):
			weight *= w.entity
		}
		h := hashString(seedWord, s)
		switch {
		case s == lx.negation:
			// Everything after a negation in the same clause is negated:
			// "don't use docker" keeps some of "use docker" and adds its
			// negated twin, so it is related to "use docker", not the same.
			negated = true
		case negated:
			bag.add(hashString(seedNegated, s), weight*w.negation)
			weight *= w.negKeep
		case s == lx.prefer:
			preferred = true
		}
		bag.add(h, weight)
		for _, class := range classes {
			hc := hashString(seedClass, class)
			bag.add(hc, w.class)
			// The slot feature: the same predicate with any object of the
			// class ("prefer" + a package manager), which is what related
			// claims share.
			if havePrev {
				bag.add(mix(prev*0x9e3779b97f4a7c15^hc^seedSlot), w.slot)
			}
		}
		if havePrev {
			bag.add(mix(prev*0x9e3779b97f4a7c15^h^seedBigram), w.bigram)
		}
		prev, havePrev = h, true
		// A word the lexicon renamed spells its n-grams from the canonical
		// form, so "favour" and "prefer" agree on those too.
		grams := tok.text
		if e.renamed {
			grams = s
		}
		addCharGrams(bag, grams, w.chars)
	}
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			return true
		}
	}
	return false
}

// addCharGrams adds the 3- to 5-byte n-grams of "<tok>" with a total weight
// of total, however long the token is.
func addCharGrams(bag *featureBag, tok string, total float64) {
	if len(tok) > maxTokenBytes {
		tok = tok[:maxTokenBytes]
	}
	padded := len(tok) + 2
	count := 0
	for n := 3; n <= 5; n++ {
		count += max(0, padded-n+1)
	}
	if count == 0 {
		return
	}
	w := total / math.Sqrt(float64(count))
	at := func(i int) byte {
		switch i {
		case 0:
			return '<'
		case padded - 1:
			return '>'
		}
		return tok[i-1]
	}
	// One pass per start position hashes its 3-, 4- and 5-gram together.
	for start := 0; start+3 <= padded; start++ {
		h := fnvOffset ^ seedChars
		for i := start; i < start+5 && i < padded; i++ {
			h ^= uint64(at(i))
			h *= fnvPrime
			if i-start >= 2 {
				bag.add(mix(h), w)
			}
		}
	}
}
