package cli

import (
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/internal/plural"
)

func init() {
	Register(Command{
		Name:    "rebuild",
		Usage:   "[--json]",
		Summary: "recompute every belief from episodes, evidence and events (the beliefs table is a materialized view)",
		Run:     runRebuild,
	})
}

func runRebuild(env *Env, args []string) int {
	fs := env.Flags("rebuild")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := env.Config()
	if err != nil {
		return env.Fail("rebuild", err)
	}
	db, err := app.OpenStore(env.Ctx, cfg, 30*time.Second)
	if err != nil {
		return env.Fail("rebuild", err)
	}
	defer db.Close()
	start := time.Now()
	n, err := db.Rebuild(env.Ctx)
	if err != nil {
		return env.Fail("rebuild", err)
	}
	took := time.Since(start)
	if *asJSON {
		return env.JSON(map[string]any{"beliefs": n, "seconds": took.Seconds()})
	}
	env.Printf("rebuilt %s from their evidence and events in %s\n", plural.Count(n, "belief"), took.Round(time.Millisecond))
	return 0
}
