package syncer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/credence-mem/credence/store"
)

// Backoff after failed rounds: the first retry comes after BackoffMin, each
// further failure doubles the wait, up to BackoffMax. A clean round returns
// to the configured interval.
const (
	BackoffMin = 15 * time.Second
	BackoffMax = time.Hour
	// UnreachableMax caps the wait while the remote cannot be reached at
	// all: trying costs one failed connection, and a laptop back on a
	// network should sync within minutes, not an hour.
	UnreachableMax = 5 * time.Minute
	// wakeCheck is how often a waiting loop looks at the wall clock. The
	// monotonic clock Go's timers run on stops while the machine sleeps, so
	// a timer set before the lid closed would fire that much later after it
	// opens.
	wakeCheck = 30 * time.Second
)

// EndpointSync names the sync remote among the endpoints in the agent's
// heartbeat (store.EndpointHealth).
const EndpointSync = "sync"

// Loop runs sync rounds in the background: one at Open, then one every
// interval, sooner when kicked, later after failures. The agent owns one.
// A round touches the local database only in short transactions and never
// while it waits for the remote, so a remote that is down, slow or
// refusing holds up nothing else.
type Loop struct {
	syncer   *Syncer
	interval time.Duration
	retryMin time.Duration
	retryMax time.Duration
	log      *slog.Logger
	kick     chan struct{}
	now      func() time.Time
	// onRound, when set (tests), sees every round's outcome.
	onRound func(Report, error)

	mu       sync.Mutex
	cancel   context.CancelFunc
	done     chan struct{}
	last     Report
	lastErr  error
	failures int
	health   store.EndpointHealth
}

// NewLoop returns a loop running s every interval (cfg.Sync.Interval).
func NewLoop(s *Syncer, interval time.Duration, log *slog.Logger) *Loop {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if interval <= 0 {
		interval = 5 * time.Minute
	}
	return &Loop{syncer: s, interval: interval, retryMin: BackoffMin, retryMax: BackoffMax, log: log,
		kick: make(chan struct{}, 1), now: time.Now,
		health: store.EndpointHealth{Name: EndpointSync, Remote: s.remote, Fallback: "local"}}
}

// WithBackoff sets the first wait after a failed round and the longest
// (tests shorten them); it returns l.
func (l *Loop) WithBackoff(first, longest time.Duration) *Loop {
	l.retryMin, l.retryMax = first, max(first, longest)
	return l
}

// Open starts the loop; its first round starts at once. ctx bounds only
// the start: the loop runs until Close.
func (l *Loop) Open(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		return errors.New("sync loop: already open")
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	l.cancel, l.done = cancel, make(chan struct{})
	go l.run(runCtx, l.done)
	return nil
}

// Close stops the loop: the round in progress is cancelled (its requests
// to the remote end at once) and waited for until ctx ends.
func (l *Loop) Close(ctx context.Context) error {
	l.mu.Lock()
	cancel, done := l.cancel, l.done
	l.cancel = nil
	l.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	select {
	case <-done:
		return l.syncer.Close()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Kick asks for a round now, cutting the current wait short (after a
// consolidation, say); during a round it asks for another right after. It
// never blocks.
func (l *Loop) Kick() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Last returns the outcome of the latest round.
func (l *Loop) Last() (Report, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last, l.lastErr
}

// Health says how the remote is doing as the loop saw it: whether the last
// round failed, since when, why, and when the next round runs.
func (l *Loop) Health() store.EndpointHealth {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.health
}

func (l *Loop) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	for {
		rep, err := l.syncer.Round(ctx)
		if ctx.Err() != nil {
			return // closing: a cancelled round is not the remote's failure
		}
		wait := l.record(rep, err)
		if l.onRound != nil {
			l.onRound(rep, err)
		}
		if !l.wait(ctx, wait) {
			return
		}
	}
}

// wait returns when the next round is due: wait has passed on the wall
// clock, the loop was kicked, or the machine woke from sleep (the remote's
// state is news then: a laptop opened on a train shows at once what is
// waiting). It returns false when ctx ends.
func (l *Loop) wait(ctx context.Context, wait time.Duration) bool {
	start := time.Now()
	deadline := start.Round(0).Add(wait) // wall clock: it runs during sleep
	for {
		step := min(time.Until(deadline), wakeCheck)
		timer := time.NewTimer(max(step, 0))
		select {
		case <-ctx.Done():
			timer.Stop()
			return false
		case <-l.kick:
			timer.Stop()
			return true
		case <-timer.C:
		}
		now := time.Now()
		if due(now.Round(0).Sub(start.Round(0)), now.Sub(start), wait) {
			return true
		}
	}
}

// due reports whether a wait is over after wall of wall-clock time and
// mono of monotonic time: wait has passed on the wall clock, or the wall
// clock ran well ahead of the monotonic one, which stops while the machine
// sleeps.
func due(wall, mono, wait time.Duration) bool {
	return wall >= wait || wall-mono > wakeCheck
}

// record keeps the outcome and returns how long to wait before the next
// round: the interval after a clean round; after a failure, the backoff,
// or longer when the remote asked for it (429 or 503 with Retry-After).
func (l *Loop) record(rep Report, err error) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.last, l.lastErr = rep, err
	h := &l.health
	if err == nil {
		l.failures = 0
		h.Down, h.LastOK, h.Since, h.Failures, h.Error = false, now, time.Time{}, 0, ""
		h.NextTry = now.Add(l.interval)
		return l.interval
	}
	if rep.Reached {
		h.LastOK = now // it answered; the round failed later
	}
	l.failures++
	if !h.Down {
		h.Down, h.Since = true, now
	}
	h.Failures, h.Error = l.failures, err.Error()
	longest := l.retryMax
	if errors.Is(err, ErrUnreachable) {
		longest = min(longest, UnreachableMax)
	}
	wait := max(backoff(l.retryMin, longest, l.failures, rand.Float64()), min(RetryAfter(err), l.retryMax))
	h.NextTry = now.Add(wait)
	l.log.Info("sync retry scheduled", "failures", l.failures, "wait", wait.Round(time.Second).String())
	return wait
}

// Backoff returns the wait after the given number of consecutive failures,
// with jitter in [0, 1) spreading it by up to a fifth so machines that lost
// the remote together do not return together.
func Backoff(failures int, jitter float64) time.Duration {
	return backoff(BackoffMin, BackoffMax, failures, jitter)
}

func backoff(first, longest time.Duration, failures int, jitter float64) time.Duration {
	d := first
	for i := 1; i < failures && d < longest; i++ {
		d *= 2
	}
	d = min(d, longest)
	return d + time.Duration(float64(d)/5*jitter)
}
