package extract

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// The held-out extraction set of issue 14: utterances written and frozen
// before any tuning, scored through the public Extract only. Precision and
// recall per category are logged; the targets are asserted only with
// CREDENCE_HELDOUT_ENFORCE=1.
//
// Extract sees one text at a time, so a case's "context" (earlier utterances
// of the same conversation) is not given to it: a correction that names only
// the new value ("sorry, I meant John") is scored on the utterance alone.
//
// Matching: a fact by subject, predicate (heldoutSlotPredicate) and value
// contained in the object, case-insensitively; a guideline by polarity and
// every "must" word in its statement. Each extraction matches at most one
// expectation. Unmatched extractions are false positives, except a negated
// fact retracting the expected old value, which is not counted at all.

const heldoutFile = "testdata/heldout2026.jsonl"

// Targets from issue 14, asserted only under CREDENCE_HELDOUT_ENFORCE=1.
const (
	heldoutPrecision = 0.9
	heldoutRecall    = 0.8
)

// heldoutSlotPredicate maps the set's slot names to the predicate Extract is
// expected to emit. It is the identity except where the package's exported
// API names the predicate differently (DefaultExclusive lists "timezone_is").
// Any other mismatch in vocabulary shows as a miss, for the lead to reconcile.
var heldoutSlotPredicate = map[string]string{
	"lives_in": "lives_in", "name_is": "name_is", "works_at": "works_at",
	"manager_is": "manager_is", "timezone": "timezone_is", "role_is": "role_is",
	"uses_package_manager": "uses_package_manager", "uses_test_runner": "uses_test_runner",
	"uses_formatter": "uses_formatter", "uses_linter": "uses_linter",
	"deploys_with": "deploys_with", "deploy_branch": "deploy_branch",
	"uses_language": "uses_language", "language_version": "language_version",
	"uses_framework": "uses_framework", "uses_database": "uses_database",
	"uses_ci": "uses_ci", "port": "port", "uses_editor": "uses_editor",
	"uses_runtime": "uses_runtime", "prefers": "prefers", "likes": "likes",
	"dislikes": "dislikes",
}

type heldoutExpect struct {
	Kind     string   `json:"kind"`
	Subject  string   `json:"subject"`
	Slot     string   `json:"slot"`
	Value    string   `json:"value"`
	Replaces string   `json:"replaces"`
	Polarity string   `json:"polarity"`
	Must     []string `json:"must"`
}

type heldoutCase struct {
	Frozen   string          `json:"frozen"`
	ID       string          `json:"id"`
	Text     string          `json:"text"`
	Context  []string        `json:"context"`
	Category string          `json:"category"`
	Expect   []heldoutExpect `json:"expect"`
}

func loadHeldout(t *testing.T) []heldoutCase {
	t.Helper()
	f, err := os.Open(heldoutFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []heldoutCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c heldoutCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s:%d: %v", heldoutFile, n, err)
		}
		if c.Frozen != "" {
			continue
		}
		for _, e := range c.Expect {
			if e.Kind == KindFact {
				if _, ok := heldoutSlotPredicate[e.Slot]; !ok {
					t.Fatalf("%s %s: unknown slot %q", heldoutFile, c.ID, e.Slot)
				}
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// heldoutPolarity reads a guideline's polarity from its predicate: should_not (or a
// negated guideline) is never, prefer* is prefer, any other should* is
// always.
func heldoutPolarity(f Fact) string {
	p := strings.ToLower(f.Predicate)
	switch {
	case strings.HasPrefix(p, "should_not") || f.Negated:
		return "never"
	case strings.Contains(p, "prefer"):
		return "prefer"
	case strings.HasPrefix(p, "should"):
		return "always"
	}
	return p
}

// heldoutMatches says whether the extracted fact f satisfies expectation e.
func heldoutMatches(e heldoutExpect, f Fact) bool {
	switch e.Kind {
	case KindFact:
		if f.Kind != KindFact || f.Negated {
			return false
		}
		return strings.EqualFold(f.Subject, e.Subject) &&
			f.Predicate == heldoutSlotPredicate[e.Slot] &&
			strings.Contains(strings.ToLower(f.Object), strings.ToLower(e.Value))
	case KindGuideline:
		if f.Kind != KindGuideline {
			return false
		}
		got := heldoutPolarity(f)
		// A soft preference stated as a plain "should" is still right.
		if got != e.Polarity && !(e.Polarity == "prefer" && got == "always") {
			return false
		}
		stmt := strings.ToLower(f.Statement)
		for _, w := range e.Must {
			if !strings.Contains(stmt, strings.ToLower(w)) {
				return false
			}
		}
		return true
	}
	return false
}

// retracts says whether f is a negated fact that retracts the old value an
// expectation replaces ("Project no longer uses Heroku" beside "Render
// replaces Heroku"). Such a fact is neither right nor wrong: it is not
// counted as a prediction.
func retracts(expect []heldoutExpect, f Fact) bool {
	if f.Kind != KindFact || !f.Negated {
		return false
	}
	for _, e := range expect {
		if e.Kind == KindFact && e.Replaces != "" && strings.EqualFold(f.Subject, e.Subject) &&
			f.Predicate == heldoutSlotPredicate[e.Slot] &&
			strings.Contains(strings.ToLower(f.Object), strings.ToLower(e.Replaces)) {
			return true
		}
	}
	return false
}

type heldoutScore struct {
	cases, expected, predicted, truePos int
	replacesWanted, replacesRight       int
	utterancesWithFP                    int
}

func (s heldoutScore) precision() float64 {
	if s.predicted == 0 {
		return 1
	}
	return float64(s.truePos) / float64(s.predicted)
}

func (s heldoutScore) recall() float64 {
	if s.expected == 0 {
		return 1
	}
	return float64(s.truePos) / float64(s.expected)
}

func heldoutDescribe(f Fact) string {
	return fmt.Sprintf("%s %s(%s, %q) %q", f.Kind, f.Predicate, f.Subject, f.Object, f.Statement)
}

func TestHeldout2026(t *testing.T) {
	cases := loadHeldout(t)
	scores := map[string]*heldoutScore{}
	var total heldoutScore
	var misses, spurious []string
	predicateMisses := map[string]int{} // predicates emitted but never expected

	for _, c := range cases {
		s := scores[c.Category]
		if s == nil {
			s = &heldoutScore{}
			scores[c.Category] = s
		}
		got := Extract(c.Text)
		used := make([]bool, len(got))
		tp := 0
		for _, e := range c.Expect {
			found := -1
			for i, f := range got {
				if !used[i] && heldoutMatches(e, f) {
					found = i
					break
				}
			}
			if e.Kind == KindFact && e.Replaces != "" {
				s.replacesWanted++
				if found >= 0 && strings.Contains(strings.ToLower(got[found].Replaces), strings.ToLower(e.Replaces)) {
					s.replacesRight++
				}
			}
			if found < 0 {
				want := fmt.Sprintf("%s %s %s=%q", e.Kind, e.Subject, e.Slot, e.Value)
				if e.Kind == KindGuideline {
					want = fmt.Sprintf("guideline %s %q", e.Polarity, e.Must)
				}
				misses = append(misses, fmt.Sprintf("%s [%s] %q: want %s", c.ID, c.Category, c.Text, want))
				continue
			}
			used[found] = true
			tp++
		}
		fp, neutral := 0, 0
		for i, f := range got {
			if !used[i] && retracts(c.Expect, f) {
				used[i] = true
				neutral++
				continue
			}
			if !used[i] {
				fp++
				predicateMisses[f.Predicate]++
				spurious = append(spurious, fmt.Sprintf("%s [%s] %q: got %s", c.ID, c.Category, c.Text, heldoutDescribe(f)))
			}
		}
		s.cases++
		s.expected += len(c.Expect)
		s.predicted += len(got) - neutral
		s.truePos += tp
		if fp > 0 {
			s.utterancesWithFP++
		}
	}

	cats := make([]string, 0, len(scores))
	for c := range scores {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	fmt.Fprintf(&b, "held-out extraction (%s), context utterances not given to Extract\n", heldoutFile)
	fmt.Fprintf(&b, "  %-11s %5s %5s %5s %5s %9s %7s %9s %8s\n", "category", "cases", "want", "got", "tp", "precision", "recall", "replaces", "utt w/FP")
	line := func(name string, s heldoutScore) {
		rep := "-"
		if s.replacesWanted > 0 {
			rep = fmt.Sprintf("%d/%d", s.replacesRight, s.replacesWanted)
		}
		fmt.Fprintf(&b, "  %-11s %5d %5d %5d %5d %9.2f %7.2f %9s %8d\n", name, s.cases, s.expected, s.predicted, s.truePos, s.precision(), s.recall(), rep, s.utterancesWithFP)
	}
	for _, c := range cats {
		s := *scores[c]
		line(c, s)
		total.cases += s.cases
		total.expected += s.expected
		total.predicted += s.predicted
		total.truePos += s.truePos
		total.replacesWanted += s.replacesWanted
		total.replacesRight += s.replacesRight
		total.utterancesWithFP += s.utterancesWithFP
	}
	line("all", total)
	if len(predicateMisses) > 0 {
		preds := make([]string, 0, len(predicateMisses))
		for p, n := range predicateMisses {
			preds = append(preds, fmt.Sprintf("%s×%d", p, n))
		}
		sort.Strings(preds)
		fmt.Fprintf(&b, "  predicates of unmatched extractions: %s\n", strings.Join(preds, " "))
	}
	t.Log("\n" + b.String())
	if testing.Verbose() {
		t.Log("misses:\n  " + strings.Join(misses, "\n  "))
		t.Log("spurious:\n  " + strings.Join(spurious, "\n  "))
	}

	if os.Getenv("CREDENCE_HELDOUT_ENFORCE") != "1" {
		return
	}
	if p := total.precision(); p < heldoutPrecision {
		t.Errorf("overall precision %.2f; target ≥ %.2f", p, heldoutPrecision)
	}
	if r := total.recall(); r < heldoutRecall {
		t.Errorf("overall recall %.2f; target ≥ %.2f", r, heldoutRecall)
	}
	for _, c := range cats {
		s := scores[c]
		if s.expected == 0 {
			continue // category none: its false positives count in the overall precision
		}
		if p := s.precision(); p < heldoutPrecision {
			t.Errorf("%s: precision %.2f; target ≥ %.2f", c, p, heldoutPrecision)
		}
		if r := s.recall(); r < heldoutRecall {
			t.Errorf("%s: recall %.2f; target ≥ %.2f", c, r, heldoutRecall)
		}
	}
}
