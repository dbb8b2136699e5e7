package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
)

// The events credence-hook handles; the name is its first argument.
const (
	EventUserPromptSubmit = "UserPromptSubmit"
	EventStop             = "Stop"
	EventSessionStart     = "SessionStart"
	EventSessionEnd       = "SessionEnd"
	EventPreCompact       = "PreCompact"
)

// defaultBudget applies when the config cannot be read.
const defaultBudget = time.Second

// env is what a run takes from its process: the environment and the clock.
type env struct {
	getenv func(string) string
	now    func() time.Time
}

// Run handles one hook invocation: args[0] names the event, stdin holds
// Claude Code's JSON, stdout receives the protocol JSON when there is
// context to add. It always returns 0; failures go to the hook log. stderr
// is never written: at exit code 0 Claude Code would only show it in
// verbose mode, and a memory tool has nothing to tell the user there.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(ctx, env{getenv: os.Getenv, now: time.Now}, args, stdin, stdout)
}

func run(ctx context.Context, e env, args []string, stdin io.Reader, stdout io.Writer) int {
	start := e.now()
	event := ""
	if len(args) > 0 {
		event = args[0]
	}
	cfg, cfgErr := app.LoadConfig(app.Options{Env: e.getenv})
	log, closeLog := openLog(cfg, cfgErr == nil)
	defer closeLog()
	log = log.With("event", event)
	if cfgErr != nil {
		log.Error("load config", "err", safe(cfgErr))
		return 0
	}
	switch event {
	case EventUserPromptSubmit, EventStop, EventSessionStart, EventSessionEnd, EventPreCompact:
	default:
		log.Warn("unknown event; usage: credence-hook <UserPromptSubmit|Stop|SessionStart|SessionEnd|PreCompact>")
		return 0
	}
	budget := cfg.Hook.Budget
	if budget <= 0 {
		budget = defaultBudget
	}
	ctx, cancel := context.WithDeadline(ctx, start.Add(budget))
	defer cancel()
	h := &handler{cfg: cfg, log: log, out: &gate{w: stdout}, now: e.now, event: event, deadline: start.Add(budget)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic", "panic", safe(fmt.Errorf("%v", p)), "stack", string(debug.Stack()))
			}
		}()
		if err := h.handle(ctx, stdin); err != nil {
			log.Warn("hook failed", "err", safe(err), "elapsed_ms", e.now().Sub(start).Milliseconds())
			return
		}
		log.Debug("hook done", "elapsed_ms", e.now().Sub(start).Milliseconds())
	}()
	select {
	case <-done:
	case <-ctx.Done():
		// Whatever the handler is doing, it may no longer write to stdout;
		// a write transaction it has open is rolled back when the process
		// exits, so nothing is half stored.
		h.out.close()
		log.Warn("time budget exhausted; giving up silently", "budget_ms", budget.Milliseconds())
	}
	return 0
}

// handler runs one event.
type handler struct {
	cfg      *config.Config
	log      *slog.Logger
	out      *gate
	now      func() time.Time
	event    string
	deadline time.Time
}

// handle reads and parses stdin and dispatches the event.
func (h *handler) handle(ctx context.Context, stdin io.Reader) error {
	wait := min(h.cfg.Hook.StdinTimeout, time.Until(h.deadline))
	if wait <= 0 {
		wait = time.Until(h.deadline)
	}
	data, err := readInput(stdin, h.cfg.Hook.StdinMaxBytes, wait)
	if err != nil {
		return err
	}
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
}

var errGateClosed = fmt.Errorf("stdout closed: time budget exhausted")

func (g *gate) write(b []byte) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errGateClosed
	}
	g.closed = true
	_, err := g.w.Write(b)
	return err
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
