package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/logfile"
)

func init() {
	Register(Command{
		Name:    "agent",
		Usage:   "",
		Summary: "run the background daemon: consolidation, embeddings, transcript backstop, MEMORY.md and sync",
		Run:     runAgent,
	})
}

// agentStopWait bounds a graceful stop, so the agent is gone within 2 s of
// the signal whatever it was doing: a cycle checkpoints between two
// episodes, remote calls and transcript reads are cancelled, hook events
// in flight end with their context.
const agentStopWait = 1500 * time.Millisecond

// agentLogMaxBytes is the size at which agent.log is rotated.
const agentLogMaxBytes = 10 << 20

// abortAgent ends the process on a second signal; a variable so tests of the
// command can watch it happen instead of dying.
var abortAgent = func() { os.Exit(130) }

func runAgent(env *Env, args []string) int {
	fs := env.Flags("agent")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("agent", err)
	}
	abandon := false // set when something did not stop: exit without waiting on the database
	defer func() {
		if !abandon {
			db.Close()
		}
	}()
	log, closer, err := logfile.Open(cfg, "agent", agentLogMaxBytes)
	if err != nil {
		return env.Fail("agent", err)
	}
	defer closer.Close()
	a, err := agent.New(agent.Options{Config: cfg, DB: db, Logger: log, ReloadConfig: env.Config})
	if err != nil {
		return env.Fail("agent", err)
	}
	// Signals are caught before Open so that one arriving during start-up
	// still stops the agent gracefully.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := a.Open(env.Ctx); err != nil {
		if errors.Is(err, agent.ErrRunning) {
			fmt.Fprintf(env.Stderr, "credence agent: %v\n", err)
			return 1
		}
		return env.Fail("agent", err)
	}
	fmt.Fprintf(env.Stderr, "credence agent: running (pid %d); log %s\n", os.Getpid(), filepath.Join(cfg.Paths.LogDir, "agent.log"))
	var sig os.Signal
	select {
	case sig = <-sigs:
	case <-env.Ctx.Done():
	}
	log.Info("stopping", "signal", fmt.Sprint(sig))
	go func() {
		if s, ok := <-sigs; ok {
			log.Error("second signal: aborting without waiting", "signal", s.String())
			abortAgent()
		}
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(env.Ctx), agentStopWait)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		abandon = true // SQLite recovers what was in flight from the WAL
		return env.Fail("agent", err)
	}
	return 0
}
