package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	cmd := exec.Command(bin, "mcp")
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = project
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
