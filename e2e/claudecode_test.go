package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeRelease is one installed Claude Code release.
type claudeRelease struct{ version, bin string }

// claudeRequired reports whether a missing Claude Code must fail the test
// instead of skipping it: in CI, or when CREDENCE_REQUIRE_CLAUDE=1.
func claudeRequired() bool {
	ci := os.Getenv("CI")
	return ci != "" && ci != "0" && ci != "false" || os.Getenv("CREDENCE_REQUIRE_CLAUDE") == "1"
}

// claudeDir is where scripts/install-claude-code.sh puts the releases.
func claudeDir(t *testing.T) string {
	if d := os.Getenv("CREDENCE_CLAUDE_DIR"); d != "" {
		return d
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, ".cache", "claude-code")
}

// pinnedClaudeVersions reads scripts/claude-code.versions.
func pinnedClaudeVersions(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "scripts", "claude-code.versions"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("scripts/claude-code.versions names no release")
	}
	return out
}

// claudeReleases returns the pinned releases, each checked to run and to be
// the version it claims. One that is not installed skips the test, or fails
// it when claudeRequired.
func claudeReleases(t *testing.T) []claudeRelease {
	t.Helper()
	dir := claudeDir(t)
	var out []claudeRelease
	for _, v := range pinnedClaudeVersions(t) {
		bin := filepath.Join(dir, v, "claude")
		ver, err := exec.Command(bin, "--version").Output()
		if err != nil || !strings.HasPrefix(string(ver), v+" ") {
			msg := "Claude Code " + v + " is not installed in " + dir + " (run scripts/install-claude-code.sh)"
			if err != nil {
				msg += ": " + err.Error()
			} else {
				msg += ": it reports " + strings.TrimSpace(string(ver))
			}
			if claudeRequired() {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		out = append(out, claudeRelease{version: v, bin: bin})
	}
	return out
}

// claudeRun is one `claude -p` run and what it left behind.
type claudeRun struct {
	stdout, stderr string
	debug          string // Claude Code's debug log
	sessionID      string
	hooks          []hookEvent // from --include-hook-events, in order
	result         string      // the final result's text
}

// hookEvent is a hook_response event of Claude Code's stream-json output.
type hookEvent struct {
	Name     string `json:"hook_name"`  // "SessionStart:startup", "PostToolUse:Edit"
	Event    string `json:"hook_event"` // "SessionStart"
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	Outcome  string `json:"outcome"`
}

// parseStream reads claude's stream-json output into run.
func (run *claudeRun) parseStream() error {
	for _, line := range strings.Split(run.stdout, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var ev struct {
			Type      string `json:"type"`
			Subtype   string `json:"subtype"`
			SessionID string `json:"session_id"`
			Result    string `json:"result"`
			hookEvent
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			return fmt.Errorf("stream-json line %q: %w", line, err)
		}
		switch {
		case ev.Type == "system" && ev.Subtype == "init":
			run.sessionID = ev.SessionID
		case ev.Type == "system" && ev.Subtype == "hook_response":
			run.hooks = append(run.hooks, ev.hookEvent)
		case ev.Type == "result":
			run.result = ev.Result
		}
	}
	if run.sessionID == "" {
		return errors.New("no system init event with a session_id")
	}
	return nil
}

// hook returns the responses of the hooks run for event.
func (run *claudeRun) hook(event string) []hookEvent {
	var out []hookEvent
	for _, h := range run.hooks {
		if h.Event == event {
			out = append(out, h)
		}
	}
	return out
}

// claude runs rel's `claude -p prompt` in cwd under the world's HOME,
// talking to api, with the file tools allowed and nothing else reaching the
// network, and returns its output and debug log. It fails the test when
// claude exits non-zero or runs for more than two minutes.
func (w *world) claude(rel claudeRelease, api *fakeAPI, cwd, prompt string, args ...string) claudeRun {
	w.t.Helper()
	debugFile := filepath.Join(w.t.TempDir(), "claude-debug.log")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	argv := append([]string{"-p", prompt, "--debug-file", debugFile, "--model", "claude-sonnet-4-5",
		"--allowedTools", "Read,Write,Edit", "--permission-mode", "acceptEdits",
		"--output-format", "stream-json", "--verbose", "--include-hook-events"}, args...)
	cmd := exec.CommandContext(ctx, rel.bin, argv...)
	cmd.Dir = cwd
	cmd.Env = append(append([]string{}, w.env...),
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY=test",
		"NO_PROXY=127.0.0.1,localhost",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_BUG_COMMAND=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1",
		"CLAUDE_CODE_ENABLE_TELEMETRY=0",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	debug, _ := os.ReadFile(debugFile)
	run := claudeRun{stdout: stdout.String(), stderr: stderr.String(), debug: string(debug)}
	if err == nil {
		err = run.parseStream()
	}
	if err != nil {
		w.t.Fatalf("claude %s -p %q: %v\nstdout:\n%s\nstderr:\n%s\nAPI requests:\n%s\ndebug log:\n%s",
			rel.version, prompt, err, run.stdout, run.stderr, api.log(), tail(run.debug, 6000))
	}
	return run
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
