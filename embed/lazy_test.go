package embed

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which the lexicon and the stop words have not been built yet.
const freshProcessEnv = "CREDENCE_EMBED_FRESH_PROCESS"

func TestLexiconBuiltOnce(t *testing.T) {
	first, again := builtLexicon(), builtLexicon()
	if reflect.ValueOf(first.entries).Pointer() != reflect.ValueOf(again.entries).Pointer() {
		t.Error("builtLexicon() built the lexicon twice")
	}
	tests := []struct {
		name, got, want string
	}{
		{"negation", first.negation, first.lookup(stem("never")).canonical},
		{"prefer", first.prefer, first.lookup(stem("favour")).canonical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got == "" || tt.got != tt.want {
				t.Errorf("lexicon %s word=%q, want %q", tt.name, tt.got, tt.want)
			}
		})
	}
	if !stopWords()["the"] {
		t.Error(`stopWords()["the"]=false, want true`)
	}
}

// TestConcurrentFirstUse embeds from several goroutines at once in a fresh
// test process, so the first calls race to build the lexicon and the stop
// words; under -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	if os.Getenv(freshProcessEnv) == "1" {
		embedConcurrently(t)
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

func embedConcurrently(t *testing.T) {
	texts := []string{
		"we don't use docker for local development",
		"I prefer pnpm over npm",
		"We migrated the API from Express to Fastify",
		"always run the tests before pushing",
	}
	o := NewOffline()
	const workers = 8
	got := make([][][]float32, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			got[w], errs[w] = o.Embed(context.Background(), texts)
		})
	}
	wg.Wait()
	want, err := o.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("worker %d: Embed: %v", w, errs[w])
		}
		if !reflect.DeepEqual(got[w], want) {
			t.Fatalf("worker %d: vectors differ from a later serial Embed", w)
		}
	}
}
