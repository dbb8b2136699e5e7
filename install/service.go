package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// ServiceManager says how the agent is kept running.
type ServiceManager string

// The service managers credence knows.
const (
	Systemd  ServiceManager = "systemd"  // a systemd --user unit (Linux)
	Launchd  ServiceManager = "launchd"  // a per-user launch agent (macOS)
	Detached ServiceManager = "detached" // a detached process with a pid file
)

// Runner runs the system commands that start and stop services, so tests
// can record them instead of touching the real system. ExecRunner is the
// real one.
type Runner interface {
	// Run runs a command to completion and returns its combined output.
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
	// StartDetached starts a process in a session of its own, stdin from
	// /dev/null and output appended to logPath, and returns its pid without
	// waiting for it.
	StartDetached(name string, args []string, logPath string) (pid int, err error)
	// Alive reports whether process pid exists.
	Alive(pid int) bool
	// Stop asks process pid to exit (SIGTERM), refusing when it is not a
	// credence process. A process that is already gone is not an error.
	Stop(pid int) error
}

// Service describes the agent service to install.
type Service struct {
	Binary        string // the credence binary; the service runs "<Binary> agent"
	DataDir       string // config Paths.DataDir: logs and the pid file go here
	Home          string // the user's home directory
	XDGConfigHome string // $XDG_CONFIG_HOME, "" for ~/.config
	UID           int    // the user's id, for launchctl's gui/<uid> domain
}

// PIDFile is where a detached agent's pid is kept.
func (s Service) PIDFile() string { return filepath.Join(s.DataDir, "agent.pid") }

// LogFile is where a detached agent's stdout and stderr go.
func (s Service) LogFile() string { return filepath.Join(s.DataDir, "logs", "agent.out.log") }

// DetectServiceManager picks launchd on macOS, systemd on Linux when a user
// manager answers (it does not in most containers or WSL setups), and a
// detached process otherwise.
func DetectServiceManager(ctx context.Context, goos string, r Runner) ServiceManager {
	switch goos {
	case "darwin":
		return Launchd
	case "linux":
		if _, err := r.Run(ctx, "systemctl", "--user", "show-environment"); err == nil {
			return Systemd
		}
	}
	return Detached
}

// StartService installs the agent under m and (re)starts it, so a new
// binary takes over from an old one. It is safe to run again.
func StartService(ctx context.Context, r Runner, m ServiceManager, s Service) error {
	if err := os.MkdirAll(filepath.Join(s.DataDir, "logs"), 0o700); err != nil {
		return fmt.Errorf("start agent: %w", err)
	}
	switch m {
	case Systemd:
		if err := writeServiceFile(SystemdUnitPath(s.Home, s.XDGConfigHome), SystemdUnit(s.Binary, s.DataDir)); err != nil {
			return err
		}
		return runAll(ctx, r,
			[]string{"systemctl", "--user", "daemon-reload"},
			[]string{"systemctl", "--user", "enable", SystemdUnitName},
			[]string{"systemctl", "--user", "restart", SystemdUnitName})
	case Launchd:
		plist := LaunchdPlistPath(s.Home)
		if err := writeServiceFile(plist, LaunchdPlist(s.Binary, s.DataDir)); err != nil {
			return err
		}
		// Unload an older definition first; it is fine if there is none.
		_, _ = r.Run(ctx, "launchctl", "bootout", launchdTarget(s))
		if _, err := r.Run(ctx, "launchctl", "bootstrap", launchdDomain(s), plist); err != nil {
			// launchctl before macOS 10.11 knows only load.
			return runAll(ctx, r, []string{"launchctl", "load", "-w", plist})
		}
		return nil
	case Detached:
		if err := stopDetached(r, s); err != nil {
			return err
		}
		pid, err := r.StartDetached(s.Binary, []string{"agent"}, s.LogFile())
		if err != nil {
			return fmt.Errorf("start agent: %w", err)
		}
		if err := writeServiceFile(s.PIDFile(), strconv.Itoa(pid)+"\n"); err != nil {
			return err
		}
		return nil
	}
	return fmt.Errorf("start agent: unknown service manager %q", m)
}

// StopService stops the agent and removes what StartService installed.
// Stopping an agent that is not installed is not an error.
func StopService(ctx context.Context, r Runner, m ServiceManager, s Service) error {
	switch m {
	case Systemd:
		unit := SystemdUnitPath(s.Home, s.XDGConfigHome)
		if _, exists, err := readIfExists(unit); err != nil || !exists {
			return err
		}
		if err := runAll(ctx, r, []string{"systemctl", "--user", "disable", "--now", SystemdUnitName}); err != nil {
			return err
		}
		if err := removeIfExists(unit); err != nil {
			return err
		}
		return runAll(ctx, r, []string{"systemctl", "--user", "daemon-reload"})
	case Launchd:
		plist := LaunchdPlistPath(s.Home)
		if _, exists, err := readIfExists(plist); err != nil || !exists {
			return err
		}
		// bootout fails when the job is not loaded, which is the state we want.
		_, _ = r.Run(ctx, "launchctl", "bootout", launchdTarget(s))
		return removeIfExists(plist)
	case Detached:
		return stopDetached(r, s)
	}
	return fmt.Errorf("stop agent: unknown service manager %q", m)
}

// ServiceRunning reports whether the agent is running under m, for doctor.
func ServiceRunning(ctx context.Context, r Runner, m ServiceManager, s Service) (bool, error) {
	switch m {
	case Systemd:
		out, err := r.Run(ctx, "systemctl", "--user", "is-active", SystemdUnitName)
		// is-active exits non-zero for every state but active.
		return err == nil && strings.TrimSpace(string(out)) == "active", nil
	case Launchd:
		_, err := r.Run(ctx, "launchctl", "print", launchdTarget(s))
		return err == nil, nil
	case Detached:
		pid, err := readPID(s.PIDFile())
		if err != nil || pid == 0 {
			return false, err
		}
		return r.Alive(pid), nil
	}
	return false, fmt.Errorf("check agent: unknown service manager %q", m)
}

// stopDetached stops the process named by the pid file, waits up to
// detachedStopWait for it to go, and removes the pid file.
func stopDetached(r Runner, s Service) error {
	pid, err := readPID(s.PIDFile())
	if err != nil || pid == 0 {
		return err
	}
	if r.Alive(pid) {
		if err := r.Stop(pid); err != nil {
			return fmt.Errorf("stop agent (pid %d): %w", pid, err)
		}
		deadline := time.Now().Add(detachedStopWait)
		for r.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if r.Alive(pid) {
			return fmt.Errorf("stop agent: pid %d still running after %s", pid, detachedStopWait)
		}
	}
	return removeIfExists(s.PIDFile())
}

// detachedStopWait bounds how long stopping a detached agent may take; the
// agent checkpoints a cycle in progress before it exits.
const detachedStopWait = 10 * time.Second

// readPID returns the pid in path, or 0 when there is no file.
func readPID(path string) (int, error) {
	data, exists, err := readIfExists(path)
	if err != nil || !exists {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("read %s: %q is not a pid", path, bytes.TrimSpace(data))
	}
	return pid, nil
}

func launchdDomain(s Service) string { return "gui/" + strconv.Itoa(s.UID) }
func launchdTarget(s Service) string { return launchdDomain(s) + "/" + LaunchdLabel }

// runAll runs commands in order and stops at the first failure, reporting
// the command and what it printed.
func runAll(ctx context.Context, r Runner, commands ...[]string) error {
	for _, c := range commands {
		if out, err := r.Run(ctx, c[0], c[1:]...); err != nil {
			msg := strings.TrimSpace(string(out))
			if msg != "" {
				return fmt.Errorf("%s: %w: %s", strings.Join(c, " "), err, msg)
			}
			return fmt.Errorf("%s: %w", strings.Join(c, " "), err)
		}
	}
	return nil
}

// writeServiceFile writes content atomically, creating the directory; a
// service definition holds no secrets, but the pid file is ours alone, and
// 0600 suits both.
func writeServiceFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
