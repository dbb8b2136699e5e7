package markdown

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCrashMidWriteLeavesWholeFile kills a process that rewrites the
// section nonstop with SIGKILL at random moments, 200 times. After each
// kill the file must be exactly one complete version (the person's text
// untouched, one whole section from some round), never empty or torn, and
// SweepTemps must leave no temp file behind.
func TestCrashMidWriteLeavesWholeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("200 killed processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	const notes = "\n# Notes\n\n- [Deploy](deploy.md) — how we ship\n"
	writeFile(t, path, counterSection(0)+notes, 0o600)

	swept, maxRound := 0, 0
	for kill := range 200 {
		cmd := exec.Command(testBinary(t), "-test.run=^$")
		cmd.Env = helperEnvironment("rewriter", path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || ready != "ready\n" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("kill %d: rewriter did not start: %q %v\n%s", kill, ready, err, stderr.String())
		}
		time.Sleep(time.Duration(rand.IntN(40_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait() // "signal: killed"

		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("kill %d: %v", kill, err)
		}
		round, ok := counterOf(doc)
		if !ok {
			t.Fatalf("kill %d: file holds no readable section:\n%q", kill, doc)
		}
		if want := counterSection(round) + notes; string(doc) != want {
			t.Fatalf("kill %d: file is not a complete version of round %d:\n got %q\nwant %q", kill, round, doc, want)
		}
		maxRound = max(maxRound, round)

		n, err := SweepTemps(dir, Root{})
		if err != nil {
			t.Fatalf("kill %d: SweepTemps: %v", kill, err)
		}
		swept += n
		assertOnlyFiles(t, dir, "MEMORY.md", "MEMORY.md.lock")
		if t.Failed() {
			t.FailNow()
		}
	}
	if maxRound < 200 {
		t.Errorf("only %d rounds written in 200 runs; the rewriter was killed before writing", maxRound)
	}
	t.Logf("200 kills over %d rounds of rewrites; %d stale temp files swept", maxRound, swept)
}
