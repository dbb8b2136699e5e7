package cli

import (
	"fmt"
	"strings"

	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:  "forget",
		Usage: "[--keep-episodes | --with-evidence] [--json] <belief-id | episode-id>...",
		Summary: "forget beliefs or episodes, and with a belief the episodes that say it: tombstone them (sync carries it) " +
			"and purge their text from the database files",
		Run: runForget,
	})
}

// forgetReport says what a forget did.
type forgetReport struct {
	Beliefs []string `json:"beliefs"`
	// Episodes lists every episode forgotten: those named, and those a
	// forgotten belief took with it.
	Episodes []string `json:"episodes"`
	// EpisodesKept lists episodes a forgotten belief was learned from that
	// were left in place (other beliefs rest on them, or --keep-episodes).
	EpisodesKept []string `json:"episodes_kept"`
	// AlreadyForgotten lists IDs that were forgotten before.
	AlreadyForgotten []string `json:"already_forgotten,omitempty"`
	DerivedPurged    int      `json:"derived_rows_purged"`
	// MemoryFilesWritten counts the MEMORY.md files rewritten without the
	// forgotten beliefs.
	MemoryFilesWritten int `json:"memory_files_written"`
}

func runForget(env *Env, args []string) int {
	fs := env.Flags("forget")
	withEvidence := fs.Bool("with-evidence", false, "for a belief, also forget every episode it was learned from, even those other beliefs rest on")
	keepEpisodes := fs.Bool("keep-episodes", false, "for a belief, forget the belief alone and keep every episode (its words stay in them)")
	asJSON := fs.Bool("json", false, "print what was forgotten as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	scope := store.ForgetSources
	switch {
	case *withEvidence && *keepEpisodes:
		fmt.Fprintln(env.Stderr, "credence forget: --with-evidence and --keep-episodes contradict each other; pick one")
		return 2
	case *withEvidence:
		scope = store.ForgetEvidence
	case *keepEpisodes:
		scope = store.KeepEpisodes
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("forget", err)
	}
	defer db.Close()
	done, err := db.Forget(env.Ctx, fs.Args(), scope)
	if err != nil {
		return env.Fail("forget", explainNotFound(err, strings.Join(fs.Args(), " ")))
	}
	rep := forgetReport{Beliefs: nonNil(done.Beliefs), Episodes: nonNil(done.Episodes), EpisodesKept: nonNil(done.Kept),
		AlreadyForgotten: done.AlreadyForgotten, DerivedPurged: done.DerivedPurged}
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
	env.Printf("%s", forgetText(rep, scope))
	return 0
}

// forgetText says in words what a forget removed and what it kept.
func forgetText(rep forgetReport, scope store.ForgetScope) string {
	var b strings.Builder
	for _, id := range rep.Beliefs {
		fmt.Fprintf(&b, "forgot belief %s\n", id)
	}
	for _, id := range rep.Episodes {
		fmt.Fprintf(&b, "forgot episode %s\n", id)
	}
	for _, id := range rep.AlreadyForgotten {
		fmt.Fprintf(&b, "%s was already forgotten\n", id)
	}
	if len(rep.Beliefs)+len(rep.Episodes) > 0 {
		b.WriteString("their text is purged from this machine's database, its search indexes, free pages and WAL; " +
			"other machines purge it when they sync.\n")
	}
	if len(rep.EpisodesKept) > 0 {
		why := "other beliefs rest on them and their text does not state it; --with-evidence forgets them too"
		if scope == store.KeepEpisodes {
			why = "--keep-episodes: what they say can still be recalled"
		}
		fmt.Fprintf(&b, "kept %s it was learned from (%s): %s\n", countNoun(len(rep.EpisodesKept), "episode"), why,
			strings.Join(rep.EpisodesKept, ", "))
	}
	if rep.MemoryFilesWritten > 0 {
		fmt.Fprintf(&b, "removed from %s.\n", countNoun(rep.MemoryFilesWritten, "MEMORY.md file"))
	}
	return b.String()
}

// nonNil returns xs, or an empty slice for nil, so JSON shows [] not null.
func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
