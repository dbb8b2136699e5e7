package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

// DefaultStatusTimeout bounds how long Status waits for the remote when the
// caller's context has no deadline.
const DefaultStatusTimeout = 10 * time.Second

// What a State says of the token.
const (
	TokenAccepted = "accepted"
	TokenRefused  = "refused"
)

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
	// not known.
	PendingPull int `json:"pending_pull"`
	// Reachable reports whether the remote answered at CheckedAt (any
	// answer, a refused token too); RemoteError says why not, or what went
	// wrong there.
	Reachable   bool   `json:"reachable"`
	RemoteError string `json:"remote_error,omitempty"`
	// Token is TokenAccepted, TokenRefused, or "" when not known (a file
	// remote needs none).
	Token string `json:"token,omitempty"`
	// RemoteSchema is the remote's sync schema version; "" when it holds
	// no credence tables yet or was not reached.
	RemoteSchema string `json:"remote_schema,omitempty"`
	// CheckedAt is when the remote was asked: now for Status, the last
	// round for Recorded.
	CheckedAt time.Time `json:"checked_at,omitzero"`
}

// remoteState is what a round learned of the remote, kept in meta
// (MetaRemoteState) for status, which does not contact the remote.
type remoteState struct {
	CheckedAt   int64  `json:"checked_at"`
	Reachable   bool   `json:"reachable"`
	Token       string `json:"token,omitempty"`
	Schema      string `json:"schema,omitempty"`
	PendingPull int    `json:"pending_pull"`
	Error       string `json:"error,omitempty"`
}

// judge says what an error from the remote tells of it: whether it
// answered, and what of the token. Over HTTP, an error that is not the
// wire's came in an answer (an SQL error); from a file remote it means the
// file could not be used.
func judge(err error, overHTTP bool) (reachable bool, token string) {
	switch {
	case err == nil:
		return true, TokenAccepted
	case errors.Is(err, ErrTokenRefused):
		return true, TokenRefused
	case errors.Is(err, ErrUnreachable), errors.Is(err, context.Canceled),
		errors.Is(err, context.DeadlineExceeded):
		return false, ""
	case errors.Is(err, ErrRateLimited), errors.Is(err, ErrRemoteFailed), errors.Is(err, ErrTooLarge):
		return true, ""
	}
	if overHTTP {
		return true, TokenAccepted
	}
	return false, ""
}

// Status reports the sync state of db for the remote configured in cfg: the
// last push and pull, the rows waiting each way, and whether the remote
// answers, accepts the token and with which schema. It contacts the
// remote, waiting at most until ctx's deadline (or DefaultStatusTimeout);
// an unreachable remote is reported in the State, not as an error. With
// sync off it returns a State with Enabled false.
func Status(ctx context.Context, db *store.DB, cfg *config.Config) (State, error) {
	if !cfg.SyncEnabled() {
		return State{PendingPull: -1}, nil
	}
	base, _ := remoteBase(cfg.Sync.URL)
	return statusWith(ctx, db, RedactURL(cfg.Sync.URL), Dial(cfg.Sync.URL, cfg.Sync.Token),
		newScrubber(cfg.Sync.URL, cfg.Sync.Token), base != nil)
}

// Recorded returns what the sync rounds recorded in db, without contacting
// any remote and whether or not sync is configured now (a one-off `credence
// sync` leaves a record too): the remote they used (redacted), when the
// last push, pull and round ended, the last round's error, what it found
// of the remote (reachable, token, schema, rows left to pull), and the
// rows waiting to push, counted now.
func Recorded(ctx context.Context, db *store.DB) (State, error) {
	meta, err := db.MetaPrefix(ctx, "sync_")
	if err != nil {
		return State{PendingPull: -1}, err
	}
	st := recorded(meta)
	if st.PendingPush, err = pendingPush(ctx, db, meta); err != nil {
		// Bookkeeping this credence cannot read: say what the last round
		// left rather than fail the whole status.
		st.PendingPush, _ = strconv.Atoi(meta[MetaPendingPush])
	}
	var rs remoteState
	if json.Unmarshal([]byte(meta[MetaRemoteState]), &rs) == nil && rs.CheckedAt > 0 {
		st.CheckedAt, st.Reachable, st.Token = time.UnixMilli(rs.CheckedAt), rs.Reachable, rs.Token
		st.RemoteSchema, st.PendingPull, st.RemoteError = rs.Schema, rs.PendingPull, rs.Error
	}
	return st, nil
}

// recorded reads the times and the error the sync rounds left in meta.
func recorded(meta map[string]string) State {
	return State{Remote: meta[MetaRemote], LastPush: millis(meta[MetaLastPush]), LastPull: millis(meta[MetaLastPull]),
		LastRound: millis(meta[MetaLastRound]), LastError: meta[MetaLastError], PendingPull: -1}
}

// statusWith is Status for a remote reached through dial.
func statusWith(ctx context.Context, db *store.DB, name string, dial Dialer, scrub scrubber, overHTTP bool) (State, error) {
	st := State{Enabled: true, Remote: name, PendingPull: -1, CheckedAt: time.Now()}
	meta, err := db.MetaPrefix(ctx, "sync_")
	if err != nil {
		return st, err
	}
	rec := recorded(meta)
	st.LastPush, st.LastPull, st.LastRound, st.LastError = rec.LastPush, rec.LastPull, rec.LastRound, rec.LastError
	pull, err := store.ParseSyncCursor(meta[MetaPullCursor])
	if err != nil {
		return st, err
	}
	if st.PendingPush, err = pendingPush(ctx, db, meta); err != nil {
		return st, err
	}

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultStatusTimeout)
		defer cancel()
	}
	type probe struct {
		sv  Survey
		err error
	}
	done := make(chan probe, 1)
	go func() {
		sv, err := probeRemote(ctx, dial, meta[MetaRemoteID], pull, db.MachineID())
		done <- probe{sv, scrub.err(err)}
	}()
	select {
	case p := <-done:
		st.Reachable, st.Token = judge(p.err, overHTTP)
		if !overHTTP && st.Token == TokenAccepted {
			st.Token = "" // a file needs no token
		}
		if p.err != nil {
			st.RemoteError = p.err.Error()
			return st, nil
		}
		st.PendingPull, st.RemoteSchema = p.sv.Total(), p.sv.Schema
	case <-ctx.Done():
		st.RemoteError = fmt.Sprintf("no answer from %s: %v", name, ctx.Err())
	}
	return st, nil
}

// pendingPush counts the local rows the next push would send to the
// remote the cursors in meta belong to.
func pendingPush(ctx context.Context, db *store.DB, meta map[string]string) (int, error) {
	push, err := store.ParseSyncCursor(meta[MetaPushCursor])
	if err != nil {
		return 0, err
	}
	all, err := store.ParseSyncCursor(meta[MetaPushAll])
	if err != nil {
		return 0, err
	}
	sel := store.SyncSelect{Origins: []string{db.MachineID(), store.OriginDerived}, AllThrough: all}
	if meta[MetaRemoteID] == "" {
		// Never synced: the first round sends everything.
		if sel.AllThrough, err = db.SyncHead(ctx); err != nil {
			return 0, err
		}
	}
	return db.CountSyncRows(ctx, push, sel)
}

// probeRemote connects and surveys the remote without writing to it. A
// remote other than the one the cursor belongs to would be pulled from the
// start.
func probeRemote(ctx context.Context, dial Dialer, knownID string, pull store.SyncCursor, me string) (sv Survey, err error) {
	r, err := dial(ctx)
	if err != nil {
		return sv, unreachableError{err}
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	if sv, err = r.Survey(ctx, pull, me); err != nil || sv.ID == knownID || sv.ID == "" {
		return sv, err
	}
	return r.Survey(ctx, store.SyncCursor{}, me)
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
