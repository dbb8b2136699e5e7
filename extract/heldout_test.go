package extract

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/credence-mem/credence/relations"
)

// The held-out extraction set of issue 14: utterances written and frozen
// before any tuning, scored through the public API only. Precision and
// recall per category are logged; the targets are asserted only with
// CREDENCE_HELDOUT_ENFORCE=1.
//
// Each case is scored twice: on the utterance alone (Extract), and with
// the earlier utterances of its conversation (the case's "context") given
// to ExtractWith as the consolidator gives them. A correction that names
// only the new value ("sorry, I meant John") can be attached to its slot
// only in the second reading. The enforced targets apply to the second.
//
// Matching: a fact by subject, predicate (slotPredicates) and value
// contained in the object, case-insensitively; a guideline by polarity and
// every "must" word in its statement. Each extraction matches at most one
// expectation. Unmatched extractions are false positives, except a negated
// fact retracting the expected old value, which is not counted at all.
//
// testdata/dev2026.jsonl has the same schema and is scored the same way
// (TestDev2026); it is the set the patterns are tuned on.

const heldoutFile = "testdata/heldout2026.jsonl"

// Targets from issue 14, asserted only under CREDENCE_HELDOUT_ENFORCE=1.
const (
	heldoutPrecision = 0.9
	heldoutRecall    = 0.8
)

// heldoutSlots are the slot names the sets use. Each is reconciled with the
// extractor's predicates through the relations table (slotPredicates).
var heldoutSlots = []string{"lives_in", "name_is", "works_at", "manager_is", "timezone", "role_is",
	"uses_package_manager", "uses_test_runner", "uses_formatter", "uses_linter", "deploys_with",
	"deploy_branch", "uses_language", "language_version", "uses_framework", "uses_database", "uses_ci",
	"port", "uses_editor", "uses_runtime", "prefers", "likes", "dislikes",
	"uses_os", "uses_shell", "uses_cloud", "default_branch"}

// slotPredicates maps a set's slot name to the predicates that answer it,
// read from the relations table: the relation of that name, the one that
// adds the "_is" of a single value ("timezone" is timezone_is, "port" is
// port_is), or the relations of that family ("language_version" is
// node_version_is, go_version_is, …). A slot no relation answers maps to
// itself or to itself with "_is" (an open slot, "wife" is wife_is), so a
// mismatch in vocabulary shows as a miss.
func slotPredicates(slot string) []string {
	var out []string
	for _, r := range relations.All() {
		if r.Predicate == slot || r.Predicate == slot+"_is" || r.Family == slot {
			out = append(out, r.Predicate)
		}
	}
	if len(out) == 0 {
		out = []string{slot, slot + "_is"}
	}
	return out
}

// openSlotRE is the shape of an open slot's name: a noun phrase in
// snake_case.
var openSlotRE = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func slotHas(slot, predicate string) bool {
	for _, p := range slotPredicates(slot) {
		if p == predicate {
			return true
		}
	}
	return false
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
	Frozen string `json:"frozen"`
	Dev    string `json:"dev"`
	// OpenSlots, on a set's header line, admits slots outside the
	// relations table: the possessed noun of an open slot ("my wife is
	// Ingrid" is slot "wife"), matched as the predicate itself or with
	// "_is" added (slotPredicates).
	OpenSlots bool            `json:"open_slots"`
	ID        string          `json:"id"`
	Text      string          `json:"text"`
	Context   []string        `json:"context"`
	Category  string          `json:"category"`
	Expect    []heldoutExpect `json:"expect"`
}

// loadCases reads a set in the held-out schema, skipping its header lines
// (those with a "frozen" or "dev" key).
func loadCases(t *testing.T, file string) []heldoutCase {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []heldoutCase
	open := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c heldoutCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s:%d: %v", file, n, err)
		}
		if c.Frozen != "" || c.Dev != "" {
			open = open || c.OpenSlots
			continue
		}
		for _, e := range c.Expect {
			if e.Kind == KindFact && !known(e.Slot) && !(open && openSlotRE.MatchString(e.Slot)) {
				t.Fatalf("%s %s: unknown slot %q", file, c.ID, e.Slot)
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func known(slot string) bool {
	for _, s := range append(heldoutSlots, factSlots...) {
		if s == slot {
			return true
		}
	}
	// a slot named as a relation ("python_version_is") is answered by it
	for _, r := range relations.All() {
		if r.Predicate == slot || r.Predicate == slot+"_is" {
			return true
		}
	}
	return false
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
		same := strings.EqualFold(f.Subject, e.Subject) && slotHas(e.Slot, f.Predicate) ||
			namesRelation(e, f)
		return same && strings.Contains(strings.ToLower(f.Object), strings.ToLower(e.Value))
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

// namesRelation reconciles an open slot that names a person or an animal
// of the subject's ("my wife is Ingrid" labelled (user, wife, Ingrid))
// with the extractor's form of it: the name of the subject's wife,
// (user's wife, name_is, Ingrid).
func namesRelation(e heldoutExpect, f Fact) bool {
	return f.Predicate == "name_is" && strings.EqualFold(f.Subject, e.Subject+"'s "+strings.ReplaceAll(e.Slot, "_", " "))
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
			slotHas(e.Slot, f.Predicate) &&
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

func (s *heldoutScore) add(o heldoutScore) {
	s.cases += o.cases
	s.expected += o.expected
	s.predicted += o.predicted
	s.truePos += o.truePos
	s.replacesWanted += o.replacesWanted
	s.replacesRight += o.replacesRight
	s.utterancesWithFP += o.utterancesWithFP
}

func heldoutDescribe(f Fact) string {
	return fmt.Sprintf("%s %s(%s, %q) %q", f.Kind, f.Predicate, f.Subject, f.Object, f.Statement)
}

// setScore is the outcome of scoring a set one way.
type setScore struct {
	byCategory      map[string]*heldoutScore
	total           heldoutScore
	misses          []string
	spurious        []string
	predicateMisses map[string]int // predicates emitted but never expected
}

// scoreSet scores every case with read, which returns what the extractor
// finds in it.
func scoreSet(cases []heldoutCase, read func(heldoutCase) []Fact) setScore {
	out := setScore{byCategory: map[string]*heldoutScore{}, predicateMisses: map[string]int{}}
	for _, c := range cases {
		s := out.byCategory[c.Category]
		if s == nil {
			s = &heldoutScore{}
			out.byCategory[c.Category] = s
		}
		got := read(c)
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
				out.misses = append(out.misses, fmt.Sprintf("%s [%s] %q: want %s", c.ID, c.Category, c.Text, want))
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
				out.predicateMisses[f.Predicate]++
				out.spurious = append(out.spurious, fmt.Sprintf("%s [%s] %q: got %s", c.ID, c.Category, c.Text, heldoutDescribe(f)))
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
	for _, s := range out.byCategory {
		out.total.add(*s)
	}
	return out
}

func (s setScore) categories() []string {
	cats := make([]string, 0, len(s.byCategory))
	for c := range s.byCategory {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	return cats
}

// table renders the per-category scores.
func (s setScore) table(title string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	fmt.Fprintf(&b, "  %-11s %5s %5s %5s %5s %9s %7s %9s %8s\n", "category", "cases", "want", "got", "tp", "precision", "recall", "replaces", "utt w/FP")
	line := func(name string, s heldoutScore) {
		rep := "-"
		if s.replacesWanted > 0 {
			rep = fmt.Sprintf("%d/%d", s.replacesRight, s.replacesWanted)
		}
		fmt.Fprintf(&b, "  %-11s %5d %5d %5d %5d %9.2f %7.2f %9s %8d\n", name, s.cases, s.expected, s.predicted, s.truePos, s.precision(), s.recall(), rep, s.utterancesWithFP)
	}
	for _, c := range s.categories() {
		line(c, *s.byCategory[c])
	}
	line("all", s.total)
	if len(s.predicateMisses) > 0 {
		preds := make([]string, 0, len(s.predicateMisses))
		for p, n := range s.predicateMisses {
			preds = append(preds, fmt.Sprintf("%s×%d", p, n))
		}
		sort.Strings(preds)
		fmt.Fprintf(&b, "  predicates of unmatched extractions: %s\n", strings.Join(preds, " "))
	}
	return b.String()
}

// check asserts the targets overall and for each category that expects
// something (category none's false positives count in the overall
// precision).
func (s setScore) check(t *testing.T, precision, recall float64) {
	t.Helper()
	if p := s.total.precision(); p < precision {
		t.Errorf("overall precision %.2f; target ≥ %.2f", p, precision)
	}
	if r := s.total.recall(); r < recall {
		t.Errorf("overall recall %.2f; target ≥ %.2f", r, recall)
	}
	for _, c := range s.categories() {
		cs := s.byCategory[c]
		if cs.expected == 0 {
			continue
		}
		if p := cs.precision(); p < precision {
			t.Errorf("%s: precision %.2f; target ≥ %.2f", c, p, precision)
		}
		if r := cs.recall(); r < recall {
			t.Errorf("%s: recall %.2f; target ≥ %.2f", c, r, recall)
		}
	}
}

// alone reads a case's utterance by itself.
func alone(c heldoutCase) []Fact { return Extract(c.Text) }

// inContext reads a case's utterance with the earlier utterances of its
// conversation.
func inContext(c heldoutCase) []Fact { return ExtractWith(c.Text, Context{Recent: c.Context}) }

func TestHeldout2026(t *testing.T) {
	cases := loadCases(t, heldoutFile)
	bare := scoreSet(cases, alone)
	withCtx := scoreSet(cases, inContext)
	t.Log("\n" + bare.table(fmt.Sprintf("held-out extraction (%s), utterance alone (Extract)", heldoutFile)) +
		withCtx.table(fmt.Sprintf("held-out extraction (%s), with the conversation's earlier utterances (ExtractWith)", heldoutFile)))
	if testing.Verbose() {
		t.Log("misses:\n  " + strings.Join(withCtx.misses, "\n  "))
		t.Log("spurious:\n  " + strings.Join(withCtx.spurious, "\n  "))
	}
	if os.Getenv("CREDENCE_HELDOUT_ENFORCE") != "1" {
		return
	}
	withCtx.check(t, heldoutPrecision, heldoutRecall)
}
