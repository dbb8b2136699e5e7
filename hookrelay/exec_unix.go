//go:build unix

package hookrelay

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// localName is the binary that handles an event in-process
// (`credence hook <event>`); it is installed next to credence-hook.
const localName = "credence"

// leanName is LeanHandler, taken before credence when there.
const leanName = LeanHandler

// execLocal replaces this process with `credence hook <event>`, its stdin
// the bytes already read and its deadline this one's. It returns only on
// failure. exec rather than a child: nothing outlives the hook holding its
// stdout, and the in-process handler keeps Claude Code's pipes as they are.
func execLocal(dataDir, event string, stdin []byte, deadline time.Time) error {
	bin, err := localBinary()
	if err != nil {
		return err
	}
	f, err := stdinFile(stdin, dataDir)
	if err != nil {
		return fmt.Errorf("hand stdin over: %w", err)
	}
	defer f.Close()
	if err := unix.Dup2(int(f.Fd()), 0); err != nil {
		return fmt.Errorf("hand stdin over: %w", err)
	}
	env := append(os.Environ(), DeadlineEnv+"="+strconv.FormatInt(deadline.UnixNano(), 10))
	err = syscall.Exec(bin, []string{bin, "hook", event}, env)
	runtime.KeepAlive(f)
	return fmt.Errorf("exec %s: %w", bin, err)
}

// handOver replaces this process with `credence hook <event>` before
// reading stdin, which it leaves to credence, telling it when the hook
// started (StartEnv) so it tries the agent first and keeps the budget. It
// returns only on failure.
func handOver(event string, start time.Time) error {
	bin, err := localBinary()
	if err != nil {
		return err
	}
	env := append(os.Environ(), StartEnv+"="+strconv.FormatInt(start.UnixNano(), 10))
	err = syscall.Exec(bin, []string{bin, "hook", event}, env)
	return fmt.Errorf("exec %s: %w", bin, err)
}

// localBinary finds the in-process handler: credence-hook-local, else
// credence, next to this executable (symlinks resolved, as install.sh and
// the plugin's wrapper leave them), else credence on PATH. Both take
// `hook <event>`.
func localBinary() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		if p, ok := localBinaryIn(filepath.Dir(exe)); ok {
			return p, nil
		}
	}
	p, err := exec.LookPath(localName)
	if err != nil {
		return "", errors.New("no credence binary next to credence-hook or on PATH")
	}
	return p, nil
}

// localBinaryIn returns the in-process handler installed in dir:
// credence-hook-local, else credence.
func localBinaryIn(dir string) (string, bool) {
	for _, name := range []string{leanName, localName} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// rewound writes data to f and moves back to its start, closing f on
// failure.
func rewound(f *os.File, data []byte) (*os.File, error) {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
