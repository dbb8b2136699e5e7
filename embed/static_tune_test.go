package embed

import (
	"os"
	"testing"

	"github.com/credence-mem/credence/embed/wordvec"
)

// TestTuneStatic re-runs the experiment behind static-v1's weights: a grid
// over the static share, the SIF constant, the stop-word and tool weights,
// scored on the dev paraphrase set and on pairs.jsonl — never on the frozen
// set. CREDENCE_WORDVEC_TABLE points it at another table (scripts/wordvec
// with other -words or -pcs) to compare tables:
//
//	CREDENCE_TUNE_WEIGHTS=1 go test ./embed -run TestTuneStatic -v
func TestTuneStatic(t *testing.T) {
	if os.Getenv("CREDENCE_TUNE_WEIGHTS") == "" {
		t.Skip("set CREDENCE_TUNE_WEIGHTS=1 to grid-search the static embedder's weights")
	}
	table := tuneTable(t)
	dev := loadParaphrases(t, paraphraseDev)
	pairs := loadPairs(t)
	base := evalParaphrases(t, NewOffline(), dev, -1)
	sr, pu, _ := separation(scorePairs(t, NewOffline(), pairs))
	t.Logf("offline-v1: dev %v | pairs same>related AUC %.3f, same+related>unrelated AUC %.3f", base, sr, pu)
	for _, share := range []float64{0.3, 0.4, 0.5, 0.6, 0.7} {
		for _, k := range []float64{25, 75, 200} {
			for _, stop := range []float64{0, 0.5, 1} {
				for _, tool := range []float64{0, 1, 2} {
					w := staticWeights{share: share, sifK: k, stop: stop, tool: tool}
					e := newStatic(table, w)
					s := evalParaphrases(t, e, dev, -1)
					sr, pu, _ := separation(scorePairs(t, e, pairs))
					t.Logf("share %.1f sifK %3.0f stop %.1f tool %.0f | dev AUC %.3f hard %.3f MRR %.3f hit@1 %.3f acc %.3f | pairs same>related %.3f same+related>unrelated %.3f",
						share, k, stop, tool, s.AUC, s.AUCHard, s.MRR, s.Hit1, s.Accuracy, sr, pu)
				}
			}
		}
	}
}

// tuneTable returns the table named by CREDENCE_WORDVEC_TABLE, or the
// built-in one.
func tuneTable(t *testing.T) *wordvec.Table {
	t.Helper()
	path := os.Getenv("CREDENCE_WORDVEC_TABLE")
	if path == "" {
		table, err := wordvec.Default()
		if err != nil {
			t.Fatal(err)
		}
		return table
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	table, err := wordvec.Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("table %s: %d words", path, table.Len())
	return table
}
