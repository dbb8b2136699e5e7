package cli

import (
	"errors"
	"fmt"

	"github.com/credence-mem/credence/card"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "expand",
		Usage:   "[--json] <belief-id | episode-id>",
		Summary: "show the full card of a belief (triple, confidence with α/β, evidence and episodes, history) or an episode",
		Run:     runExpand,
	})
}

func runExpand(env *Env, args []string) int {
	fs := env.Flags("expand")
	asJSON := fs.Bool("json", false, "print the card as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	id := fs.Arg(0)
	_, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("expand", err)
	}
	defer db.Close()
	if idKindOf(id) == "episode" {
		return expandEpisode(env, db, id, *asJSON)
	}
	c, err := db.Card(env.Ctx, id)
	if err != nil {
		return env.Fail("expand", explainNotFound(err, id))
	}
	if *asJSON {
		return env.JSON(card.Of(c))
	}
	printCard(env.Stdout, c, cardOptions{episodeChars: 400, events: true})
	tl, err := db.Timeline(env.Ctx, c.Belief.ID, 24)
	if err != nil {
		return env.Fail("expand", err)
	}
	if len(tl) > 1 {
		values := make([]float64, len(tl))
		for i, p := range tl {
			values[i] = p.Confidence
		}
		env.Printf("\nTrend: %s %.2f → %.2f (credence why %s draws it)\n", confidenceSpark(values),
			values[0], values[len(values)-1], ids.Short(c.Belief.ID))
	}
	return 0
}

func expandEpisode(env *Env, db *store.DB, id string, asJSON bool) int {
	e, err := db.EpisodeByPrefix(env.Ctx, id)
	if err != nil {
		return env.Fail("expand", explainNotFound(err, id))
	}
	derived, err := db.BeliefsFromEpisode(env.Ctx, e.ID)
	if err != nil {
		return env.Fail("expand", err)
	}
	if asJSON {
		out := struct {
			card.Episode
			Beliefs []card.Related `json:"beliefs"`
		}{Episode: card.EpisodeOf(e), Beliefs: []card.Related{}}
		for _, b := range derived {
			out.Beliefs = append(out.Beliefs, card.RelatedOf(b))
		}
		return env.JSON(out)
	}
	env.Printf("%s  %s episode, %s\n", e.ID, e.Kind, formatMillis(e.CreatedAt.UnixMilli()))
	env.Printf("  session   %s\n", dashIfEmpty(e.SessionID))
	env.Printf("  project   %s (%s)\n", dashIfEmpty(e.ProjectPath), e.Scope)
	env.Printf("  origin    %s\n", e.Origin)
	if e.Surprise > 0 {
		env.Printf("  surprise  %.2f %s\n", e.Surprise, e.SurpriseExplanation)
	}
	if e.Forgotten {
		env.Printf("  forgotten: its text was purged\n")
	} else {
		env.Printf("\n%s", indent(e.Content, "  "))
	}
	if len(derived) > 0 {
		env.Printf("\nEvidence for %s:\n", plural.Count(len(derived), "belief"))
		for _, b := range derived {
			env.Printf("  %s  %s (%s)\n", ids.Short(b.ID), squeezeText(b.Statement, 70), b.Status)
		}
	}
	return 0
}

// explainNotFound adds what to do when an ID matches nothing.
func explainNotFound(err error, id string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w; IDs look like bl_… (beliefs) or ep_… (episodes), as printed by credence recall", err)
	}
	return err
}
