package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCredenceMCPOverStdio runs the real `credence mcp` as Claude Code does
// (a subprocess speaking newline-delimited JSON-RPC on stdin and stdout) and
// drives it with the SDK's client: nothing but the protocol may reach
// stdout.
func TestCredenceMCPOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds credence")
	}
	cmd := mcpCommand(t)()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "claude-code-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != Name {
		t.Errorf("server name %q, want %q", got, Name)
	}
	var saved SaveOutput
	call(t, cs, "memory_save", map[string]any{"text": "we use pnpm as the package manager", "remember": true}, &saved)
	if len(saved.Beliefs) != 1 {
		t.Fatalf("memory_save = %+v", saved)
	}
	var rec RecallOutput
	call(t, cs, "memory_recall", map[string]any{"query": "should I add packages with npm or pnpm?"}, &rec)
	if len(rec.Beliefs) != 1 || rec.Beliefs[0].ID != saved.Beliefs[0].ID {
		t.Errorf("memory_recall = %+v; want the saved belief (the project comes from the working directory)", rec)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if err := cmd.Wait(); err != nil && !strings.Contains(err.Error(), "Wait was already called") {
		t.Errorf("credence mcp exited with %v\nstderr: %s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("credence mcp wrote to stderr: %s", stderr.String())
	}
}

// TestCredenceMCPAnswersEverythingBeforeEOF sends a whole session at once
// and closes stdin straight after, as a client that pipes its requests in
// does: every request read before the end of input gets its reply before
// `credence mcp` exits (issue 16: it answered only the first two).
func TestCredenceMCPAnswersEverythingBeforeEOF(t *testing.T) {
	if testing.Short() {
		t.Skip("builds credence")
	}
	command := mcpCommand(t)
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_save","arguments":{"text":"we use pnpm as the package manager","remember":true}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"npm or pnpm?"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`,
	}, "\n") + "\n"
	for _, delay := range []time.Duration{0, 300 * time.Millisecond} {
		t.Run(fmt.Sprintf("eof_after_%v", delay), func(t *testing.T) {
			cmd := command()
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(stdin, requests); err != nil {
				t.Fatal(err)
			}
			time.Sleep(delay)
			if err := stdin.Close(); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("credence mcp: %v\nstderr: %s", err, stderr.String())
			}
			got := map[string]bool{}
			for line := range strings.Lines(stdout.String()) {
				var msg struct {
					ID     json.RawMessage `json:"id"`
					Result json.RawMessage `json:"result"`
					Error  json.RawMessage `json:"error"`
				}
				if err := json.Unmarshal([]byte(line), &msg); err != nil {
					t.Fatalf("stdout line %q: %v", line, err)
				}
				if msg.Result == nil && msg.Error == nil {
					t.Errorf("message without result or error: %s", line)
				}
				got[string(msg.ID)] = true
			}
			var missing []string
			for _, id := range []string{"1", "2", "3", "4", "5"} {
				if !got[id] {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				t.Errorf("no reply to requests %v; stdout:\n%s\nstderr: %s", missing, stdout.String(), stderr.String())
			}
		})
	}
}

// mcpCommand builds credence and returns a function making `credence mcp`
// commands that run in a git project under a temporary HOME (the same one
// for every command).
func mcpCommand(t *testing.T) func() *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "credence")
	build := exec.Command("go", "build", "-o", bin, "github.com/credence-mem/credence/cmd/credence")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build credence: %v\n%s", err, out)
	}
	home := t.TempDir()
	project := filepath.Join(home, "code", "app")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return func() *exec.Cmd {
		cmd := exec.Command(bin, "mcp")
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		cmd.Dir = project
		return cmd
	}
}
