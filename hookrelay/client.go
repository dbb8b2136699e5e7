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

// LeanHandler is credence's in-process hook handler alone
// (cmd/credence-hook-local), which starts faster than credence. It is
// installed next to credence-hook, which runs it, when the agent does not
// answer, before falling back to `credence hook`.
const LeanHandler = "credence-hook-local"

// ReadyWait bounds how long the front waits for the agent to take a
// request before handling the event itself. A running agent answers in well
// under a millisecond; one that is stopped, swapped out or wedged answers
// late or never, and then every prompt pays this much before the fallback.
const ReadyWait = 250 * time.Millisecond

// StoreGrace is how long past its budget a hook keeps working to store an
// event whose input arrived within the budget: what Claude is told gives
// up at the budget, storing may not. A prompt piped in slowly, near the
// end of the budget, is still handed over (or handled in-process) and
// stored, or spooled when the database is busy.
const StoreGrace = 250 * time.Millisecond

// storeBy is how long a hand-over may take: the deadline, or StoreGrace
// from now when that is later.
func storeBy(deadline time.Time) time.Time {
	if late := time.Now().Add(StoreGrace); late.After(deadline) {
		return late
	}
	return deadline
}

// Budget returns a hook's time budget: hook.budget, or its default when
// that is not positive.
func Budget(budget time.Duration) time.Duration {
	if budget <= 0 {
		return defaults.HookBudget
	}
	return budget
}

// StdinWait returns how long to wait for stdin when left of the budget
// remains: hook.stdin_timeout, but never past the budget, and never less
// than minStdinWait.
func StdinWait(stdinTimeout, left time.Duration) time.Duration {
	return max(min(stdinTimeout, left), minStdinWait)
}

// minStdinWait is the least time given to read stdin: input the front
// already read whole and hands over late, in a file, is read at once,
// and is still stored.
const minStdinWait = 20 * time.Millisecond

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
	if !KnownEvent(event) && event != EventPostToolUse {
		log.warn("unknown event; "+Usage, nil)
		return
	}
	deadline := start.Add(defaults.HookBudget)
	data, err := readStdin(stdin, defaults.HookStdinMaxBytes, StdinWait(defaults.HookStdinTimeout, time.Until(deadline)))
	if err != nil {
		log.warn("hook failed", err)
		return
	}
	if event == EventPostToolUse {
		// A line in a small file, here: no agent, no database.
		if err := RecordEdit(dataDir, data, time.Now()); err != nil {
			log.warn("model edit not recorded", err)
		}
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
	// Input that came late in the budget is still handed over: the agent
	// stores it, with no time left to recall anything for it.
	late := storeBy(deadline)
	ready := time.Now().Add(ReadyWait)
	if late.Before(ready) {
		ready = late
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
	if err := conn.SetDeadline(late); err != nil {
		return err
	}
	if err := WriteGo(conn); err != nil {
		// The agent closed before the go reached it, so it never read it.
		return notTaken(err)
	}
	rep, out, err := ReadReply(r)
	if err != nil {
		return err
	}
	if rep.Status == StatusDeclined {
		return notTaken(fmt.Errorf("agent stopped waiting for the go-ahead: %s", rep.Reason))
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
