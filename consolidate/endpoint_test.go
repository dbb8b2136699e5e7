package consolidate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm/llmtest"
)

// TestBreakerBackoff checks the retry schedule of an endpoint that keeps
// failing: 30 s, then twice as long each time up to 15 min, each wait
// jittered within ±20 %, and nothing in between; an answer resets it.
func TestBreakerBackoff(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	b := newBreaker(EndpointEmbedder, "openai:m:8", "http://x/v1", func() time.Time { return now })
	jitter := 0.5
	b.jitter = func() float64 { return jitter }
	if !b.ready() || b.state().Down {
		t.Fatalf("fresh breaker: ready %v, %+v; want ready and up", b.ready(), b.state())
	}
	start := now
	for i, want := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute, 15 * time.Minute} {
		b.fail(errors.New("connection refused"))
		h := b.state()
		if got := h.NextTry.Sub(now); got != want || !h.Down || !h.Since.Equal(start) || h.Failures != i+1 {
			t.Fatalf("failure %d: next try in %v, %+v; want %v, down since %v", i+1, got, h, want, start)
		}
		now = h.NextTry.Add(-time.Millisecond)
		if b.ready() {
			t.Fatalf("failure %d: ready before the next try", i+1)
		}
		now = h.NextTry
		if !b.ready() {
			t.Fatalf("failure %d: not ready at the next try", i+1)
		}
	}
	for _, tc := range []struct{ jitter, factor float64 }{{0, 0.8}, {0.999999, 1.2}} {
		jitter = tc.jitter
		b.succeed()
		b.fail(errors.New("refused"))
		if got, want := b.state().NextTry.Sub(now), time.Duration(tc.factor*float64(30*time.Second)); got < want-time.Millisecond || got > want+time.Millisecond {
			t.Errorf("jitter %v: first wait %v, want %v", tc.jitter, got, want)
		}
	}
	if !b.succeed() {
		t.Error("succeed() on a down endpoint reported it was up")
	}
	if h := b.state(); h.Down || !h.LastOK.Equal(now) || h.Error != "" || !b.ready() {
		t.Errorf("after an answer: %+v; want up, answered now", h)
	}
}

// embeddingServer is an OpenAI-compatible /v1/embeddings endpoint that
// answers with dim-long vectors while answer() says so, and otherwise
// refuses (closes the connection) or hangs until the client gives up.
type embeddingServer struct {
	*httptest.Server
	requests atomic.Int64
}

func newEmbeddingServer(t *testing.T, dim int, answer func(n int64) bool, hang bool) *embeddingServer {
	t.Helper()
	s := &embeddingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.requests.Add(1)
		body, _ := io.ReadAll(r.Body) // read whole, so a client hanging up cancels r.Context()
		if !answer(n) {
			if hang {
				<-r.Context().Done()
				return
			}
			hj, _ := w.(http.Hijacker)
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
			return
		}
		var req struct{ Input []string }
		json.Unmarshal(body, &req)
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, text := range req.Input {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32((len(text)+i+j)%7) + 1
			}
			data = append(data, item{Object: "embedding", Index: i, Embedding: v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m",
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(s.Close)
	return s
}

// TestEmbedderFallsBack runs cycles with a remote embedder that refuses,
// hangs, or stops answering half way through a cycle. Every cycle ends
// done, on the offline embedder's vectors and thresholds (so the beliefs
// are those of an offline run when the endpoint never answered), storing
// no vector of the fallback's; the endpoint is reported down and left
// alone until its next try.
func TestEmbedderFallsBack(t *testing.T) {
	projects, texts := workload(24)
	ref := newEnv(t)
	ref.load(projects, texts)
	ref.untilDone()
	want := ref.fingerprint()
	never := func(int64) bool { return false }
	// With its dimension known, the embedder is first called to embed the
	// pool, half way through the cycle; without, a probe before the cycle
	// learns it, and the endpoint goes silent after.
	tests := []struct {
		name         string
		dim          int
		answer       func(n int64) bool
		hang         bool
		sameAsOffine bool
	}{
		{"refuses", 8, never, false, true},
		{"hangs", 8, never, true, true},
		{"answers the probe, then hangs", 0, func(n int64) bool { return n <= 1 }, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newEmbeddingServer(t, 8, tt.answer, tt.hang)
			remote, err := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "m", Dimensions: tt.dim, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			e := newEnv(t, func(c *envConfig) {
				c.opts.Embedder = remote
				// Low enough that the remote's vectors, while it answers,
				// form clusters whose candidates it is then asked about.
				c.opts.Thresholds = embed.Thresholds{Cluster: 0.1, Related: 0.1, Reinforce: 0.999, Dedupe: 0.999, Merge: 0.999}
				c.opts.Budget.CallTimeout = 300 * time.Millisecond
			})
			e.load(projects, texts)
			var episodes int
			for i := 0; ; i++ {
				st := e.run()
				episodes += st.Episodes
				if !st.EmbedderFallback || st.Embedder != embed.NewOffline().ID() || len(st.Endpoints) != 1 || !st.Endpoints[0].Down {
					t.Fatalf("cycle %d (%d requests, %+v): embedder %s fallback %v endpoints %+v; want the offline fallback and the endpoint down", i, srv.requests.Load(), st,
						st.Embedder, st.EmbedderFallback, st.Endpoints)
				}
				if st.Status == "done" {
					break
				}
				if i == 10 {
					t.Fatal("no cycle ended done in 10")
				}
			}
			if episodes != len(texts) {
				t.Errorf("cycles consolidated %d episodes, want %d", episodes, len(texts))
			}
			if got := e.fingerprint(); tt.sameAsOffine && fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("beliefs differ from the offline run:\n got %v\nwant %v", got, want)
			}
			spaces, err := e.db.Spaces(e.ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, sp := range spaces {
				if strings.HasPrefix(sp.EmbedderID, "offline") {
					t.Errorf("the fallback's vectors were stored (space %s): recall does not read them", sp.EmbedderID)
				}
			}
			// Down and not due: the next cycle and the agent's embedding
			// pass leave the endpoint alone.
			asked := srv.requests.Load()
			e.say("/work/p0", "we use pnpm")
			e.run()
			if n, err := e.c.EmbedPending(e.ctx, 10, time.Time{}); n != 0 || err != nil {
				t.Errorf("EmbedPending while down: %d, %v; want 0, nil", n, err)
			}
			if n := srv.requests.Load(); n != asked {
				t.Errorf("the endpoint was asked %d more times before its next try", n-asked)
			}
		})
	}
}

// TestLLMDownIsLeftAlone checks that once the LLM endpoint fails, the rest
// of the cycle, and the next cycle, fall back to offline mode without
// asking it again before its next try.
func TestLLMDownIsLeftAlone(t *testing.T) {
	m, srv := newModel(t, func(s *llmtest.Server) {
		s.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Stall: time.Minute} })
	})
	e := newEnv(t, withModel(m), withBudget(Budget{CallTimeout: 200 * time.Millisecond}))
	projects, texts := workload(18)
	e.load(projects, texts)
	st := e.untilDone()
	asked := len(srv.Requests())
	if asked == 0 || asked > 3 {
		t.Errorf("the silent endpoint was asked %d times in the cycle; want its first call's attempts only", asked)
	}
	if st.Episodes != len(texts) {
		t.Errorf("consolidated %d episodes, want %d", st.Episodes, len(texts))
	}
	eps := e.c.Endpoints()
	if len(eps) != 1 || eps[0].Name != EndpointLLM || !eps[0].Down || eps[0].Remote != "test-model" {
		t.Errorf("Endpoints()=%+v; want the LLM down", eps)
	}
	e.say("", "I live in Porto")
	e.run()
	if n := len(srv.Requests()); n != asked {
		t.Errorf("the next cycle asked the endpoint %d more times before its next try", n-asked)
	}
}
