package syncer

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

// DefaultStatusTimeout bounds how long Status waits for the remote when the
// caller's context has no deadline. go-libsql ignores contexts, so the wait
// is abandoned rather than cancelled.
const DefaultStatusTimeout = 10 * time.Second

// State is the sync state status and doctor show.
type State struct {
	Enabled   bool      `json:"enabled"`
	Remote    string    `json:"remote,omitempty"` // redacted URL
	LastPush  time.Time `json:"last_push,omitzero"`
	LastPull  time.Time `json:"last_pull,omitzero"`
	LastRound time.Time `json:"last_round,omitzero"`
	LastError string    `json:"last_error,omitempty"` // the last round's error, scrubbed
	// PendingPush counts local rows the next push would send.
	PendingPush int `json:"pending_push"`
	// PendingPull counts remote rows the next pull would receive; -1 when
	// the remote was not reached.
	PendingPull int `json:"pending_pull"`
	// Reachable reports whether the remote answered just now; RemoteError
	// says why not.
	Reachable   bool   `json:"reachable"`
	RemoteError string `json:"remote_error,omitempty"`
}

// Status reports the sync state of db for the remote configured in cfg: the
// last push and pull, the rows waiting each way, and whether the remote
// answers. It contacts the remote, waiting at most until ctx's deadline (or
// DefaultStatusTimeout); an unreachable remote is reported in the State, not
// as an error. With sync off it returns a State with Enabled false.
func Status(ctx context.Context, db *store.DB, cfg *config.Config) (State, error) {
	if !cfg.SyncEnabled() {
		return State{PendingPull: -1}, nil
	}
	return statusWith(ctx, db, RedactURL(cfg.Sync.URL), Dial(cfg.Sync.URL, cfg.Sync.Token),
		newScrubber(cfg.Sync.URL, cfg.Sync.Token))
}

// Recorded returns what the sync rounds recorded in db, without contacting
// any remote and whether or not sync is configured now (a one-off `credence
// sync` leaves a record too): the remote they used (redacted), when the
// last push, pull and round ended, the last round's error, and the rows
// left to push after it. PendingPull is -1 and Reachable false.
func Recorded(ctx context.Context, db *store.DB) (State, error) {
	meta, err := db.MetaPrefix(ctx, "sync_")
	if err != nil {
		return State{PendingPull: -1}, err
	}
	st := recorded(meta)
	st.PendingPush, _ = strconv.Atoi(meta[MetaPendingPush])
	return st, nil
}

// recorded reads the times and the error the sync rounds left in meta.
func recorded(meta map[string]string) State {
	return State{Remote: meta[MetaRemote], LastPush: millis(meta[MetaLastPush]), LastPull: millis(meta[MetaLastPull]),
		LastRound: millis(meta[MetaLastRound]), LastError: meta[MetaLastError], PendingPull: -1}
}

// statusWith is Status for a remote reached through dial.
func statusWith(ctx context.Context, db *store.DB, name string, dial Dialer, scrub scrubber) (State, error) {
	st := State{Enabled: true, Remote: name, PendingPull: -1}
	meta, err := db.MetaPrefix(ctx, "sync_")
	if err != nil {
		return st, err
	}
	rec := recorded(meta)
	st.LastPush, st.LastPull, st.LastRound, st.LastError = rec.LastPush, rec.LastPull, rec.LastRound, rec.LastError
	push, err := store.ParseSyncCursor(meta[MetaPushCursor])
	if err != nil {
		return st, err
	}
	all, err := store.ParseSyncCursor(meta[MetaPushAll])
	if err != nil {
		return st, err
	}
	pull, err := store.ParseSyncCursor(meta[MetaPullCursor])
	if err != nil {
		return st, err
	}
	sel := store.SyncSelect{Origins: []string{db.MachineID(), store.OriginDerived}, AllThrough: all}
	if meta[MetaRemoteID] == "" {
		// Never synced: the first round sends everything.
		if sel.AllThrough, err = db.SyncHead(ctx); err != nil {
			return st, err
		}
	}
	if st.PendingPush, err = db.CountSyncRows(ctx, push, sel); err != nil {
		return st, err
	}

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultStatusTimeout)
		defer cancel()
	}
	type probe struct {
		pending int
		err     error
	}
	done := make(chan probe, 1)
	go func() {
		n, err := probeRemote(ctx, dial, meta[MetaRemoteID], pull, db.MachineID())
		done <- probe{n, scrub.err(err)}
	}()
	select {
	case p := <-done:
		if p.err != nil {
			st.RemoteError = p.err.Error()
			return st, nil
		}
		st.Reachable, st.PendingPull = true, p.pending
	case <-ctx.Done():
		st.RemoteError = fmt.Sprintf("no answer from %s: %v", name, ctx.Err())
	}
	return st, nil
}

// probeRemote connects and counts the rows a pull would receive. A remote
// other than the one the cursor belongs to (or one never prepared) would be
// pulled from the start.
func probeRemote(ctx context.Context, dial Dialer, knownID string, pull store.SyncCursor, me string) (n int, err error) {
	r, err := dial(ctx)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	id, err := remoteID(ctx, r)
	if err != nil {
		return 0, err
	}
	if id != knownID {
		pull = store.SyncCursor{}
	}
	if id == "" {
		return 0, nil // an empty remote: reachable, nothing to pull
	}
	return r.Pending(ctx, pull, me)
}

// remoteID reads the remote's identity without creating anything: status
// and doctor must not write to a remote.
func remoteID(ctx context.Context, r Remote) (string, error) {
	if s, ok := r.(interface {
		identity(context.Context) (string, string, error)
	}); ok {
		id, _, err := s.identity(ctx)
		if err != nil && isMissingTable(err) {
			return "", nil
		}
		return id, err
	}
	return r.Prepare(ctx)
}

func isMissingTable(err error) bool {
	return strings.Contains(strings.ToLower(err.Error()), "no such table")
}

func millis(s string) time.Time {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(n)
}
