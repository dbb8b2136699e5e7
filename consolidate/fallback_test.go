package consolidate

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/llm/llmtest"
	"github.com/credence-mem/credence/store"
)

// TestLLMFailuresFallBack runs the same episodes through LLM mode with a
// server that fails in each way a real one does. Every failed item must
// fall back to offline mode: the beliefs and evidence come out exactly as
// an offline run gives them — nothing lost, nothing counted twice — and the
// tokens of every answered call are recorded with the cycle.
func TestLLMFailuresFallBack(t *testing.T) {
	projects, texts := workload(18)
	ref := newEnv(t)
	ref.load(projects, texts)
	ref.untilDone()
	want := ref.fingerprint()

	var calls atomic.Int64
	alternate := func(req llmtest.Request) llmtest.Reply {
		if calls.Add(1)%2 == 0 {
			return llmtest.Reply{Status: http.StatusInternalServerError}
		}
		return oracle(req)
	}
	tests := []struct {
		name          string
		script        func(*llmtest.Server)
		callTimeout   time.Duration
		wantFallbacks bool
	}{
		{"malformed json", func(s *llmtest.Server) {
			for i := 0; i < 5; i++ {
				s.Script("semantic_extraction", llmtest.Reply{Content: `{"facts": [{"subject": "user",`})
			}
			s.Otherwise(oracle)
		}, 0, true},
		{"500 on every attempt", func(s *llmtest.Server) {
			s.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: http.StatusInternalServerError} })
		}, 0, true},
		{"429 then success", func(s *llmtest.Server) {
			s.Script("semantic_extraction", llmtest.Reply{Status: http.StatusTooManyRequests}, llmtest.Reply{Status: http.StatusTooManyRequests})
			s.Otherwise(oracle)
		}, 0, false},
		{"timeouts", func(s *llmtest.Server) {
			s.Script("semantic_extraction", llmtest.Reply{Stall: time.Minute}, llmtest.Reply{Stall: time.Minute})
			s.Otherwise(oracle)
		}, 100 * time.Millisecond, true},
		{"unknown belief id", func(s *llmtest.Server) {
			s.Script("semantic_extraction", llmtest.JSON(llm.Extraction{Facts: []llm.Fact{{Subject: "user", Predicate: "likes",
				Object: "go", Fact: "User likes Go", Kind: "fact", Action: llm.ActionReinforce, BeliefID: "bl_nosuchbelief"}}}))
			s.Otherwise(oracle)
		}, 0, true},
		{"every other attempt fails (retries absorb it)", func(s *llmtest.Server) { s.Otherwise(alternate) }, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv := newModel(t, tt.script)
			opts := []envOption{withModel(m)}
			if tt.callTimeout > 0 {
				opts = append(opts, withBudget(Budget{CallTimeout: tt.callTimeout}))
			}
			e := newEnv(t, opts...)
			e.load(projects, texts)
			var fallbacks int
			var prompt int64
			for i := 0; i < 10; i++ {
				st := e.run()
				fallbacks += st.LLMFallbacks
				prompt += st.LLM.PromptTokens
				if st.Status == store.CycleDone {
					break
				}
			}
			if got := e.fingerprint(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("beliefs differ from the offline run:\n got %v\nwant %v", got, want)
			}
			if (fallbacks > 0) != tt.wantFallbacks {
				t.Errorf("fallbacks=%d, want some=%v", fallbacks, tt.wantFallbacks)
			}
			var answered int64
			for _, r := range srv.Requests() {
				if (r.Response.Status == 0 || r.Response.Status == http.StatusOK) && r.Response.Stall == 0 {
					answered++
				}
			}
			if prompt != 10*answered {
				t.Errorf("prompt tokens recorded=%d, want %d (10 for each of %d answered calls)", prompt, 10*answered, answered)
			}
			var stored int64
			if err := e.db.SQL().QueryRowContext(e.ctx, `SELECT coalesce(sum(prompt_tokens), 0) FROM consolidation_cycles`).Scan(&stored); err != nil || stored != prompt {
				t.Errorf("cycles table holds %d prompt tokens (%v), want %d", stored, err, prompt)
			}
		})
	}
}

// TestStopMidCallLosesNothing cancels a cycle while an LLM call is in
// flight: the episode is not applied from a half-finished reading, the
// cycle says it was cut short, and the next cycle applies it exactly once.
func TestStopMidCallLosesNothing(t *testing.T) {
	inFlight := make(chan struct{}, 1)
	m, _ := newModel(t, func(s *llmtest.Server) {
		s.Otherwise(func(llmtest.Request) llmtest.Reply {
			select {
			case inFlight <- struct{}{}:
			default:
			}
			return llmtest.Reply{Stall: time.Minute}
		})
	})
	e := newEnv(t, withModel(m))
	e.say("", "I live in Lisbon", "I like Rust")
	ctx, cancel := context.WithCancel(e.ctx)
	go func() {
		<-inFlight
		cancel()
	}()
	st, err := e.c.Run(ctx, "test")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !st.Checkpointed || st.Episodes != 0 || st.Remaining != 2 || st.LLMFallbacks != 0 {
		t.Fatalf("cancelled cycle: checkpointed=%v episodes=%d remaining=%d fallbacks=%d; want cut short with both episodes left",
			st.Checkpointed, st.Episodes, st.Remaining, st.LLMFallbacks)
	}
	working, _ := newModel(t, func(s *llmtest.Server) { s.Otherwise(oracle) })
	c, err := New(Options{DB: e.db, Embedder: embed.NewOffline(), Model: working})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = c.Run(e.ctx, "test"); err != nil || st.Episodes != 2 {
		t.Fatalf("resumed cycle: %d episodes, %v; want 2", st.Episodes, err)
	}
	if bs := e.beliefs("user", "lives_in"); len(bs) != 1 || bs[0].EvidenceCount != 1 {
		t.Errorf("lives_in beliefs %v; want one with one piece of evidence", objects(bs))
	}
}
