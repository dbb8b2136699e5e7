package embed

import (
	"os"
	"slices"
	"testing"
)

// The tuning tests re-run the experiments behind the shipped weights and
// dimension (docs/EMBEDDERS.md). They take a while, so they run only when
// CREDENCE_TUNE_WEIGHTS is set:
//
//	CREDENCE_TUNE_WEIGHTS=1 go test ./embed -run TestTune -v

// separation summarizes how well scores split the labels: the AUC of
// "same" over "related", the AUC of same+related over "unrelated", and the
// share of "same" pairs above the score that only 10% of "related" reach.
func separation(scores map[string][]float64) (aucSR, aucPU, recall float64) {
	same, rel, unr := scores[labelSame], scores[labelRelated], scores[labelUnrelated]
	aucSR = auc(same, rel)
	aucPU = auc(append(slices.Clone(same), rel...), unr)
	sorted := slices.Clone(rel)
	slices.Sort(sorted)
	recall = fractionAtLeast(same, quantile(sorted, 0.9)+1e-9)
	return aucSR, aucPU, recall
}

// TestTuneOfflineWeights grid-searches the feature weights on the even
// lines of pairs.jsonl, scores the best on the odd lines, and checks the
// shipped weights are within 0.03 AUC of the best grid point on the lines
// it was not tuned on.
func TestTuneOfflineWeights(t *testing.T) {
	if os.Getenv("CREDENCE_TUNE_WEIGHTS") == "" {
		t.Skip("set CREDENCE_TUNE_WEIGHTS=1 to grid-search the offline feature weights")
	}
	var tune, held []labelledPair
	for i, p := range loadPairs(t) {
		if i%2 == 0 {
			tune = append(tune, p)
		} else {
			held = append(held, p)
		}
	}
	type result struct {
		w           featureWeights
		sr, pu, rec float64
	}
	var results []result
	for _, bigram := range []float64{0.1, 0.25, 0.5} {
		for _, chars := range []float64{0.1, 0.25, 0.5} {
			for _, entity := range []float64{1, 1.5, 2, 2.5} {
				for _, light := range []float64{0.2, 0.3, 0.6, 1} {
					for _, negKeep := range []float64{0.3, 0.6, 1} {
						for _, negation := range []float64{0.5, 0.8, 1.2} {
							w := offlineWeights
							w.bigram, w.chars, w.entity, w.light, w.negKeep, w.negation = bigram, chars, entity, light, negKeep, negation
							sr, pu, rec := separation(scorePairs(t, newOffline(OfflineDim, w), tune))
							results = append(results, result{w, sr, pu, rec})
						}
					}
				}
			}
		}
	}
	total := func(r result) float64 { return r.sr + r.pu + r.rec }
	slices.SortFunc(results, func(a, b result) int {
		switch {
		case total(a) > total(b):
			return -1
		case total(a) < total(b):
			return 1
		}
		return 0
	})
	var bestHeldSR, bestHeldPU float64
	for _, r := range results[:5] {
		sr, pu, rec := separation(scorePairs(t, newOffline(OfflineDim, r.w), held))
		bestHeldSR, bestHeldPU = max(bestHeldSR, sr), max(bestHeldPU, pu)
		t.Logf("%+v\n  tuned aucSR=%.3f aucPU=%.3f recall=%.3f  held-out aucSR=%.3f aucPU=%.3f recall=%.3f",
			r.w, r.sr, r.pu, r.rec, sr, pu, rec)
	}
	sr, pu, rec := separation(scorePairs(t, NewOffline(), held))
	t.Logf("shipped %+v held-out aucSR=%.3f aucPU=%.3f recall=%.3f", offlineWeights, sr, pu, rec)
	if sr < bestHeldSR-0.03 || pu < bestHeldPU-0.03 {
		t.Errorf("shipped weights: held-out aucSR=%.3f aucPU=%.3f, want within 0.03 of the grid's best %.3f and %.3f",
			sr, pu, bestHeldSR, bestHeldPU)
	}
}

// TestTuneOfflineDim compares vector lengths and checks that OfflineDim
// separates same from related within 0.01 AUC of the best length tried.
func TestTuneOfflineDim(t *testing.T) {
	if os.Getenv("CREDENCE_TUNE_WEIGHTS") == "" {
		t.Skip("set CREDENCE_TUNE_WEIGHTS=1 to compare offline dimensions")
	}
	main, held := loadPairs(t), loadPairsFile(t, "testdata/pairs_holdout.jsonl")
	best, shipped := 0.0, 0.0
	for _, dim := range []int{128, 256, 384, 512, 768, 1024} {
		o := newOffline(dim, offlineWeights)
		ms, hs := scorePairs(t, o, main), scorePairs(t, o, held)
		sr, pu, rec := separation(ms)
		hsr, hpu, hrec := separation(hs)
		t.Logf("dim %4d  pairs aucSR=%.3f aucPU=%.3f recall=%.3f  holdout aucSR=%.3f aucPU=%.3f recall=%.3f",
			dim, sr, pu, rec, hsr, hpu, hrec)
		best = max(best, sr)
		if dim == OfflineDim {
			shipped = sr
		}
	}
	if shipped < best-0.01 {
		t.Errorf("OfflineDim=%d has aucSR=%.3f, want within 0.01 of the best %.3f", OfflineDim, shipped, best)
	}
}
