package embed

import (
	"bufio"
	"context"
	"encoding/json"
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
	return loadPairsFile(t, "testdata/pairs.jsonl")
}

func loadPairsFile(t testing.TB, path string) []labelledPair {
	t.Helper()
	f, err := os.Open(path)
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

// derivedThresholds applies the calibration rule to labelled scores:
//   - Cluster and Related: the cut that best separates "unrelated" from
//     "same"+"related" (highest balanced accuracy; the middle of the best
//     run of cuts when several tie);
//   - Reinforce: the lowest cut that at most 10% of "related" pairs reach, so
//     a contradiction is rarely taken for support;
//   - Merge: the lowest cut that at most 5% of "related" pairs reach;
//   - Dedupe: the lowest cut above every "related" and "unrelated" pair plus
//     a 0.10 margin, and never below Merge: deduplication merges without
//     asking, so it must stay clear of anything that is not the same claim.
//
// Cuts step by 0.01.
func derivedThresholds(scores map[string][]float64) Thresholds {
	same, rel, unr := scores[labelSame], scores[labelRelated], scores[labelUnrelated]
	pos := append(slices.Clone(same), rel...)
	var th Thresholds
	best, bestLo, bestHi := -1.0, 0.0, 0.0
	for c := 0; c <= 100; c++ {
		t := float64(c) / 100
		acc := (fractionAtLeast(pos, t) + 1 - fractionAtLeast(unr, t)) / 2
		switch {
		case acc > best+1e-12:
			best, bestLo, bestHi = acc, t, t
		case math.Abs(acc-best) <= 1e-12 && bestHi == t-0.01:
			bestHi = t
		}
	}
	th.Cluster = math.Round((bestLo+bestHi)*50) / 100
	th.Related = th.Cluster
	lowestCut := func(xs []float64, share float64) float64 {
		for c := 0; c <= 100; c++ {
			if t := float64(c) / 100; fractionAtLeast(xs, t) <= share {
				return t
			}
		}
		return 1
	}
	th.Reinforce = lowestCut(rel, 0.10)
	th.Merge = lowestCut(rel, 0.05)
	th.Dedupe = max(th.Merge, math.Min(1, math.Round(100*lowestCut(append(slices.Clone(rel), unr...), 0)+10)/100))
	return th
}

// calibrationReport is what TestCalibration measures at the shipped thresholds.
type calibrationReport struct {
	sameReinforce    float64 // same >= Reinforce
	sameCluster      float64 // same >= Cluster
	relatedBand      float64 // Related <= related < Reinforce
	relatedReinforce float64 // related >= Reinforce (wrongly reinforced)
	unrelatedCluster float64 // unrelated < Cluster
	sameDedupe       float64 // same >= Dedupe
	falseDedupe      float64 // related or unrelated >= Dedupe
}

func measure(scores map[string][]float64, th Thresholds) calibrationReport {
	same, rel, unr := scores[labelSame], scores[labelRelated], scores[labelUnrelated]
	return calibrationReport{
		sameReinforce:    fractionAtLeast(same, th.Reinforce),
		sameCluster:      fractionAtLeast(same, th.Cluster),
		relatedBand:      fractionAtLeast(rel, th.Related) - fractionAtLeast(rel, th.Reinforce),
		relatedReinforce: fractionAtLeast(rel, th.Reinforce),
		unrelatedCluster: 1 - fractionAtLeast(unr, th.Cluster),
		sameDedupe:       fractionAtLeast(same, th.Dedupe),
		falseDedupe:      fractionAtLeast(append(slices.Clone(rel), unr...), th.Dedupe),
	}
}

func logDistributions(t *testing.T, scores map[string][]float64) {
	t.Helper()
	t.Logf("%-9s %4s %6s %6s %6s %6s %6s %6s", "label", "n", "mean", "min", "p10", "p50", "p90", "max")
	for _, l := range []string{labelSame, labelRelated, labelUnrelated} {
		xs := slices.Clone(scores[l])
		slices.Sort(xs)
		t.Logf("%-9s %4d %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f", l, len(xs), mean(xs), xs[0],
			quantile(xs, 0.1), quantile(xs, 0.5), quantile(xs, 0.9), xs[len(xs)-1])
	}
}

func logReport(t *testing.T, r calibrationReport) {
	t.Helper()
	t.Logf("same      >= Reinforce          %5.1f%%", 100*r.sameReinforce)
	t.Logf("same      >= Cluster            %5.1f%%", 100*r.sameCluster)
	t.Logf("same      >= Dedupe             %5.1f%%", 100*r.sameDedupe)
	t.Logf("related   >= Related            %5.1f%%", 100*(r.relatedBand+r.relatedReinforce))
	t.Logf("related   in [Related,Reinforce) %5.1f%%", 100*r.relatedBand)
	t.Logf("related   >= Reinforce          %5.1f%%", 100*r.relatedReinforce)
	t.Logf("unrelated <  Cluster            %5.1f%%", 100*r.unrelatedCluster)
	t.Logf("related+unrelated >= Dedupe     %5.1f%%", 100*r.falseDedupe)
}

// calibrationFloors are the least shares TestCalibration and
// TestCalibrationHoldout accept at an embedder's shipped thresholds.
type calibrationFloors struct {
	sameReinforce, sameCluster, relatedBelowReinforce, relatedRelated, unrelatedBelowCluster float64
}

// calibrated lists each built-in embedder with its floors on pairs.jsonl
// and on the holdout. Static-v1 scores related pairs higher than
// offline-v1 (its word vectors see that "prefer pnpm" and "prefer bun" are
// about the same thing), so fewer same pairs clear its Reinforce: they go
// to classification instead, the safe side (docs/EMBEDDERS.md).
func calibrated(t *testing.T) []struct {
	e               Embedder
	pairs, holdout  calibrationFloors
	thresholdsConst string
} {
	t.Helper()
	s, err := NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		e               Embedder
		pairs, holdout  calibrationFloors
		thresholdsConst string
	}{
		{NewOffline(), calibrationFloors{0.85, 0.99, 0.90, 0.95, 0.90}, calibrationFloors{0.80, 0, 0.70, 0.90, 0.90}, "offlineV1Thresholds"},
		{s, calibrationFloors{0.65, 0.99, 0.90, 0.95, 0.95}, calibrationFloors{0.65, 0, 0.70, 0.90, 0.90}, "staticV1Thresholds"},
	}
}

func checkFloors(t *testing.T, r calibrationReport, f calibrationFloors) {
	t.Helper()
	floors := []struct {
		name      string
		got, want float64
	}{
		{"same >= Reinforce", r.sameReinforce, f.sameReinforce},
		{"same >= Cluster", r.sameCluster, f.sameCluster},
		{"related < Reinforce", 1 - r.relatedReinforce, f.relatedBelowReinforce},
		{"related >= Related", r.relatedBand + r.relatedReinforce, f.relatedRelated},
		{"unrelated < Cluster", r.unrelatedCluster, f.unrelatedBelowCluster},
		{"no related or unrelated >= Dedupe", 1 - r.falseDedupe, 1},
	}
	for _, f := range floors {
		t.Run(f.name, func(t *testing.T) {
			if f.got < f.want {
				t.Errorf("share=%.3f, want >= %.2f", f.got, f.want)
			}
		})
	}
}

// TestCalibration checks, for each built-in embedder, that its thresholds
// are the ones the calibration rule derives from testdata/pairs.jsonl and
// that they separate the labels as docs/EMBEDDERS.md states. Run it with -v
// for the numbers.
func TestCalibration(t *testing.T) {
	pairs := loadPairs(t)
	for _, c := range calibrated(t) {
		t.Run(c.e.ID(), func(t *testing.T) {
			shipped := ThresholdsFor(c.e.ID())
			scores := scorePairs(t, c.e, pairs)
			for l, want := range map[string]int{labelSame: 50, labelRelated: 50, labelUnrelated: 50} {
				if len(scores[l]) < want {
					t.Fatalf("pairs.jsonl has %d %q pairs, want at least %d", len(scores[l]), l, want)
				}
			}
			logDistributions(t, scores)
			derived := derivedThresholds(scores)
			t.Logf("derived  %+v", derived)
			t.Logf("shipped  %+v", shipped)
			t.Run("shipped match derived", func(t *testing.T) {
				pairs := []struct {
					name      string
					got, want float64
				}{
					{"Cluster", shipped.Cluster, derived.Cluster},
					{"Related", shipped.Related, derived.Related},
					{"Reinforce", shipped.Reinforce, derived.Reinforce},
					{"Merge", shipped.Merge, derived.Merge},
					{"Dedupe", shipped.Dedupe, derived.Dedupe},
				}
				for _, p := range pairs {
					if math.Abs(p.got-p.want) > 0.02+1e-9 {
						t.Errorf("%s=%.2f, the calibration rule derives %.2f: recalibrate and update %s and docs/EMBEDDERS.md",
							p.name, p.got, p.want, c.thresholdsConst)
					}
				}
			})
			r := measure(scores, shipped)
			logReport(t, r)
			checkFloors(t, r, c.pairs)
		})
	}
}

// TestCalibrationHoldout scores testdata/pairs_holdout.jsonl, written after
// the offline features were designed and never used to tune either
// built-in embedder, with the shipped thresholds. Its floors are looser: it
// measures how far the calibration carries to sentences it has not seen.
func TestCalibrationHoldout(t *testing.T) {
	pairs := loadPairsFile(t, "testdata/pairs_holdout.jsonl")
	for _, c := range calibrated(t) {
		t.Run(c.e.ID(), func(t *testing.T) {
			scores := scorePairs(t, c.e, pairs)
			logDistributions(t, scores)
			r := measure(scores, ThresholdsFor(c.e.ID()))
			logReport(t, r)
			checkFloors(t, r, c.holdout)
		})
	}
}
