package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/hooks"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "consolidate",
		Usage:   "[--json] [--wait=duration] [--no-promote] [--embed-for=duration]",
		Summary: "run one consolidation cycle now (works with or without the agent; never two at once)",
		Run:     runConsolidate,
	})
}

func runConsolidate(env *Env, args []string) int {
	fs := env.Flags("consolidate")
	asJSON := fs.Bool("json", false, "print the cycle's stats as JSON")
	wait := fs.Duration("wait", 5*time.Minute, "how long to wait for a cycle already running (0: fail at once)")
	noPromote := fs.Bool("no-promote", false, "leave MEMORY.md files alone this time")
	embedFor := fs.Duration("embed-for", time.Minute, "after the cycle, how long to spend embedding what has no vector yet (0: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("consolidate", err)
	}
	defer db.Close()
	log, closer, err := logfile.Open(cfg, "consolidate", agentLogMaxBytes)
	if err != nil {
		return env.Fail("consolidate", err)
	}
	defer closer.Close()
	// Ctrl-C stops the cycle gracefully: it saves its progress.
	ctx, stop := signal.NotifyContext(env.Ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cons, err := agent.NewConsolidator(cfg, db, log)
	if err != nil {
		return env.Fail("consolidate", err)
	}
	if !*noPromote {
		cons.SetPromoter(agent.PromoterFor(promote.New(db, cfg, promote.Options{Logger: log})))
	}
	unlock, err := consolidate.TryLock(cons.LockPath())
	if errors.Is(err, consolidate.ErrBusy) && *wait > 0 {
		fmt.Fprintln(env.Stderr, "credence consolidate: a cycle is running; waiting for it to finish…")
		wctx, cancel := context.WithTimeout(ctx, *wait)
		unlock, err = consolidate.Lock(wctx, cons.LockPath(), 250*time.Millisecond)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			err = consolidate.ErrBusy
		}
	}
	if err != nil {
		return env.Fail("consolidate", err)
	}
	defer unlock()
	// Prompts the hooks could not store while the database was busy wait
	// in the spool; the agent stores them as they come, a cycle run by
	// hand stores them first.
	hooks.DrainSpool(ctx, cfg, db, log)
	st, err := cons.RunLocked(ctx, "cli")
	if err != nil {
		return env.Fail("consolidate", err)
	}
	// The agent embeds new episodes and beliefs between its cycles, so
	// recall finds them by meaning; a cycle run by hand does it too, or
	// without the agent nothing would ever have a vector. An embedder that
	// does not answer leaves them for later, as in the agent.
	embedded, eerr := cons.EmbedPending(ctx, math.MaxInt, time.Now().Add(*embedFor))
	if eerr != nil {
		log.Warn("embedding after the cycle", "err", eerr.Error())
	}
	if *asJSON {
		if code := env.JSON(st); code != 0 {
			return code
		}
	} else {
		printConsolidation(env, st)
		if embedded > 0 {
			env.Printf("  vectors: %d stored for recall by meaning\n", embedded)
		}
	}
	if st.Status == store.CycleFailed {
		return 1
	}
	return 0
}

// offlineName names the embedder a cycle fell back to.
func offlineName(st consolidate.Stats) string {
	if st.EmbedderFallback {
		return "the offline embedder (" + st.Embedder + ")"
	}
	return "the offline embedder"
}

// printConsolidation writes a cycle's stats for people.
func printConsolidation(env *Env, st consolidate.Stats) {
	env.Printf("cycle %s (%s mode, %s): %s in %s\n", st.CycleID, st.Mode, st.Trigger, st.Status,
		st.FinishedAt.Sub(st.StartedAt).Round(time.Millisecond))
	env.Printf("  episodes %d (facts %d, surprising %d, set aside %d), %d still waiting\n",
		st.Episodes, st.Facts, st.HighSurprise, st.Failed, st.Remaining)
	env.Printf("  beliefs: %d created, %d reinforced, %d contradicted, %d superseded, %d reactivated\n",
		st.BeliefsCreated, st.Reinforced, st.Contradicted, st.Superseded, st.Reactivated)
	env.Printf("  clusters %d (%d deferred), classifications %d; revised %d, split %d, merged %d, archived %d\n",
		st.Clusters, st.ClustersDeferred, st.Classifications, st.Revised, st.Split, st.Merged, st.Archived)
	if st.Mode == consolidate.ModeLLM || st.LLM.Calls > 0 {
		env.Printf("  llm: %s, %d failed, %d fell back to offline; tokens %d prompt + %d completion\n",
			plural.Count(st.LLM.Calls, "call"), st.LLM.Failures, st.LLMFallbacks, st.LLM.PromptTokens, st.LLM.CompletionTokens)
	}
	for _, e := range st.Endpoints {
		instead := "its items were consolidated offline"
		if e.Name == consolidate.EndpointEmbedder {
			instead = "texts were compared with " + offlineName(st)
		}
		env.Printf("  %s: %s did not answer (%s); %s\n", e.Name, e.Remote, e.Error, instead)
	}
	if p := st.Promotion; p != nil {
		env.Printf("  MEMORY.md: %d promoted, %d demoted, %d removed, %s written\n", p.Promoted, p.Demoted, p.Removed,
			plural.Count(p.FilesWritten, "file"))
	}
	if st.Checkpointed {
		env.Printf("  the cycle stopped early and saved its progress; the next one resumes\n")
	}
}
