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
		Usage:   "[--toy | --session] [--json] [--db path] [--hook-binary path]",
		Summary: "the toy world (Paris/Rome/Berlin) through the real belief engine, then a scripted Claude Code session through the real hook, offline",
		Run:     runDemo,
	})
}

func runDemo(env *Env, args []string) int {
	fs := env.Flags("demo")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	dbPath := fs.String("db", "", "database file for the toy world (default: a fresh temporary one, removed afterwards)")
	toyOnly := fs.Bool("toy", false, "run only the toy world")
	sessionOnly := fs.Bool("session", false, "run only the scripted Claude Code session")
	hookBinary := fs.String("hook-binary", "", "credence-hook for the session part (default: next to this binary)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *toyOnly && *sessionOnly {
		fs.Usage()
		return 2
	}
	if *sessionOnly {
		return runSessionDemo(env, *hookBinary, *asJSON, true)
	}
	if *toyOnly {
		return runToyDemo(env, *dbPath, *asJSON)
	}
	if *asJSON {
		// Both parts as one JSON object.
		return runBothDemosJSON(env, *dbPath, *hookBinary)
	}
	if code := runToyDemo(env, *dbPath, false); code != 0 {
		return code
	}
	return runSessionDemo(env, *hookBinary, false, false)
}

// runToyDemo runs the toy world and prints it.
func runToyDemo(env *Env, dbPath string, asJSON bool) int {
	res, code := toyWorld(env, dbPath)
	if code != 0 {
		return code
	}
	if asJSON {
		return env.JSON(toyJSON(res))
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

// toyWorld runs the toy world in a fresh database (or dbPath).
func toyWorld(env *Env, dbPath string) ([]demo.PhaseResult, int) {
	path := dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "credence-demo-")
		if err != nil {
			return nil, env.Fail("demo", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "demo.db")
	}
	db, err := store.Open(env.Ctx, path, store.Options{Params: belief.ToyWorldParams()})
	if err != nil {
		return nil, env.Fail("demo", err)
	}
	defer db.Close()
	res, err := demo.RunToyWorld(env.Ctx, db, demo.Script())
	if err != nil {
		return nil, env.Fail("demo", err)
	}
	return res, 0
}

// toyJSON is the toy world's JSON output.
func toyJSON(res []demo.PhaseResult) map[string]any {
	p := belief.ToyWorldParams()
	return map[string]any{
		"world":      "capitals (seed 003): Paris→France, Rome→Italy, Berlin→Germany; capital_of is exclusive",
		"parameters": map[string]any{"learning_rate": p.LearningRate, "decay_per_turn": p.DecayPerTurn, "prior": p.PriorConfidence(), "clock": p.Clock},
		"phases":     res,
	}
}
