// Package llmtest is an OpenAI-compatible chat server for tests: it answers
// /chat/completions with scripted replies — JSON content, malformed
// content, a refusal, HTTP errors such as 429 and 500, or a stall past the
// client's timeout — and records what it was asked.
//
// It imports the standard library only and is for tests.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	// Status, when not 0 or 200, is sent with an OpenAI-style error body.
	Status int
	// Content is the assistant message's content (valid JSON or not).
	Content string
	// Refusal, when set, is sent as the message's refusal (content null),
	// as OpenAI's structured outputs answer a request the model declines.
	Refusal string
	// Stall holds the request this long (or until the client gives up)
	// before answering, to exercise timeouts.
	Stall time.Duration
	// PromptTokens and CompletionTokens go in the usage field; 0 means 10
	// and 5.
	PromptTokens, CompletionTokens int
}

// JSON returns a Reply whose content is v encoded as JSON.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: encode reply: %v", err))
	}
	return Reply{Content: string(b)}
}

// Request is what the server was asked.
type Request struct {
	Schema   string // the response_format's json_schema name
	System   string
	User     string
	Model    string
	Auth     string
	Response Reply
}

// Server is a scripted OpenAI-compatible server.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	queues   map[string][]Reply // by schema name; "" is the fallback queue
	fallback func(Request) Reply
	requests []Request
	stop     chan struct{}
}

// New starts a server. With no script every request gets a 500.
func New() *Server {
	s := &Server{queues: map[string][]Reply{}, stop: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close releases stalled requests and shuts the server down.
func (s *Server) Close() {
	close(s.stop)
	s.Server.Close()
}

// URL returns the base URL to configure clients with (with /v1).
func (s *Server) URL() string { return s.Server.URL + "/v1" }

// Script queues replies for requests with the given schema name ("" for
// any schema), answered in order.
func (s *Server) Script(schema string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[schema] = append(s.queues[schema], replies...)
}

// Otherwise answers requests no queue covers.
func (s *Server) Otherwise(fn func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = fn
}

// Requests returns what the server has been asked so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat struct {
		JSONSchema struct {
			Name string `json:"name"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var cr chatRequest
	if err := json.Unmarshal(body, &cr); err != nil || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	req := Request{Schema: cr.ResponseFormat.JSONSchema.Name, Model: cr.Model, Auth: r.Header.Get("Authorization")}
	for _, m := range cr.Messages {
		switch m.Role {
		case "system":
			req.System = m.Content
		case "user":
			req.User = m.Content
		}
	}
	reply := s.next(req)
	req.Response = reply
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if reply.Stall > 0 {
		select {
		case <-time.After(reply.Stall):
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if reply.Status != 0 && reply.Status != http.StatusOK {
		w.WriteHeader(reply.Status)
		fmt.Fprintf(w, `{"error":{"message":"scripted status %d","type":"server_error"}}`, reply.Status)
		return
	}
	pt, ct := reply.PromptTokens, reply.CompletionTokens
	if pt == 0 && ct == 0 {
		pt, ct = 10, 5
	}
	message := map[string]any{"role": "assistant", "content": reply.Content}
	if reply.Refusal != "" {
		message = map[string]any{"role": "assistant", "content": nil, "refusal": reply.Refusal}
	}
	resp := map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "model": cr.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": message}},
		"usage":   map[string]any{"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
	}
	_ = json.NewEncoder(w).Encode(resp)
}

func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range []string{req.Schema, ""} {
		if q := s.queues[name]; len(q) > 0 {
			s.queues[name] = q[1:]
			return q[0]
		}
	}
	if s.fallback != nil {
		fn := s.fallback
		s.mu.Unlock()
		r := fn(req)
		s.mu.Lock()
		return r
	}
	return Reply{Status: http.StatusInternalServerError}
}
