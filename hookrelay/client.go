package hookrelay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/credence-mem/credence/config/defaults"
)

// ReadyWait bounds how long the front waits for the agent to take a
// request before handling the event itself. A running agent answers in well
// under a millisecond; one that is stopped, swapped out or wedged answers
// late or never, and then every prompt pays this much before the fallback.
const ReadyWait = 250 * time.Millisecond

// Budget returns a hook's time budget: hook.budget, or its default when
// that is not positive.
func Budget(budget time.Duration) time.Duration {
	if budget <= 0 {
		return defaults.HookBudget
	}
	return budget
}

// StdinWait returns how long to wait for stdin when left of the budget
// remains: hook.stdin_timeout, but never past the budget.
func StdinWait(stdinTimeout, left time.Duration) time.Duration {
	if wait := min(stdinTimeout, left); wait > 0 {
		return wait
	}
	return left
}

// Main runs credence-hook: args[0] names the event, stdin holds Claude
// Code's JSON, and stdout receives the agent's reply. When no agent takes
// the event, or the configuration may change what the front reads, Main
// does not return: it execs `credence hook <event>`. It always returns 0;
// failures go to the hook log.
func Main(args []string, stdin io.Reader, stdout io.Writer) int {
	run(time.Now(), args, stdin, stdout)
	return 0
}

func run(start time.Time, args []string, stdin io.Reader, stdout io.Writer) {
	event := ""
	if len(args) > 0 {
		event = args[0]
	}
	home, err := defaults.Home(os.Getenv)
	if err != nil {
		newFrontLog("", event).warn("cannot find the home directory", err)
		return
	}
	file, explicit := defaults.ConfigFile(os.Getenv, home)
	if !defaults.HookUntouched(os.Environ(), file, explicit) {
		// The configuration may move the data directory, the log or the
		// limits: credence, which reads it, tries the agent first.
		if err := handOver(event, start); err != nil {
			newFrontLog("", event).warn("cannot hand the event to credence hook", err)
		}
		return
	}
	dataDir := defaults.DataDir(os.Getenv, home)
	log := newFrontLog(defaults.LogDir(dataDir), event)
	defer log.close()
	if !KnownEvent(event) {
		log.warn("unknown event; "+Usage, nil)
		return
	}
	deadline := start.Add(defaults.HookBudget)
	data, err := readStdin(stdin, defaults.HookStdinMaxBytes, StdinWait(defaults.HookStdinTimeout, defaults.HookBudget))
	if err != nil {
		log.warn("hook failed", err)
		return
	}
	err = Relay(SocketPath(dataDir), defaults.Database(dataDir), event, data, deadline, stdout)
	switch {
	case err == nil:
		return
	case !errors.Is(err, errNotTaken):
		log.warn("the agent took the event but gave no answer in time; giving up silently", err)
		return
	}
	if err := execLocal(dataDir, event, data, deadline); err != nil {
		log.warn("cannot handle the event in-process", err)
	}
}

// agentConn is the front's connection to the agent.
type agentConn interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
}

// errNotTaken marks a failure before the go-ahead: the agent has done
// nothing with the event, so handling it in-process stores nothing twice.
var errNotTaken = errors.New("no agent took the event")

func notTaken(err error) error { return fmt.Errorf("%w: %w", errNotTaken, err) }

// NotTaken reports whether err, from Relay, means the agent did nothing
// with the event, so handling it elsewhere stores nothing twice.
func NotTaken(err error) bool { return errors.Is(err, errNotTaken) }

// Relay hands the event to the agent listening at socket, serving
// database, and copies its reply to stdout. An error for which NotTaken is
// true means the agent has done nothing with the event; any other means it
// may have.
func Relay(socket, database, event string, stdin []byte, deadline time.Time, stdout io.Writer) error {
	if err := checkSocket(socket); err != nil {
		return notTaken(err)
	}
	ready := time.Now().Add(ReadyWait)
	if deadline.Before(ready) {
		ready = deadline
	}
	conn, err := dial(socket)
	if err != nil {
		return notTaken(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(ready); err != nil {
		return notTaken(err)
	}
	req := Request{Event: event, Database: database, Deadline: deadline.UnixNano()}
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
		return fmt.Errorf("agent: unexpected %q after the go-ahead", rep.Status)
	}
	if len(out) == 0 {
		return nil
	}
	_, err = stdout.Write(out)
	return err
}
