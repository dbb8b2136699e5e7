package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Defaults for Config fields left zero.
const (
	DefaultBaseURL      = "https://api.openai.com/v1"
	DefaultModel        = "gpt-4.1-mini"
	DefaultTimeout      = 10 * time.Second
	DefaultMaxRetries   = 3
	DefaultRetryBackoff = 500 * time.Millisecond
	// maxReplyTokens bounds one reply; extraction of a long episode is the
	// largest and stays well below it.
	maxReplyTokens = 2048
)

// ErrMalformed means the model answered, but not with JSON that fits the
// schema and its rules. Callers fall back to offline mode for the item.
var ErrMalformed = errors.New("malformed model reply")

// Config points the client at an endpoint.
type Config struct {
	// BaseURL is the API root including /v1; default DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; local servers need none. It never
	// appears in an error or a log.
	APIKey string
	// Model is the chat model; default DefaultModel.
	Model string
	// Timeout bounds one call, retries included; default DefaultTimeout
	// (the consolidation budget's 10 s per call).
	Timeout time.Duration
	// MaxRetries is how often a rate-limited (429), failed (5xx) or timed
	// out attempt is retried, waiting RetryBackoff, then twice that, and so
	// on. 0 means DefaultMaxRetries; negative means never.
	MaxRetries   int
	RetryBackoff time.Duration
	// HTTPClient replaces the default client (tests, proxies).
	HTTPClient *http.Client
}

// Usage is what calls cost, in tokens as the server reports them.
type Usage struct {
	Calls            int   `json:"calls"`
	Failures         int   `json:"failures"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{Calls: u.Calls + v.Calls, Failures: u.Failures + v.Failures,
		PromptTokens: u.PromptTokens + v.PromptTokens, CompletionTokens: u.CompletionTokens + v.CompletionTokens}
}

// Client is a chat model behind an OpenAI-compatible API. It is safe for
// concurrent use.
type Client struct {
	api     *openai.Client
	cfg     Config
	retries int
	total   atomic.Pointer[Usage]
}

// New validates cfg, fills its defaults and returns a client. It makes no
// request.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return nil, fmt.Errorf("configure llm: base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.RetryBackoff <= 0 {
		cfg.RetryBackoff = DefaultRetryBackoff
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	c := &Client{api: openai.NewClientWithConfig(oc), cfg: cfg}
	switch {
	case cfg.MaxRetries > 0:
		c.retries = cfg.MaxRetries
	case cfg.MaxRetries == 0:
		c.retries = DefaultMaxRetries
	}
	c.total.Store(&Usage{})
	return c, nil
}

// Model returns the chat model's name.
func (c *Client) Model() string { return c.cfg.Model }

// Total returns what every call of this client has cost so far.
func (c *Client) Total() Usage { return *c.total.Load() }

func (c *Client) account(u Usage) {
	for {
		old := c.total.Load()
		sum := old.Add(u)
		if c.total.CompareAndSwap(old, &sum) {
			return
		}
	}
}

// schema is one structured-output format: a name and a JSON Schema.
type schema struct {
	name string
	doc  json.RawMessage
}

func (s schema) MarshalJSON() ([]byte, error) { return s.doc, nil }

// complete sends one chat request asking for JSON fitting sc, retrying
// temporary failures within the call's timeout, and decodes the reply into
// out. The usage covers every attempt that got a reply.
func (c *Client) complete(ctx context.Context, system, user string, sc schema, out any) (Usage, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req := openai.ChatCompletionRequest{
		Model: c.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		Temperature: 0,
		MaxTokens:   maxReplyTokens,
		ResponseFormat: &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: sc.name, Schema: sc, Strict: true},
		},
	}
	var used Usage
	wait := c.cfg.RetryBackoff
	for attempt := 0; ; attempt++ {
		resp, err := c.api.CreateChatCompletion(ctx, req)
		used.Calls++
		if err == nil {
			used.PromptTokens += int64(resp.Usage.PromptTokens)
			used.CompletionTokens += int64(resp.Usage.CompletionTokens)
			err = decodeReply(resp, out)
			if err != nil {
				used.Failures++
			}
			c.account(used)
			return used, err
		}
		used.Failures++
		callErr := describe(ctx, err)
		if !callErr.retry || attempt >= c.retries {
			c.account(used)
			return used, callErr
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			c.account(used)
			return used, &CallError{StatusCode: callErr.StatusCode, Message: callErr.Message + " (gave up retrying: " + ctx.Err().Error() + ")", cause: ctx.Err()}
		case <-timer.C:
		}
		wait *= 2
	}
}

func decodeReply(resp openai.ChatCompletionResponse, out any) error {
	if len(resp.Choices) == 0 {
		return fmt.Errorf("%w: no choices", ErrMalformed)
	}
	ch := resp.Choices[0]
	if ch.Message.Refusal != "" {
		return fmt.Errorf("%w: the model refused", ErrMalformed)
	}
	text := strings.TrimSpace(ch.Message.Content)
	// Some local servers wrap JSON in a code fence despite the schema.
	text = strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```")
	text = strings.TrimSpace(strings.TrimSuffix(text, "```"))
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: text after the JSON value", ErrMalformed)
	}
	if v, ok := out.(interface{ validate() error }); ok {
		if err := v.validate(); err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
	}
	return nil
}

// CallError is a failed call: an HTTP error status, a timeout or a
// transport failure. Its message never contains the API key.
type CallError struct {
	StatusCode int // 0 when no response arrived
	Message    string
	retry      bool
	cause      error // only context errors are kept
}

// Error describes the failure.
func (e *CallError) Error() string {
	if e.StatusCode == 0 {
		return "llm request: " + e.Message
	}
	return fmt.Sprintf("llm request: status %d: %s", e.StatusCode, e.Message)
}

// Unwrap returns the context error behind a timeout or cancellation.
func (e *CallError) Unwrap() error { return e.cause }

// Temporary reports whether trying again later could succeed.
func (e *CallError) Temporary() bool { return e.retry }

// describe turns a go-openai error into a CallError that says whether a
// retry may help: 429 (unless the quota is exhausted), 5xx, 408 and
// timeouts of one attempt do; everything else does not.
func describe(ctx context.Context, err error) *CallError {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		e := &CallError{StatusCode: apiErr.HTTPStatusCode, Message: firstLine(apiErr.Message)}
		quota := apiErr.Type == "insufficient_quota" || fmt.Sprint(apiErr.Code) == "insufficient_quota"
		e.retry = retryStatus(apiErr.HTTPStatusCode) && !quota
		return e
	case errors.As(err, &reqErr):
		return &CallError{StatusCode: reqErr.HTTPStatusCode, Message: http.StatusText(reqErr.HTTPStatusCode),
			retry: retryStatus(reqErr.HTTPStatusCode)}
	case ctx.Err() != nil:
		return &CallError{Message: "timed out: " + ctx.Err().Error(), cause: ctx.Err()}
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return &CallError{Message: "attempt timed out", retry: true}
	}
	// Transport failures (connection refused, reset) may pass; their text
	// can quote the URL but never the key, which travels in a header.
	return &CallError{Message: firstLine(err.Error()), retry: true}
}

func retryStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
