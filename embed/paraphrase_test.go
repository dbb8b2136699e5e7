package embed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
)

// paraphrasePair is one line of testdata/paraphrase_frozen.jsonl or
// paraphrase_dev.jsonl: a is what memory holds, b a later prompt.
type paraphrasePair struct {
	Label string `json:"label"` // "match" or "nomatch"
	Kind  string `json:"kind"`  // paraphrase, question, task; hard, unrelated
	Slot  string `json:"slot"`  // what a is about
	A     string `json:"a"`
	B     string `json:"b"`
}

// Files of the paraphrase evaluation. The frozen one is reported, never
// tuned on; the dev one is for choosing the static embedder's settings.
const (
	paraphraseFrozen = "testdata/paraphrase_frozen.jsonl"
	paraphraseDev    = "testdata/paraphrase_dev.jsonl"
)

func loadParaphrases(t testing.TB, path string) []paraphrasePair {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	var out []paraphrasePair
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var p paraphrasePair
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatalf("%s line %d: %v", path, n, err)
		}
		if p.Label != "match" && p.Label != "nomatch" || p.Slot == "" || p.A == "" || p.B == "" {
			t.Fatalf("%s line %d: want label match|nomatch, a slot, a and b: %s", path, n, line)
		}
		out = append(out, p)
	}
	return out
}

// paraphraseScores is what an embedder achieves on a paraphrase set.
type paraphraseScores struct {
	// AUC is the chance that a random match pair scores above a random
	// nomatch pair; AUCHard the same against the hard nomatch pairs only.
	AUC, AUCHard float64
	// MRR and Hit1 rank each match pair's a among every distinct a of the
	// file (other a's of the same slot left out) by cosine to b.
	MRR, Hit1 float64
	// Threshold is the cut of best balanced accuracy on the set it was
	// derived from; Accuracy the balanced accuracy at the cut applied.
	Threshold, Accuracy float64
	// ByKind is the MRR per kind of match (paraphrase, question, task).
	ByKind map[string]float64
}

func (s paraphraseScores) String() string {
	return fmt.Sprintf("AUC %.3f  AUC(hard) %.3f  MRR %.3f  hit@1 %.3f  balanced acc %.3f at %.2f  MRR by kind: paraphrase %.3f question %.3f task %.3f",
		s.AUC, s.AUCHard, s.MRR, s.Hit1, s.Accuracy, s.Threshold, s.ByKind["paraphrase"], s.ByKind["question"], s.ByKind["task"])
}

// embedAll embeds texts once each.
func embedAll(t testing.TB, e Embedder, texts []string) map[string][]float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	out := make(map[string][]float32, len(texts))
	for i, s := range texts {
		out[s] = vs[i]
	}
	return out
}

// evalParaphrases scores e on pairs. With cut < 0 the accuracy threshold is
// the best one on these pairs; otherwise cut is applied as given (one
// derived on the dev set, applied to the frozen set).
func evalParaphrases(t testing.TB, e Embedder, pairs []paraphrasePair, cut float64) paraphraseScores {
	t.Helper()
	var texts []string
	slotOf := map[string]string{}
	var statements []string
	for _, p := range pairs {
		texts = append(texts, p.A, p.B)
		if _, ok := slotOf[p.A]; !ok {
			statements = append(statements, p.A)
		}
		slotOf[p.A] = p.Slot
	}
	vec := embedAll(t, e, texts)
	var pos, neg, hard []float64
	var rr, hit1 float64
	kindRR, kindN := map[string]float64{}, map[string]int{}
	for _, p := range pairs {
		c := Cosine(vec[p.A], vec[p.B])
		if p.Label == "nomatch" {
			neg = append(neg, c)
			if p.Kind == "hard" {
				hard = append(hard, c)
			}
			continue
		}
		pos = append(pos, c)
		rank := 1
		for _, s := range statements {
			if s != p.A && slotOf[s] != p.Slot && Cosine(vec[s], vec[p.B]) >= c {
				rank++
			}
		}
		rr += 1 / float64(rank)
		kindRR[p.Kind] += 1 / float64(rank)
		kindN[p.Kind]++
		if rank == 1 {
			hit1++
		}
	}
	s := paraphraseScores{AUC: auc(pos, neg), AUCHard: auc(pos, hard), MRR: rr / float64(len(pos)),
		Hit1: hit1 / float64(len(pos)), ByKind: map[string]float64{}}
	for k, v := range kindRR {
		s.ByKind[k] = v / float64(kindN[k])
	}
	balanced := func(c float64) float64 { return (fractionAtLeast(pos, c) + 1 - fractionAtLeast(neg, c)) / 2 }
	if cut < 0 {
		cut = -1
		for c := -0.2; c <= 1; c += 0.01 {
			if cut < -0.5 || balanced(c) > balanced(cut)+1e-12 {
				cut = c
			}
		}
	}
	s.Threshold, s.Accuracy = cut, balanced(cut)
	return s
}

// auc is the share of (pos, neg) pairs where pos scores higher, ties half.
func auc(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return 0
	}
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

// TestParaphraseSets checks the two paraphrase files are well formed and
// share no pair, so tuning on the dev set cannot leak into the frozen one.
func TestParaphraseSets(t *testing.T) {
	frozen, dev := loadParaphrases(t, paraphraseFrozen), loadParaphrases(t, paraphraseDev)
	count := func(ps []paraphrasePair, label string) int {
		return len(slices.DeleteFunc(slices.Clone(ps), func(p paraphrasePair) bool { return p.Label != label }))
	}
	for _, f := range []struct {
		name         string
		pairs        []paraphrasePair
		match, nomat int
	}{{paraphraseFrozen, frozen, 120, 90}, {paraphraseDev, dev, 60, 40}} {
		if m, n := count(f.pairs, "match"), count(f.pairs, "nomatch"); m < f.match || n < f.nomat {
			t.Errorf("%s: %d match and %d nomatch pairs, want at least %d and %d", f.name, m, n, f.match, f.nomat)
		}
	}
	seen := map[[2]string]bool{}
	for _, p := range frozen {
		seen[[2]string{p.A, p.B}] = true
	}
	for _, p := range dev {
		if seen[[2]string{p.A, p.B}] {
			t.Errorf("pair %q / %q is in both sets", p.A, p.B)
		}
	}
}

// TestParaphraseOffline logs offline-v1 on both paraphrase sets; it is the
// baseline the static embedder is measured against (docs/EMBEDDERS.md).
func TestParaphraseOffline(t *testing.T) {
	o := NewOffline()
	dev := evalParaphrases(t, o, loadParaphrases(t, paraphraseDev), -1)
	t.Logf("%s dev:    %v", o.ID(), dev)
	frozen := evalParaphrases(t, o, loadParaphrases(t, paraphraseFrozen), dev.Threshold)
	t.Logf("%s frozen: %v", o.ID(), frozen)
}

// TestParaphraseStatic measures static-v1 against offline-v1 on the frozen
// set, with each one's accuracy cut taken from the dev set. The floors are
// the frozen numbers as first measured, less a small margin: a guard
// against regressions, not a target to tune to (docs/EMBEDDERS.md).
func TestParaphraseStatic(t *testing.T) {
	s, err := NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	o := NewOffline()
	dev, frozen := loadParaphrases(t, paraphraseDev), loadParaphrases(t, paraphraseFrozen)
	got := map[string]paraphraseScores{}
	for _, e := range []Embedder{o, s} {
		d := evalParaphrases(t, e, dev, -1)
		f := evalParaphrases(t, e, frozen, d.Threshold)
		t.Logf("%-14s dev:    %v", e.ID(), d)
		t.Logf("%-14s frozen: %v", e.ID(), f)
		got[e.ID()] = f
	}
	old, st := got[o.ID()], got[s.ID()]
	if st.AUC <= old.AUC || st.MRR <= old.MRR {
		t.Errorf("static-v1 on the frozen set: AUC %.3f MRR %.3f, want above offline-v1's %.3f and %.3f", st.AUC, st.MRR, old.AUC, old.MRR)
	}
}
