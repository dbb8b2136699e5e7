package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
)

// The events credence-hook handles; the name is its first argument.
const (
	EventUserPromptSubmit = hookrelay.EventUserPromptSubmit
	EventStop             = hookrelay.EventStop
	EventSessionStart     = hookrelay.EventSessionStart
	EventSessionEnd       = hookrelay.EventSessionEnd
	EventPreCompact       = hookrelay.EventPreCompact
)

// Run handles one hook event in this process (`credence hook <event>`, what
// credence-hook execs when no agent answers, or, when the configuration may
// change what the front reads, in place of trying the agent itself: then
// Run tries the agent first; see hookrelay.StartEnv): args[0] names the
// event, stdin holds Claude Code's JSON, stdout receives the protocol JSON
// when there is context to add, and the environment is read through getenv.
// It always returns 0; failures go to the hook log. Nothing is written to stderr: at
// exit code 0 Claude Code would only show it in verbose mode, and a memory
// tool has nothing to tell the user there.
func Run(ctx context.Context, getenv func(string) string, args []string, stdin io.Reader, stdout io.Writer) int {
	start, agentFirst := time.Now(), false
	if t, ok := envTime(getenv, hookrelay.StartEnv); ok && !t.After(start) && start.Sub(t) < time.Minute {
		start, agentFirst = t, true
	}
	event := ""
	if len(args) > 0 {
		event = args[0]
	}
	cfg, cfgErr := app.LoadConfig(app.Options{Env: getenv})
	log, closeLog := logfile.OpenHook(cfg, cfgErr == nil)
	defer closeLog()
	log = log.With("event", event)
	if cfgErr != nil {
		log.Error("load config", "err", safe(cfgErr))
		return 0
	}
	deadline := start.Add(hookrelay.Budget(cfg.Hook.Budget))
	if d, ok := envTime(getenv, hookrelay.DeadlineEnv); ok && d.Before(deadline) {
		deadline = d
	}
	if event == hookrelay.EventPostToolUse {
		recordEdit(cfg, log, stdin, deadline)
		return 0
	}
	if !hookrelay.KnownEvent(event) {
		log.Warn("unknown event; " + hookrelay.Usage)
		return 0
	}
	h := &handler{cfg: cfg, log: log, out: &gate{w: stdout}, now: time.Now, event: event, deadline: deadline, agentFirst: agentFirst}
	h.bounded(ctx, start, func(ctx context.Context) error { return h.handle(ctx, stdin) })
	return 0
}

// envTime reads a time credence-hook's front hands over (Unix nanoseconds)
// when it execs the in-process handler: its deadline or its start.
func envTime(getenv func(string) string, name string) (time.Time, bool) {
	n, err := strconv.ParseInt(getenv(name), 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	return time.Unix(0, n), true
}

// bounded runs fn until it returns, logging its error or panic, with two
// limits. At h.deadline, the hook's budget, stdout is closed to fn: what
// Claude is told gives up there. Storing does not: fn may go on for
// hookrelay.StoreGrace to store what it received, and past that the write it holds
// is spooled (salvage) and bounded returns while fn may still be working;
// a write transaction it has open is rolled back when the process exits,
// and the spooled copy is stored later, once. (The agent's server bounds
// its events itself.)
func (h *handler) bounded(ctx context.Context, start time.Time, fn func(context.Context) error) {
	storeBy := h.deadline
	if now := time.Now(); now.After(storeBy) {
		storeBy = now // the front handed over late input: store it all the same
	}
	ctx, cancel := context.WithDeadline(ctx, storeBy.Add(hookrelay.StoreGrace))
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.logged(ctx, start, fn)
	}()
	budget := time.NewTimer(time.Until(h.deadline))
	defer budget.Stop()
	select {
	case <-done:
		return
	case <-budget.C:
		h.out.close()
	}
	select {
	case <-done:
	case <-ctx.Done():
		h.log.Warn("time budget exhausted; giving up silently", "budget_ms", h.deadline.Sub(start).Milliseconds())
		h.salvage(errors.New("time budget exhausted"))
	}
}

// logged runs fn and logs its error or panic. A write fn received and did
// not store or spool is spooled.
func (h *handler) logged(ctx context.Context, start time.Time, fn func(context.Context) error) {
	var err error
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
			h.log.Error("panic", "panic", safe(err), "stack", string(debug.Stack()))
		}
		h.salvage(err)
	}()
	if err = fn(ctx); err != nil {
		if errors.Is(err, errSchemaBehind) && h.pending.open() {
			return // salvage says it, once, with the spooled record
		}
		h.log.Warn("hook failed", "err", safe(err), "elapsed_ms", h.now().Sub(start).Milliseconds())
		return
	}
	h.log.Debug("hook done", "elapsed_ms", h.now().Sub(start).Milliseconds())
}

// handler runs one event.
type handler struct {
	cfg      *config.Config
	log      *slog.Logger
	out      *gate
	now      func() time.Time
	event    string
	deadline time.Time
	// shared, when set, is the agent's open database and embedder: the
	// event is served by a warm process and nothing is opened or closed.
	shared *shared
	// agentFirst hands the event to the agent, when one takes it, before
	// handling it here.
	agentFirst bool
	// pending is the event's write from the moment it is received until
	// it is stored or spooled.
	pending pending
	// arrived, when set, is closed once the event's write is prepared.
	arrived chan struct{}
}

// handle reads stdin and handles the event.
func (h *handler) handle(ctx context.Context, stdin io.Reader) error {
	wait := hookrelay.StdinWait(h.cfg.Hook.StdinTimeout, time.Until(h.deadline))
	data, err := hookrelay.ReadInput(stdin, h.cfg.Hook.StdinMaxBytes, wait)
	if err != nil {
		return err
	}
	if h.agentFirst {
		err := hookrelay.Relay(hookrelay.SocketPath(h.cfg.Paths.DataDir), h.cfg.Paths.Database, h.event, data, h.deadline, h.out)
		switch {
		case err == nil:
			h.log.Debug("hook done by the agent")
			return nil
		case !hookrelay.NotTaken(err):
			return fmt.Errorf("the agent took the event but gave no answer in time: %w", err)
		}
		h.log.Debug("no agent took the event; handling it in-process", "why", safe(err))
	}
	return h.handleData(ctx, data)
}

// handleData parses the event's JSON and dispatches it.
func (h *handler) handleData(ctx context.Context, data []byte) error {
	in, err := ParseInput(data)
	switch {
	case errors.Is(err, ErrFieldType):
		h.log.Info("ignored a hook input field of an unexpected type", "err", safe(err))
	case err != nil:
		return err
	}
	if !utf8.Valid(data) {
		h.log.Info("stdin holds invalid UTF-8; replaced with U+FFFD")
	}
	if strings.ContainsRune(in.Prompt, 0) || strings.ContainsRune(in.LastAssistantMessage, 0) {
		h.log.Info("input text holds NUL characters; stored as U+2400")
	}
	if in.HookEventName != "" && in.HookEventName != h.event {
		h.log.Info("hook_event_name differs from the event argument; using the argument", "input_event", safe(fmt.Errorf("%s", in.HookEventName)))
	}
	switch h.event {
	case EventUserPromptSubmit:
		return h.userPromptSubmit(ctx, in)
	case EventStop:
		return h.stop(ctx, in)
	case EventSessionStart:
		return h.sessionStart(ctx, in)
	default:
		return h.flush(ctx, in)
	}
}

// gate is stdout for one run: at most one write, and none once the run has
// given up, so a handler still working after the budget cannot print.
type gate struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
	// written, when set, is closed after the write.
	written chan struct{}
}

var errGateClosed = fmt.Errorf("stdout closed: time budget exhausted")

// Write writes b, once: any later write, or one after close, fails.
func (g *gate) Write(b []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, errGateClosed
	}
	g.closed = true
	n, err := g.w.Write(b)
	if g.written != nil {
		close(g.written)
	}
	return n, err
}

func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// safe renders an error for the log with any secret it quotes removed.
func safe(err error) string { return redact.String(err.Error()) }

// project resolves a cwd to its project root, noting in the log a cwd that
// does not exist (the episode is still filed under it).
func (h *handler) project(cwd string) string {
	if cwd == "" {
		return ""
	}
	if _, err := os.Stat(cwd); err != nil {
		h.log.Info("cwd is not a readable directory; using it as the project as is", "err", safe(err))
	}
	return recall.ProjectRoot(cwd)
}

// recordEdit handles PostToolUse as the front does: a line in the edit log
// for each memory file the model's tool changed, nothing else.
func recordEdit(cfg *config.Config, log *slog.Logger, stdin io.Reader, deadline time.Time) {
	data, err := hookrelay.ReadInput(stdin, cfg.Hook.StdinMaxBytes, hookrelay.StdinWait(cfg.Hook.StdinTimeout, time.Until(deadline)))
	if err == nil {
		err = hookrelay.RecordEdit(cfg.Paths.DataDir, data, time.Now())
	}
	if err != nil {
		log.Warn("model edit not recorded", "err", safe(err))
	}
}
