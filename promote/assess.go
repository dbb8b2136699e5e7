package promote

import (
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// candidate is a belief as the promotion rule sees it.
type candidate struct {
	b store.Belief
	// conf is the decayed confidence, with exclusivity applied for an active
	// member of an exclusive group; other beliefs keep their own.
	conf float64
	// contested: the belief's exclusive group has no clear winner.
	contested bool
	// blocked: rejected later than its latest supporting evidence.
	blocked bool
	// handOver: it took the place of a promoted belief that a person's
	// direct words ended (handover.go).
	handOver bool
}

// groupKey identifies an exclusive group: beliefs sharing scope, subject and
// predicate, per project for project beliefs (as recall groups them).
type groupKey struct{ scope, project, subject, predicate string }

func keyOf(b store.Belief) groupKey {
	k := groupKey{b.Scope, "", b.Subject, b.Predicate}
	if b.Scope == belief.ScopeProject {
		k.project = b.ProjectPath
	}
	return k
}

// assessment holds what the promotion rule needs besides the beliefs.
type assessment struct {
	params    belief.Params
	now       time.Time
	turn      int64
	exclusive map[string]bool // predicates with cardinality one
	rejected  map[string]bool // store.RejectedSinceSupport
}

// assess computes every belief's confidence as DESIGN §3 defines it for
// display and promotion: decayed to now, and for active members of an
// exclusive group divided by the group's sum when it exceeds 1, with the
// group's contested flag computed over the raw confidences. All members of a
// group belong to the same target, so beliefs holds whole groups.
func (a assessment) assess(beliefs []store.Belief) []candidate {
	out := make([]candidate, len(beliefs))
	groups := map[groupKey][]int{}
	for i, b := range beliefs {
		out[i] = candidate{b: b, conf: b.Confidence(a.params, a.now, a.turn), blocked: a.rejected[b.ID]}
		if b.Status == belief.Active && b.Predicate != "" && a.exclusive[b.Predicate] {
			k := keyOf(b)
			groups[k] = append(groups[k], i)
		}
	}
	for _, members := range groups {
		if len(members) < 2 {
			continue
		}
		raw := make([]float64, len(members))
		for j, i := range members {
			raw[j] = out[i].conf
		}
		contested := a.params.Contested(raw)
		for j, c := range belief.Normalize(raw, a.params.Epsilon) {
			out[members[j]].conf = c
			out[members[j]].contested = contested
		}
	}
	return out
}
