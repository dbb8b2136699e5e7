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
