package syncer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// Backoff after failed rounds: the first retry comes after BackoffMin, each
// further failure doubles the wait, up to BackoffMax. A clean round returns
// to the configured interval.
const (
	BackoffMin = 15 * time.Second
	BackoffMax = time.Hour
)

// Loop runs sync rounds in the background: one at Open, then one every
// interval, sooner when kicked, later after failures. The agent owns one.
type Loop struct {
	syncer   *Syncer
	interval time.Duration
	log      *slog.Logger
	kick     chan struct{}
	// onRound, when set (tests), sees every round's outcome.
	onRound func(Report, error)

	mu       sync.Mutex
	cancel   context.CancelFunc
	done     chan struct{}
	last     Report
	lastErr  error
	failures int
}

// NewLoop returns a loop running s every interval (cfg.Sync.Interval).
func NewLoop(s *Syncer, interval time.Duration, log *slog.Logger) *Loop {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if interval <= 0 {
		interval = 5 * time.Minute
	}
	return &Loop{syncer: s, interval: interval, log: log, kick: make(chan struct{}, 1)}
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

// Close stops the loop and waits for a round in progress to finish, or for
// ctx to end: go-libsql cannot cancel a request in flight, so a round stuck
// on an unreachable remote is abandoned rather than interrupted.
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
		return nil
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

func (l *Loop) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	for {
		rep, err := l.syncer.Round(ctx)
		wait := l.record(rep, err)
		if l.onRound != nil {
			l.onRound(rep, err)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-l.kick:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// record keeps the outcome and returns how long to wait before the next
// round.
func (l *Loop) record(rep Report, err error) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.lastErr = rep, err
	if err == nil {
		l.failures = 0
		return l.interval
	}
	l.failures++
	return Backoff(l.failures, rand.Float64())
}

// Backoff returns the wait after the given number of consecutive failures,
// with jitter in [0, 1) spreading it by up to a fifth so machines that lost
// the remote together do not return together.
func Backoff(failures int, jitter float64) time.Duration {
	d := BackoffMin
	for i := 1; i < failures && d < BackoffMax; i++ {
		d *= 2
	}
	d = min(d, BackoffMax)
	return d + time.Duration(float64(d)/5*jitter)
}
