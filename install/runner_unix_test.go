//go:build unix

package install

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestExecRunnerRun(t *testing.T) {
	out, err := ExecRunner{}.Run(context.Background(), "sh", "-c", "echo out; echo err >&2")
	if err != nil || string(out) != "out\nerr\n" {
		t.Errorf("Run = %q, %v; want both streams", out, err)
	}
	if _, err := (ExecRunner{}).Run(context.Background(), "sh", "-c", "exit 3"); err == nil {
		t.Errorf("Run of a failing command returned no error")
	}
}

func TestExecRunnerDetachedProcess(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	logPath := filepath.Join(t.TempDir(), "agent.out.log")
	r := ExecRunner{}
	pid, err := r.StartDetached(sh, []string{"-c", "echo started; exec sleep 30"}, logPath)
	if err != nil {
		t.Fatalf("StartDetached: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	})
	if !r.Alive(pid) {
		t.Fatalf("Alive(%d) = false right after start", pid)
	}
	if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
		t.Errorf("Getpgid(%d) = %d, %v; want a session and group of its own", pid, pgid, err)
	}
	if _, err := os.Stat("/proc/self/cmdline"); err == nil {
		err := r.Stop(pid)
		if err == nil || !strings.Contains(err.Error(), "not credence") {
			t.Errorf("Stop of a non-credence process = %v, want a refusal", err)
		}
	}
	if r.Alive(1 << 22) {
		t.Errorf("Alive reports a pid that cannot exist")
	}
}
