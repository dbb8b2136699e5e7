package cli

import (
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
)

func init() {
	Register(Command{
		Name:    "conflicts",
		Usage:   "[--project dir | --here] [--all] [--json]",
		Summary: "list contested beliefs: exclusive slots (lives_in, uses_package_manager, …) with no clear winner",
		Run:     runConflicts,
	})
}

// conflictJSON is one exclusive group in `conflicts --json`.
type conflictJSON struct {
	Subject   string             `json:"subject"`
	Predicate string             `json:"predicate"`
	Scope     string             `json:"scope"`
	Project   string             `json:"project,omitempty"`
	Contested bool               `json:"contested"`
	Members   []conflictMemberJS `json:"members"`
}

type conflictMemberJS struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Object     string  `json:"object"`
	Confidence float64 `json:"confidence"`
	Normalized float64 `json:"normalized_confidence"`
	Evidence   int     `json:"evidence_count"`
}

func runConflicts(env *Env, args []string) int {
	fs := env.Flags("conflicts")
	projectDir := fs.String("project", "", "only this project's beliefs and global ones")
	here := fs.Bool("here", false, "only the current project's beliefs and global ones")
	all := fs.Bool("all", false, "list every exclusive group with more than one member, contested or not")
	asJSON := fs.Bool("json", false, "print the groups as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	db, _, view, err := openActiveView(env, chosenProject(env, *projectDir, *here))
	if err != nil {
		return env.Fail("conflicts", err)
	}
	defer db.Close()
	out := []conflictJSON{}
	for _, g := range view.Groups {
		if len(g.Members) < 2 || (!g.Contested && !*all) {
			continue
		}
		c := conflictJSON{Subject: g.Subject, Predicate: g.Predicate, Scope: g.Scope, Project: g.Project, Contested: g.Contested}
		for i, m := range g.Members {
			c.Members = append(c.Members, conflictMemberJS{ID: m.ID, Statement: m.Statement, Object: m.Object,
				Confidence: roundTo(g.Raw[i], 4), Normalized: roundTo(g.Normalized[i], 4), Evidence: m.EvidenceCount})
		}
		out = append(out, c)
	}
	if *asJSON {
		return env.JSON(out)
	}
	if len(out) == 0 {
		env.Printf("no contested beliefs: every exclusive slot has a clear winner\n")
		return 0
	}
	for _, c := range out {
		where := "global"
		if c.Project != "" {
			where = c.Project
		}
		state := "contested"
		if !c.Contested {
			state = "settled"
		}
		env.Printf("%s %s (%s) — %s\n", c.Subject, c.Predicate, where, state)
		for _, m := range c.Members {
			env.Printf("  %.2f (raw %.2f, %s)  %s  %s\n", m.Normalized, m.Confidence,
				plural.Count(m.Evidence, "source"), ids.Short(m.ID), squeezeText(m.Statement, 70))
		}
	}
	env.Printf("\nresolve one with `credence remember \"…\"` (your word counts fully) or `credence forget <id>`.\n")
	return 0
}

// roundTo rounds x to n decimals for JSON output.
func roundTo(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	v := x * p
	if v < 0 {
		return float64(int64(v-0.5)) / p
	}
	return float64(int64(v+0.5)) / p
}
