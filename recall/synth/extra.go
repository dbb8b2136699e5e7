package synth

import (
	"fmt"

	"github.com/credence-mem/credence/belief"
)

// Templates for the unlabelled beliefs a long history accumulates about
// the code itself: what functions do, where things live, what to avoid.
var (
	extraFacts = []string{
		"The {fn} function in {file} retries three times before giving up",
		"{file} owns the {word} logic and nothing else should write to its tables",
		"The {word} endpoint returns paginated results of {n} items",
		"{fn} must be called with a context that has a deadline",
		"The {word} worker runs every {m} minutes from the scheduler",
		"Errors from {fn} are wrapped with the operation name",
		"{file} was split out of the {word} module during the refactor",
		"The {word} cache is invalidated when {fn} succeeds",
		"Feature flags for {word} live in {file}",
		"The {word} migration must run before deploying {file}",
	}
	extraGuides = []string{
		"Do not edit {file} by hand; it is generated",
		"Keep {fn} free of I/O so it stays easy to test",
		"Ask before changing the public signature of {fn}",
		"Write a table test whenever {fn} changes",
		"Prefer returning errors from {fn} over logging them",
	}
)

// extraBeliefs adds n unlabelled beliefs spread over the projects.
func (h *History) extraBeliefs(g *gen, n int) {
	for i := 0; i < n; i++ {
		proj := h.Projects[g.r.IntN(len(h.Projects))]
		guide := g.r.Float64() < 0.25
		tmpl, kind, subject, pred := pick(g.r, extraFacts), belief.KindFact, "code", "has_property"
		if guide {
			tmpl, kind, subject, pred = pick(g.r, extraGuides), belief.KindGuideline, "assistant", "should"
		}
		stmt := g.fill(tmpl, "")
		h.Beliefs = append(h.Beliefs, Belief{
			Key:   fmt.Sprintf("b%d", len(h.Beliefs)),
			Topic: "",
			Spec: belief.Spec{Statement: stmt, Subject: subject, Predicate: pred, Object: stmt, Kind: kind,
				Scope: belief.ScopeProject, ProjectPath: proj, Source: "synth"},
			Supports:    1 + g.r.IntN(3),
			Contradicts: g.r.IntN(2) * g.r.IntN(2),
		})
	}
}
