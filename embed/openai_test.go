package embed

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// testKey looks like a real key so the redaction of echoed prefixes is
// exercised too.
const testKey = "sk-test-0123456789abcdefSECRET"

// embeddingsCall is one request the fake server received.
type embeddingsCall struct {
	auth  string
	raw   map[string]any
	input []string
}

// fakeEmbeddings is a scripted /v1/embeddings server. Each request takes the
// next scripted handler; once the script is used up it answers normally.
type fakeEmbeddings struct {
	t      *testing.T
	dim    int
	mu     sync.Mutex
	calls  []embeddingsCall
	script []func(w http.ResponseWriter, r *http.Request, call embeddingsCall)
}

func newFakeEmbeddings(t *testing.T, dim int, script ...func(http.ResponseWriter, *http.Request, embeddingsCall)) (*fakeEmbeddings, *httptest.Server) {
	f := &fakeEmbeddings{t: t, dim: dim, script: script}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeEmbeddings) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	call := embeddingsCall{auth: r.Header.Get("Authorization")}
	var typed struct {
		Input []string `json:"input"`
	}
	if err := json.Unmarshal(body, &call.raw); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	if err := json.Unmarshal(body, &typed); err != nil {
		http.Error(w, "input must be an array of strings", http.StatusBadRequest)
		return
	}
	call.input = typed.Input
	f.mu.Lock()
	f.calls = append(f.calls, call)
	var handler func(http.ResponseWriter, *http.Request, embeddingsCall)
	if len(f.script) > 0 {
		handler, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	if handler == nil {
		handler = f.answer
	}
	handler(w, r, call)
}

// answer replies with one vector per input, in reverse order, not unit
// length: value j of input i is (len(input)+1)*(j+1) + i, so order and
// normalization are both visible.
func (f *fakeEmbeddings) answer(w http.ResponseWriter, _ *http.Request, call embeddingsCall) {
	dim := f.dim
	if d, ok := call.raw["dimensions"].(float64); ok {
		dim = int(d)
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, 0, len(call.input))
	for i := len(call.input) - 1; i >= 0; i-- {
		data = append(data, item{Object: "embedding", Index: i, Embedding: fakeVector(call.input[i], dim)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": call.raw["model"]})
}

func fakeVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for j := range v {
		v[j] = float32((len(text) + 1) * (j + 1) % 97)
	}
	v[0] = float32(len(text) + 1)
	return v
}

func (f *fakeEmbeddings) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *fakeEmbeddings) call(i int) embeddingsCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[i]
}

func jsonError(status int, typ, code, msg string) func(http.ResponseWriter, *http.Request, embeddingsCall) {
	return func(w http.ResponseWriter, _ *http.Request, _ embeddingsCall) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": code}})
	}
}

func rawReply(status int, body string) func(http.ResponseWriter, *http.Request, embeddingsCall) {
	return func(w http.ResponseWriter, _ *http.Request, _ embeddingsCall) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func newTestOpenAI(t *testing.T, srv *httptest.Server, cfg OpenAIConfig) *OpenAI {
	t.Helper()
	cfg.BaseURL = srv.URL + "/v1"
	cfg.APIKey = testKey
	if cfg.RetryBackoff == 0 {
		cfg.RetryBackoff = time.Millisecond
	}
	e, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return e
}

func TestOpenAIEmbedBatchesInOrder(t *testing.T) {
	f, srv := newFakeEmbeddings(t, 1536)
	e := newTestOpenAI(t, srv, OpenAIConfig{BatchSize: 2})
	if got, want := e.ID(), "openai:text-embedding-3-small:1536"; got != want {
		t.Errorf("ID()=%q, want %q", got, want)
	}
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if got := f.callCount(); got != 3 {
		t.Errorf("requests=%d, want 3 (5 texts in batches of 2)", got)
	}
	for i, text := range texts {
		want := Normalize(fakeVector(text, 1536))
		if c := Cosine(vecs[i], want); c < 0.999999 {
			t.Errorf("vector %d has cosine %v with the vector for %q, want 1 (order lost?)", i, c, text)
		}
		if n := norm(vecs[i]); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d has length %v, want 1", i, n)
		}
	}
	first := f.call(0)
	if first.auth != "Bearer "+testKey {
		t.Errorf("Authorization=%q, want the bearer key", first.auth)
	}
	if first.raw["model"] != "text-embedding-3-small" {
		t.Errorf("model=%v, want text-embedding-3-small", first.raw["model"])
	}
	if _, ok := first.raw["dimensions"]; ok {
		t.Errorf("request has dimensions=%v, want the field absent when Dimensions is 0", first.raw["dimensions"])
	}
}

func TestOpenAIDimensionsField(t *testing.T) {
	f, srv := newFakeEmbeddings(t, 1536)
	e := newTestOpenAI(t, srv, OpenAIConfig{Model: "text-embedding-3-large", Dimensions: 256})
	if got, want := e.ID(), "openai:text-embedding-3-large:256"; got != want {
		t.Errorf("ID()=%q, want %q", got, want)
	}
	vecs, err := e.Embed(context.Background(), []string{"hello"})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if got := f.call(0).raw["dimensions"]; got != float64(256) {
		t.Errorf("request dimensions=%v, want 256", got)
	}
	if len(vecs[0]) != 256 {
		t.Errorf("len(vector)=%d, want 256", len(vecs[0]))
	}
}

func TestOpenAILearnsUnknownDimension(t *testing.T) {
	f, srv := newFakeEmbeddings(t, 768)
	e := newTestOpenAI(t, srv, OpenAIConfig{Model: "nomic-embed-text"})
	if e.Dim() != 0 || e.ID() != "openai:nomic-embed-text:0" {
		t.Errorf("before any request Dim()=%d ID()=%q, want 0 and openai:nomic-embed-text:0", e.Dim(), e.ID())
	}
	if err := e.Probe(context.Background()); err != nil {
		t.Fatalf("Probe: %v", err)
	}
	if e.Dim() != 768 || e.ID() != "openai:nomic-embed-text:768" {
		t.Errorf("after Probe Dim()=%d ID()=%q, want 768 and openai:nomic-embed-text:768", e.Dim(), e.ID())
	}
	f.mu.Lock()
	f.dim = 512
	f.mu.Unlock()
	_, err := e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrDimension) {
		t.Errorf("Embed after the server changed dimension: err=%v, want ErrDimension", err)
	}
}

func TestOpenAIInputs(t *testing.T) {
	f, srv := newFakeEmbeddings(t, 8)
	e := newTestOpenAI(t, srv, OpenAIConfig{Model: "tiny"})
	huge := strings.Repeat("é", 1<<20) // 2 MiB of two-byte runes
	_, err := e.Embed(context.Background(), []string{"", "  ", huge, "bad \xff utf8 \x00 nul"})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	in := f.call(0).input
	if in[0] != emptyPlaceholder || in[1] != emptyPlaceholder {
		t.Errorf("empty inputs sent as %q, %q, want %q", in[0], in[1], emptyPlaceholder)
	}
	if len(in[2]) > maxOpenAIInput || !utf8.ValidString(in[2]) {
		t.Errorf("huge input sent as %d bytes (valid UTF-8: %v), want <= %d valid bytes", len(in[2]), utf8.ValidString(in[2]), maxOpenAIInput)
	}
	if !utf8.ValidString(in[3]) {
		t.Errorf("invalid UTF-8 input sent as %q, want it made valid", in[3])
	}
}

func TestNewOpenAIValidation(t *testing.T) {
	tests := []struct {
		name  string
		cfg   OpenAIConfig
		field string
	}{
		{"base URL without scheme", OpenAIConfig{BaseURL: "api.openai.com/v1"}, "BaseURL"},
		{"negative dimensions", OpenAIConfig{Dimensions: -1}, "Dimensions"},
		{"dimensions on ada", OpenAIConfig{Model: "text-embedding-ada-002", Dimensions: 512}, "Dimensions"},
		{"dimensions above the model", OpenAIConfig{Model: "text-embedding-3-small", Dimensions: 4096}, "Dimensions"},
		{"batch too large", OpenAIConfig{BatchSize: 5000}, "BatchSize"},
		{"negative timeout", OpenAIConfig{Timeout: -time.Second}, "Timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.APIKey = testKey
			_, err := NewOpenAI(tt.cfg)
			if err == nil {
				t.Fatal("NewOpenAI succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q, want it to name %s", err, tt.field)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q contains the API key", err)
			}
		})
	}
}

// TestOpenAILive runs against a real endpoint when CREDENCE_TEST_OPENAI_KEY
// is set (and CREDENCE_TEST_OPENAI_BASE_URL, for a non-OpenAI server).
func TestOpenAILive(t *testing.T) {
	key := envOr("CREDENCE_TEST_OPENAI_KEY", "")
	if key == "" {
		t.Skip("set CREDENCE_TEST_OPENAI_KEY to test against a real embeddings endpoint")
	}
	e, err := NewOpenAI(OpenAIConfig{APIKey: key, BaseURL: envOr("CREDENCE_TEST_OPENAI_BASE_URL", "")})
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	vecs, err := e.Embed(context.Background(), []string{"I prefer pnpm", "I like using pnpm", "The API runs on port 8080"})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	para, unrel := Cosine(vecs[0], vecs[1]), Cosine(vecs[0], vecs[2])
	t.Logf("%s: paraphrase %.3f, unrelated %.3f", e.ID(), para, unrel)
	if para <= unrel {
		t.Errorf("paraphrase cosine %.3f <= unrelated %.3f", para, unrel)
	}
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func envOr(name, fallback string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return fallback
}
