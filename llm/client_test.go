package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/llm/llmtest"
)

const testKey = "sk-test-secret-key-1234567890"

func newTestClient(t *testing.T, srv *llmtest.Server, timeout time.Duration) *Client {
	t.Helper()
	c, err := New(Config{BaseURL: srv.URL(), APIKey: testKey, Model: "test-model", Timeout: timeout,
		MaxRetries: 2, RetryBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var goodExtraction = Extraction{Facts: []Fact{{Subject: "user", Predicate: "lives_in", Object: "Tokyo",
	Fact: "User lives in Tokyo", Kind: "fact", Action: ActionInvalidate, BeliefID: "bl_1"}},
	SurpriseExplanation: "The user was believed to live in Beijing."}

func TestExtract(t *testing.T) {
	related := []KnownBelief{{ID: "bl_1", Statement: "User lives in Beijing", Subject: "user", Predicate: "lives_in", Object: "beijing", Confidence: 0.9}}
	tests := []struct {
		name      string
		replies   []llmtest.Reply
		surprise  float64
		timeout   time.Duration
		wantErr   error // errors.Is target; nil for success
		wantCalls int
		wantFacts int
		wantExpl  bool
	}{
		{name: "ok", replies: []llmtest.Reply{llmtest.JSON(goodExtraction)}, surprise: 0.95, wantCalls: 1, wantFacts: 1, wantExpl: true},
		{name: "explanation dropped below 0.90", replies: []llmtest.Reply{llmtest.JSON(goodExtraction)}, surprise: 0.5, wantCalls: 1, wantFacts: 1},
		{name: "malformed json", replies: []llmtest.Reply{{Content: `{"facts": [`}}, wantErr: ErrMalformed, wantCalls: 1},
		{name: "refusal", replies: []llmtest.Reply{{Refusal: "I can't help with that."}}, wantErr: ErrMalformed, wantCalls: 1},
		{name: "wrong shape", replies: []llmtest.Reply{{Content: `{"facts": [], "surprise_explanation": "", "extra": 1}`}}, wantErr: ErrMalformed, wantCalls: 1},
		{name: "unknown action", replies: []llmtest.Reply{llmtest.JSON(Extraction{Facts: []Fact{{Subject: "user", Predicate: "likes", Object: "go", Fact: "User likes Go", Kind: "fact", Action: "maybe"}}})}, wantErr: ErrMalformed, wantCalls: 1},
		{name: "unknown belief id", replies: []llmtest.Reply{llmtest.JSON(Extraction{Facts: []Fact{{Subject: "user", Predicate: "likes", Object: "go", Fact: "User likes Go", Kind: "fact", Action: ActionReinforce, BeliefID: "bl_zzz"}}})}, wantErr: ErrMalformed, wantCalls: 1},
		{name: "429 then ok", replies: []llmtest.Reply{{Status: 429}, llmtest.JSON(goodExtraction)}, wantCalls: 2, wantFacts: 1},
		{name: "500 twice then ok", replies: []llmtest.Reply{{Status: 500}, {Status: 502}, llmtest.JSON(goodExtraction)}, wantCalls: 3, wantFacts: 1},
		{name: "500 past retries", replies: []llmtest.Reply{{Status: 500}, {Status: 500}, {Status: 500}, llmtest.JSON(goodExtraction)}, wantErr: errCall, wantCalls: 3},
		{name: "400 not retried", replies: []llmtest.Reply{{Status: 400}, llmtest.JSON(goodExtraction)}, wantErr: errCall, wantCalls: 1},
		{name: "timeout", replies: []llmtest.Reply{{Stall: time.Minute}}, timeout: 50 * time.Millisecond, wantErr: context.DeadlineExceeded, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New()
			defer srv.Close()
			srv.Script("semantic_extraction", tt.replies...)
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			c := newTestClient(t, srv, timeout)
			got, u, err := c.Extract(context.Background(), ExtractRequest{Episode: "I moved to Tokyo", Surprise: tt.surprise, Related: related})
			switch {
			case tt.wantErr == errCall:
				var ce *CallError
				if !errors.As(err, &ce) {
					t.Fatalf("Extract() err=%v, want a CallError", err)
				}
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Extract() err=%v, want %v", err, tt.wantErr)
				}
			case err != nil:
				t.Fatalf("Extract() err=%v", err)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q contains the API key", err)
			}
			if u.Calls != tt.wantCalls || len(srv.Requests()) != tt.wantCalls {
				t.Errorf("calls=%d (server saw %d), want %d", u.Calls, len(srv.Requests()), tt.wantCalls)
			}
			if len(got.Facts) != tt.wantFacts {
				t.Errorf("facts=%d, want %d", len(got.Facts), tt.wantFacts)
			}
			if (got.SurpriseExplanation != "") != tt.wantExpl {
				t.Errorf("explanation=%q, want present=%v", got.SurpriseExplanation, tt.wantExpl)
			}
			if c.Total() != u {
				t.Errorf("Total()=%+v, want %+v", c.Total(), u)
			}
		})
	}
}

// errCall marks a test case that expects a *CallError.
var errCall = errors.New("call error")

func TestExtractPromptCarriesContextAndSurprise(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	srv.Script("", llmtest.JSON(Extraction{Facts: []Fact{}}), llmtest.JSON(Extraction{Facts: []Fact{}}))
	c := newTestClient(t, srv, time.Second)
	related := []KnownBelief{{ID: "bl_abc", Statement: "User lives in Beijing"}}
	for _, s := range []float64{0.2, 0.92} {
		if _, _, err := c.Extract(context.Background(), ExtractRequest{Episode: "I moved to Tokyo", Surprise: s, Related: related}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if !strings.Contains(reqs[0].User, "bl_abc: User lives in Beijing") || !strings.Contains(reqs[0].User, "I moved to Tokyo") {
		t.Errorf("user message lacks the context or the episode:\n%s", reqs[0].User)
	}
	if strings.Contains(reqs[0].System, "surprise_explanation with") {
		t.Error("low-surprise prompt asks for an explanation")
	}
	if !strings.Contains(reqs[1].System, "surprise 0.92") || !strings.Contains(reqs[1].System, "surprise_explanation with") {
		t.Errorf("high-surprise prompt is not the deep one:\n%s", reqs[1].System)
	}
	if reqs[0].Auth != "Bearer "+testKey || reqs[0].Model != "test-model" {
		t.Errorf("auth=%q model=%q", reqs[0].Auth, reqs[0].Model)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name        string
		reply       llmtest.Reply
		wantLabel   string
		wantSupport float64
		wantErr     bool
	}{
		{"supports", llmtest.JSON(Judgement{Label: LabelSupports, Support: 0.8, Reliability: 0.9}), LabelSupports, 0.8, false},
		{"supports without grade", llmtest.JSON(Judgement{Label: LabelSupports}), LabelSupports, 1, false},
		{"contradicts with wrong sign", llmtest.JSON(Judgement{Label: LabelContradicts, Support: 0.5, Reliability: 1}), LabelContradicts, -1, false},
		{"partial", llmtest.JSON(Judgement{Label: LabelPartial, Support: 0.4, Reliability: 1}), LabelPartial, 0, false},
		{"unknown label", llmtest.JSON(Judgement{Label: "MAYBE"}), "", 0, true},
		{"reliability out of range", llmtest.JSON(Judgement{Label: LabelSupports, Reliability: 3}), "", 0, true},
		{"fenced json", llmtest.Reply{Content: "```json\n{\"label\":\"SUPPORTS\",\"support\":1,\"reliability\":1,\"reason\":\"same\"}\n```"}, LabelSupports, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New()
			defer srv.Close()
			srv.Script("belief_classification", tt.reply)
			c := newTestClient(t, srv, time.Second)
			j, _, err := c.Classify(context.Background(), "User uses bun", "User uses pnpm")
			if (err != nil) != tt.wantErr {
				t.Fatalf("Classify() err=%v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && (j.Label != tt.wantLabel || j.Support != tt.wantSupport) {
				t.Errorf("Classify()=%+v, want label %s support %v", j, tt.wantLabel, tt.wantSupport)
			}
		})
	}
}

func TestSynthesizeAndSplit(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	srv.Script("belief_synthesis",
		llmtest.JSON(Candidate{Coherent: true, Statement: "User prefers tabs", Subject: "user", Predicate: "Prefers", Object: "tabs", Kind: "fact"}),
		llmtest.JSON(Candidate{Coherent: false}),
		llmtest.JSON(Candidate{Coherent: true, Statement: "", Kind: "fact"}))
	srv.Script("belief_split",
		llmtest.JSON(map[string]any{"children": []Candidate{
			{Statement: "User prefers tabs in Go", Kind: "fact", Context: "go", Share: 0.6},
			{Statement: "User prefers spaces in Python", Kind: "fact", Context: "python", Share: 0.4}}}),
		llmtest.JSON(map[string]any{"children": []Candidate{{Statement: "only one", Kind: "fact", Share: 1}}}))
	c := newTestClient(t, srv, time.Second)
	ctx := context.Background()
	cand, _, err := c.Synthesize(ctx, []string{"a", "b", "c"})
	if err != nil || !cand.Coherent || cand.Predicate != "prefers" {
		t.Fatalf("Synthesize()=%+v, %v; want a coherent candidate with predicate prefers", cand, err)
	}
	if cand, _, err = c.Synthesize(ctx, []string{"x"}); err != nil || cand.Coherent {
		t.Errorf("Synthesize() incoherent=%+v, %v", cand, err)
	}
	if _, _, err = c.Synthesize(ctx, []string{"x"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Synthesize() empty statement err=%v, want ErrMalformed", err)
	}
	kids, _, err := c.Split(ctx, "User prefers tabs", []string{"e"})
	if err != nil || len(kids) != 2 || kids[1].Context != "python" {
		t.Errorf("Split()=%+v, %v", kids, err)
	}
	if _, _, err = c.Split(ctx, "User prefers tabs", []string{"e"}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Split() one child err=%v, want ErrMalformed", err)
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	if _, err := New(Config{BaseURL: "ftp://x"}); err == nil {
		t.Error("New() accepted an ftp base URL")
	}
	c, err := New(Config{})
	if err != nil || c.Model() != DefaultModel {
		t.Errorf("New() defaults: %v, model %q", err, c.Model())
	}
	_ = http.StatusOK
}
