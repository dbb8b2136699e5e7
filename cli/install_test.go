package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/credence-mem/credence/install"
)

// recordingRunner stands in for systemctl, launchctl and process control.
type recordingRunner struct {
	commands []string
	fail     func(line string) bool
	alive    map[int]bool
	started  int
	stopped  []int
	// dieOnStart makes started processes exit at once.
	dieOnStart bool
}

func (r *recordingRunner) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	line := strings.Join(append([]string{name}, args...), " ")
	r.commands = append(r.commands, line)
	if r.fail != nil && r.fail(line) {
		return []byte("Failed to connect to bus"), errors.New("exit status 1")
	}
	return []byte("active"), nil
}

func (r *recordingRunner) StartDetached(name string, args []string, logPath string) (int, error) {
	r.started++
	pid := 4000 + r.started
	r.alive[pid] = !r.dieOnStart
	return pid, nil
}

func (r *recordingRunner) Alive(pid int) bool { return r.alive[pid] }

func (r *recordingRunner) Stop(pid int) error {
	r.stopped = append(r.stopped, pid)
	delete(r.alive, pid)
	return nil
}

// installHarness is a temporary HOME with fake credence binaries and a
// recording service runner; systemd is absent unless withSystemd is set.
func installHarness(t *testing.T, withSystemd bool) (*cmdHarness, *recordingRunner, string) {
	t.Helper()
	h := newCmdHarness(t)
	binDir := filepath.Join(h.home, ".local", "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"credence", hookBinaryName} {
		if err := os.WriteFile(filepath.Join(binDir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := &recordingRunner{alive: map[int]bool{}}
	if !withSystemd {
		r.fail = func(line string) bool { return strings.HasPrefix(line, "systemctl") }
	}
	oldRunner, oldOS, oldExe, oldGrace := serviceRunner, serviceOS, executable, agentStartupGrace
	serviceRunner, serviceOS, agentStartupGrace = r, "linux", 0
	executable = func() (string, error) { return filepath.Join(binDir, "credence"), nil }
	t.Cleanup(func() { serviceRunner, serviceOS, executable, agentStartupGrace = oldRunner, oldOS, oldExe, oldGrace })
	return h, r, binDir
}

// writeFile writes a fixture under HOME.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// backups lists the backup files credence wrote in dir.
func backups(t *testing.T, dir string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, "*.credence-backup-*"))
	if err != nil {
		t.Fatal(err)
	}
	return matches
}

const otherHooks = `{
  "model": "opus",
  "hooks": {
    "UserPromptSubmit": [
      {"hooks": [{"type": "command", "command": "/usr/local/bin/prompt-logger", "timeout": 30}]}
    ],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/guard"}]}
    ]
  }
}
`

func TestInstallFreshHome(t *testing.T) {
	h, r, binDir := installHarness(t, false)
	var rep stepReport
	h.json(&rep, "install")
	cfg := h.config()
	hook := filepath.Join(binDir, hookBinaryName)
	missing, err := install.MissingHooks(cfg.Paths.ClaudeSettings, hook)
	if err != nil || len(missing) != 0 {
		t.Errorf("missing hooks %v, %v", missing, err)
	}
	if reg, err := install.MCPRegistered(cfg.Paths.ClaudeJSON, filepath.Join(binDir, "credence")); err != nil || !reg {
		t.Errorf("MCP registered = %v, %v", reg, err)
	}
	if md := readFile(t, cfg.Paths.ClaudeMD); strings.TrimSpace(md) != "@~/.claude-memory/MEMORY.md" {
		t.Errorf("CLAUDE.md = %q", md)
	}
	if !fileExists(cfg.Paths.ConfigFile) || !fileExists(cfg.Paths.Database) {
		t.Error("config file or database missing after install")
	}
	if r.started != 1 {
		t.Errorf("started %d detached agents, want 1 (no systemd here)", r.started)
	}
	for _, s := range rep.Steps {
		if s.Status == stepFailed || s.Status == stepWarning {
			t.Errorf("step %+v", s)
		}
	}
	st, ok, err := readInstallState(cfg)
	if err != nil || !ok || st.Service != install.Detached || st.Binaries.Hook != hook {
		t.Errorf("install state = %+v, %v, %v", st, ok, err)
	}
}

func TestInstallKeepsOtherHooksAndIsIdempotent(t *testing.T) {
	h, _, _ := installHarness(t, false)
	cfg := h.config()
	writeFile(t, cfg.Paths.ClaudeSettings, otherHooks)
	writeFile(t, cfg.Paths.ClaudeJSON, `{"numStartups": 7, "mcpServers": {"other": {"type": "stdio", "command": "other-mcp"}}}`)
	writeFile(t, cfg.Paths.ClaudeMD, "# my instructions\nBe brief.\n")
	h.ok("install")

	var settings struct {
		Model string                       `json:"model"`
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, cfg.Paths.ClaudeSettings)), &settings); err != nil {
		t.Fatal(err)
	}
	if settings.Model != "opus" || len(settings.Hooks["PreToolUse"]) != 1 || len(settings.Hooks["UserPromptSubmit"]) != 2 {
		t.Errorf("settings after install = %+v; other settings and hooks must stay", settings)
	}
	if !strings.Contains(readFile(t, cfg.Paths.ClaudeJSON), `"other"`) || !strings.Contains(readFile(t, cfg.Paths.ClaudeJSON), `"numStartups": 7`) {
		t.Errorf(".claude.json lost the other server: %s", readFile(t, cfg.Paths.ClaudeJSON))
	}
	if md := readFile(t, cfg.Paths.ClaudeMD); !strings.HasPrefix(md, "# my instructions\nBe brief.\n") {
		t.Errorf("CLAUDE.md = %q", md)
	}
	firstBackups := backups(t, cfg.Paths.ClaudeDir)
	if len(firstBackups) != 1 {
		t.Errorf("backups after the first install: %v, want one of settings.json", firstBackups)
	}

	before := map[string]string{}
	for _, p := range []string{cfg.Paths.ClaudeSettings, cfg.Paths.ClaudeJSON, cfg.Paths.ClaudeMD, cfg.Paths.ConfigFile} {
		before[p] = readFile(t, p)
	}
	var rep stepReport
	h.json(&rep, "install")
	for p, want := range before {
		if got := readFile(t, p); got != want {
			t.Errorf("second install changed %s", p)
		}
	}
	if got := backups(t, cfg.Paths.ClaudeDir); !slices.Equal(got, firstBackups) {
		t.Errorf("second install wrote backups %v", got)
	}
	for _, s := range rep.Steps {
		if strings.HasPrefix(s.Name, "hooks") || strings.HasPrefix(s.Name, "MCP") || s.Name == "config file" {
			if s.Status != stepUnchanged {
				t.Errorf("second install step %+v, want unchanged", s)
			}
		}
	}
}

func TestInstallMalformedSettings(t *testing.T) {
	h, r, _ := installHarness(t, false)
	cfg := h.config()
	const broken = `{"hooks": {"Stop": [}` + "\n"
	writeFile(t, cfg.Paths.ClaudeSettings, broken)
	code, out, _ := h.run("install")
	if code != 1 || !strings.Contains(out, cfg.Paths.ClaudeSettings) || !strings.Contains(out, "not valid JSON") {
		t.Fatalf("exit %d, output:\n%s\nwant failure naming %s", code, out, cfg.Paths.ClaudeSettings)
	}
	if got := readFile(t, cfg.Paths.ClaudeSettings); got != broken {
		t.Errorf("malformed settings.json was changed to %q", got)
	}
	if fileExists(cfg.Paths.ClaudeJSON) || fileExists(cfg.Paths.ClaudeMD) || r.started != 0 {
		t.Error("install went on after the malformed settings.json")
	}
	if b := backups(t, cfg.Paths.ClaudeDir); len(b) != 0 {
		t.Errorf("backups written: %v", b)
	}
}

func TestInstallFallsBackFromSystemd(t *testing.T) {
	h, r, _ := installHarness(t, true)
	r.fail = func(line string) bool { return strings.HasPrefix(line, "systemctl --user restart") }
	var rep stepReport
	h.json(&rep, "install")
	var agent step
	for _, s := range rep.Steps {
		if s.Name == "agent" {
			agent = s
		}
	}
	if agent.Status != stepDone || !strings.Contains(agent.Detail, "detached process instead") || r.started != 1 {
		t.Errorf("agent step %+v, started %d; want a detached fallback", agent, r.started)
	}
	if fileExists(install.SystemdUnitPath(h.home, "")) {
		t.Error("the failed systemd unit was left behind")
	}
}

func TestInstallWithSystemd(t *testing.T) {
	h, r, _ := installHarness(t, true)
	h.ok("install")
	if !slices.Contains(r.commands, "systemctl --user restart "+install.SystemdUnitName) || r.started != 0 {
		t.Errorf("commands %v, detached %d; want the systemd unit restarted", r.commands, r.started)
	}
	if !fileExists(install.SystemdUnitPath(h.home, "")) {
		t.Error("no systemd unit written")
	}
	h.ok("uninstall")
	if fileExists(install.SystemdUnitPath(h.home, "")) || !slices.Contains(r.commands, "systemctl --user disable --now "+install.SystemdUnitName) {
		t.Errorf("uninstall left the unit or did not disable it: %v", r.commands)
	}
}

func TestUninstallRestoresPriorState(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]string // relative to HOME
	}{
		{"fresh home", nil},
		{"existing files", map[string]string{
			".claude/settings.json": otherHooks,
			".claude.json":          `{"numStartups": 7, "mcpServers": {"other": {"type": "stdio", "command": "other-mcp"}}}` + "\n",
			".claude/CLAUDE.md":     "# my instructions\nBe brief.\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, r, _ := installHarness(t, false)
			for rel, content := range tt.existing {
				writeFile(t, filepath.Join(h.home, rel), content)
			}
			cfg := h.config()
			h.ok("install")
			h.ok("remember", "I prefer tabs over spaces")
			out := h.ok("uninstall")
			for _, backup := range regexp.MustCompile(`backup at (\S+)`).FindAllStringSubmatch(out, -1) {
				if !fileExists(backup[1]) {
					t.Errorf("uninstall names the backup %s, which does not exist:\n%s", backup[1], out)
				}
			}
			for _, p := range []string{cfg.Paths.ClaudeSettings, cfg.Paths.ClaudeJSON, cfg.Paths.ClaudeMD} {
				rel, _ := filepath.Rel(h.home, p)
				want, existed := tt.existing[rel]
				switch {
				case existed && readFile(t, p) != want:
					t.Errorf("%s after uninstall:\n%s\nwant the original:\n%s", rel, readFile(t, p), want)
				case !existed && fileExists(p):
					t.Errorf("%s created by install is still there: %q", rel, readFile(t, p))
				}
			}
			if fileExists(cfg.Paths.ConfigFile) {
				t.Error("the unchanged default config is still there")
			}
			if tt.existing == nil {
				// A fresh home gets back to no ~/.claude at all, backups included.
				if fileExists(cfg.Paths.ClaudeDir) {
					entries, _ := os.ReadDir(cfg.Paths.ClaudeDir)
					t.Errorf("~/.claude left behind with %v", entries)
				}
			} else if b := backups(t, cfg.Paths.ClaudeDir); len(b) != 0 {
				t.Errorf("backups left after restoring the originals: %v", b)
			}
			if len(r.stopped) != 1 || len(r.alive) != 0 {
				t.Errorf("stopped %v, alive %v; want the agent stopped", r.stopped, r.alive)
			}
			if !fileExists(cfg.Paths.Database) {
				t.Error("uninstall without --purge deleted the memory")
			}
			h.ok("uninstall", "--purge")
			if fileExists(cfg.Paths.DataDir) {
				t.Error("uninstall --purge left the data directory")
			}
		})
	}
}

func TestUninstallKeepsEditedConfig(t *testing.T) {
	h, _, _ := installHarness(t, false)
	h.ok("install")
	cfg := h.config()
	edited := "log_level = \"debug\"\n" + readFile(t, cfg.Paths.ConfigFile)
	writeFile(t, cfg.Paths.ConfigFile, edited)
	out := h.ok("uninstall")
	if readFile(t, cfg.Paths.ConfigFile) != edited || !strings.Contains(out, "has your edits; kept") {
		t.Errorf("edited config not kept; output:\n%s", out)
	}
}

func TestUninstallAfterClaudeCodeEdits(t *testing.T) {
	h, _, binDir := installHarness(t, false)
	cfg := h.config()
	writeFile(t, cfg.Paths.ClaudeJSON, `{"numStartups": 7, "mcpServers": {"other": {"type": "stdio", "command": "other-mcp"}}}`)
	h.ok("install")
	// Claude Code rewrites .claude.json all the time.
	edited := strings.Replace(readFile(t, cfg.Paths.ClaudeJSON), `"numStartups": 7`, `"numStartups": 8`, 1)
	writeFile(t, cfg.Paths.ClaudeJSON, edited)
	h.ok("uninstall")
	got := readFile(t, cfg.Paths.ClaudeJSON)
	if !strings.Contains(got, `"numStartups": 8`) || !strings.Contains(got, `"other"`) {
		t.Errorf("uninstall lost Claude Code's edit or the other server:\n%s", got)
	}
	if reg, _ := install.MCPRegistered(cfg.Paths.ClaudeJSON, filepath.Join(binDir, "credence")); reg || strings.Contains(got, `"credence"`) {
		t.Errorf("credence still registered:\n%s", got)
	}
}

func TestInstallAgentOnly(t *testing.T) {
	h, r, _ := installHarness(t, false)
	h.ok("install", "--agent-only")
	cfg := h.config()
	if fileExists(cfg.Paths.ClaudeSettings) || fileExists(cfg.Paths.ClaudeJSON) {
		t.Error("--agent-only registered hooks or the MCP server")
	}
	if !fileExists(cfg.Paths.ClaudeMD) || r.started != 1 {
		t.Errorf("--agent-only: CLAUDE.md %v, agents started %d; want the import and the agent", fileExists(cfg.Paths.ClaudeMD), r.started)
	}
}

// TestPluginLayout checks that the plugin registers the same hooks, with
// the same limits, as credence install, and the same MCP server.
func TestPluginLayout(t *testing.T) {
	var hooks struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, "../plugin/hooks/hooks.json")), &hooks); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if _, _, err := install.MergeHooks(settings, "/bin/"+hookBinaryName); err != nil {
		t.Fatal(err)
	}
	var installed struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Timeout int `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, settings)), &installed); err != nil {
		t.Fatal(err)
	}
	for _, event := range install.HookEvents {
		groups := hooks.Hooks[event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			t.Errorf("%s: %+v, want one hook", event, groups)
			continue
		}
		h := groups[0].Hooks[0]
		want := "${CLAUDE_PLUGIN_ROOT}/bin/" + hookBinaryName + " " + event
		if groups[0].Matcher != installed.Hooks[event][0].Matcher {
			t.Errorf("%s: plugin matcher %q, install's %q", event, groups[0].Matcher, installed.Hooks[event][0].Matcher)
		}
		if h.Type != "command" || h.Command != want || h.Timeout != installed.Hooks[event][0].Hooks[0].Timeout {
			t.Errorf("%s: %+v, want %q with install's timeout %d", event, h, want, installed.Hooks[event][0].Hooks[0].Timeout)
		}
	}
	if len(hooks.Hooks) != len(install.HookEvents) {
		t.Errorf("plugin hooks %d events, install %d", len(hooks.Hooks), len(install.HookEvents))
	}
	var mcp struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readFile(t, "../plugin/.mcp.json")), &mcp); err != nil {
		t.Fatal(err)
	}
	if s := mcp.MCPServers[install.MCPServerName]; s.Command != "${CLAUDE_PLUGIN_ROOT}/bin/credence" || !slices.Equal(s.Args, []string{"mcp"}) {
		t.Errorf(".mcp.json server = %+v", s)
	}
	var manifest struct{ Name, Version string }
	if err := json.Unmarshal([]byte(readFile(t, "../plugin/.claude-plugin/plugin.json")), &manifest); err != nil || manifest.Name != "credence" {
		t.Errorf("plugin.json = %+v, %v", manifest, err)
	}
}

func TestInstallReportsAnAgentThatExits(t *testing.T) {
	h, r, _ := installHarness(t, false)
	r.dieOnStart = true
	var rep stepReport
	h.json(&rep, "install")
	var agent step
	for _, s := range rep.Steps {
		if s.Name == "agent" {
			agent = s
		}
	}
	if agent.Status != stepWarning || !strings.Contains(agent.Detail, "not running") || !strings.Contains(agent.Fix, "agent.out.log") {
		t.Errorf("agent step %+v, want a warning pointing at the log", agent)
	}
}

// TestUninstallRemovesMemoryLocks: the MEMORY.md.lock files credence's
// writers left beside the memory files go with uninstall, unless a writer
// still holds one.
func TestUninstallRemovesMemoryLocks(t *testing.T) {
	for _, held := range []bool{false, true} {
		t.Run(map[bool]string{false: "free", true: "held"}[held], func(t *testing.T) {
			h, _, _ := installHarness(t, false)
			project := filepath.Join(h.home, "code", "app")
			if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			h.vars["CLAUDE_PROJECT_DIR"] = project
			h.ok("install")
			for range 3 { // three statements of one's own make a belief strong enough to promote
				h.ok("remember", "I prefer tabs over spaces")
				h.ok("remember", "--project", "We use pnpm as the package manager")
			}
			h.ok("consolidate")
			cfg := h.config()
			sections, err := h.db().MemorySections(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var locks []string
			for _, m := range sections {
				if lock := m.Path + ".lock"; fileExists(lock) {
					locks = append(locks, lock)
				}
			}
			if len(locks) != 2 || !slices.Contains(locks, cfg.Paths.GlobalMemory+".lock") {
				t.Fatalf("locks after promotion: %v; want the global and the project MEMORY.md's", locks)
			}
			if held {
				l := flock.New(locks[0])
				if ok, err := l.TryLock(); !ok || err != nil {
					t.Fatalf("TryLock: %v %v", ok, err)
				}
				defer l.Unlock()
			}
			out := h.ok("uninstall")
			for i, lock := range locks {
				if kept := held && i == 0; fileExists(lock) != kept {
					t.Errorf("%s exists: %v, want %v; uninstall said:\n%s", lock, !kept, kept, out)
				}
			}
			if held && !strings.Contains(out, locks[0]+" is held by a running writer; kept") {
				t.Errorf("uninstall did not say why it kept %s:\n%s", locks[0], out)
			}
			for _, m := range sections {
				if !fileExists(m.Path) {
					t.Errorf("uninstall removed %s; the memory stays", m.Path)
				}
			}
		})
	}
}
