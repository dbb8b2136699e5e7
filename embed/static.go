package embed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/credence-mem/credence/embed/wordvec"
)

const (
	// staticVersion names the static embedder's recipe: the word table,
	// the word weights and the share of the two parts. Changing any of
	// them moves vectors, so it must bump this (and with it the ID).
	staticVersion = 1
)

// staticWeights set how the static embedder mixes its two parts.
type staticWeights struct {
	// share is the static part's share of the cosine: with both parts
	// unit length, cos = share·cos(word vectors) + (1-share)·cos(hashed).
	share float64
	// sifK sets the smooth-inverse-frequency weight of a word of source
	// rank r: (r+1)/(r+1+sifK). With 200, "the" gets 0.005 and a word of
	// rank 1,000 0.83.
	sifK float64
	// stop multiplies the weight of the offline embedder's stop words.
	stop float64
	// tool is the weight of a known tool's class description ("pnpm" is
	// looked up as "package manager"): GloVe knows "yarn" as thread and
	// "jest" as a joke, and most tool names not at all.
	tool float64
}

// staticDefaults are static-v1's weights, chosen on
// testdata/paraphrase_dev.jsonl and testdata/pairs.jsonl (TestTuneStatic,
// docs/EMBEDDERS.md).
var staticDefaults = staticWeights{share: 0.4, sifK: 200, stop: 0, tool: 1}

// classWords say in plain English what each relation class of the lexicon
// is, for the word vectors of a tool the table does not know as a tool.
var classWords = map[string]string{
	"pkgmanager":  "package manager",
	"runtime":     "runtime",
	"language":    "programming language",
	"editor":      "text editor",
	"testfw":      "testing framework",
	"database":    "database",
	"linter":      "linter formatter",
	"webfw":       "frontend framework",
	"cssfw":       "css styling",
	"bundler":     "javascript bundle",
	"hosting":     "hosting cloud",
	"shell":       "shell terminal",
	"os":          "operating system",
	"vcshost":     "git hosting",
	"ci":          "continuous integration",
	"container":   "container",
	"whitespace":  "indentation",
	"quotes":      "quotes",
	"orm":         "database mapping",
	"httpfw":      "web framework",
	"theme":       "color theme",
	"casing":      "naming case",
	"branch":      "git branch",
	"toolversion": "version manager",
}

// Static is the offline embedder with pretrained word vectors: the
// smooth-inverse-frequency weighted sum of a text's GloVe vectors (package
// wordvec), side by side with the offline embedder's hashed features, which
// carry what the word vectors lack: tool names and identifiers (pnpm,
// vitest), negation, word order. It is deterministic, needs nothing
// downloaded and is safe for concurrent use.
type Static struct {
	id     string
	hashed *Offline
	table  *wordvec.Table
	w      staticWeights
	// classVecs caches each relation class's description vector
	// (class name → []float32), built when a text first names a tool of
	// the class, so a process that embeds one query reads only the pages
	// of the words it uses.
	classVecs sync.Map
}

// NewStatic returns the static embedder on the word table built into the
// binary. It fails only if that table is corrupt, which the tests rule out.
func NewStatic() (*Static, error) {
	t, err := wordvec.Default()
	if err != nil {
		return nil, err
	}
	return newStatic(t, staticDefaults), nil
}

func newStatic(t *wordvec.Table, w staticWeights) *Static {
	s := &Static{hashed: NewOffline(), table: t, w: w}
	s.id = fmt.Sprintf("static-v%d-%d", staticVersion, t.Dim()+s.hashed.Dim())
	return s
}

// ID returns "static-v<version>-<dim>", e.g. "static-v1-484".
func (s *Static) ID() string { return s.id }

// Dim returns the word vectors' dimension plus the hashed features'.
func (s *Static) Dim() int { return s.table.Dim() + s.hashed.Dim() }

// Embed returns one unit-length vector per text: the word-vector part
// first, then the hashed part, weighted so that each contributes its share
// of the cosine. Only the first 8 KiB of a text count.
func (s *Static) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedEach(ctx, "static", texts, s.embedOne)
}

func (s *Static) embedOne(text string) []float32 {
	dim := s.table.Dim()
	out := make([]float32, s.Dim())
	words := out[:dim]
	known := false
	hashed := s.hashed.embedTokens(text, func(tokens []token) { known = s.addWords(words, tokens) })
	a, b := float32(math.Sqrt(s.w.share)), float32(math.Sqrt(1-s.w.share))
	if !known || !unitize(words) {
		// No word the table knows: the hashed part alone, at full length.
		clear(words)
		b = 1
	}
	for d := range words {
		words[d] = float32(words[d] * a)
	}
	for d, x := range hashed {
		out[dim+d] = float32(x * b)
	}
	return Normalize(out)
}

// addWords adds the weighted vectors of the tokens the table knows to dst
// and reports whether there was any.
func (s *Static) addWords(dst []float32, tokens []token) bool {
	lx, stop := builtLexicon(), stopWords()
	found := false
	for _, tok := range tokens {
		isStop := stop[tok.text]
		if isStop && s.w.stop == 0 {
			continue // not even looked up: a lookup touches pages of the table
		}
		e := lx.lookup(stem(tok.text))
		if len(e.classes) > 0 && (!e.ambiguous || tok.proper) {
			w := float32(s.w.tool / float64(len(e.classes)))
			for _, c := range e.classes {
				if v := s.classVec(c); v != nil {
					for d := range dst {
						dst[d] += float32(w * v[d])
					}
					found = true
				}
			}
			continue
		}
		i, ok := s.find(tok.text)
		if !ok {
			continue
		}
		r := float64(s.table.Rank(i) + 1)
		w := r / (r + s.w.sifK)
		if isStop {
			w *= s.w.stop
		}
		if w > 0 {
			s.table.AddTo(dst, i, float32(w))
			found = true
		}
	}
	return found
}

// find looks a token up as it is, then without a contraction ("don't" is
// "not", "we're" is "we"), then by its stem ("reinstalled").
func (s *Static) find(word string) (int, bool) {
	if i, ok := s.table.Find(word); ok {
		return i, ok
	}
	if head, _, ok := strings.Cut(word, "'"); ok {
		if strings.HasSuffix(word, "n't") {
			return s.table.Find("not")
		}
		return s.table.Find(head)
	}
	return s.table.Find(stem(word))
}

// classVec returns the mean word vector of a class's description, nil for
// a class without one. Two goroutines may both build it the first time;
// they build the same vector.
func (s *Static) classVec(class string) []float32 {
	if v, ok := s.classVecs.Load(class); ok {
		return v.([]float32)
	}
	var v []float32
	n := 0
	for _, w := range strings.Fields(classWords[class]) {
		if i, ok := s.table.Find(w); ok {
			if v == nil {
				v = make([]float32, s.table.Dim())
			}
			s.table.AddTo(v, i, 1)
			n++
		}
	}
	if n > 0 {
		// The mean, so a tool weighs about as much as one word.
		inv := float32(1 / float64(n))
		for d := range v {
			v[d] = float32(v[d] * inv)
		}
	}
	s.classVecs.Store(class, v)
	return v
}

// unitize scales v to unit length in place and reports whether it could
// (a zero vector cannot).
func unitize(v []float32) bool {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return false
	}
	Normalize(v)
	return true
}
