package logfile

import (
	"context"
	"io"
	"log/slog"
	"sync"
)

// lazyHandler is the hook's log handler: it opens the file on the first
// record at its level, so a hook that logs nothing (a prompt the agent
// serves, at the default level) opens nothing. Opening costs a hook's front
// a directory check, a stat and an open, about 1 % of its run.
type lazyHandler struct {
	level slog.Level
	st    *lazyState
	// with replays the attributes and groups added since OpenHook on the
	// opened handler.
	with []func(slog.Handler) slog.Handler

	once sync.Once
	h    slog.Handler // the opened handler with `with` applied
}

// lazyState is the file's state, shared by a handler and those derived
// from it.
type lazyState struct {
	open func() (slog.Handler, io.Closer)
	once sync.Once
	h    slog.Handler
	c    io.Closer
	mu   sync.Mutex
	done bool // closed: later records are dropped
}

func (s *lazyState) handler() slog.Handler {
	s.once.Do(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.done {
			s.h = slog.DiscardHandler
			return
		}
		s.h, s.c = s.open()
	})
	return s.h
}

func (s *lazyState) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.c != nil {
		s.c.Close()
	}
}

func (h *lazyHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *lazyHandler) Handle(ctx context.Context, r slog.Record) error {
	h.once.Do(func() {
		h.h = h.st.handler()
		for _, f := range h.with {
			h.h = f(h.h)
		}
	})
	if !h.h.Enabled(ctx, r.Level) {
		return nil
	}
	return h.h.Handle(ctx, r)
}

func (h *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.derive(func(o slog.Handler) slog.Handler { return o.WithAttrs(attrs) })
}

func (h *lazyHandler) WithGroup(name string) slog.Handler {
	return h.derive(func(o slog.Handler) slog.Handler { return o.WithGroup(name) })
}

func (h *lazyHandler) derive(f func(slog.Handler) slog.Handler) slog.Handler {
	with := append(h.with[:len(h.with):len(h.with)], f)
	return &lazyHandler{level: h.level, st: h.st, with: with}
}
