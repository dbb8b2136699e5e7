package embed

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// separation returns the AUC of "same" over "related" and of same+related
// over "unrelated", and the share of "same" pairs above the score only 10%
// of "related" pairs reach.
func separation(scores map[string][]float64) (aucSR, aucPU, recall float64) {
	auc := func(pos, neg []float64) float64 {
		var wins float64
		for _, p := range pos {
			for _, n := range neg {
				switch {
				case p > n:
					wins++
				case p == n:
					wins += 0.5
				}
			}
		}
		return wins / float64(len(pos)*len(neg))
	}
	same, rel, unr := scores[labelSame], scores[labelRelated], scores[labelUnrelated]
	aucSR = auc(same, rel)
	aucPU = auc(append(slices.Clone(same), rel...), unr)
	sorted := slices.Clone(rel)
	slices.Sort(sorted)
	recall = fractionAtLeast(same, quantile(sorted, 0.9)+1e-9)
	return aucSR, aucPU, recall
}

func TestTuneOfflineWeights(t *testing.T) {
	if os.Getenv("CREDENCE_TUNE_WEIGHTS") == "" {
		t.Skip("set CREDENCE_TUNE_WEIGHTS=1 to grid-search the offline feature weights")
	}
	all := loadPairs(t)
	// Tune on the even lines, report the odd ones, so the printout shows how
	// much of the gain is fitting this particular set.
	var pairs, held []labelledPair
	for i, p := range all {
		if i%2 == 0 {
			pairs = append(pairs, p)
		} else {
			held = append(held, p)
		}
	}
	type result struct {
		w           featureWeights
		sr, pu, rec float64
	}
	var results []result
	base := offlineWeights
	for _, stop := range []float64{0.1, 0.2} {
		for _, bigram := range []float64{0.1, 0.3, 0.55} {
			for _, chars := range []float64{0.1, 0.3, 0.5} {
				for _, class := range []float64{0.3, 0.5} {
					for _, entity := range []float64{1, 1.5, 2, 2.5} {
						for _, light := range []float64{0.2, 0.4, 0.7, 1} {
							for _, negKeep := range []float64{0.3, 0.6, 1} {
								for _, negation := range []float64{0.5, 0.8, 1.2} {
									w := base
									w.stop, w.bigram, w.chars, w.class = stop, bigram, chars, class
									w.entity, w.light, w.negKeep, w.negation = entity, light, negKeep, negation
									o := newOffline(OfflineDim, w)
									sr, pu, rec := separation(scorePairs(t, o, pairs))
									results = append(results, result{w, sr, pu, rec})
								}
							}
						}
					}
				}
			}
		}
	}
	slices.SortFunc(results, func(a, b result) int {
		sa, sb := a.sr+a.pu+a.rec, b.sr+b.pu+b.rec
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	for _, r := range results[:10] {
		o := newOffline(OfflineDim, r.w)
		sr, pu, rec := separation(scorePairs(t, o, held))
		fmt.Printf("%+v\n  tuned aucSR=%.3f aucPU=%.3f recall@10%%=%.3f  held-out aucSR=%.3f aucPU=%.3f recall@10%%=%.3f\n",
			r.w, r.sr, r.pu, r.rec, sr, pu, rec)
	}
	o := NewOffline()
	sr, pu, rec := separation(scorePairs(t, o, pairs))
	hsr, hpu, hrec := separation(scorePairs(t, o, held))
	fmt.Printf("shipped %+v\n  tuned aucSR=%.3f aucPU=%.3f recall@10%%=%.3f  held-out aucSR=%.3f aucPU=%.3f recall@10%%=%.3f\n",
		o.w, sr, pu, rec, hsr, hpu, hrec)
}

func TestTuneOfflineDim(t *testing.T) {
	if os.Getenv("CREDENCE_TUNE_WEIGHTS") == "" {
		t.Skip("set CREDENCE_TUNE_WEIGHTS=1 to compare offline dimensions")
	}
	main, held := loadPairs(t), loadPairsFile(t, "testdata/pairs_holdout.jsonl")
	for _, dim := range []int{256, 384, 512, 768, 1024} {
		o := newOffline(dim, offlineWeights)
		ms, hs := scorePairs(t, o, main), scorePairs(t, o, held)
		sr, pu, rec := separation(ms)
		hsr, hpu, hrec := separation(hs)
		d := derivedThresholds(ms)
		hr := measure(hs, d)
		fmt.Printf("dim %4d main aucSR=%.3f aucPU=%.3f recall@10%%=%.3f | holdout aucSR=%.3f aucPU=%.3f recall@10%%=%.3f | derived %+v holdout rel>=R %.2f unr<C %.2f same>=R %.2f\n",
			dim, sr, pu, rec, hsr, hpu, hrec, d, hr.relatedReinforce, hr.unrelatedCluster, hr.sameReinforce)
	}
}
