package cli

import (
	"errors"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/syncer"
)

func init() {
	Register(Command{
		Name:    "sync",
		Usage:   "[--json] [--status]",
		Summary: "push this machine's memory to the remote libSQL database and pull the other machines' (sync.url)",
		Run:     runSync,
	})
}

func runSync(env *Env, args []string) int {
	fs := env.Flags("sync")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	status := fs.Bool("status", false, "show the sync state and check the remote instead of syncing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := env.Config()
	if err != nil {
		return env.Fail("sync", err)
	}
	if !cfg.SyncEnabled() {
		if !*status {
			return env.Fail("sync", syncer.ErrDisabled)
		}
		// Off is a state to report, not a failure: nothing is wrong.
		if *asJSON {
			return env.JSON(syncer.State{PendingPull: -1})
		}
		env.Printf("sync is off: this machine keeps its memory to itself.\n")
		env.Printf("To turn it on, set url (and token) under [sync] in %s,\n", cfg.Paths.ConfigFile)
		env.Printf("or CREDENCE_SYNC_URL (and CREDENCE_SYNC_TOKEN) in the environment.\n")
		return 0
	}
	db, err := app.OpenStore(env.Ctx, cfg, 30*time.Second)
	if err != nil {
		return env.Fail("sync", err)
	}
	defer db.Close()
	if *status {
		st, err := syncer.Status(env.Ctx, db, cfg)
		if err != nil {
			return env.Fail("sync", err)
		}
		if *asJSON {
			return env.JSON(st)
		}
		printSyncState(env, st)
		if !st.Reachable || st.Token == syncer.TokenRefused || st.RemoteError != "" {
			return 1
		}
		return 0
	}
	log, closer, err := logfile.Open(cfg, "sync", 10<<20)
	if err != nil {
		return env.Fail("sync", err)
	}
	defer closer.Close()
	s, err := syncer.New(db, cfg.Sync, syncer.Options{Logger: log})
	if err != nil {
		return env.Fail("sync", err)
	}
	defer s.Close()
	rep, err := s.Round(env.Ctx)
	if *asJSON {
		out := map[string]any{"report": rep, "ok": err == nil}
		if err != nil {
			out["error"] = err.Error()
		}
		if code := env.JSON(out); code != 0 || err == nil {
			return code
		}
		return 1
	}
	if err != nil {
		if rep.Pushed+rep.Pulled > 0 {
			env.Printf("partial sync with %s: pulled %d, pushed %d before the error\n", rep.Remote, rep.Pulled, rep.Pushed)
		}
		return env.Fail("sync", errors.Join(err, errors.New("what was committed stays; the next sync resumes")))
	}
	env.Printf("synced with %s in %s\n", rep.Remote, rep.Took.Round(time.Millisecond))
	env.Printf("  pulled %s (%d new), folded %s again, applied %s\n",
		plural.Count(rep.Pulled, "row"), rep.PulledNew, plural.Count(rep.Refolded, "belief"), plural.Count(rep.Purged, "forget"))
	if rep.Merged+rep.Mirrored+rep.Forgotten > 0 {
		env.Printf("  merged %s (%d evidence mirrored, %d forgotten with their twin)\n",
			plural.Count(rep.Merged, "twin belief"), rep.Mirrored, rep.Forgotten)
	}
	env.Printf("  pushed %s (%d new on the remote)\n", plural.Count(rep.Pushed, "row"), rep.PushedNew)
	if rep.Reset {
		env.Printf("  the remote was new to this machine: sent everything it holds\n")
	}
	return 0
}

func printSyncState(env *Env, st syncer.State) {
	when := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.Local().Format("2006-01-02 15:04:05")
	}
	env.Printf("remote       %s\n", st.Remote)
	switch {
	case !st.Reachable:
		env.Printf("reachable    no: %s\n", st.RemoteError)
	case st.RemoteError != "":
		env.Printf("reachable    yes, but: %s\n", st.RemoteError)
	default:
		env.Printf("reachable    yes (%s to pull)\n", plural.Count(st.PendingPull, "row"))
	}
	switch st.Token {
	case syncer.TokenAccepted:
		env.Printf("token        accepted\n")
	case syncer.TokenRefused:
		env.Printf("token        refused: set sync.token in the config file (or CREDENCE_SYNC_TOKEN)\n")
	}
	if st.Reachable && st.RemoteError == "" {
		schema := st.RemoteSchema
		if schema == "" {
			schema = "none yet: the first round creates credence's tables"
		}
		env.Printf("schema       %s\n", schema)
	}
	env.Printf("last push    %s\n", when(st.LastPush))
	env.Printf("last pull    %s\n", when(st.LastPull))
	env.Printf("to push      %s\n", plural.Count(st.PendingPush, "row"))
	if st.LastError != "" {
		env.Printf("last error   %s\n", st.LastError)
	}
}
