package redact

import (
	"sync"
	"testing"

	"github.com/credence-mem/credence/internal/testkit"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which no rule has compiled its expression yet.
const freshProcessEnv = "CREDENCE_REDACT_FRESH_PROCESS"

func TestPatternsCompile(t *testing.T) {
	testkit.CompileAll(t, &patterns)
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
	testkit.InFreshProcess(t, freshProcessEnv, redactConcurrently)
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
