package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeAPI is an Anthropic Messages API on 127.0.0.1 for the real Claude Code
// client: POST /v1/messages answered as JSON or as a server-sent event stream,
// POST /v1/messages/count_tokens, GET /v1/models, and a JSON 404 in the API's
// error shape for anything else. Every request is kept so a test can read what
// Claude Code sent.
//
// A request that offers tools is a turn of the conversation and takes the next
// scripted reply; one without tools is Claude Code's own side request (a
// title, a topic, a quota check) and gets a short text; a compaction (its
// last message asks for a summary of the conversation, tools or not) gets a
// summary.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	requests []apiRequest
	script   []reply
	msgs     int
	// toolErrors holds the tool results Claude Code sent back as errors (a
	// denied permission, an Edit whose old_string was not found).
	toolErrors []string
}

// apiRequest is one request Claude Code sent.
type apiRequest struct {
	Method, Path string
	Body         []byte
	// Turn is true for a conversation turn (the request offered tools).
	Turn bool
}

// reply is one scripted answer to a conversation turn: text, or a tool call
// that Claude Code runs before it sends the next turn with the result.
type reply struct {
	text  string
	tool  string
	input map[string]any
}

// say is a reply of plain text that ends the turn.
func say(text string) reply { return reply{text: text} }

// use is a reply that calls tool with input (and says text first, if any).
func use(tool string, input map[string]any) reply { return reply{tool: tool, input: input} }

func newFakeAPI(t *testing.T) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the base URL to give Claude Code as ANTHROPIC_BASE_URL.
func (f *fakeAPI) URL() string { return f.srv.URL }

// queue appends replies for the next conversation turns.
func (f *fakeAPI) queue(rs ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = append(f.script, rs...)
}

// pending returns how many scripted replies are still unused.
func (f *fakeAPI) pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.script)
}

// turns returns the bodies of the conversation turns received so far.
func (f *fakeAPI) turns() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out [][]byte
	for _, r := range f.requests {
		if r.Turn {
			out = append(out, r.Body)
		}
	}
	return out
}

// log returns one line per request, for failure messages.
func (f *fakeAPI) log() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, r := range f.requests {
		fmt.Fprintf(&b, "%s %s turn=%v %d bytes\n", r.Method, r.Path, r.Turn, len(r.Body))
	}
	return b.String()
}

// messagesRequest is the part of a Messages request the fake reads.
type messagesRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	path := r.URL.Path
	rec := apiRequest{Method: r.Method, Path: path, Body: body}
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			f.record(rec)
			apiError(w, http.StatusBadRequest, "invalid_request_error", "body: "+err.Error())
			return
		}
		compact := strings.Contains(lastText(req), "summary of the conversation")
		rec.Turn = len(req.Tools) > 0 && !compact
		f.record(rec)
		f.noteToolErrors(req)
		f.answer(w, req, rec.Turn, compact)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		f.record(rec)
		writeJSON(w, map[string]any{"input_tokens": 1 + len(body)/4})
	case r.Method == http.MethodGet && path == "/v1/models":
		f.record(rec)
		writeJSON(w, map[string]any{"data": []map[string]any{
			{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5", "created_at": "2025-09-29T00:00:00Z"},
		}, "has_more": false, "first_id": "claude-sonnet-4-5", "last_id": "claude-sonnet-4-5"})
	default:
		f.record(rec)
		apiError(w, http.StatusNotFound, "not_found_error", "the fake API does not serve "+r.Method+" "+path)
	}
}

// lastText returns the text of the request's last message.
func lastText(req messagesRequest) string {
	if len(req.Messages) == 0 {
		return ""
	}
	var last struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(req.Messages[len(req.Messages)-1], &last) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(last.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(last.Content, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

// noteToolErrors keeps the error results of the tool calls the last message
// answers.
func (f *fakeAPI) noteToolErrors(req messagesRequest) {
	if len(req.Messages) == 0 {
		return
	}
	var last struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(req.Messages[len(req.Messages)-1], &last); err != nil {
		return
	}
	var blocks []struct {
		Type    string          `json:"type"`
		IsError bool            `json:"is_error"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(last.Content, &blocks) != nil {
		return // a plain string: no tool results
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, b := range blocks {
		if b.Type == "tool_result" && b.IsError {
			f.toolErrors = append(f.toolErrors, string(b.Content))
		}
	}
}

// takeToolErrors returns the failed tool results received since the last
// call.
func (f *fakeAPI) takeToolErrors() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.toolErrors
	f.toolErrors = nil
	return out
}

func (f *fakeAPI) record(r apiRequest) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r)
}

// answer writes the next scripted reply for a turn, or a short text for a
// side request. A turn with nothing scripted gets an error the test reports.
func (f *fakeAPI) answer(w http.ResponseWriter, req messagesRequest, turn, compact bool) {
	f.mu.Lock()
	f.msgs++
	id, toolID := fmt.Sprintf("msg_fake_%04d", f.msgs), fmt.Sprintf("toolu_fake_%04d", f.msgs)
	rp := say("OK")
	switch {
	case compact:
		rp = say("<analysis>A short test conversation.</analysis>\n<summary>The user told Claude about their project.</summary>")
	case turn:
		if len(f.script) == 0 {
			f.mu.Unlock()
			f.t.Errorf("Claude Code sent a conversation turn the test did not script")
			apiError(w, http.StatusBadRequest, "invalid_request_error", "the fake API has no reply scripted for this turn")
			return
		}
		rp, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()

	var block map[string]any
	stop := "end_turn"
	if rp.tool != "" {
		input, err := json.Marshal(rp.input)
		if err != nil {
			f.t.Errorf("tool input: %v", err)
		}
		block = map[string]any{"type": "tool_use", "id": toolID, "name": rp.tool, "input": json.RawMessage(input)}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": rp.text}
	}
	model := req.Model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, err := json.Marshal(data)
		if err != nil {
			f.t.Errorf("event %s: %v", name, err)
			return
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
	if rp.tool != "" {
		start := map[string]any{"type": "tool_use", "id": block["id"], "name": rp.tool, "input": map[string]any{}}
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": start})
		// The input arrives as JSON text cut into pieces, as the API sends it.
		for _, part := range chunks(string(block["input"].(json.RawMessage)), 40) {
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		for _, part := range chunks(rp.text, 24) {
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": part}})
		}
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// chunks cuts s into pieces of at most n bytes, never inside a UTF-8
// sequence; an empty s is one empty piece.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		i := n
		for i > 0 && s[i]&0xC0 == 0x80 {
			i--
		}
		out, s = append(out, s[:i]), s[i:]
	}
	return append(out, s)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// apiError answers in the Messages API's error shape.
func apiError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}})
}
