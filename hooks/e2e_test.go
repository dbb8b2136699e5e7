package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/store"
)

// hookBin is the credence-hook binary the end-to-end tests run, built once
// by TestMain.
var hookBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "credence-hook-bin-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// credence-hook execs the credence-hook-local beside it when no agent
	// answers, as install.sh installs them (credence when it is missing:
	// TestHookFallsBackToCredence).
	hookBin = filepath.Join(dir, "credence-hook")
	for _, b := range []struct{ out, pkg string }{
		{hookBin, "github.com/credence-mem/credence/cmd/credence-hook"},
		{filepath.Join(dir, "credence"), "github.com/credence-mem/credence/cmd/credence"},
		{filepath.Join(dir, "credence-hook-local"), "github.com/credence-mem/credence/cmd/credence-hook-local"},
	} {
		build := exec.Command("go", "build", "-o", b.out, b.pkg)
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b.pkg, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// hookEnv is a private HOME with a git project in it, for running the
// built hook.
type hookEnv struct {
	t       *testing.T
	home    string
	project string
	tmp     string
	env     []string
	// srv, when set, is the hook server answering this HOME's hooks.
	srv *Server
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	home := t.TempDir()
	e := &hookEnv{t: t, home: home, project: filepath.Join(home, "src", "app"), tmp: filepath.Join(home, "tmp")}
	for _, d := range []string{filepath.Join(e.project, ".git"), e.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *hookEnv) dbPath() string {
	return filepath.Join(e.home, ".local", "share", "credence", "credence.db")
}
func (e *hookEnv) logPath() string {
	return filepath.Join(e.home, ".local", "share", "credence", "logs", "hook.log")
}

type result struct {
	stdout, stderr []byte
	code           int
}

// run runs the hook for event with stdin and returns what it printed.
func (e *hookEnv) run(event string, stdin []byte) result {
	e.t.Helper()
	return e.runReader(event, bytes.NewReader(stdin))
}

func (e *hookEnv) runReader(event string, stdin io.Reader) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, hookBin, event)
	cmd.Env = append([]string{"HOME=" + e.home, "TMPDIR=" + e.tmp, "PATH=" + os.Getenv("PATH")}, e.env...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		e.t.Fatalf("run credence-hook %s: %v", event, err)
	}
	if ctx.Err() != nil {
		e.t.Fatalf("credence-hook %s did not exit", event)
	}
	if e.srv != nil {
		e.srv.idle() // the agent may still be storing what it replied to
	}
	return result{out.Bytes(), errb.Bytes(), code}
}

// input builds a hook's stdin: session s1 in the project unless fields say
// otherwise.
func (e *hookEnv) input(event string, fields map[string]any) []byte {
	e.t.Helper()
	m := map[string]any{"session_id": "s1", "cwd": e.project, "hook_event_name": event,
		"transcript_path": filepath.Join(e.home, "transcript.jsonl")}
	for k, v := range fields {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// db opens the hook's database for assertions.
func (e *hookEnv) db() *store.DB {
	e.t.Helper()
	db, err := store.Open(context.Background(), e.dbPath(), store.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	return db
}

func (e *hookEnv) log() string {
	b, _ := os.ReadFile(e.logPath())
	return string(b)
}

// episodes returns the contents of every stored episode of a kind.
func (e *hookEnv) episodes(kind string) []string {
	e.t.Helper()
	db := e.db()
	eps, err := db.EpisodesAfter(context.Background(), 0, 1000)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, ep := range eps {
		if kind == "" || ep.Kind == kind {
			out = append(out, ep.Content)
		}
	}
	return out
}

// context checks that stdout is empty or one protocol object for event,
// and returns its additionalContext.
func checkOutput(t *testing.T, event string, r result) string {
	t.Helper()
	if r.code != 0 {
		t.Errorf("exit code %d, want 0", r.code)
	}
	if len(r.stderr) > 0 {
		t.Errorf("stderr=%q, want nothing", r.stderr)
	}
	if len(r.stdout) == 0 {
		return ""
	}
	var o hookOutput
	dec := json.NewDecoder(bytes.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("stdout is not the protocol JSON: %v\n%s", err, r.stdout)
	}
	if dec.More() {
		t.Errorf("stdout holds more than one JSON value: %s", r.stdout)
	}
	ctx := o.HookSpecificOutput.AdditionalContext
	if o.HookSpecificOutput.HookEventName != event || ctx == "" || len(ctx) > 10000 {
		t.Errorf("output event %q with %d chars of context, want %s with 1-10000", o.HookSpecificOutput.HookEventName, len(ctx), event)
	}
	return ctx
}

func wantLog(t *testing.T, log, substr string) {
	t.Helper()
	if !strings.Contains(log, substr) {
		t.Errorf("hook.log lacks %q:\n%s", substr, log)
	}
}

// TestHookDependencies keeps the hot path small: credence-hook is the pure-Go
// front (hookrelay), so it must link neither the database engine nor
// anything that uses it, nor the agent, the LLM client, sync, the MEMORY.md
// layer or fsnotify; and, since every package's set-up runs on every
// prompt, not the TOML parser (it reads the time zone as it starts), the
// layered config, slog, JSON, regular expressions or crypto either
// (docs/BENCHMARKS.md, Hooks).
func TestHookDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/credence-mem/credence/cmd/credence-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := []string{"/agent", "/llm", "/syncer", "/consolidate", "/promote", "/markdown", "/mcpserver", "fsnotify",
		"go-libsql", "credence/store", "credence/hooks", "credence/recall", "credence/embed", "credence/app", "net/http", "runtime/cgo",
		"BurntSushi/toml", "log/slog", "encoding/json", "regexp", "crypto/", "credence/logfile", "credence/redact"}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/credence-mem/credence/config" {
			t.Errorf("credence-hook depends on %s", pkg)
		}
		for _, f := range forbidden {
			if strings.Contains(pkg, f) {
				t.Errorf("credence-hook depends on %s", pkg)
			}
		}
	}
}
