package embed

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestOpenAIRetries(t *testing.T) {
	tests := []struct {
		name     string
		script   []func(http.ResponseWriter, *http.Request, embeddingsCall)
		requests int
	}{
		{"429 then success", []func(http.ResponseWriter, *http.Request, embeddingsCall){
			jsonError(429, "requests", "rate_limit_exceeded", "Rate limit reached"),
		}, 2},
		{"500 twice then success", []func(http.ResponseWriter, *http.Request, embeddingsCall){
			rawReply(500, "upstream exploded"),
			jsonError(503, "server_error", "", "overloaded"),
		}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFakeEmbeddings(t, 1536, tt.script...)
			e := newTestOpenAI(t, srv, OpenAIConfig{MaxRetries: 2})
			if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
				t.Fatalf("Embed: %v, want success after retries", err)
			}
			if got := f.callCount(); got != tt.requests {
				t.Errorf("requests=%d, want %d", got, tt.requests)
			}
		})
	}
}

func TestOpenAIErrors(t *testing.T) {
	type handler = func(http.ResponseWriter, *http.Request, embeddingsCall)
	repeat := func(h handler, n int) []handler {
		s := make([]handler, n)
		for i := range s {
			s[i] = h
		}
		return s
	}
	block := func(w http.ResponseWriter, r *http.Request, _ embeddingsCall) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	tests := []struct {
		name       string
		script     []handler
		cfg        OpenAIConfig
		status     int  // want *APIError with this status; -1: no *APIError
		temporary  bool // want Temporary()
		is         error
		requests   int
		msgContain string
	}{
		{name: "429 until retries run out", script: repeat(jsonError(429, "requests", "rate_limit_exceeded", "Rate limit reached"), 5),
			cfg: OpenAIConfig{MaxRetries: 2}, status: 429, temporary: true, requests: 3, msgContain: "Rate limit reached"},
		{name: "429 quota is not retried", script: repeat(jsonError(429, "insufficient_quota", "insufficient_quota", "You exceeded your current quota"), 5),
			cfg: OpenAIConfig{MaxRetries: 2}, status: 429, requests: 1, msgContain: "quota"},
		{name: "500 with retries disabled", script: repeat(rawReply(500, "<html>boom</html>"), 5),
			cfg: OpenAIConfig{MaxRetries: -1}, status: 500, temporary: true, requests: 1, msgContain: "boom"},
		{name: "401 echoing the key", script: repeat(jsonError(401, "invalid_request_error", "invalid_api_key",
			"Incorrect API key provided: "+testKey+". Also seen as "+testKey[:12]+"****CRET."), 5),
			status: 401, requests: 1, msgContain: "Incorrect API key"},
		{name: "malformed JSON", script: repeat(rawReply(200, `{"data": [ {"embedding": [0.1, `), 5),
			status: -1, is: ErrBadResponse, requests: 1},
		{name: "HTML instead of JSON", script: repeat(rawReply(200, `<html>proxy login</html>`), 5),
			status: -1, is: ErrBadResponse, requests: 1},
		{name: "too few embeddings", script: repeat(rawReply(200, `{"object":"list","data":[{"index":0,"embedding":[1,2]}]}`), 5),
			status: -1, is: ErrBadResponse, requests: 1},
		{name: "index out of range", script: repeat(rawReply(200, `{"data":[{"index":0,"embedding":[1,2]},{"index":7,"embedding":[1,2]}]}`), 5),
			status: -1, is: ErrBadResponse, requests: 1},
		{name: "empty embedding", script: repeat(rawReply(200, `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1,2]}]}`), 5),
			status: -1, is: ErrBadResponse, requests: 1},
		{name: "timeout", script: repeat(block, 5), cfg: OpenAIConfig{Timeout: 50 * time.Millisecond, MaxRetries: 1},
			status: 0, temporary: true, is: context.DeadlineExceeded, requests: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFakeEmbeddings(t, 2, tt.script...)
			cfg := tt.cfg
			cfg.Model = "two-dims"
			e := newTestOpenAI(t, srv, cfg)
			_, err := e.Embed(context.Background(), []string{"first", "second"})
			if err == nil {
				t.Fatal("Embed succeeded, want an error")
			}
			if msg := err.Error(); strings.Contains(msg, testKey) || strings.Contains(msg, testKey[:8]) {
				t.Errorf("error %q contains the API key", msg)
			}
			if !strings.Contains(err.Error(), tt.msgContain) {
				t.Errorf("error %q, want it to contain %q", err, tt.msgContain)
			}
			var apiErr *APIError
			switch {
			case tt.status == -1 && errors.As(err, &apiErr):
				t.Errorf("err=%v is an *APIError, want a plain error", err)
			case tt.status >= 0 && !errors.As(err, &apiErr):
				t.Errorf("err=%v (%T), want an *APIError", err, err)
			case tt.status >= 0 && (apiErr.StatusCode != tt.status || apiErr.Temporary() != tt.temporary):
				t.Errorf("StatusCode=%d Temporary()=%v, want %d and %v", apiErr.StatusCode, apiErr.Temporary(), tt.status, tt.temporary)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err=%v, want errors.Is(err, %v)", err, tt.is)
			}
			if got := f.callCount(); got != tt.requests {
				t.Errorf("requests=%d, want %d", got, tt.requests)
			}
		})
	}
}

func TestOpenAICanceledContext(t *testing.T) {
	f, srv := newFakeEmbeddings(t, 2)
	e := newTestOpenAI(t, srv, OpenAIConfig{Model: "two-dims"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err=%v, want context.Canceled", err)
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Temporary() {
		t.Errorf("a canceled request reports Temporary()=true, want false")
	}
	if got := f.callCount(); got != 0 {
		t.Errorf("requests=%d, want 0", got)
	}
}
