package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

// Meta keys sync writes in the local database. `credence status` reads them
// with store.DB.MetaPrefix("sync_") without importing this package. Times
// are Unix milliseconds.
const (
	MetaRemote        = "sync_remote"           // the remote's URL, redacted
	MetaRemoteID      = "sync_remote_id"        // identity of the remote the cursors belong to
	MetaPushCursor    = "sync_push_cursor"      // local seqs pushed, JSON store.SyncCursor
	MetaPullCursor    = "sync_pull_cursor"      // remote seqs pulled, JSON store.SyncCursor
	MetaPushAll       = "sync_push_all_through" // local seqs at or below which every origin is pushed
	MetaLastPush      = "sync_last_push_at"     // end of the last push that completed
	MetaLastPull      = "sync_last_pull_at"     // end of the last pull that completed
	MetaLastRound     = "sync_last_round_at"    // end of the last round, failed or not
	MetaLastError     = "sync_last_error"       // the last round's error, scrubbed; "" after a clean round
	MetaPendingPush   = "sync_pending_push"     // rows left to push after the last round
	MetaMergedThrough = "sync_merged_through"   // "events/evidence" seqs the last twin scan saw
	MetaRemoteState   = "sync_remote_state"     // what the last round found of the remote, JSON
)

// DefaultBatch is how many rows of each table one request carries.
const DefaultBatch = 500

// Options tune a Syncer.
type Options struct {
	// Batch is the number of rows of each table per request; 0 means
	// DefaultBatch.
	Batch int
	// Logger receives one line per round; nil discards.
	Logger *slog.Logger
	// RequestTimeout bounds each HTTP request to the remote; 0 means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
}

// Syncer runs sync rounds between one local database and one remote.
type Syncer struct {
	db       *store.DB
	dial     Dialer
	remote   string
	overHTTP bool // the remote is reached over HTTP, through a relay
	scrub    scrubber
	batch    int
	log      *slog.Logger

	mu   sync.Mutex
	kept Remote // an HTTP remote kept open between rounds (take, put)
}

// take returns the remote kept from the last round, or dials it.
func (s *Syncer) take(ctx context.Context) (Remote, error) {
	s.mu.Lock()
	r := s.kept
	s.kept = nil
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	return s.dial(ctx)
}

// put keeps an HTTP remote after a clean round, so the next round does not
// set up go-libsql's client and the relay again, and closes it otherwise: a
// failed round may leave it in any state, and a file remote costs nothing
// to open.
func (s *Syncer) put(r Remote, clean bool) error {
	if k, ok := r.(interface{ keepable() bool }); clean && ok && k.keepable() {
		s.mu.Lock()
		if s.kept == nil {
			s.kept, r = r, nil
		}
		s.mu.Unlock()
		if r == nil {
			return nil
		}
	}
	return r.Close()
}

// Close releases the remote kept between rounds.
func (s *Syncer) Close() error {
	s.mu.Lock()
	r := s.kept
	s.kept = nil
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	return r.Close()
}

// New returns a Syncer for the remote configured in cfg (sync.url and
// sync.token). It returns ErrDisabled when no URL is set.
func New(db *store.DB, cfg config.SyncConfig, opts Options) (*Syncer, error) {
	if cfg.URL == "" {
		return nil, ErrDisabled
	}
	if _, err := driverDSN(cfg.URL, cfg.Token); err != nil {
		return nil, newScrubber(cfg.URL, cfg.Token).err(err)
	}
	s := NewWithDialer(db, RedactURL(cfg.URL), dialTimeout(cfg.URL, cfg.Token, opts.RequestTimeout), opts)
	s.scrub = newScrubber(cfg.URL, cfg.Token)
	base, _ := remoteBase(cfg.URL)
	s.overHTTP = base != nil
	return s, nil
}

// NewWithDialer returns a Syncer that reaches its remote through dial;
// name is how the remote is shown. Tests use it to put a faulty remote in
// the way.
func NewWithDialer(db *store.DB, name string, dial Dialer, opts Options) *Syncer {
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Syncer{db: db, dial: dial, remote: name, batch: opts.Batch, log: opts.Logger}
}

// Report says what one round did.
type Report struct {
	Remote    string `json:"remote"`
	Reset     bool   `json:"reset,omitempty"` // the remote was new to this machine: everything was sent
	Pulled    int    `json:"pulled"`          // rows received
	PulledNew int    `json:"pulled_new"`      // of which new here
	Refolded  int    `json:"refolded"`        // beliefs folded again
	Purged    int    `json:"purged"`          // tombstones applied
	Merged    int    `json:"merged"`          // twins merged
	Mirrored  int    `json:"mirrored"`        // evidence rows mirrored onto survivors
	Forgotten int    `json:"forgotten"`       // twins forgotten with their group
	Pushed    int    `json:"pushed"`          // rows sent
	PushedNew int    `json:"pushed_new"`      // of which new on the remote
	Pending   int    `json:"pending"`         // rows still to push
	// Reached says the remote answered the round's first request, with
	// RemoteSchema its sync schema; ToPull is how many rows were left to
	// pull when the round ended (-1: not known).
	Reached      bool   `json:"reached"`
	RemoteSchema string `json:"remote_schema,omitempty"`
	ToPull       int    `json:"to_pull"`
	// pulledAt and pushedAt are when the pull and the push completed;
	// finish records them.
	pulledAt, pushedAt time.Time
	// Requests counts the HTTP requests the round sent (0 for a file).
	Requests  int           `json:"requests,omitempty"`
	Took      time.Duration `json:"took_ns"`
	PullTook  time.Duration `json:"pull_took_ns"`
	MergeTook time.Duration `json:"merge_took_ns"`
	PushTook  time.Duration `json:"push_took_ns"`
}

// Moved reports whether the round changed anything here or on the remote.
func (r Report) Moved() bool {
	return r.PulledNew+r.PushedNew+r.Merged+r.Mirrored+r.Forgotten > 0
}

// Round pulls, merges twins and pushes. Each step commits as it goes, so an
// error leaves everything before it in place and the next round resumes.
// When the pull fails the push still runs: a machine that cannot apply what
// others wrote should still publish its own rows.
func (s *Syncer) Round(ctx context.Context) (rep Report, err error) {
	start := time.Now()
	rep.Remote, rep.ToPull = s.remote, -1
	defer func() {
		err = s.scrub.err(err)
		rep.Took = time.Since(start)
		s.finish(ctx, rep, err)
	}()
	remote, err := s.take(ctx)
	if err != nil {
		return rep, unreachableError{fmt.Errorf("connect to %s: %w", s.remote, err)}
	}
	counted, _ := remote.(interface{ Requests() int })
	if counted != nil {
		rep.Requests = -counted.Requests()
	}
	defer func() {
		if counted != nil {
			rep.Requests += counted.Requests()
		}
		if cerr := s.put(remote, err == nil); cerr != nil && err == nil {
			err = cerr
		}
	}()
	meta, sv, err := s.survey(ctx, remote)
	if err != nil {
		return rep, err
	}
	rep.Reached, rep.RemoteSchema = true, sv.Schema
	st, err := s.state(ctx, meta, sv.ID)
	if err != nil {
		return rep, err
	}
	rep.Reset = st.reset
	phase := time.Now()
	pullErr := s.pull(ctx, remote, st, sv, &rep)
	rep.PullTook = time.Since(phase)
	if pullErr == nil {
		rep.ToPull = 0
	} else if !st.reset {
		rep.ToPull = max(sv.Total()-rep.Pulled, 0)
	}
	phase = time.Now()
	var mergeErr error
	if pullErr == nil {
		mergeErr = s.mergeTwins(ctx, &rep)
	}
	if rep.Purged > 0 || rep.Forgotten > 0 {
		// A forget from another machine purged its rows; text this machine
		// derived from them (consolidation's extracted facts, entity names)
		// goes too, as it does for a local forget.
		if _, err := s.db.PurgeDerived(ctx); err != nil {
			mergeErr = errors.Join(mergeErr, err)
		}
		if err := s.db.Purge(ctx); err != nil {
			mergeErr = errors.Join(mergeErr, err)
		}
	}
	rep.MergeTook = time.Since(phase)
	phase = time.Now()
	pushErr := s.push(ctx, remote, st, &rep)
	rep.PushTook = time.Since(phase)
	return rep, errors.Join(pullErr, mergeErr, pushErr)
}

// survey reads the remote's state against the pull cursor held for it,
// creating credence's tables on a remote that has none. The counts are
// those of the remote the cursor belongs to; state() says whether it is.
// It returns the sync meta it read too.
func (s *Syncer) survey(ctx context.Context, remote Remote) (map[string]string, Survey, error) {
	meta, err := s.db.MetaPrefix(ctx, "sync_")
	if err != nil {
		return meta, Survey{}, err
	}
	pull, err := store.ParseSyncCursor(meta[MetaPullCursor])
	if err != nil {
		return meta, Survey{}, err
	}
	sv, err := remote.Survey(ctx, pull, s.db.MachineID())
	if err != nil {
		return meta, sv, err
	}
	switch {
	case sv.ID == "":
		id, err := remote.Prepare(ctx)
		if err != nil {
			return meta, sv, err
		}
		return meta, Survey{ID: id, Schema: remoteSchemaVersion}, nil
	case sv.Schema != remoteSchemaVersion:
		return meta, sv, fmt.Errorf("remote %s has sync schema %s; this credence writes %s: upgrade credence",
			s.remote, sv.Schema, remoteSchemaVersion)
	}
	return meta, sv, nil
}

// syncState is what the local database knows about the remote.
type syncState struct {
	push, pull, all store.SyncCursor
	reset           bool
}

// state loads the cursors for the remote with the given ID. Cursors for
// another remote mean nothing here: a new or replaced remote starts from
// zero both ways, and this machine pushes every row it holds, whatever its
// origin, so the new remote ends up complete even if a machine is gone.
func (s *Syncer) state(ctx context.Context, meta map[string]string, remoteID string) (syncState, error) {
	if meta[MetaRemoteID] == remoteID {
		// The cursors as read before the survey: they only ever move
		// forward, and the pull and push move them with advance.
		return cursors(func(key string) (string, error) { return meta[key], nil })
	}
	var st syncState
	err := s.db.Write(ctx, func(tx *store.Tx) error {
		get := func(key string) (string, error) { return metaOr(ctx, tx, key) }
		known, err := get(MetaRemoteID)
		if err != nil {
			return err
		}
		if known == remoteID {
			// Another round met this remote first: keep its cursors.
			st, err = cursors(get)
			return err
		}
		head, err := s.db.SyncHead(ctx)
		if err != nil {
			return err
		}
		st = syncState{all: head, reset: true}
		for k, v := range map[string]string{MetaRemoteID: remoteID, MetaRemote: s.remote,
			MetaPushCursor: st.push.String(), MetaPullCursor: st.pull.String(), MetaPushAll: head.String()} {
			if err := tx.SetMeta(ctx, k, v); err != nil {
				return err
			}
		}
		return nil
	})
	return st, err
}

// cursors reads the push, pull and push-everything cursors.
func cursors(get func(key string) (string, error)) (syncState, error) {
	var st syncState
	for _, c := range []struct {
		key string
		dst *store.SyncCursor
	}{{MetaPushCursor, &st.push}, {MetaPullCursor, &st.pull}, {MetaPushAll, &st.all}} {
		v, err := get(c.key)
		if err != nil {
			return st, err
		}
		if *c.dst, err = store.ParseSyncCursor(v); err != nil {
			return st, err
		}
	}
	return st, nil
}

// metaOr reads a meta key, "" when it is unset.
func metaOr(ctx context.Context, tx *store.Tx, key string) (string, error) {
	v, err := tx.Meta(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return v, err
}

// advance moves a stored cursor forward to at least c, in tx, never back:
// two rounds running at once (the agent's and `credence sync`) only repeat
// work, which is idempotent.
func advance(ctx context.Context, tx *store.Tx, key string, c store.SyncCursor) (store.SyncCursor, error) {
	v, err := metaOr(ctx, tx, key)
	if err != nil {
		return c, err
	}
	old, err := store.ParseSyncCursor(v)
	if err != nil {
		return c, err
	}
	c = c.Max(old)
	return c, tx.SetMeta(ctx, key, c.String())
}

// finish records the round's outcome for status and logs it.
func (s *Syncer) finish(ctx context.Context, rep Report, err error) {
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	rs := remoteState{CheckedAt: time.Now().UnixMilli(), PendingPull: rep.ToPull, Schema: rep.RemoteSchema}
	rs.Reachable, rs.Token = judge(err, s.overHTTP)
	if rep.Reached {
		rs.Reachable, rs.Token = true, TokenAccepted
	}
	if !s.overHTTP && rs.Token == TokenAccepted {
		rs.Token = "" // a file needs no token
	}
	if !rep.Reached {
		rs.Error = msg
	}
	state, _ := json.Marshal(rs)
	// Recorded even when the round was cancelled: status should say so.
	ctx = context.WithoutCancel(ctx)
	metas := map[string]string{MetaLastRound: now, MetaLastError: msg, MetaRemoteState: string(state)}
	if !rep.pulledAt.IsZero() {
		metas[MetaLastPull] = strconv.FormatInt(rep.pulledAt.UnixMilli(), 10)
	}
	switch {
	case !rep.pushedAt.IsZero():
		metas[MetaLastPush], metas[MetaPendingPush] = strconv.FormatInt(rep.pushedAt.UnixMilli(), 10), "0"
	case rep.Pending > 0:
		metas[MetaPendingPush] = strconv.Itoa(rep.Pending)
	}
	// One write transaction per round when nothing moved.
	werr := s.db.Write(ctx, func(tx *store.Tx) error {
		for k, v := range metas {
			if err := tx.SetMeta(ctx, k, v); err != nil {
				return err
			}
		}
		return nil
	})
	attrs := []any{"remote", rep.Remote, "pulled", rep.Pulled, "pulled_new", rep.PulledNew, "pushed", rep.Pushed,
		"pushed_new", rep.PushedNew, "merged", rep.Merged, "purged", rep.Purged, "pending", rep.Pending,
		"took_ms", rep.Took.Milliseconds(), "pull_ms", rep.PullTook.Milliseconds(),
		"merge_ms", rep.MergeTook.Milliseconds(), "push_ms", rep.PushTook.Milliseconds()}
	if err != nil || werr != nil {
		s.log.Warn("sync round failed", append(attrs, "err", msg, "meta_err", errString(werr))...)
		return
	}
	s.log.Info("sync round", attrs...)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
