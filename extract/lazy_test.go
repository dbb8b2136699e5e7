package extract

import (
	"reflect"
	"sync"
	"testing"

	"github.com/credence-mem/credence/internal/testkit"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which no pattern or table has been built yet.
const freshProcessEnv = "CREDENCE_EXTRACT_FRESH_PROCESS"

func TestPatternsCompile(t *testing.T) {
	testkit.CompileAll(t, &patterns)
}

// TestConcurrentFirstUse runs Extract from several goroutines at once in a
// fresh test process, so the first calls race to build the lazily compiled
// patterns and tables; under -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	testkit.InFreshProcess(t, freshProcessEnv, extractConcurrently)
}

func extractConcurrently(t *testing.T) {
	cases := loadCorpus(t)
	const workers = 8
	got := make([][][]Fact, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([][]Fact, len(cases))
		wg.Go(func() {
			// Each worker starts at a different case, so the first use of
			// each pattern comes from different goroutines.
			for k := range cases {
				i := (k + w*len(cases)/workers) % len(cases)
				got[w][i] = Extract(cases[i].Text)
			}
		})
	}
	wg.Wait()
	for i, c := range cases {
		want := Extract(c.Text)
		for w := range workers {
			if !reflect.DeepEqual(got[w][i], want) {
				t.Fatalf("worker %d: Extract(%q)=%v, want %v", w, c.Text, got[w][i], want)
			}
		}
	}
}
