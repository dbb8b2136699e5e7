package agent

import (
	"context"
	"fmt"
	"net"

	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/hooks"
	"github.com/credence-mem/credence/logfile"
)

// hookServer is the agent's side of credence-hook: a listener on the
// private socket and the warm handler behind it.
type hookServer struct {
	srv      *hooks.Server
	ln       net.Listener
	closeLog func()
}

// serveHooks starts answering credence-hook over the agent's socket
// (hookrelay.SocketPath). Failing to is logged, not fatal: the hooks then
// handle each event in-process, only slower.
//
// What happens to each event is logged where the hooks log it, hook.log,
// marked "via": "agent".
func (a *Agent) serveHooks(ctx, runCtx context.Context) {
	log, closeLog := logfile.OpenHook(a.cfg, true)
	srv, err := hooks.NewServer(ctx, a.cfg, log.With("via", "agent"))
	if err != nil {
		closeLog()
		a.log.Warn("not serving hooks; they run in-process", "err", err.Error())
		return
	}
	if a.opts.ReloadConfig != nil {
		srv.SetReload(a.opts.ReloadConfig)
	}
	path := hookrelay.SocketPath(a.cfg.Paths.DataDir)
	ln, err := hooks.Listen(path)
	if err != nil {
		srv.Close()
		closeLog()
		a.log.Warn("not serving hooks; they run in-process", "err", err.Error())
		return
	}
	a.hooks = &hookServer{srv: srv, ln: ln, closeLog: closeLog}
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

// close waits for the events in flight, each bounded by its deadline and
// cancelled with the agent, and closes the server's database, or gives up
// waiting when ctx is done.
func (h *hookServer) close(ctx context.Context) error {
	if h == nil {
		return nil
	}
	h.ln.Close()
	done := make(chan error, 1)
	go func() { done <- h.srv.Close() }()
	select {
	case err := <-done:
		h.closeLog()
		return err
	case <-ctx.Done():
		return fmt.Errorf("stop serving hooks: %w", ctx.Err())
	}
}

// served counts the hook events served since start.
func (h *hookServer) served() int64 {
	if h == nil {
		return 0
	}
	return h.srv.Served()
}
