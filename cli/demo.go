package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/demo"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "demo",
		Usage:   "[--json] [--db path]",
		Summary: "run the toy world (Paris/Rome/Berlin) through the real store and belief engine, offline",
		Run:     runDemo,
	})
}

func runDemo(env *Env, args []string) int {
	fs := env.Flags("demo")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	dbPath := fs.String("db", "", "database file to use (default: a fresh temporary one, removed afterwards)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	path := *dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "credence-demo-")
		if err != nil {
			return env.Fail("demo", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "demo.db")
	}
	db, err := store.Open(env.Ctx, path, store.Options{Params: belief.ToyWorldParams()})
	if err != nil {
		return env.Fail("demo", err)
	}
	defer db.Close()
	res, err := demo.RunToyWorld(env.Ctx, db, demo.Script())
	if err != nil {
		return env.Fail("demo", err)
	}
	if *asJSON {
		p := belief.ToyWorldParams()
		return env.JSON(map[string]any{
			"world":      "capitals (seed 003): Paris→France, Rome→Italy, Berlin→Germany; capital_of is exclusive",
			"parameters": map[string]any{"learning_rate": p.LearningRate, "decay_per_turn": p.DecayPerTurn, "prior": p.PriorConfidence(), "clock": p.Clock},
			"phases":     res,
		})
	}
	env.Printf("credence toy world — capitals, exclusive capital_of, learning rate 0.3, decay 0.002/turn, prior 0.5\n")
	env.Printf("(a fresh database, no network, no API key; every number below comes from the real store and engine)\n\n")
	for i, r := range res {
		env.Printf("%d. %s (turn %d): %s\n", i+1, r.Phase, r.Turn, r.Description)
		env.Printf("   accuracy %.2f   contradiction rate %.2f\n", r.Accuracy, r.ContradictionRate)
		for _, g := range r.Groups {
			var parts []string
			for _, m := range g.Members {
				parts = append(parts, fmt.Sprintf("%s %.2f", m.Country, m.Normalized))
			}
			mark := "✓"
			if g.Top != g.Truth {
				mark = "✗"
			}
			note := ""
			if g.Contested {
				note = "  (contested)"
			}
			env.Printf("   %s %-7s → %s%s\n", mark, g.City, strings.Join(parts, ", "), note)
		}
		env.Printf("\n")
	}
	return 0
}
