package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/install"
)

func init() {
	Register(Command{
		Name:    "install",
		Usage:   "[--no-service] [--agent-only] [--hook-binary path] [--json]",
		Summary: "wire credence into Claude Code: hooks in settings.json, the MCP server, the CLAUDE.md import, the config, the agent service",
		Run:     runInstall,
	})
}

// step is one thing install, uninstall or doctor did or checked.
type step struct {
	Name   string `json:"name"`
	Status string `json:"status"` // done, unchanged, skipped, warning, failed (install); ok, problem, skipped (doctor)
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
}

// Step statuses.
const (
	stepDone      = "done"
	stepUnchanged = "unchanged"
	stepSkipped   = "skipped"
	stepWarning   = "warning"
	stepFailed    = "failed"
)

// stepReport collects steps and prints each as it happens.
type stepReport struct {
	env   *Env
	quiet bool
	Steps []step `json:"steps"`
}

func (r *stepReport) add(s step) {
	r.Steps = append(r.Steps, s)
	if r.quiet {
		return
	}
	mark := map[string]string{stepDone: "✓", stepUnchanged: "✓", stepSkipped: "–", stepWarning: "!", stepFailed: "✗",
		"ok": "✓", "problem": "✗"}[s.Status]
	line := fmt.Sprintf("%s %s", mark, s.Name)
	if s.Detail != "" {
		line += ": " + s.Detail
	}
	r.env.Printf("%s\n", line)
	if s.Fix != "" {
		r.env.Printf("    fix: %s\n", s.Fix)
	}
}

func (r *stepReport) failed() bool {
	for _, s := range r.Steps {
		if s.Status == stepFailed || s.Status == "problem" {
			return true
		}
	}
	return false
}

func runInstall(env *Env, args []string) int {
	fs := env.Flags("install")
	noService := fs.Bool("no-service", false, "do not start the agent (run `credence agent` yourself)")
	agentOnly := fs.Bool("agent-only", false, "skip the hooks and the MCP entry (the Claude Code plugin in plugin/ provides them)")
	hookBinary := fs.String("hook-binary", "", "path of credence-hook (default: next to this credence binary)")
	asJSON := fs.Bool("json", false, "print the steps as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	rep := &stepReport{env: env, quiet: *asJSON}
	doInstall(env, rep, *hookBinary, *noService, *agentOnly)
	if *asJSON {
		if code := env.JSON(rep); code != 0 {
			return code
		}
	} else if !rep.failed() {
		env.Printf("\ncredence is installed. Start a new Claude Code session; `credence doctor` checks everything.\n")
	}
	if rep.failed() {
		return 1
	}
	return 0
}

// doInstall runs every install step, reporting each. It checks the files
// it will edit first, so a malformed settings.json stops it before
// anything changes.
func doInstall(env *Env, rep *stepReport, hookOverride string, noService, agentOnly bool) {
	cfg, err := env.Config()
	if err != nil {
		rep.add(step{Name: "configuration", Status: stepFailed, Detail: err.Error(),
			Fix: "correct the setting named above (credence config path shows the file)"})
		return
	}
	bin, err := findBinaries(hookOverride)
	if err == nil {
		err = checkExecutable(bin.Hook)
	}
	if err != nil {
		rep.add(step{Name: "binaries", Status: stepFailed, Detail: err.Error(),
			Fix: "build both binaries (./install.sh does), or pass --hook-binary"})
		return
	}
	rep.add(step{Name: "binaries", Status: stepDone, Detail: bin.Credence + " and " + bin.Hook})
	if err := preflight(cfg); err != nil {
		rep.add(step{Name: "check Claude Code settings", Status: stepFailed, Detail: err.Error(),
			Fix: "fix or move the file named above and run credence install again; nothing was changed"})
		return
	}
	prev, _, err := readInstallState(cfg)
	if err != nil {
		rep.add(step{Name: "read install state", Status: stepWarning, Detail: err.Error()})
	}
	st := installState{Binaries: bin, Created: prev.Created, ConfigWritten: prev.ConfigWritten, Service: prev.Service,
		Originals: prev.Originals}
	if st.Originals == nil {
		st.Originals = map[string]original{}
	}
	// keepOriginal remembers the backup of a file's first edit.
	keepOriginal := func(path, backup string) {
		if _, seen := st.Originals[path]; !seen && backup != "" {
			st.Originals[path] = original{Backup: backup, After: fileHash(path)}
		}
	}
	noteCreated := func(path string) {
		if !fileExists(path) && !slices.Contains(st.Created, path) {
			st.Created = append(st.Created, path)
		}
	}

	written, err := config.WriteDefault(cfg.Paths.ConfigFile)
	switch {
	case err != nil:
		rep.add(step{Name: "config file", Status: stepFailed, Detail: err.Error()})
		return
	case written:
		st.ConfigWritten = true
		rep.add(step{Name: "config file", Status: stepDone, Detail: "wrote " + cfg.Paths.ConfigFile + " (offline mode; see credence config)"})
	default:
		rep.add(step{Name: "config file", Status: stepUnchanged, Detail: cfg.Paths.ConfigFile + " kept as it is"})
	}

	if err := openAndClose(env.Ctx, cfg); err != nil {
		rep.add(step{Name: "database", Status: stepFailed, Detail: err.Error(), Fix: "check that " + cfg.Paths.DataDir + " is writable"})
		return
	}
	rep.add(step{Name: "database", Status: stepDone, Detail: cfg.Paths.Database})

	if agentOnly {
		rep.add(step{Name: "hooks and MCP server", Status: stepSkipped, Detail: "--agent-only: the plugin in plugin/ registers them"})
	} else {
		noteCreated(cfg.Paths.ClaudeDir)
		noteCreated(cfg.Paths.ClaudeSettings)
		changed, backup, err := install.MergeHooks(cfg.Paths.ClaudeSettings, bin.Hook)
		keepOriginal(cfg.Paths.ClaudeSettings, backup)
		rep.add(fileStep("hooks in "+cfg.Paths.ClaudeSettings, changed, backup, err))
		if err != nil {
			return
		}
		noteCreated(cfg.Paths.ClaudeJSON)
		changed, backup, err = install.RegisterMCP(cfg.Paths.ClaudeJSON, bin.Credence)
		keepOriginal(cfg.Paths.ClaudeJSON, backup)
		rep.add(fileStep("MCP server \"credence\" in "+cfg.Paths.ClaudeJSON, changed, backup, err))
		if err != nil {
			return
		}
	}
	noteCreated(cfg.Paths.ClaudeMD)
	line := cfg.GlobalMemoryImportLine()
	changed, err := install.EnsureImportLine(cfg.Paths.ClaudeMD, line)
	rep.add(fileStep(line+" in "+cfg.Paths.ClaudeMD, changed, "", err))
	if err != nil {
		return
	}
	noteCreated(filepath.Dir(cfg.Paths.GlobalMemory))
	if err := os.MkdirAll(filepath.Dir(cfg.Paths.GlobalMemory), 0o700); err != nil {
		rep.add(step{Name: "global memory directory", Status: stepFailed, Detail: err.Error()})
		return
	}

	if noService {
		rep.add(step{Name: "agent", Status: stepSkipped, Detail: "--no-service: run `credence agent` to consolidate in the background"})
	} else {
		st.Service = startAgent(env, cfg, bin, rep)
	}
	if err := writeInstallState(cfg, st); err != nil {
		rep.add(step{Name: "install state", Status: stepWarning, Detail: err.Error()})
	}
}

// preflight checks that the JSON files install edits parse, so install
// stops before changing anything when one is malformed.
func preflight(cfg *config.Config) error {
	if _, err := install.MissingHooks(cfg.Paths.ClaudeSettings, "/credence-hook"); err != nil {
		return err
	}
	if _, err := install.MCPRegistered(cfg.Paths.ClaudeJSON, "/credence"); err != nil {
		return err
	}
	return nil
}

// fileStep turns the result of an edit into a step.
func fileStep(name string, changed bool, backup string, err error) step {
	switch {
	case err != nil:
		return step{Name: name, Status: stepFailed, Detail: err.Error()}
	case !changed:
		return step{Name: name, Status: stepUnchanged, Detail: "already there"}
	case backup != "":
		return step{Name: name, Status: stepDone, Detail: "backup at " + backup}
	}
	return step{Name: name, Status: stepDone}
}

// startAgent starts the agent under the best service manager, falling back
// to a detached process when systemd or launchd refuse (containers, WSL,
// no user session). A failure is reported and install goes on: the hooks
// and recall work without the agent, only consolidation waits.
func startAgent(env *Env, cfg *config.Config, bin binaries, rep *stepReport) install.ServiceManager {
	svc := agentService(env, cfg, bin)
	m := install.DetectServiceManager(env.Ctx, serviceOS, serviceRunner)
	err := install.StartService(env.Ctx, serviceRunner, m, svc)
	if err == nil {
		rep.add(agentStarted(env, svc, m, ""))
		return m
	}
	if m != install.Detached {
		first := err
		// Leave no half-installed unit behind before trying the fallback.
		_ = install.StopService(env.Ctx, serviceRunner, m, svc)
		if err = install.StartService(env.Ctx, serviceRunner, install.Detached, svc); err == nil {
			rep.add(agentStarted(env, svc, install.Detached, fmt.Sprintf("%s failed (%v)", describeManager(m), firstLine(first))))
			return install.Detached
		}
	}
	rep.add(step{Name: "agent", Status: stepWarning, Detail: "not started: " + firstLine(err),
		Fix: "run `credence agent` in a terminal (or your init system); hooks and recall work without it"})
	return ""
}

// agentStartupGrace is how long install waits before checking that a
// just-started agent still runs, so one that exits at once (a bad config, a
// broken binary) is reported now rather than found later by doctor. Tests
// set it to zero.
var agentStartupGrace = 500 * time.Millisecond

// agentStarted reports a started agent, or a warning when it is gone again
// after agentStartupGrace. fallbackFrom says why another manager was not
// used.
func agentStarted(env *Env, svc install.Service, m install.ServiceManager, fallbackFrom string) step {
	detail := "started as a " + describeManager(m)
	if fallbackFrom != "" {
		detail = fallbackFrom + "; " + detail + " instead"
	}
	time.Sleep(agentStartupGrace)
	if running, err := install.ServiceRunning(env.Ctx, serviceRunner, m, svc); err == nil && !running {
		return step{Name: "agent", Status: stepWarning, Detail: detail + ", but it is not running",
			Fix: "read " + svc.LogFile() + " (or journalctl --user -u " + install.SystemdUnitName + "), then run `credence agent` in a terminal to see the error"}
	}
	return step{Name: "agent", Status: stepDone, Detail: detail}
}

func describeManager(m install.ServiceManager) string {
	switch m {
	case install.Systemd:
		return "systemd --user service (" + install.SystemdUnitName + ")"
	case install.Launchd:
		return "launchd agent (" + install.LaunchdLabel + ")"
	}
	return "detached process"
}

func openAndClose(ctx context.Context, cfg *config.Config) error {
	db, err := app.OpenStore(ctx, cfg, commandBusyTimeout)
	if err != nil {
		return err
	}
	return db.Close()
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
