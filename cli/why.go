package cli

import (
	"github.com/credence-mem/credence/card"
)

func init() {
	Register(Command{
		Name:    "why",
		Usage:   "[--json] [--points n] <belief-id>",
		Summary: "explain a belief: its evidence chain down to the episodes and its confidence over time",
		Run:     runWhy,
	})
}

func runWhy(env *Env, args []string) int {
	fs := env.Flags("why")
	asJSON := fs.Bool("json", false, "print the card and the timeline as JSON")
	points := fs.Int("points", 40, "points on the confidence timeline")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *points < 2 {
		fs.Usage()
		return 2
	}
	_, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("why", err)
	}
	defer db.Close()
	c, err := db.Card(env.Ctx, fs.Arg(0))
	if err != nil {
		return env.Fail("why", explainNotFound(err, fs.Arg(0)))
	}
	tl, err := db.Timeline(env.Ctx, c.Belief.ID, *points)
	if err != nil {
		return env.Fail("why", err)
	}
	if *asJSON {
		out := card.Of(c)
		out.Timeline = card.TimelineOf(tl)
		return env.JSON(out)
	}
	printCard(env.Stdout, c, cardOptions{episodeChars: 0, events: false})
	env.Printf("\nConfidence over time:\n")
	drawTimeline(env.Stdout, tl)
	return 0
}
