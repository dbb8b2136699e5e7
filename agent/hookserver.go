package agent

import (
	"context"
	"net"

	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/hooks"
)

// hookServer is the agent's side of credence-hook: a listener on the
// private socket and the warm handler behind it.
type hookServer struct {
	srv *hooks.Server
	ln  net.Listener
}

// serveHooks starts answering credence-hook over the agent's socket
// (hookrelay.SocketPath). Failing to is logged, not fatal: the hooks then
// handle each event in-process, only slower.
func (a *Agent) serveHooks(ctx, runCtx context.Context) {
	log := a.log.With("component", "hook")
	srv, err := hooks.NewServer(ctx, a.cfg, log)
	if err != nil {
		a.log.Warn("not serving hooks; they run in-process", "err", err.Error())
		return
	}
	path := hookrelay.SocketPath(a.cfg.Paths.DataDir)
	ln, err := hooks.Listen(path)
	if err != nil {
		srv.Close()
		a.log.Warn("not serving hooks; they run in-process", "err", err.Error())
		return
	}
	a.hooks = &hookServer{srv: srv, ln: ln}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := srv.Serve(runCtx, ln); err != nil {
			a.log.Warn("serving hooks stopped", "err", err.Error())
		}
	}()
	a.log.Info("serving hooks", "socket", path)
}

// stopAccepting closes the hook socket, so new hook events run in-process
// while the agent stops.
func (h *hookServer) stopAccepting() {
	if h != nil {
		h.ln.Close()
	}
}

// close waits for the events in flight and closes the server's database.
func (h *hookServer) close() error {
	if h == nil {
		return nil
	}
	h.ln.Close()
	return h.srv.Close()
}

// served counts the hook events served since start.
func (h *hookServer) served() int64 {
	if h == nil {
		return 0
	}
	return h.srv.Served()
}
