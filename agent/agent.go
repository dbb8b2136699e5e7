package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer"
)

// Defaults for Options fields left zero.
const (
	// DefaultCheckEvery is how often the agent beats, counts waiting
	// episodes and embeds a batch: cheap enough to be near-zero CPU idle.
	DefaultCheckEvery = store.DefaultBeatEvery
	// DefaultTailQuiet is how long a transcript must be quiet before the
	// tailer stores it: long enough that the Stop hook normally wins.
	DefaultTailQuiet = 30 * time.Second
	// DefaultTailRecent is how far back, at start, the tailer looks for
	// transcripts a SessionEnd may have missed.
	DefaultTailRecent = 24 * time.Hour
	// DefaultFollowUp is how soon a cycle that ran out of budget is resumed.
	DefaultFollowUp = time.Minute
	// embedPerCheck bounds the vectors stored per check.
	embedPerCheck = 64
	// embedBudget bounds the time one check spends embedding.
	embedBudget = 10 * time.Second
)

// Options configure an Agent.
type Options struct {
	Config *config.Config
	// DB is the open database; the caller closes it after Close.
	DB     *store.DB
	Logger *slog.Logger
	// Consolidator replaces the one NewConsolidator builds (tests).
	Consolidator *consolidate.Consolidator
	CheckEvery   time.Duration
	TailQuiet    time.Duration
	TailRecent   time.Duration
	FollowUp     time.Duration
	// NoPromote, NoSync and NoHooks leave the promoter, the sync loop and
	// the hook server out (tests of the schedule).
	NoPromote, NoSync, NoHooks bool
	// SyncRetry, when set, replaces the sync loop's first wait after a
	// failed round (syncer.BackoffMin), and four times it the longest
	// (tests of a flaky network).
	SyncRetry time.Duration
	// SyncRequestTimeout, when set, bounds each request to the sync remote
	// (syncer.DefaultRequestTimeout otherwise).
	SyncRequestTimeout time.Duration
	// ReloadConfig loads the config again the way Config was loaded; the
	// hook server calls it when the config file changes. Nil keeps Config.
	ReloadConfig func() (*config.Config, error)
	Now          func() time.Time
}

// Agent is the daemon. Open starts it, Close stops it.
type Agent struct {
	opts Options
	cfg  *config.Config
	db   *store.DB
	log  *slog.Logger
	now  func() time.Time
	cons *consolidate.Consolidator

	lock    *instanceLock
	watcher *promote.Watcher
	sync    *syncer.Loop
	hooks   *hookServer
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	wake    chan string // on-demand triggers

	mu sync.Mutex // guards hb
	hb Heartbeat
}

// New checks opts and returns an agent; nothing runs until Open.
func New(opts Options) (*Agent, error) {
	if opts.Config == nil || opts.DB == nil {
		return nil, errors.New("new agent: a config and a database are required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.CheckEvery <= 0 {
		opts.CheckEvery = DefaultCheckEvery
	}
	if opts.TailQuiet <= 0 {
		opts.TailQuiet = DefaultTailQuiet
	}
	if opts.TailRecent <= 0 {
		opts.TailRecent = DefaultTailRecent
	}
	if opts.FollowUp <= 0 {
		opts.FollowUp = DefaultFollowUp
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Agent{opts: opts, cfg: opts.Config, db: opts.DB, log: opts.Logger, now: opts.Now,
		cons: opts.Consolidator, wake: make(chan string, 1)}, nil
}

// Open takes the instance lock — ErrRunning when another agent holds it —
// builds and starts the components, and starts the schedule, whose first
// cycle runs at once. It returns while they run.
func (a *Agent) Open(ctx context.Context) error {
	lock, err := lockInstance(a.cfg.Paths.DataDir)
	if err != nil {
		return err
	}
	a.lock = lock
	if err := a.open(ctx); err != nil {
		a.closeComponents(ctx)
		lock.release()
		return err
	}
	return nil
}

func (a *Agent) open(ctx context.Context) error {
	if a.cons == nil {
		c, err := NewConsolidator(a.cfg, a.db, a.log.With("component", "consolidate"))
		if err != nil {
			return err
		}
		a.cons = c
	}
	if !a.opts.NoPromote {
		p := promote.New(a.db, a.cfg, promote.Options{Logger: a.log.With("component", "promote")})
		a.cons.SetPromoter(promoterAdapter{p})
		a.watcher = promote.NewWatcher(p, promote.WatcherOptions{})
		if err := a.watcher.Open(ctx); err != nil {
			a.watcher = nil
			return fmt.Errorf("start memory watcher: %w", err)
		}
	}
	if !a.opts.NoSync && a.cfg.SyncEnabled() {
		s, err := syncer.New(a.db, a.cfg.Sync, syncer.Options{Logger: a.log.With("component", "sync"),
			RequestTimeout: a.opts.SyncRequestTimeout})
		if err != nil {
			return fmt.Errorf("start sync: %w", err)
		}
		a.sync = syncer.NewLoop(s, a.cfg.Sync.Interval, a.log.With("component", "sync"))
		if a.opts.SyncRetry > 0 {
			a.sync.WithBackoff(a.opts.SyncRetry, 4*a.opts.SyncRetry)
		}
		if err := a.sync.Open(ctx); err != nil {
			a.sync = nil
			return fmt.Errorf("start sync: %w", err)
		}
	}
	host, _ := os.Hostname()
	a.hb = Heartbeat{PID: os.Getpid(), Host: host, Mode: a.cons.Mode(), StartedAt: a.now(), Every: a.opts.CheckEvery}
	a.beat(ctx, StateIdle)
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.cancel = cancel
	if !a.opts.NoHooks {
		a.serveHooks(ctx, runCtx)
	}
	t := newTailer(a, a.cfg.Paths.ClaudeProjects, a.opts.TailQuiet, a.opts.TailRecent)
	a.wg.Add(2)
	go func() { defer a.wg.Done(); a.schedule(runCtx) }()
	go func() { defer a.wg.Done(); t.run(runCtx, a.opts.CheckEvery) }()
	a.log.Info("agent started", "pid", a.hb.PID, "mode", a.hb.Mode, "data", a.cfg.Paths.DataDir,
		"sync", a.sync != nil, "promote", a.watcher != nil, "hooks", a.hooks != nil)
	return nil
}

// Close stops the agent gracefully: a cycle in progress saves its progress
// and returns, a remote call in flight is cancelled, a transcript read
// stops, the components stop, the heartbeat says "stopped" and the lock is
// released. ctx bounds the wait: past it, what has not stopped is left
// running and Close returns ctx's error (the caller exits).
func (a *Agent) Close(ctx context.Context) error {
	if a.cancel == nil {
		return nil
	}
	a.cancel()
	a.hooks.stopAccepting()
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("stop agent: %w", ctx.Err())
	}
	err = errors.Join(err, a.closeComponents(ctx))
	a.beat(ctx, StateStopped)
	a.log.Info("agent stopped")
	a.cancel = nil
	return errors.Join(err, a.lock.release())
}

func (a *Agent) closeComponents(ctx context.Context) error {
	var errs []error
	if a.watcher != nil {
		errs = append(errs, a.watcher.Close(ctx))
	}
	if a.sync != nil {
		errs = append(errs, a.sync.Close(ctx))
	}
	errs = append(errs, a.hooks.close(ctx))
	return errors.Join(errs...)
}

// Consolidate asks for a cycle now (it never blocks; a request while one is
// pending is merged into it).
func (a *Agent) Consolidate(trigger string) {
	select {
	case a.wake <- trigger:
	default:
	}
}

// schedule runs cycles: at start, every interval, when enough episodes
// wait, on request, and soon after a cycle that could not finish.
func (a *Agent) schedule(ctx context.Context) {
	check := time.NewTicker(a.opts.CheckEvery)
	defer check.Stop()
	interval := a.cfg.Consolidation.Interval
	if interval <= 0 {
		interval = 4 * time.Hour
	}
	every := time.NewTimer(interval)
	defer every.Stop()
	var followUp <-chan time.Time
	run := func(trigger string) {
		if a.cycle(ctx, trigger) {
			followUp = time.After(a.opts.FollowUp)
		}
	}
	run("start")
	for {
		select {
		case <-ctx.Done():
			return
		case <-check.C:
			a.embed(ctx)
			if a.enoughWaiting(ctx) {
				run("episodes")
			}
			a.beat(ctx, StateIdle)
		case <-every.C:
			run("schedule")
			every.Reset(interval)
		case <-followUp:
			followUp = nil
			run("resume")
		case trigger := <-a.wake:
			if trigger == triggerTailed {
				if !a.enoughWaiting(ctx) {
					continue
				}
				trigger = "episodes"
			}
			run(trigger)
		}
	}
}

// triggerTailed is the wake-up the tailer sends after storing exchanges.
const triggerTailed = "tailed"

// enoughWaiting reports whether the episode threshold is reached.
func (a *Agent) enoughWaiting(ctx context.Context) bool {
	n, err := a.cons.Pending(ctx)
	if err != nil {
		a.log.Warn("count waiting episodes", "err", err.Error())
		return false
	}
	threshold := a.cfg.Consolidation.EpisodeThreshold
	return threshold > 0 && n >= threshold
}

// cycle runs one consolidation cycle and reports whether it left work for
// a follow-up. A cycle `credence consolidate` is running makes it a no-op.
func (a *Agent) cycle(ctx context.Context, trigger string) (again bool) {
	a.beat(ctx, StateConsolidating)
	defer a.beat(ctx, StateIdle)
	st, err := a.cons.Run(ctx, trigger)
	switch {
	case errors.Is(err, consolidate.ErrBusy):
		a.log.Info("consolidation skipped: another cycle is running", "trigger", trigger)
		return false
	case err != nil:
		a.log.Error("consolidation failed", "trigger", trigger, "err", err.Error())
		return false
	}
	a.mu.Lock()
	a.hb.LastCycle = st.CycleID
	a.mu.Unlock()
	if a.sync != nil && (st.Reinforced+st.Contradicted+st.BeliefsCreated+st.Superseded+st.Archived) > 0 {
		a.sync.Kick() // new evidence for the other machines
	}
	return st.Status == store.CycleCheckpointed && ctx.Err() == nil
}

// embed stores vectors for a batch of episodes and beliefs that lack them.
func (a *Agent) embed(ctx context.Context) {
	n, err := a.cons.EmbedPending(ctx, embedPerCheck, a.now().Add(embedBudget))
	if err != nil && !errors.Is(err, consolidate.ErrEndpointDown) && ctx.Err() == nil {
		a.log.Warn("embedding failed", "err", err.Error()) // an endpoint going down is logged once, where it is seen
	}
	if n > 0 {
		a.mu.Lock()
		a.hb.Embedded += n
		a.mu.Unlock()
	}
}

func (a *Agent) tailed(n int) {
	a.mu.Lock()
	a.hb.Tailed += n
	a.mu.Unlock()
	a.Consolidate(triggerTailed)
}

func (a *Agent) setWatching(n int) {
	a.mu.Lock()
	a.hb.Watching = n
	a.mu.Unlock()
}
