package hooks

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// shared is what a warm process lends each event it serves.
type shared struct {
	db     *store.DB
	emb    embed.Embedder
	embErr error
	cache  *recall.Cache
	scans  *scans
	recent *recentPrompts
	// wake asks the server's drain loop to look at the spool now.
	wake chan struct{}
}

// wakeDrain asks the drain loop to store what was just spooled.
func (sh *shared) wakeDrain() {
	select {
	case sh.wake <- struct{}{}:
	default:
	}
}

// serverConns is how many connections the server handles events on: two,
// so a prompt's recall searches beliefs and episodes side by side
// (recall.Recaller.SideBySide), one per connection. SQLite drops a
// connection's page cache whenever another connection has written since
// its last read, and every prompt writes, so each recall reads its pages
// into the cache afresh (a read call each, from the kernel's file cache).
// Mapping the file instead was tried and measured (openDB): it trades
// those reads for a b-tree page header parsed again on every fetch and
// cost more. Claude Code runs a session's hooks one after another;
// sessions side by side take turns for the connections.
const serverConns = 2

// replyMargin is how long before the front's deadline a served event must
// be done, so the reply reaches the front before it gives up.
const replyMargin = 10 * time.Millisecond

// Server handles hook events for credence-hook's front (package
// hookrelay) inside the agent: the same handlers as the in-process path,
// with the database, its page cache and the query embedder kept open
// between events, so a prompt costs a round trip instead of opening a
// database. The agent owns the listener; Server owns its database.
type Server struct {
	log    *slog.Logger
	dbPath string // the database served, whatever a reloaded config names
	// drainDB is the server's own handle for storing spooled records, with
	// a longer wait for the write lock than the hooks' connections have:
	// it runs off any prompt's path.
	drainDB *store.DB
	served  atomic.Int64
	wg      sync.WaitGroup

	// cfg and sh are replaced, never changed, when the config file
	// changes (reload.go); each event takes them once.
	cfg    atomic.Pointer[config.Config]
	sh     atomic.Pointer[shared]
	reload reloader

	mu       sync.Mutex // guards inflight
	inflight int
	quiet    *sync.Cond // signalled when inflight drops to 0
}

// NewServer opens the database the way the hooks do (a short wait for
// another writer's lock) and builds the query embedder.
func NewServer(ctx context.Context, cfg *config.Config, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{cfg: cfg, log: log, now: time.Now, deadline: time.Now().Add(4 * maxBusy)}
	db, err := h.openDB(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("serve hooks: open database: %w", err)
	}
	db.SQL().SetMaxOpenConns(serverConns)
	db.SQL().SetMaxIdleConns(serverConns)
	drainDB, err := store.Open(ctx, cfg.Paths.Database, store.Options{BusyTimeout: drainBusy, Params: db.Params(), ReadOnly: true})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("serve hooks: open database: %w", err)
	}
	drainDB.SQL().SetMaxOpenConns(1)
	s := &Server{log: log, dbPath: cfg.Paths.Database, drainDB: drainDB}
	s.quiet = sync.NewCond(&s.mu)
	sh := &shared{db: db, cache: recall.NewCache(), scans: &scans{}, recent: &recentPrompts{}, wake: make(chan struct{}, 1)}
	sh.emb, sh.embErr = recall.NewQueryEmbedder(cfg)
	s.cfg.Store(cfg)
	s.sh.Store(sh)
	s.reload.stamp = stampOf(cfg.Paths.ConfigFile)
	return s, nil
}

// idle waits until no event is being handled, including work done after a
// reply (tests: the front has exited by then, the agent may not be done).
func (s *Server) idle() {
	s.mu.Lock()
	for s.inflight > 0 {
		s.quiet.Wait()
	}
	s.mu.Unlock()
}

// busy counts an event in (+1) or out (-1).
func (s *Server) busy(delta int) {
	s.mu.Lock()
	s.inflight += delta
	if s.inflight == 0 {
		s.quiet.Broadcast()
	}
	s.mu.Unlock()
}

// Served returns how many events the server has handled.
func (s *Server) Served() int64 { return s.served.Load() }

// Serve accepts the front's connections until ln is closed or ctx is done,
// handling each in its own goroutine, and stores what hooks spooled
// (drainLoop).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	drainCtx, stopDrain := context.WithCancel(ctx)
	defer stopDrain()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.drainLoop(drainCtx)
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || ctx.Err() != nil {
				return nil
			}
			s.log.Warn("accept hook connection", "err", err.Error())
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(50 * time.Millisecond): // out of descriptors, say
			}
			continue
		}
		s.wg.Add(1)
		s.busy(1)
		go func() {
			defer s.wg.Done()
			defer s.busy(-1)
			s.serveConn(ctx, conn)
		}()
	}
}

// Close waits for the events in flight (each is bounded by its deadline)
// and closes the database. Close the listener first.
func (s *Server) Close() error {
	s.wg.Wait()
	derr := s.drainDB.Close()
	if err := s.sh.Load().db.Close(); err != nil {
		return err
	}
	return derr
}

// serveConn runs one exchange of the wire format (hookrelay/wire.go).
func (s *Server) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	start := time.Now()
	_ = conn.SetDeadline(start.Add(hookrelay.ReadyWait))
	s.refresh()
	cfg, sh := s.cfg.Load(), s.sh.Load()
	r := bufio.NewReader(conn)
	req, data, err := hookrelay.ReadRequest(r, cfg.Hook.StdinMaxBytes)
	if err != nil {
		s.log.Info("hook request declined", "err", safe(err))
		_ = hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusDeclined, Reason: "unreadable request"}, nil)
		return
	}
	if reason := s.decline(ctx, req, start); reason != "" {
		s.log.Info("hook request declined", "event", req.Event, "reason", reason)
		_ = hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusDeclined, Reason: reason}, nil)
		return
	}
	if err := hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusReady}, nil); err != nil {
		return
	}
	// A front that heard "ready" sends its go at once; one that did not
	// handles the event itself and sends nothing. Wait as long as the
	// front could still be storing, then say no: a go that comes after
	// this is never read, and the front that sent it hears "declined".
	_ = conn.SetDeadline(later(req.DeadlineTime(), time.Now().Add(hookrelay.StoreGrace)))
	if err := hookrelay.ReadGo(r); err != nil {
		_ = hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusDeclined, Reason: "no go-ahead in time"}, nil)
		return
	}
	// Input that reached the front late in its budget is taken all the
	// same: there is no time to recall for it, but it is stored.
	_ = conn.SetDeadline(later(req.DeadlineTime(), time.Now().Add(hookrelay.StoreGrace)))
	// The reply goes out from whichever goroutine has it first: the
	// handler's own as it writes its output, so the front hears back
	// before the handler goes on to store anything and without waiting for
	// this goroutine to be scheduled again, or this one, empty, when the
	// handler has nothing to say, is silent by design or runs out of time.
	var once sync.Once
	var replied time.Time
	reply := func(out []byte) {
		once.Do(func() {
			s.served.Add(1)
			if err := hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusOK}, out); err != nil {
				s.log.Info("reply to hook", "event", req.Event, "err", err.Error())
			}
			replied = time.Now()
		})
	}
	g := &gate{w: replyWriter(reply), written: make(chan struct{})}
	replyBy := req.DeadlineTime().Add(-replyMargin)
	// The handler may go on after the reply (storing the prompt, the
	// exchange, a flushed transcript), on the agent's time, not the
	// front's.
	work, cancel := context.WithDeadline(ctx, replyBy.Add(afterReply))
	defer cancel()
	h := &handler{cfg: cfg, log: s.log.With("event", req.Event), out: g, now: time.Now,
		event: req.Event, deadline: replyBy, shared: sh, arrived: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.logged(work, start, func(ctx context.Context) error { return h.handleData(ctx, data) })
	}()
	t := time.NewTimer(time.Until(replyBy))
	if silentEvent(req.Event) {
		// Nothing to print, but the event's write is prepared before the
		// front goes: a Stop's turn is the transcript as it is now, not
		// once the next prompt is in it.
		select {
		case <-h.arrived:
		case <-done:
		case <-t.C:
		}
	} else {
		select {
		case <-g.written:
		case <-done:
		case <-t.C:
			h.log.Warn("time budget exhausted; replying without context", "budget_ms", replyBy.Sub(start).Milliseconds())
		}
	}
	t.Stop()
	g.close() // from here on the handler cannot write: a write under way has replied
	reply(nil)
	conn.Close()
	<-done
	h.log.Debug("served", "reply_us", replied.Sub(start).Microseconds(), "total_us", time.Now().Sub(start).Microseconds())
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// replyWriter sends what the handler writes as the reply.
type replyWriter func([]byte)

func (r replyWriter) Write(b []byte) (int, error) {
	r(b)
	return len(b), nil
}

// afterReply is how long a served event may keep working once the front
// has its reply.
const afterReply = 10 * time.Second

// silentEvent reports whether an event never prints anything, so the front
// can have its (empty) reply before the work starts.
func silentEvent(event string) bool {
	switch event {
	case EventStop, EventSessionEnd, EventPreCompact:
		return true
	}
	return false
}

// decline says why the server will not take a request, or "" when it will.
func (s *Server) decline(ctx context.Context, req hookrelay.Request, now time.Time) string {
	switch {
	case ctx.Err() != nil:
		return "agent stopping"
	case !hookrelay.KnownEvent(req.Event):
		return "unknown event"
	case filepath.Clean(req.Database) != filepath.Clean(s.dbPath):
		return "agent serves another database"
	}
	return ""
}
