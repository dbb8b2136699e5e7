package embed

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
)

// labelledPair is one line of testdata/pairs.jsonl.
type labelledPair struct {
	Label string `json:"label"`
	A     string `json:"a"`
	B     string `json:"b"`
}

// The three labels of the calibration set.
const (
	labelSame      = "same"
	labelRelated   = "related"
	labelUnrelated = "unrelated"
)

func loadPairs(t testing.TB) []labelledPair {
	t.Helper()
	f, err := os.Open("testdata/pairs.jsonl")
	if err != nil {
		t.Fatalf("open pairs: %v", err)
	}
	defer f.Close()
	var pairs []labelledPair
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var p labelledPair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("parse pairs line %d: %v", n, err)
		}
		switch p.Label {
		case labelSame, labelRelated, labelUnrelated:
		default:
			t.Fatalf("pairs line %d: unknown label %q", n, p.Label)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read pairs: %v", err)
	}
	return pairs
}

// scorePairs returns the cosine of every pair under e, grouped by label.
func scorePairs(t testing.TB, e Embedder, pairs []labelledPair) map[string][]float64 {
	t.Helper()
	scores := map[string][]float64{}
	for _, p := range pairs {
		vs, err := e.Embed(context.Background(), []string{p.A, p.B})
		if err != nil {
			t.Fatalf("Embed(%q, %q): %v", p.A, p.B, err)
		}
		scores[p.Label] = append(scores[p.Label], Cosine(vs[0], vs[1]))
	}
	return scores
}

// quantile returns the q-quantile of sorted xs by linear interpolation.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// fractionAtLeast returns the share of xs that are >= t.
func fractionAtLeast(xs []float64, t float64) float64 {
	n := 0
	for _, x := range xs {
		if x >= t {
			n++
		}
	}
	return float64(n) / float64(len(xs))
}

func TestCalibrationDump(t *testing.T) {
	pairs := loadPairs(t)
	o := NewOffline()
	for _, p := range pairs {
		vs, _ := o.Embed(context.Background(), []string{p.A, p.B})
		fmt.Printf("%-9s %.3f  %s | %s\n", p.Label, Cosine(vs[0], vs[1]), p.A, p.B)
	}
	scores := scorePairs(t, o, pairs)
	for _, l := range []string{labelSame, labelRelated, labelUnrelated} {
		xs := slices.Clone(scores[l])
		slices.Sort(xs)
		fmt.Printf("%s n=%d mean=%.3f p10=%.3f p50=%.3f p90=%.3f\n", l, len(xs), mean(xs), quantile(xs, .1), quantile(xs, .5), quantile(xs, .9))
	}
	_ = fractionAtLeast
}
