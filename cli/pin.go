package cli

import (
	"fmt"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "pin",
		Usage:   "[--json] <belief-id>...",
		Summary: "pin beliefs: they are never archived by the lifecycle gates",
		Run:     func(env *Env, args []string) int { return runMark(env, "pin", belief.Pin, args) },
	})
}

// runMark appends a pin or unpin event to each belief named in args.
func runMark(env *Env, name string, kind belief.EventKind, args []string) int {
	fs := env.Flags(name)
	asJSON := fs.Bool("json", false, "print the updated beliefs as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	_, db, err := openDatabase(env)
	if err != nil {
		return env.Fail(name, err)
	}
	defer db.Close()
	type marked struct {
		ID        string `json:"id"`
		Statement string `json:"statement"`
		Pinned    bool   `json:"pinned"`
		Changed   bool   `json:"changed"`
	}
	out := []marked{}
	for _, id := range fs.Args() {
		b, err := db.Belief(env.Ctx, id)
		if err != nil {
			return env.Fail(name, explainNotFound(err, id))
		}
		if b.Status == belief.Forgotten {
			return env.Fail(name, fmt.Errorf("belief %s is forgotten", b.ID))
		}
		want := kind == belief.Pin
		if b.Pinned == want {
			out = append(out, marked{b.ID, b.Statement, b.Pinned, false})
			continue
		}
		var s belief.State
		if err := db.Write(env.Ctx, func(tx *store.Tx) error {
			s, err = tx.Mark(env.Ctx, b.ID, kind)
			return err
		}); err != nil {
			return env.Fail(name, err)
		}
		out = append(out, marked{s.ID, s.Statement, s.Pinned, true})
	}
	if *asJSON {
		return env.JSON(out)
	}
	for _, m := range out {
		state := "unpinned"
		if m.Pinned {
			state = "pinned"
		}
		if !m.Changed {
			state = "already " + state
		}
		env.Printf("%s %s: %s\n", state, ids.Short(m.ID), m.Statement)
	}
	return 0
}
