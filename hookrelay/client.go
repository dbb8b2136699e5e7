package hookrelay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/redact"
)

// ReadyWait bounds how long the front waits for the agent to take a
// request before handling the event itself. A running agent answers in well
// under a millisecond; one that is stopped, swapped out or wedged answers
// late or never, and then every prompt pays this much before the fallback.
const ReadyWait = 250 * time.Millisecond

// defaultBudget applies when hook.budget is not positive.
const defaultBudget = time.Second

// Budget returns a hook's time budget: hook.budget, or a second when that
// is not positive.
func Budget(cfg *config.Config) time.Duration {
	if cfg.Hook.Budget <= 0 {
		return defaultBudget
	}
	return cfg.Hook.Budget
}

// StdinWait returns how long to wait for stdin when left of the budget
// remains: hook.stdin_timeout, but never past the budget.
func StdinWait(cfg *config.Config, left time.Duration) time.Duration {
	if wait := min(cfg.Hook.StdinTimeout, left); wait > 0 {
		return wait
	}
	return left
}

// Main runs credence-hook: args[0] names the event, stdin holds Claude
// Code's JSON, and stdout receives the agent's reply. When no agent takes
// the event Main does not return: it execs `credence hook <event>`. It
// always returns 0; failures go to the hook log.
func Main(args []string, stdin io.Reader, stdout io.Writer) int {
	run(time.Now(), args, stdin, stdout)
	return 0
}

func run(start time.Time, args []string, stdin io.Reader, stdout io.Writer) {
	event := ""
	if len(args) > 0 {
		event = args[0]
	}
	cfg, cfgErr := config.Load(config.LoadOptions{})
	log, closeLog := logfile.OpenHook(cfg, cfgErr == nil)
	defer closeLog()
	log = log.With("event", event)
	if cfgErr != nil {
		log.Error("load config", "err", safe(cfgErr))
		return
	}
	if !KnownEvent(event) {
		log.Warn("unknown event; " + Usage)
		return
	}
	budget := Budget(cfg)
	deadline := start.Add(budget)
	data, err := ReadInput(stdin, cfg.Hook.StdinMaxBytes, StdinWait(cfg, budget))
	if err != nil {
		log.Warn("hook failed", "err", safe(err))
		return
	}
	err = Relay(cfg, event, data, deadline, stdout)
	switch {
	case err == nil:
		log.Debug("hook done by the agent", "elapsed_ms", time.Since(start).Milliseconds())
		return
	case !errors.Is(err, errNotTaken):
		log.Warn("the agent took the event but gave no answer in time; giving up silently", "err", safe(err))
		return
	}
	log.Debug("no agent took the event; handling it in-process", "why", safe(err))
	if err := execLocal(cfg, event, data, deadline); err != nil {
		log.Warn("cannot handle the event in-process", "err", safe(err))
	}
}

// errNotTaken marks a failure before the go-ahead: the agent has done
// nothing with the event, so handling it in-process stores nothing twice.
var errNotTaken = errors.New("no agent took the event")

func notTaken(err error) error { return fmt.Errorf("%w: %w", errNotTaken, err) }

// NotTaken reports whether err, from Relay, means the agent did nothing
// with the event, so handling it elsewhere stores nothing twice.
func NotTaken(err error) bool { return errors.Is(err, errNotTaken) }

// Relay hands the event to the agent and copies its reply to stdout. An
// error for which NotTaken is true means the agent has done nothing with
// the event; any other means it may have.
func Relay(cfg *config.Config, event string, stdin []byte, deadline time.Time, stdout io.Writer) error {
	path := SocketPath(cfg.Paths.DataDir)
	if err := checkSocket(path); err != nil {
		return notTaken(err)
	}
	ready := time.Now().Add(ReadyWait)
	if deadline.Before(ready) {
		ready = deadline
	}
	conn, err := dial(path)
	if err != nil {
		return notTaken(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(ready); err != nil {
		return notTaken(err)
	}
	req := Request{Event: event, Database: cfg.Paths.Database, Deadline: deadline.UnixNano()}
	if err := WriteRequest(conn, req, stdin); err != nil {
		return notTaken(err)
	}
	r := bufio.NewReader(conn)
	rep, _, err := ReadReply(r)
	if err != nil {
		return notTaken(err)
	}
	if rep.Status != StatusReady {
		return notTaken(fmt.Errorf("agent declined: %s", rep.Reason))
	}
	// From here on the agent may be storing the event: whatever happens,
	// the front does not handle it again.
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	if err := WriteGo(conn); err != nil {
		return err
	}
	rep, out, err := ReadReply(r)
	if err != nil {
		return err
	}
	if rep.Status != StatusOK {
		return fmt.Errorf("agent: %s", rep.Reason)
	}
	if len(out) == 0 {
		return nil
	}
	_, err = stdout.Write(out)
	return err
}

// safe renders an error for the log with any secret it quotes removed.
func safe(err error) string { return redact.String(err.Error()) }
