package consolidate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// One claim is one belief. Two keys say that a fact states what a belief of
// its slot already states:
//
//   - the canonical triple: the same slot subject, the same predicate in the
//     same polarity and the same object once normalized (judge, sameObject);
//   - for a predicate that allows several values, the fact's sentence and
//     the belief's statement scoring at or above the Dedupe threshold of the
//     embedder in use ("Assistant should run go test with -race" and
//     "Assistant should use -race when you run go test").
//
// Dedupe never joins two values of an exclusive slot — "lives in Berlin"
// and "lives in Lisbon" are rivals however alike their sentences are — nor
// two polarities: those are the slot rules' to settle.

// codeKey is the set of tools and flags a guideline names ("go test",
// "-race"), sorted and joined, or "" when it names fewer than two: two
// instructions of one polarity that name the same tools and flags are one
// instruction however they are worded ("Always run go test with the -race
// flag", "Remember: go test -race, every time"). A third key beside the
// canonical triple and the embedder, because a sentence vector weighs
// the words around the tools as much as the tools.
func codeKey(statement string) string {
	words := strings.FieldsFunc(strings.ToLower(statement), func(r rune) bool {
		return r == ' ' || r == ',' || r == ';' || r == ':' || r == '(' || r == ')' || r == '`' || r == '"'
	})
	set := map[string]bool{}
	for i := 0; i < len(words); i++ {
		w := strings.TrimRight(words[i], ".!?")
		if len(w) > 1 && w[0] == '-' {
			set[w] = true
			continue
		}
		if i+1 < len(words) {
			pair := w + " " + strings.TrimRight(words[i+1], ".!?")
			if t, ok := relations.LookupTool(pair); ok && strings.Contains(t.Name, " ") {
				set[t.Name] = true
				i++
				continue
			}
		}
		if t, ok := relations.LookupTool(w); ok && len(t.Name) > 2 {
			set[t.Name] = true
		}
	}
	if len(set) < 2 {
		return ""
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, "|")
}

// strictDedupe is the Dedupe threshold from which a person asks for
// near-identical sentences only: the tools-and-flags key steps aside.
const strictDedupe = 0.95

// maxDedupeTexts bounds the statement vectors a cycle keeps for dedupe.
const maxDedupeTexts = 4096

// sameObject reports whether two objects are one value: equal once
// trimmed, lower-cased and their inner space collapsed, so a belief written
// by another reader (the model, a person's bullet) still matches.
func sameObject(a, b string) bool {
	return a == b || normalizeObject(a) == normalizeObject(b)
}

// paraphrase returns the belief of group whose statement says what f says
// in other words, by the Dedupe threshold of the cycle's embedder, or nil.
// Only beliefs that share f's slot subject, predicate and polarity on a
// predicate that allows several values are compared. A statement without a
// vector (a remote embedder's, not computed before the transaction) is
// passed over: dedupe never calls a remote endpoint inside a transaction.
func (r *cycleRun) paraphrase(ctx context.Context, f fact, group []store.Belief, inTx bool) (*store.Belief, error) {
	pred := f.polarPredicate()
	if f.Statement == "" || exclusive(pred, r.exclusive) {
		return nil, nil
	}
	var fv []float32
	var best *store.Belief
	bestSim := r.th.Dedupe
	for i := range group {
		b := &group[i]
		if b.Predicate != pred || slotSubject(b.Subject, b.Predicate) != slotSubject(f.Subject, pred) ||
			(f.Kind != "" && b.Kind != f.Kind) || b.Statement == "" {
			continue
		}
		if f.Kind == "guideline" && b.Kind == "guideline" && r.th.Dedupe < strictDedupe {
			if k := codeKey(f.Statement); k != "" && k == codeKey(b.Statement) {
				return b, nil
			}
		}
		if fv == nil {
			var err error
			if fv, err = r.statementVector(ctx, f.Statement, inTx); err != nil || fv == nil {
				return nil, err
			}
		}
		bv, err := r.statementVector(ctx, b.Statement, inTx)
		if err != nil {
			return nil, err
		}
		if bv == nil {
			continue
		}
		sim := embed.Cosine(fv, bv)
		if sim > bestSim || (sim == bestSim && (best == nil || better(b, best))) {
			best, bestSim = b, sim
		}
	}
	return best, nil
}

// statementVector returns the cycle embedder's vector for a statement:
// cached, else computed now — always for an in-process embedder, and for a
// remote one only outside a transaction (prepareDedupe fills the cache
// before one). It returns nil when there is none to be had.
func (r *cycleRun) statementVector(ctx context.Context, text string, inTx bool) ([]float32, error) {
	if v, ok := r.dedupeVecs[text]; ok {
		return v, nil
	}
	if inTx && isRemote(r.emb) {
		return nil, nil
	}
	if err := r.embedStatements(ctx, []string{text}); err != nil {
		return nil, err
	}
	return r.dedupeVecs[text], nil
}

// embedStatements adds the vectors of texts to the cycle's cache, in one
// call for those it lacks.
func (r *cycleRun) embedStatements(ctx context.Context, texts []string) error {
	var missing []string
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := r.dedupeVecs[t]; !ok && t != "" && !seen[t] {
			seen[t] = true
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	vecs, err := r.emb.Embed(ctx, missing)
	if err != nil {
		return fmt.Errorf("embed statements for dedupe: %w", err)
	}
	if r.dedupeVecs == nil || len(r.dedupeVecs)+len(missing) > maxDedupeTexts {
		r.dedupeVecs = make(map[string][]float32, len(missing))
	}
	for i, t := range missing {
		r.dedupeVecs[t] = vecs[i]
	}
	return nil
}

// prepareDedupe embeds, before a transaction, the statements dedupe will
// compare in it: each fact's sentence and those of the beliefs in its slot
// now. Only a remote embedder needs this; an in-process one is asked inside
// the transaction, where it also sees beliefs the transaction created (whose
// statements are facts' sentences, embedded here).
func (r *cycleRun) prepareDedupe(ctx context.Context, ep store.Episode, facts []fact) error {
	if !isRemote(r.emb) || len(facts) == 0 {
		return nil
	}
	var texts []string
	for _, f := range facts {
		if exclusive(f.polarPredicate(), r.exclusive) {
			continue
		}
		group, err := related(ctx, r.db, f, ep)
		if err != nil {
			return err
		}
		texts = append(texts, f.Statement)
		for _, b := range group {
			if b.Predicate == f.polarPredicate() {
				texts = append(texts, b.Statement)
			}
		}
	}
	return r.embedStatements(ctx, texts)
}
