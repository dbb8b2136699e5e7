package extract

import (
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which no pattern or table has been built yet.
const freshProcessEnv = "CREDENCE_EXTRACT_FRESH_PROCESS"

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
}

// TestConcurrentFirstUse runs Extract from several goroutines at once in a
// fresh test process, so the first calls race to build the lazily compiled
// patterns and tables; under -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	if os.Getenv(freshProcessEnv) == "1" {
		extractConcurrently(t)
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
