package markdown

import (
	"bytes"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/internal/testkit"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which neither the patterns nor the goldmark parser have been built yet.
const freshProcessEnv = "CREDENCE_MARKDOWN_FRESH_PROCESS"

func TestPatternsCompile(t *testing.T) {
	testkit.CompileAll(t, &patterns)
}

// TestConcurrentFirstUse splices and parses from several goroutines at once
// in a fresh test process, so the first calls race to build the patterns
// and the parser; under -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	testkit.InFreshProcess(t, freshProcessEnv, spliceConcurrently)
}

func spliceConcurrently(t *testing.T) {
	section := RenderSection(Section{
		Beliefs:    []Entry{{ID: "bl_a", Statement: "User prefers Bun over Node.js", Confidence: 0.85, Evidence: 7}},
		Guidelines: []Entry{{ID: "bl_b", Statement: "Run the tests before pushing", Confidence: 0.9, Evidence: 3}},
		Former: []FormerEntry{{ID: "bl_c", Statement: "User uses pnpm", Was: 0.8, Now: 0.2,
			Date: time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC)}},
	})
	doc := []byte("# Project notes\n\n```\n- not a bullet\n```\n\n## 2026-02-20 Switched to Bun\n\nSome prose.\n")
	type result struct {
		doc    []byte
		parsed ParsedSection
		ok     bool
	}
	run := func() (result, error) {
		out, err := Splice(doc, section)
		if err != nil {
			return result{}, err
		}
		p, ok := ParseSection(out)
		return result{out, p, ok}, nil
	}
	const workers = 8
	got := make([]result, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { got[w], errs[w] = run() })
	}
	wg.Wait()
	want, err := run()
	if err != nil {
		t.Fatalf("Splice: %v", err)
	}
	if !want.ok || len(want.parsed.Groups) == 0 {
		t.Fatalf("ParseSection(Splice(doc))=%+v, %v, want the spliced section", want.parsed, want.ok)
	}
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("worker %d: Splice: %v", w, errs[w])
		}
		if !bytes.Equal(got[w].doc, want.doc) || !reflect.DeepEqual(got[w].parsed, want.parsed) || got[w].ok != want.ok {
			t.Fatalf("worker %d: got %+v, want %+v", w, got[w], want)
		}
	}
}
