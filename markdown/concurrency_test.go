package markdown

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConcurrentClaudeWriterLosesNothing rewrites the section 1,000 times
// while a second process appends and edits lines outside the markers the
// way Claude Code does, with no lock. Every line that process wrote must
// survive, in its latest version, and the file must end with exactly one
// section at the top.
func TestConcurrentClaudeWriterLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 rewrites against a second process")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	stop := filepath.Join(dir, "stop")
	const intro = "# Project notes\n\n- [Build](build.md) — how to build\n"
	writeFile(t, path, counterSection(0)+"\n"+intro, 0o600)

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(testBinary(t), "-test.run=^$")
	cmd.Env = helperEnvironment("claude", path, helperStopEnv+"="+stop)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	// At least 1,000 rewrites, and on until the writer has appended
	// minNotes notes, so the two overlap however fast this machine
	// rewrites (without -race, 1,000 can finish before 20 notes).
	const rewrites, minNotes = 1000, 20
	notes := func() int { return strings.Count(string(mustRead(path)), "- claude note ") }
	retries, changed, done := 0, 0, 0
	for i := 1; i <= rewrites || i <= 100*rewrites && notes() < minNotes; i++ {
		done = i
		// Each attempt races a writer that rewrites the file every 75 ms
		// on average, and an attempt only goes through when no write lands
		// during its parse and fsync, which -race and a loaded machine
		// make slow. Allow many more attempts than the default so the test
		// measures loss, not patience.
		res, err := WriteSection(context.Background(), path, constant(counterSection(i)), WriteOptions{MaxAttempts: 1000})
		if err != nil {
			t.Fatalf("rewrite %d: %v", i, err)
		}
		retries += res.Attempts - 1
		if res.Changed {
			changed++
		}
	}
	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("claude-like writer: %v\n%s", err, stderr.String())
	}
	// The writer may have put back an older section after our last verify;
	// one more write settles it, as the agent's next cycle would.
	if _, err := WriteSection(context.Background(), path, constant(counterSection(rewrites)), WriteOptions{}); err != nil {
		t.Fatal(err)
	}

	final := mustRead(path)
	expected := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(expected) < minNotes {
		t.Fatalf("the claude-like writer only wrote %d notes; the test did not overlap", len(expected))
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(final), "\n") {
		lines[l] = true
	}
	var lost []string
	for _, e := range expected {
		if !lines[e] {
			lost = append(lost, e)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d of %d lines the other process wrote are missing, e.g. %q", len(lost), len(expected), lost[0])
		for _, l := range lost {
			key := l[:len("- claude note 0000")]
			found := ""
			for line := range lines {
				if strings.HasPrefix(line, key) {
					found += line + "; "
				}
			}
			t.Logf("lost %q, file has %q", l, found)
		}
	}
	if !bytes.HasPrefix(final, []byte(counterSection(rewrites))) {
		t.Errorf("file does not start with the last section")
	}
	if p, ok := ParseSection(final); !ok || p.Damaged {
		t.Errorf("final file: section ok=%v damaged=%v", ok, p.Damaged)
	}
	if !bytes.Contains(final, []byte(intro)) {
		t.Errorf("the person's notes are gone")
	}
	t.Logf("%d rewrites (%d changed the file), %d retries after the other process wrote underneath; it wrote %d notes",
		done, changed, retries, len(expected))
}
