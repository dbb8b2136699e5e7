package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// APIError is a failed embeddings request: an HTTP error status, or a
// transport failure (StatusCode 0). Its message never contains the API key.
type APIError struct {
	// StatusCode is the HTTP status, or 0 when no response arrived.
	StatusCode int
	// Message is the server's or transport's explanation, key removed.
	Message string
	// cause is kept only when it is a context error, so errors.Is sees
	// context.DeadlineExceeded and context.Canceled; other causes may
	// quote the request and are not kept.
	cause error
	// retry reports whether trying again later could succeed.
	retry bool
}

// Error describes the failure without the API key.
func (e *APIError) Error() string {
	if e.StatusCode == 0 {
		return "embeddings request: " + e.Message
	}
	return fmt.Sprintf("embeddings request: status %d: %s", e.StatusCode, e.Message)
}

// Unwrap returns the context error behind a timeout or cancellation.
func (e *APIError) Unwrap() error { return e.cause }

// Temporary reports whether the request may succeed if retried later: rate
// limits (except an exhausted quota), server errors and timeouts.
func (e *APIError) Temporary() bool { return e.retry }

// embedBatch sends one batch, retrying temporary failures.
func (e *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	wait := e.cfg.RetryBackoff
	for attempt := 0; ; attempt++ {
		vecs, err := e.requestOnce(ctx, batch)
		if err == nil {
			return vecs, nil
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || !apiErr.retry || attempt >= e.retries || ctx.Err() != nil {
			return nil, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			// Say what kept failing, not only that time ran out.
			timer.Stop()
			return nil, e.apiError(apiErr.StatusCode, apiErr.Message+" (gave up retrying: "+ctx.Err().Error()+")", ctx.Err(), false)
		case <-timer.C:
		}
		wait *= 2
	}
}

// requestOnce makes one HTTP attempt under the configured timeout.
func (e *OpenAI) requestOnce(ctx context.Context, batch []string) ([][]float32, error) {
	actx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	resp, err := e.client.CreateEmbeddings(actx, openai.EmbeddingRequest{
		Input:          batch,
		Model:          openai.EmbeddingModel(e.cfg.Model),
		Dimensions:     e.cfg.Dimensions,
		EncodingFormat: openai.EmbeddingEncodingFormatFloat,
	})
	if err != nil {
		return nil, e.classify(ctx, actx, err)
	}
	return e.vectors(resp, len(batch))
}

// classify turns a go-openai or transport error into an *APIError with the
// key scrubbed.
func (e *OpenAI) classify(parent, attempt context.Context, err error) error {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case parent.Err() != nil:
		return e.apiError(0, parent.Err().Error(), parent.Err(), false)
	case attempt.Err() != nil:
		msg := fmt.Sprintf("no response within %v", e.cfg.Timeout)
		return e.apiError(0, msg, attempt.Err(), true)
	case errors.As(err, &apiErr):
		quota := apiErr.Type == "insufficient_quota" || fmt.Sprint(apiErr.Code) == "insufficient_quota"
		return e.apiError(apiErr.HTTPStatusCode, apiErr.Message, nil, retryable(apiErr.HTTPStatusCode) && !quota)
	case errors.As(err, &reqErr) && reqErr.HTTPStatusCode >= 300:
		// A non-JSON error body: keep a short start of it for the log.
		body := strings.TrimSpace(string(reqErr.Body))
		if len(body) > 200 {
			body = body[:200] + "…"
		}
		if body == "" {
			body = http.StatusText(reqErr.HTTPStatusCode)
		}
		return e.apiError(reqErr.HTTPStatusCode, body, nil, retryable(reqErr.HTTPStatusCode))
	case isDecodeError(err):
		return fmt.Errorf("%w: %s", ErrBadResponse, e.redact(err.Error()))
	default:
		// Connection refused or reset: the server may be restarting.
		return e.apiError(0, err.Error(), nil, true)
	}
}

func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
}

// isDecodeError reports whether err came from decoding a 2xx body.
func isDecodeError(err error) bool {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &syntaxErr) || errors.As(err, &typeErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

func (e *OpenAI) apiError(status int, msg string, cause error, retry bool) *APIError {
	return &APIError{StatusCode: status, Message: e.redact(msg), cause: cause, retry: retry}
}

// redact removes the API key from msg, and any token that starts like it,
// so a server echoing a truncated key ("sk-abc…xyz") cannot leak it either.
func (e *OpenAI) redact(msg string) string {
	key := e.cfg.APIKey
	if key == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, key, "[redacted]")
	if len(key) < 8 {
		return msg
	}
	prefix := key[:8]
	for {
		i := strings.Index(msg, prefix)
		if i < 0 {
			return msg
		}
		end := max(i+len(prefix), i+strings.IndexAny(msg[i:]+" ", " \t\n\",'"))
		msg = msg[:i] + "[redacted]" + msg[end:]
	}
}

// vectors checks a response against the batch and returns its vectors in
// input order, normalized. The first response of an embedder whose
// dimension is unknown fixes it.
func (e *OpenAI) vectors(resp openai.EmbeddingResponse, n int) ([][]float32, error) {
	if len(resp.Data) != n {
		return nil, fmt.Errorf("%w: %d embeddings for %d inputs", ErrBadResponse, len(resp.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range resp.Data {
		switch {
		case d.Index < 0 || d.Index >= n:
			return nil, fmt.Errorf("%w: item %d has index %d, want 0-%d", ErrBadResponse, i, d.Index, n-1)
		case out[d.Index] != nil:
			return nil, fmt.Errorf("%w: index %d appears twice", ErrBadResponse, d.Index)
		case len(d.Embedding) == 0:
			return nil, fmt.Errorf("%w: embedding %d is empty", ErrBadResponse, d.Index)
		}
		dim := int64(len(d.Embedding))
		// CompareAndSwap from 0 learns the dimension once, race-free.
		if !e.dim.CompareAndSwap(0, dim) && e.dim.Load() != dim {
			return nil, fmt.Errorf("%w: got %d values, want %d", ErrDimension, dim, e.dim.Load())
		}
		v := make([]float32, len(d.Embedding))
		copy(v, d.Embedding)
		out[d.Index] = Normalize(v)
	}
	return out, nil
}
