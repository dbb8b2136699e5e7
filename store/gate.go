package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// writeGate lets one write transaction of this process at a time ask
// SQLite for a database's write lock. Without it the agent's writers (the
// hooks it serves, the spool drain, consolidation, promotion, sync) each
// poll SQLite's busy handler, which sleeps in growing steps (1, 2, 5, …
// 100 ms) and lets a hook's write give up at its short busy timeout while
// the lock was free most of that time. At the gate a writer waits its
// turn and takes the lock the moment the writer before it commits;
// writers in other processes still meet SQLite's busy timeout.
type writeGate chan struct{}

// gates holds one gate per database file, shared by every handle this
// process opens on it.
var gates sync.Map // absolute path → writeGate

func gateFor(abs string) writeGate {
	g, _ := gates.LoadOrStore(abs, make(writeGate, 1))
	return g.(writeGate)
}

// enter waits at most wait (the handle's busy timeout) for the gate, or
// until ctx is done, and returns the func that leaves it.
func (g writeGate) enter(ctx context.Context, wait time.Duration) (func(), error) {
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	default:
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	case <-ctx.Done():
		return nil, wrap("begin", ctx.Err())
	case <-t.C:
		return nil, fmt.Errorf("begin: %w (another writer of this process held it for %v)", ErrLocked, wait)
	}
}
