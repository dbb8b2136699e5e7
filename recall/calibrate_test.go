package recall

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/credence-mem/credence/embed"
)

// The relevance rule decides what a hook injects: an item passes when it
// names a word of the prompt no English word list holds, or when its
// cosine to the prompt plus CoverageWeight times the share of the prompt's
// terms it holds reaches the embedder's floor. Both numbers are calibrated
// here on natural, hand-written text — not on the generated recall set:
//
//   - unrelated: every prompt of the paraphrase dev set
//     (embed/testdata/paraphrase_dev.jsonl) against each fact of another
//     slot, and every unrelated probe of the scenario dev set
//     (e2e/testdata/scenarios_dev.jsonl) against every fact that set
//     states. What matters is the best-scoring fact of each prompt: a hook
//     injects when any candidate passes.
//   - related: the paraphrase dev set's matching (fact, prompt) pairs and
//     each scenario dev probe against the facts that state its answer.
//
// For each coverage weight the floor is the lowest (in steps of 0.01) at
// which at most calibrationFalse of the unrelated prompts would get
// anything; the weight is the one whose floor passes the most related
// pairs. docs/BENCHMARKS.md has the numbers.
const calibrationFalse = 0.05

// calibrationWeights are the coverage weights tried.
var calibrationWeights = []float64{0, 0.25, 0.5, 0.75, 1}

type calPrompt struct {
	text    string
	pool    []string // the facts it is unrelated to
	related []string // the facts that answer it
}

// calibrationSet reads the two dev sets into prompts with their unrelated
// pools and related facts.
func calibrationSet(t testing.TB) []calPrompt {
	t.Helper()
	type pair struct{ Label, Slot, A, B string }
	var pairs []pair
	readJSONL(t, "../embed/testdata/paraphrase_dev.jsonl", func(line []byte) {
		var p pair
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	})
	factSlot := map[string]string{}
	for _, p := range pairs {
		factSlot[p.A] = p.Slot
	}
	byPrompt := map[string]*calPrompt{}
	var order []string
	for _, p := range pairs {
		cp := byPrompt[p.B]
		if cp == nil {
			cp = &calPrompt{text: p.B}
			byPrompt[p.B] = cp
			order = append(order, p.B)
			for fact, slot := range factSlot {
				if slot != p.Slot {
					cp.pool = append(cp.pool, fact)
				}
			}
			sort.Strings(cp.pool)
		}
		if p.Label == "match" {
			cp.related = append(cp.related, p.A)
		}
	}
	var out []calPrompt
	for _, b := range order {
		out = append(out, *byPrompt[b])
	}
	type scenario struct {
		ID       string
		Sessions []struct{ Prompts []string }
		Probe    struct{ Prompt string }
		Current  []string
		Nothing  bool `json:"expect_nothing"`
	}
	var scens []scenario
	readJSONL(t, "../e2e/testdata/scenarios_dev.jsonl", func(line []byte) {
		var s scenario
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatal(err)
		}
		if s.ID != "" {
			scens = append(scens, s)
		}
	})
	var facts []string
	for _, s := range scens {
		for _, ss := range s.Sessions {
			facts = append(facts, ss.Prompts...)
		}
	}
	for _, s := range scens {
		cp := calPrompt{text: s.Probe.Prompt}
		if s.Nothing {
			cp.pool = facts
		}
		for _, ss := range s.Sessions {
			for _, f := range ss.Prompts {
				for _, c := range s.Current {
					if strings.Contains(strings.ToLower(f), strings.ToLower(c)) {
						cp.related = append(cp.related, f)
						break
					}
				}
			}
		}
		out = append(out, cp)
	}
	return out
}

func readJSONL(t testing.TB, path string, each func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Bytes(); len(line) > 0 && line[0] == '{' {
			each(line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// relevanceInputs are what the rule reads for one (prompt, fact) pair.
type relevanceInputs struct {
	cos, cov float64
	specific bool
}

// calibration is the outcome of calibrating one embedder.
type calibration struct {
	Weight, Floor                   float64
	FalseInjections, RelatedPassing float64
	Prompts, Related                int
}

// calibrate measures the rule's inputs on the calibration set with emb and
// picks the weight and floor as described above.
func calibrate(t testing.TB, emb embed.Embedder, set []calPrompt, fixed ...[2]float64) (calibration, []calibration) {
	t.Helper()
	ctx := context.Background()
	inputs := func(q string, facts []string) []relevanceInputs {
		if len(facts) == 0 {
			return nil
		}
		vecs, err := emb.Embed(ctx, append([]string{q}, facts...))
		if err != nil {
			t.Fatal(err)
		}
		terms, spec := queryTerms(q), specificTerms(q)
		out := make([]relevanceInputs, len(facts))
		for i, f := range facts {
			out[i] = relevanceInputs{cos: embed.Cosine(vecs[0], vecs[i+1]), cov: coverage(terms, f),
				specific: len(spec) > 0 && coverage(spec, f) > 0}
		}
		return out
	}
	var nulls [][]relevanceInputs
	var related []relevanceInputs
	for _, p := range set {
		if len(p.pool) > 0 {
			nulls = append(nulls, inputs(p.text, p.pool))
		}
		related = append(related, inputs(p.text, p.related)...)
	}
	passes := func(in relevanceInputs, w, floor float64) bool {
		return in.specific || in.cos+w*in.cov >= floor-1e-9
	}
	var sweep []calibration
	// A fixed rule (weight, floor) given is measured first, as it is.
	for _, wf := range fixed {
		c := calibration{Weight: wf[0], Floor: wf[1], Prompts: len(nulls), Related: len(related)}
		for _, pool := range nulls {
			for _, in := range pool {
				if passes(in, wf[0], wf[1]) {
					c.FalseInjections++
					break
				}
			}
		}
		c.FalseInjections /= float64(len(nulls))
		for _, in := range related {
			if passes(in, wf[0], wf[1]) {
				c.RelatedPassing++
			}
		}
		c.RelatedPassing /= float64(len(related))
		t.Logf("%-14s before: weight %.2f floor %.2f: unrelated prompts given anything %.3f, related pairs passing %.3f",
			emb.ID(), c.Weight, c.Floor, c.FalseInjections, c.RelatedPassing)
	}
	best := calibration{RelatedPassing: -1}
	for _, w := range calibrationWeights {
		// The floor is the lowest at which few enough unrelated prompts
		// get anything: the (1 - calibrationFalse) quantile of each
		// prompt's best score, rounded up to 0.01.
		var top []float64
		forced := 0
		for _, pool := range nulls {
			m := math.Inf(-1)
			for _, in := range pool {
				if in.specific {
					forced++
					m = math.Inf(1)
					break
				}
				m = math.Max(m, in.cos+w*in.cov)
			}
			top = append(top, m)
		}
		floor := lowestFloor(top)
		c := calibration{Weight: w, Floor: floor, Prompts: len(nulls), Related: len(related)}
		for _, v := range top {
			if v >= floor-1e-9 {
				c.FalseInjections++
			}
		}
		c.FalseInjections /= float64(len(top))
		for _, in := range related {
			if passes(in, w, floor) {
				c.RelatedPassing++
			}
		}
		c.RelatedPassing /= float64(len(related))
		sweep = append(sweep, c)
		if c.RelatedPassing > best.RelatedPassing+1e-9 {
			best = c
		}
	}
	// Without a vector (the query could not be embedded in time) the rule
	// is the coverage alone against LexicalFloor, calibrated the same way.
	var top []float64
	for _, pool := range nulls {
		m := 0.0
		for _, in := range pool {
			if in.specific {
				m = math.Inf(1)
				break
			}
			m = math.Max(m, in.cov)
		}
		top = append(top, m)
	}
	lex := calibration{Weight: math.NaN(), Floor: lowestFloor(top), Prompts: len(nulls), Related: len(related)}
	for _, v := range top {
		if v >= lex.Floor-1e-9 {
			lex.FalseInjections++
		}
	}
	lex.FalseInjections /= float64(len(top))
	for _, in := range related {
		if in.specific || in.cov >= lex.Floor-1e-9 {
			lex.RelatedPassing++
		}
	}
	lex.RelatedPassing /= float64(len(related))
	return best, append(sweep, lex)
}

// lowestFloor returns the lowest floor, in steps of 0.01, that at most
// calibrationFalse of the prompts' best scores reach.
func lowestFloor(top []float64) float64 {
	for i := 0; ; i++ {
		f := float64(i) / 100
		n := 0
		for _, v := range top {
			if v >= f-1e-9 {
				n++
			}
		}
		if float64(n) <= calibrationFalse*float64(len(top)) {
			return f
		}
	}
}

// TestRelevanceCalibration recalibrates the relevance rule of each built-in
// embedder on the natural dev sets and checks that the shipped weight and
// floors are what the procedure gives: a change to an embedder, the word
// lists or the rule that moves them fails here until they are updated.
func TestRelevanceCalibration(t *testing.T) {
	set := calibrationSet(t)
	static, err := embed.NewStatic()
	if err != nil {
		t.Fatal(err)
	}
	// The fixed floors shipped before, tuned on the generated set.
	before := map[string][2]float64{static.ID(): {0.25, 0.40}, embed.NewOffline().ID(): {0.25, 0.35}}
	for _, emb := range []embed.Embedder{static, embed.NewOffline()} {
		best, sweep := calibrate(t, emb, set, before[emb.ID()])
		for _, c := range sweep {
			if math.IsNaN(c.Weight) {
				t.Logf("%-14s lexical only, coverage floor %.2f: unrelated prompts given anything %.3f, related pairs passing %.3f",
					emb.ID(), c.Floor, c.FalseInjections, c.RelatedPassing)
				if math.Abs(c.Floor-defaultLexicalFloor) > 1e-9 {
					t.Errorf("shipped lexical floor %.2f; calibration gives %.2f", defaultLexicalFloor, c.Floor)
				}
				continue
			}
			t.Logf("%-14s weight %.2f floor %.2f: unrelated prompts given anything %.3f, related pairs passing %.3f (%d prompts, %d pairs)",
				emb.ID(), c.Weight, c.Floor, c.FalseInjections, c.RelatedPassing, c.Prompts, c.Related)
		}
		w, floor := CoverageWeightFor(emb.ID()), RelevanceFloorFor(emb.ID())
		if math.Abs(floor-best.Floor) > 1e-9 || math.Abs(w-best.Weight) > 1e-9 {
			t.Errorf("%s: shipped coverage weight %.2f floor %.2f; calibration gives %.2f and %.2f", emb.ID(),
				w, floor, best.Weight, best.Floor)
		}
	}
}
