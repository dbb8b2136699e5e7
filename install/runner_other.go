//go:build !unix

package install

import (
	"context"
	"errors"
	"os/exec"
)

// errUnsupported reports a platform where credence cannot run a detached
// agent; Claude Code users there run `credence agent` themselves.
var errUnsupported = errors.New("detached processes are supported only on Unix systems")

// ExecRunner runs real commands and processes.
type ExecRunner struct{}

// Run runs name with args and returns its combined output.
func (ExecRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, name, args...).CombinedOutput()
}

// StartDetached is not supported on this platform.
func (ExecRunner) StartDetached(string, []string, string) (int, error) { return 0, errUnsupported }

// Alive is not supported on this platform and reports false.
func (ExecRunner) Alive(int) bool { return false }

// Stop is not supported on this platform.
func (ExecRunner) Stop(int) error { return errUnsupported }
