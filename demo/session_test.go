package demo

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds credence-hook")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "credence-hook")
	// Without an agent credence-hook execs the credence beside it.
	for _, b := range []struct{ out, pkg string }{
		{bin, "github.com/credence-mem/credence/cmd/credence-hook"},
		{filepath.Join(dir, "credence"), "github.com/credence-mem/credence/cmd/credence"},
	} {
		build := exec.Command("go", "build", "-o", b.out, b.pkg)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", b.pkg, err, out)
		}
	}
	home := t.TempDir()
	res, err := RunSession(context.Background(), SessionOptions{HookBinary: bin, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	script := SessionScript()
	if len(res.Cycles) != len(script) {
		t.Fatalf("%d cycles, want one per session", len(res.Cycles))
	}
	last := res.Steps[len(res.Steps)-1]
	if !strings.Contains(last.Context, "pnpm") || !strings.Contains(last.Context, "[Belief") {
		t.Errorf("the last prompt was told %q; want the pnpm belief", last.Context)
	}
	if res.Steps[0].Context != "" {
		t.Errorf("the very first prompt was told %q; memory was empty", res.Steps[0].Context)
	}
	if !strings.Contains(res.ProjectMemory, "pnpm") {
		t.Errorf("project MEMORY.md section %q lacks the pnpm belief", res.ProjectMemory)
	}
	var pnpm *SessionBelief
	for i, b := range res.Beliefs {
		if strings.Contains(b.Statement, "pnpm") && b.Scope == "project" {
			pnpm = &res.Beliefs[i]
		}
	}
	if pnpm == nil || pnpm.Evidence < 3 || pnpm.Confidence < 0.7 || !pnpm.Promoted {
		t.Errorf("pnpm belief = %+v, want ≥ 3 evidence, confidence ≥ 0.7, promoted; all: %+v", pnpm, res.Beliefs)
	}
}
