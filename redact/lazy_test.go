package redact

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which no rule has compiled its expression yet.
const freshProcessEnv = "CREDENCE_REDACT_FRESH_PROCESS"

func TestPatternsCompile(t *testing.T) {
	if len(patterns.All()) == 0 {
		t.Fatal("no lazily compiled patterns registered")
	}
	for i, re := range patterns.All() {
		first := re()
		if first == nil {
			t.Fatalf("pattern %d compiled to nil", i)
		}
		if again := re(); again != first {
			t.Errorf("pattern %d (%s) compiled twice: %p then %p", i, first, first, again)
		}
	}
	for _, r := range rules {
		if (r.re == nil) == (r.scan == nil) {
			t.Errorf("rule %s: want exactly one of re and scan", r.name)
		}
	}
}

// TestConcurrentFirstUse redacts from several goroutines at once in a fresh
// test process, so the first calls race to compile the rules' expressions;
// under -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	if os.Getenv(freshProcessEnv) == "1" {
		redactConcurrently(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentFirstUse$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), freshProcessEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fresh process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestConcurrentFirstUse") {
		t.Fatalf("fresh process did not run the test:\n%s", out)
	}
}

func redactConcurrently(t *testing.T) {
	cases := append(loadCorpus(t, "testdata/secrets.txt"), loadCorpus(t, "testdata/lookalikes.txt")...)
	const workers = 8
	type result struct {
		redacted string
		contains bool
	}
	got := make([][]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]result, len(cases))
		wg.Go(func() {
			// Each worker starts at a different case, so the first use of
			// each rule comes from different goroutines.
			for k := range cases {
				i := (k + w*len(cases)/workers) % len(cases)
				got[w][i] = result{String(cases[i].text), Contains(cases[i].text)}
			}
		})
	}
	wg.Wait()
	for i, c := range cases {
		want := result{String(c.text), Contains(c.text)}
		for w := range workers {
			if got[w][i] != want {
				t.Fatalf("worker %d, case %s: got %+v, want %+v", w, c.name, got[w][i], want)
			}
		}
	}
}
