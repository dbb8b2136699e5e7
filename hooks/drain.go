package hooks

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

// drainSpool stores the records waiting in the spool, oldest first, until
// the spool is empty, a record cannot be stored now (the database still
// busy: it stays, with everything after it), ctx is done, or limit
// records are stored (0: no limit). A record that can never be stored
// (its transcript gone, no prompt to pair a reply with) is moved to
// spool/failed and logged, so it neither blocks the rest nor is lost
// silently. It returns how many records it stored.
func (h *handler) drainSpool(ctx context.Context, db *store.DB, limit int) int {
	dir := h.spoolDir()
	names, err := spooledNames(dir)
	if err != nil {
		h.log.Warn("drain spool", "err", safe(err))
		return 0
	}
	if len(names) > 0 {
		sweepTemps(dir, h.now())
	}
	stored := 0
	for _, name := range names {
		if ctx.Err() != nil || limit > 0 && stored == limit {
			break
		}
		rec, err := readSpooled(dir, name)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue // another drainer stored it
		case err != nil:
			h.setAside(dir, name, err)
			continue
		case rec.Version != spoolVersion:
			h.log.Warn("spool record of another version left in place", "record", name, "version", rec.Version)
			continue
		}
		if err := h.apply(ctx, db, rec); err != nil {
			if transient(ctx, err) {
				h.log.Info("spool drain paused; the database is busy", "record", name, "err", safe(err))
				break
			}
			h.setAside(dir, name, err)
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			h.log.Warn("remove stored spool record", "record", name, "err", safe(err))
		}
		stored++
	}
	if stored > 0 {
		h.log.Info("drained spool", "stored", stored, "waiting", len(names)-stored)
	}
	return stored
}

// transient reports whether a failed write may succeed later: the
// database was locked or busy, or time ran out.
func transient(ctx context.Context, err error) bool {
	return errors.Is(err, store.ErrLocked) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) || ctx.Err() != nil
}

// setAside moves a record that cannot be stored to spool/failed.
func (h *handler) setAside(dir, name string, why error) {
	failed := filepath.Join(dir, "failed")
	err := os.MkdirAll(failed, 0o700)
	if err == nil {
		err = os.Rename(filepath.Join(dir, name), filepath.Join(failed, name))
	}
	h.log.Error("spool record cannot be stored; set aside in spool/failed", "record", name, "why", safe(why), "move_err", errString(err))
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return safe(err)
}

// SpoolCounts returns how many records wait in the spool of the database
// at dbPath, and how many were set aside in spool/failed because they can
// never be stored.
func SpoolCounts(dbPath string) (waiting, failed int, err error) {
	dir := spoolDir(filepath.Dir(dbPath))
	names, err := spooledNames(dir)
	if err != nil {
		return 0, 0, err
	}
	bad, err := spooledNames(filepath.Join(dir, "failed"))
	return len(names), len(bad), err
}

// recentPrompts is the agent's memory of the last prompt each session
// sent, from the moment it arrives: a Stop handled while that prompt is
// still being stored pairs with it, not with the one before.
type recentPrompts struct {
	mu sync.Mutex
	m  map[string]*spoolRecord
}

// maxRecent bounds the sessions remembered; past it the memory starts over.
const maxRecent = 1024

func (r *recentPrompts) put(rec *spoolRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= maxRecent {
		r.m = map[string]*spoolRecord{}
	}
	r.m[rec.SessionID] = rec
}

func (r *recentPrompts) get(session string) (*spoolRecord, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rec, ok := r.m[session]
	return rec, ok
}

// rememberPrompt notes, in the agent, the prompt a session just sent.
func (h *handler) rememberPrompt(rec *spoolRecord) {
	if h.shared != nil && rec.SessionID != "" {
		h.shared.recent.put(rec)
	}
}

// drainEvery is how often the agent looks at the spool when nothing woke
// it: a record written by a hook process the agent did not serve.
const drainEvery = time.Second

// drainBusy is how long the agent's drain waits for the write lock: off
// the prompt's path it can outwait a consolidation transaction.
const drainBusy = 5 * time.Second

// drainLoop stores spooled records while the server runs: at start, when
// a served event spooled its write, and every drainEvery for records
// hook processes left while the agent was busy or away.
func (s *Server) drainLoop(ctx context.Context) {
	t := time.NewTicker(drainEvery)
	defer t.Stop()
	for {
		s.drainOnce(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.sh.Load().wake:
		}
	}
}

// drainOnce stores what the spool holds now.
func (s *Server) drainOnce(ctx context.Context) {
	cfg, sh := s.cfg.Load(), s.sh.Load()
	dir := spoolDir(filepath.Dir(s.dbPath))
	if names, err := spooledNames(dir); err != nil || len(names) == 0 {
		return
	}
	h := &handler{cfg: cfg, log: s.log.With("event", "drain"), now: time.Now, shared: sh}
	h.drainSpool(ctx, s.drainDB, 0)
}

// DrainSpool stores what waits in the spool of cfg's database through db,
// oldest first, and returns how many records it stored. `credence
// consolidate` calls it first, so a cycle run by hand sees the prompts
// hooks could not store; the agent drains on its own (Server).
func DrainSpool(ctx context.Context, cfg *config.Config, db *store.DB, log *slog.Logger) int {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{cfg: cfg, log: log.With("event", "drain"), now: time.Now}
	return h.drainSpool(ctx, db, 0)
}
