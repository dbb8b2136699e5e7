package cli

import (
	"context"
	"fmt"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "forget",
		Usage:   "[--with-evidence] [--json] <belief-id | episode-id>...",
		Summary: "forget beliefs or episodes: tombstone them (sync carries it) and purge their text from the database files",
		Run:     runForget,
	})
}

// forgetReport says what a forget did.
type forgetReport struct {
	Beliefs  []string `json:"beliefs"`
	Episodes []string `json:"episodes"`
	// AlreadyForgotten lists IDs that were forgotten before.
	AlreadyForgotten []string `json:"already_forgotten,omitempty"`
	DerivedPurged    int      `json:"derived_rows_purged"`
	// MemoryFilesWritten counts the MEMORY.md files rewritten without the
	// forgotten beliefs.
	MemoryFilesWritten int `json:"memory_files_written"`
}

func runForget(env *Env, args []string) int {
	fs := env.Flags("forget")
	withEvidence := fs.Bool("with-evidence", false, "for a belief, also forget the episodes that are its evidence (and their copies in the same session), so none of its text is left")
	asJSON := fs.Bool("json", false, "print what was forgotten as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("forget", err)
	}
	defer db.Close()
	rep := forgetReport{Beliefs: []string{}, Episodes: []string{}}
	for _, id := range fs.Args() {
		if err := forgetOne(env.Ctx, db, id, *withEvidence, &rep); err != nil {
			return env.Fail("forget", explainNotFound(err, id))
		}
	}
	if rep.DerivedPurged, err = db.PurgeDerived(env.Ctx); err != nil {
		return env.Fail("forget", err)
	}
	// Every forget purged as it went; this last purge covers the derived
	// rows just cleared.
	if err := db.Purge(env.Ctx); err != nil {
		return env.Fail("forget", err)
	}
	if len(rep.Beliefs) > 0 {
		// Take the forgotten beliefs out of MEMORY.md now rather than at the
		// agent's next cycle. The database is already purged; a file that
		// cannot be written is retried by the agent.
		if st, err := promote.New(db, cfg, promote.Options{}).Promote(env.Ctx); err != nil {
			fmt.Fprintf(env.Stderr, "credence forget: updating MEMORY.md: %v (the agent retries)\n", err)
		} else {
			rep.MemoryFilesWritten = st.Written
		}
	}
	if *asJSON {
		return env.JSON(rep)
	}
	for _, id := range rep.Beliefs {
		env.Printf("forgot belief %s\n", id)
	}
	for _, id := range rep.Episodes {
		env.Printf("forgot episode %s\n", id)
	}
	for _, id := range rep.AlreadyForgotten {
		env.Printf("%s was already forgotten\n", id)
	}
	if len(rep.Beliefs)+len(rep.Episodes) > 0 {
		env.Printf("its text is purged from the database, its search indexes, free pages and WAL; other machines purge it when they sync.\n")
		if rep.MemoryFilesWritten > 0 {
			env.Printf("removed from %s.\n", countNoun(rep.MemoryFilesWritten, "MEMORY.md file"))
		}
	}
	return 0
}

// forgetOne forgets one belief (with its evidence episodes when asked) or
// one episode and records it in rep.
func forgetOne(ctx context.Context, db *store.DB, id string, withEvidence bool, rep *forgetReport) error {
	if idKindOf(id) == "episode" {
		e, err := db.EpisodeByPrefix(ctx, id)
		if err != nil {
			return err
		}
		return forgetEpisodes(ctx, db, []string{e.ID}, rep)
	}
	if idKindOf(id) != "belief" {
		return fmt.Errorf("%q is not a belief (bl_…) or episode (ep_…) ID", id)
	}
	b, err := db.Belief(ctx, id)
	if err != nil {
		return err
	}
	var episodes []string
	if withEvidence {
		if episodes, err = db.EvidenceEpisodes(ctx, b.ID); err != nil {
			return err
		}
	}
	if b.Status == belief.Forgotten {
		rep.AlreadyForgotten = append(rep.AlreadyForgotten, b.ID)
	} else {
		if err := db.ForgetBelief(ctx, b.ID); err != nil {
			return err
		}
		rep.Beliefs = append(rep.Beliefs, b.ID)
	}
	return forgetEpisodes(ctx, db, episodes, rep)
}

func forgetEpisodes(ctx context.Context, db *store.DB, idList []string, rep *forgetReport) error {
	for _, id := range idList {
		e, err := db.Episode(ctx, id)
		if err != nil {
			return err
		}
		if e.Forgotten {
			rep.AlreadyForgotten = append(rep.AlreadyForgotten, e.ID)
			continue
		}
		if err := db.ForgetEpisode(ctx, e.ID); err != nil {
			return err
		}
		rep.Episodes = append(rep.Episodes, e.ID)
	}
	return nil
}
