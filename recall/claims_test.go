package recall

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestClaimMemo: the memo gives what claims gives, reads an episode once
// (a second text under the same ID is not read), and starts over when
// full instead of growing.
func TestClaimMemo(t *testing.T) {
	var m claimMemo
	text := "We switched from pnpm to bun this week."
	want := claims(text)
	if len(want) == 0 {
		t.Fatalf("claims(%q) found nothing; the test needs a claim", text)
	}
	if got := m.of("ep_1", text); !reflect.DeepEqual(got, want) {
		t.Fatalf("of = %+v, want %+v", got, want)
	}
	if got := m.of("ep_1", "I live in Berlin."); !reflect.DeepEqual(got, want) {
		t.Errorf("second read of ep_1 = %+v, want the memo's %+v", got, want)
	}
	// Filling it from a few goroutines at once (it is safe for concurrent
	// use) with texts the extractor reads at once: 8,202 goroutines each
	// running the extractor took over three minutes under -race.
	var wg sync.WaitGroup
	const workers = 8
	for w := range workers {
		wg.Go(func() {
			for i := w; i < maxMemoClaims+10; i += workers {
				if got := m.of(fmt.Sprintf("ep_x%d", i), ""); len(got) != 0 {
					t.Errorf("claims of an empty text: %+v", got)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := len(m.m); n > maxMemoClaims || n == 0 {
		t.Errorf("memo holds %d, want 1 to %d", n, maxMemoClaims)
	}
}

// TestTraceReportsEveryStage: a recall tells Trace each of Stages once.
func TestTraceReportsEveryStage(t *testing.T) {
	f := loadFixture(t)
	got := map[string]int{}
	var mu sync.Mutex
	r := &Recaller{DB: f.db, Embedder: f.emb, Opts: DefaultOptions(), Cache: NewCache(), SideBySide: true,
		Trace: func(stage string, d time.Duration) {
			mu.Lock()
			got[stage]++
			mu.Unlock()
			if d < 0 {
				t.Errorf("%s took %v", stage, d)
			}
		}}
	q := f.h.Queries[0]
	if _, err := r.Recall(context.Background(), Query{Text: q.Text, Project: q.Project}); err != nil {
		t.Fatal(err)
	}
	for _, st := range Stages {
		if got[st] != 1 {
			t.Errorf("stage %q reported %d times, want once (all: %v)", st, got[st], got)
		}
	}
	for st := range got {
		if !slices.Contains(Stages, st) {
			t.Errorf("stage %q is not in Stages", st)
		}
	}
}
