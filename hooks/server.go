package hooks

import (
	"bufio"
	"bytes"
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
	scans  scans
}

// serverConns is how many events the server handles against the database
// at once: Claude Code runs one session's hooks one after another, so this
// is about sessions running side by side.
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
	cfg    *config.Config
	log    *slog.Logger
	now    func() time.Time
	sh     shared
	served atomic.Int64
	wg     sync.WaitGroup
}

// NewServer opens the database the way the hooks do (a short wait for
// another writer's lock) and builds the query embedder.
func NewServer(ctx context.Context, cfg *config.Config, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{cfg: cfg, log: log, now: time.Now, deadline: time.Now().Add(4 * maxBusy)}
	db, err := h.openDB(ctx)
	if err != nil {
		return nil, fmt.Errorf("serve hooks: open database: %w", err)
	}
	db.SQL().SetMaxOpenConns(serverConns)
	s := &Server{cfg: cfg, log: log, now: time.Now, sh: shared{db: db, cache: recall.NewCache()}}
	s.sh.emb, s.sh.embErr = h.queryEmbedderFresh()
	return s, nil
}

// Served returns how many events the server has handled.
func (s *Server) Served() int64 { return s.served.Load() }

// Serve accepts the front's connections until ln is closed or ctx is done,
// handling each in its own goroutine.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
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
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, conn)
		}()
	}
}

// Close waits for the events in flight (each is bounded by its deadline)
// and closes the database. Close the listener first.
func (s *Server) Close() error {
	s.wg.Wait()
	return s.sh.db.Close()
}

// serveConn runs one exchange of the wire format (hookrelay/wire.go).
func (s *Server) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	start := s.now()
	_ = conn.SetDeadline(start.Add(hookrelay.ReadyWait))
	r := bufio.NewReader(conn)
	req, data, err := hookrelay.ReadRequest(r, s.cfg.Hook.StdinMaxBytes)
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
	if err := hookrelay.ReadGo(r); err != nil {
		return // the front gave up before the go-ahead and handles the event itself
	}
	_ = conn.SetDeadline(req.DeadlineTime())
	var out bytes.Buffer
	h := &handler{cfg: s.cfg, log: s.log.With("event", req.Event), out: &gate{w: &out}, now: s.now,
		event: req.Event, deadline: req.DeadlineTime().Add(-replyMargin), shared: &s.sh}
	h.bounded(ctx, start, func(ctx context.Context) error { return h.handleData(ctx, data) })
	h.out.close() // a handler past its deadline can no longer write to out
	s.served.Add(1)
	if err := hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusOK}, out.Bytes()); err != nil {
		s.log.Info("reply to hook", "event", req.Event, "err", err.Error())
	}
}

// decline says why the server will not take a request, or "" when it will.
func (s *Server) decline(ctx context.Context, req hookrelay.Request, now time.Time) string {
	switch {
	case ctx.Err() != nil:
		return "agent stopping"
	case !hookrelay.KnownEvent(req.Event):
		return "unknown event"
	case filepath.Clean(req.Database) != filepath.Clean(s.cfg.Paths.Database):
		return "agent serves another database"
	case !req.DeadlineTime().After(now.Add(replyMargin)):
		return "deadline already passed"
	}
	return ""
}
