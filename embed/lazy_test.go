package embed

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/credence-mem/credence/internal/testkit"
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
// test process, so the first calls race to build the lexicon, the stop
// words and the static embedder's class vectors; under -race any unsafe
// first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	testkit.InFreshProcess(t, freshProcessEnv, embedConcurrently)
}

func embedConcurrently(t *testing.T) {
	texts := []string{
		"we don't use docker for local development",
		"I prefer pnpm over npm",
		"We migrated the API from Express to Fastify",
		"always run the tests before pushing",
	}
	// Half the workers use each built-in embedder, so the static one's
	// class vectors and the shared lexicon are first built in a race.
	const workers = 8
	s, err := NewStatic()
	if err != nil {
		t.Fatalf("NewStatic: %v", err)
	}
	embedders := []Embedder{NewOffline(), s}
	es := make([]Embedder, workers)
	got := make([][][]float32, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			es[w] = embedders[w%2]
			got[w], errs[w] = es[w].Embed(context.Background(), texts)
		})
	}
	wg.Wait()
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("worker %d: Embed: %v", w, errs[w])
		}
		want, err := es[w].Embed(context.Background(), texts)
		if err != nil {
			t.Fatalf("Embed: %v", err)
		}
		if !reflect.DeepEqual(got[w], want) {
			t.Fatalf("worker %d (%s): vectors differ from a later serial Embed", w, es[w].ID())
		}
	}
}
