package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/internal/testkit"
)

// TestAgentCommand runs `credence agent` in this process: a second one
// refuses to start, and SIGTERM stops the first gracefully, exit 0, with
// its heartbeat saying so.
func TestAgentCommand(t *testing.T) {
	h := newCmdHarness(t)
	h.vars["CREDENCE_CONSOLIDATION_EPISODE_THRESHOLD"] = "1000"
	type result struct {
		code         int
		stdout, errs string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := h.run("agent")
		done <- result{code, out, errs}
	}()
	db := h.db()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, health, err := db.ReadAgentHealth(context.Background(), time.Now())
		if err == nil && health.Running {
			break
		}
		select {
		case r := <-done:
			t.Fatalf("agent exited early: %d\n%s%s", r.code, r.stdout, r.errs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never reported running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, _, errs := h.run("agent")
	if code == 0 || !strings.Contains(errs, "another credence agent is running") {
		t.Errorf("second agent: exit %d, stderr %q; want a refusal naming the running one", code, errs)
	}
	// Let the start cycle finish and be recorded before stopping the agent:
	// a SIGTERM that lands before the cycle begins leaves none to record,
	// which made the check below flaky.
	for {
		var rep StatusReport
		h.json(&rep, "status")
		if rep.LastCycle != nil && rep.LastCycle.Trigger == "start" && rep.LastCycle.Status != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the start cycle was never recorded: %+v", rep.LastCycle)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The running agent has registered for SIGTERM, so the signal reaches it
	// rather than ending the test.
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.code != 0 || !strings.Contains(r.errs, "running (pid") {
			t.Fatalf("agent after SIGTERM: exit %d\n%s%s", r.code, r.stdout, r.errs)
		}
	case <-time.After(time.Minute):
		t.Fatal("the agent did not stop on SIGTERM")
	}
	hb, health, err := db.ReadAgentHealth(context.Background(), time.Now())
	if err != nil || health.Status != "stopped" || hb.State != agent.StateStopped {
		t.Errorf("after SIGTERM: %+v %+v %v; want stopped", hb, health, err)
	}
	var rep StatusReport
	h.json(&rep, "status")
	if rep.Agent.Status != "stopped" || rep.LastCycle == nil || rep.LastCycle.Trigger != "start" {
		t.Errorf("status after the agent ran: agent %+v, last cycle %+v; want stopped and the start cycle", rep.Agent, rep.LastCycle)
	}
	checkAgentLog(t, filepath.Join(h.config().Paths.LogDir, "agent.log"))
}

// checkAgentLog reads the lines a real agent wrote: each names its
// component once, and the start cycle's lines are the consolidator's.
func checkAgentLog(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	components := map[string]int{}
	for line := range strings.Lines(strings.TrimSpace(string(data))) {
		n := 0
		for _, k := range testkit.JSONKeys(t, line) {
			if k == "component" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("agent.log line names its component %d times: %s", n, line)
		}
		var m struct{ Component string }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		components[m.Component]++
	}
	if components["agent"] == 0 || components["consolidate"] == 0 {
		t.Errorf("agent.log lines by component: %v; want the agent's and the consolidator's\n%s", components, data)
	}
}
