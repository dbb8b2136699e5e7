//go:build unix

package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// ExecRunner runs real commands and processes.
type ExecRunner struct{}

// Run runs name with args and returns its combined output.
func (ExecRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, name, args...).CombinedOutput()
}

// StartDetached starts name in a new session so it outlives the installer
// and its terminal: stdin is /dev/null, stdout and stderr append to logPath,
// and no descriptor of ours stays open in it.
func (ExecRunner) StartDetached(name string, args []string, logPath string) (int, error) {
	logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", logPath, err)
	}
	defer logFile.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", name, err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Process.Release(); err != nil {
		return pid, fmt.Errorf("release %s: %w", name, err)
	}
	return pid, nil
}

// Alive reports whether process pid exists (signal 0 probes without
// signalling).
func (ExecRunner) Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Stop sends SIGTERM to pid after checking, where /proc allows, that it
// still runs credence: a stale pid file may name a recycled pid.
func (ExecRunner) Stop(pid int) error {
	if cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil &&
		!bytes.Contains(cmdline, []byte("credence")) {
		return fmt.Errorf("pid %d runs %q, not credence; not stopping it", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte(" ")))
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal pid %d: %w", pid, err)
	}
	return nil
}
