package syncer

import (
	"context"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

func TestBackoff(t *testing.T) {
	tests := []struct {
		name     string
		failures int
		jitter   float64
		want     time.Duration
	}{
		{"first failure", 1, 0, BackoffMin},
		{"second doubles", 2, 0, 2 * BackoffMin},
		{"fifth", 5, 0, 16 * BackoffMin},
		{"capped", 40, 0, BackoffMax},
		{"jitter adds up to a fifth", 1, 0.5, BackoffMin + BackoffMin/10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Backoff(tt.failures, tt.jitter); got != tt.want {
				t.Errorf("Backoff(%d, %v)=%v, want %v", tt.failures, tt.jitter, got, tt.want)
			}
		})
	}
}

// TestLoop runs the loop against a remote that fails once: it rounds at
// Open, backs off after the failure, rounds again when kicked, and stops
// on Close.
func TestLoop(t *testing.T) {
	url := remoteURL(t)
	fail := make(chan bool, 1)
	fail <- true
	dial := func(ctx context.Context) (Remote, error) {
		select {
		case <-fail:
			return nil, errInjected
		default:
			return Dial(url, "")(ctx)
		}
	}
	a := newMachine(t, "a", 0, dial)
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	id := a.create(t, belief.Spec{Statement: "synced by the loop"}, 1)

	type outcome struct {
		rep Report
		err error
	}
	rounds := make(chan outcome, 4)
	l := NewLoop(a.sync, time.Hour, nil)
	l.onRound = func(r Report, err error) { rounds <- outcome{r, err} }
	ctx := context.Background()
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Open(ctx); err == nil {
		t.Error("second Open() succeeded")
	}
	if o := <-rounds; o.err == nil {
		t.Fatalf("first round=%+v, want the injected failure", o.rep)
	}
	l.Kick() // cuts the backoff short
	if o := <-rounds; o.err != nil || o.rep.PushedNew == 0 {
		t.Fatalf("kicked round=%+v, %v; want rows pushed", o.rep, o.err)
	}
	if _, err := l.Last(); err != nil {
		t.Errorf("Last() error=%v after a clean round", err)
	}
	closeCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := l.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(closeCtx); err != nil {
		t.Errorf("second Close()=%v", err)
	}
	b.round(t)
	if _, err := b.db.Belief(ctx, id); err != nil {
		t.Errorf("b: Belief()=%v; the loop did not push", err)
	}
}

// TestLoopWaits checks what the loop waits after each outcome and what it
// says of the remote meanwhile.
func TestLoopWaits(t *testing.T) {
	a := newMachine(t, "a", 0, nil)
	l := NewLoop(a.sync, 5*time.Minute, nil)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	down := unreachableError{errInjected}
	tests := []struct {
		name    string
		err     error
		reached bool
		min     time.Duration
		max     time.Duration
	}{
		{"first failure", down, false, BackoffMin, BackoffMin * 6 / 5},
		{"second doubles", down, false, 2 * BackoffMin, 2 * BackoffMin * 6 / 5},
		{"rate limited asks for more", &wireError{kind: ErrRateLimited, retryAfter: 10 * time.Minute, msg: "429"}, true,
			10 * time.Minute, 10 * time.Minute},
		{"clean round", nil, true, 5 * time.Minute, 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.record(Report{Reached: tt.reached}, tt.err)
			if got < tt.min || got > tt.max {
				t.Errorf("wait %v, want between %v and %v", got, tt.min, tt.max)
			}
			h := l.Health()
			if h.Down != (tt.err != nil) || !h.NextTry.Equal(now.Add(got)) || h.Name != EndpointSync {
				t.Errorf("Health()=%+v after %v", h, tt.err)
			}
			if tt.err != nil && (h.Error == "" || h.Since.IsZero()) {
				t.Errorf("Health()=%+v: want the error and since when", h)
			}
			if tt.reached && h.LastOK != now {
				t.Errorf("Health().LastOK=%v, want %v: the remote answered", h.LastOK, now)
			}
		})
	}
	// A remote that stays out of reach is tried every few minutes, one
	// that answers with errors less and less often.
	var unreachable, failing time.Duration
	for i := 0; i < 20; i++ {
		unreachable = l.record(Report{}, down)
	}
	for i := 0; i < 20; i++ {
		failing = l.record(Report{Reached: true}, &wireError{kind: ErrRemoteFailed, msg: "503"})
	}
	if unreachable > UnreachableMax*6/5 || failing < BackoffMax {
		t.Errorf("after 20 failures: unreachable waits %v, failing %v; want at most %v and at least %v",
			unreachable, failing, UnreachableMax*6/5, BackoffMax)
	}
}

func TestDue(t *testing.T) {
	tests := []struct {
		name       string
		wall, mono time.Duration
		want       bool
	}{
		{"waiting", time.Minute, time.Minute, false},
		{"wait over", 10 * time.Minute, 10 * time.Minute, true},
		{"woke from an hour's sleep", time.Hour + time.Minute, time.Minute, true},
		{"clock nudged by NTP", 2*time.Minute + time.Second, 2 * time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := due(tt.wall, tt.mono, 10*time.Minute); got != tt.want {
				t.Errorf("due(%v, %v)=%v, want %v", tt.wall, tt.mono, got, tt.want)
			}
		})
	}
}
