package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Defaults for OpenAIConfig fields left zero.
const (
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	DefaultOpenAIModel   = "text-embedding-3-small"
	defaultOpenAITimeout = 30 * time.Second
	defaultBatchSize     = 128
	defaultMaxRetries    = 2
	defaultRetryBackoff  = time.Second
	// maxBatchInputs is the API's limit on inputs per request.
	maxBatchInputs = 2048
	// maxBatchBytes keeps a request well under the API's 300k-token limit.
	maxBatchBytes = 256 << 10
	// maxOpenAIInput caps one input in bytes. A token is at least one byte,
	// so 8000 bytes can never exceed the models' 8191-token input limit.
	maxOpenAIInput = 8000
	// emptyPlaceholder stands in for an input with no text, which the API
	// rejects; every empty text gets the same vector.
	emptyPlaceholder = "(empty)"
)

// knownDims are the native dimensions of OpenAI's embedding models, so Dim
// and ID are right before the first request.
var knownDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// Errors the OpenAI embedder returns; callers branch on them with errors.Is.
var (
	// ErrBadResponse means the server answered 2xx with something that is
	// not a usable embeddings response.
	ErrBadResponse = errors.New("malformed embeddings response")
	// ErrDimension means a vector's length differs from the embedder's Dim.
	ErrDimension = errors.New("embedding dimension mismatch")
)

// OpenAIConfig configures an OpenAI-compatible embeddings endpoint
// (OpenAI, Azure-style proxies, Ollama, LM Studio, vLLM).
type OpenAIConfig struct {
	// BaseURL is the API root including /v1; default DefaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. It may be empty for local servers.
	// It never appears in an error.
	APIKey string
	// Model is the embedding model; default DefaultOpenAIModel.
	Model string
	// Dimensions asks the model for shorter vectors (the request's
	// "dimensions" field, text-embedding-3 models only). 0 means the model's
	// native size.
	Dimensions int
	// Timeout bounds each HTTP attempt; default 30s.
	Timeout time.Duration
	// BatchSize is how many texts go in one request; default 128, at most
	// 2048. Batches are also cut at 256 KiB of text.
	BatchSize int
	// MaxRetries is how often a rate-limited (429), failed (5xx) or timed
	// out request is retried, waiting RetryBackoff, then twice that, and so
	// on. 0 means 2; negative means never.
	MaxRetries int
	// RetryBackoff is the first wait before a retry; default 1s.
	RetryBackoff time.Duration
	// HTTPClient replaces the default client (tests, proxies).
	HTTPClient *http.Client
}

// OpenAI embeds texts through an OpenAI-compatible /v1/embeddings API. It is
// safe for concurrent use.
//
// Its dimension is Dimensions when set, else the model's native size when
// the model is one of OpenAI's, else unknown (Dim returns 0) until the
// first successful response, which fixes it for the embedder's lifetime.
// Call Probe at startup to learn it before storing anything.
type OpenAI struct {
	client  *openai.Client
	cfg     OpenAIConfig
	dim     atomic.Int64
	retries int
}

// NewOpenAI validates cfg, fills its defaults and returns the embedder. It
// makes no request.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultOpenAIBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Model == "" {
		cfg.Model = DefaultOpenAIModel
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = defaultOpenAITimeout
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = defaultBatchSize
	}
	if cfg.RetryBackoff == 0 {
		cfg.RetryBackoff = defaultRetryBackoff
	}
	if err := validateOpenAIConfig(cfg); err != nil {
		return nil, fmt.Errorf("configure openai embedder: %w", err)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	e := &OpenAI{client: openai.NewClientWithConfig(oc), cfg: cfg}
	switch {
	case cfg.MaxRetries > 0:
		e.retries = cfg.MaxRetries
	case cfg.MaxRetries == 0:
		e.retries = defaultMaxRetries
	}
	dim := cfg.Dimensions
	if dim == 0 {
		dim = knownDims[cfg.Model]
	}
	e.dim.Store(int64(dim))
	return e, nil
}

func validateOpenAIConfig(cfg OpenAIConfig) error {
	switch {
	case !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://"):
		return fmt.Errorf("BaseURL %q must start with http:// or https://", cfg.BaseURL)
	case cfg.Dimensions < 0:
		return fmt.Errorf("Dimensions=%d: use 0 for the model's size or a positive length", cfg.Dimensions)
	case cfg.Dimensions > 0 && cfg.Model == "text-embedding-ada-002":
		return errors.New("Dimensions is not supported by text-embedding-ada-002: set it to 0 or use a text-embedding-3 model")
	case cfg.Dimensions > knownDims[cfg.Model] && knownDims[cfg.Model] > 0:
		return fmt.Errorf("Dimensions=%d exceeds %s's %d: lower it or set 0", cfg.Dimensions, cfg.Model, knownDims[cfg.Model])
	case cfg.Timeout < 0:
		return fmt.Errorf("Timeout=%v must be positive (0 means %v)", cfg.Timeout, defaultOpenAITimeout)
	case cfg.BatchSize < 0 || cfg.BatchSize > maxBatchInputs:
		return fmt.Errorf("BatchSize=%d must be between 1 and %d (0 means %d)", cfg.BatchSize, maxBatchInputs, defaultBatchSize)
	case cfg.RetryBackoff < 0:
		return fmt.Errorf("RetryBackoff=%v must be positive", cfg.RetryBackoff)
	}
	return nil
}

// ID returns "openai:<model>:<dim>", e.g. "openai:text-embedding-3-small:1536".
// While the dimension is still unknown (see OpenAI) it ends in ":0"; store
// no vector under that ID.
func (e *OpenAI) ID() string {
	return fmt.Sprintf("openai:%s:%d", e.cfg.Model, e.Dim())
}

// Dim returns the vector length, or 0 while it is still unknown.
func (e *OpenAI) Dim() int { return int(e.dim.Load()) }

// Probe embeds one short text so that Dim and ID are known, and reports
// whether the endpoint works at all.
func (e *OpenAI) Probe(ctx context.Context) error {
	if _, err := e.Embed(ctx, []string{"credence probe"}); err != nil {
		return fmt.Errorf("probe openai embedder: %w", err)
	}
	return nil
}

// Embed returns one unit-length vector per text, in order, sending the
// texts in batches. Each text is cut to its first 8000 bytes (the models'
// input limit) and an empty text is sent as a fixed placeholder. On error
// no vectors are returned.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); {
		end, batch := e.nextBatch(texts, start)
		vecs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("openai embed texts %d-%d of %d: %w", start+1, end, len(texts), err)
		}
		out = append(out, vecs...)
		start = end
	}
	return out, nil
}

// nextBatch returns the end of the batch starting at start and its
// prepared inputs.
func (e *OpenAI) nextBatch(texts []string, start int) (int, []string) {
	batch := make([]string, 0, min(e.cfg.BatchSize, len(texts)-start))
	size := 0
	end := start
	for end < len(texts) && len(batch) < e.cfg.BatchSize {
		in := prepareInput(texts[end])
		if len(batch) > 0 && size+len(in) > maxBatchBytes {
			break
		}
		batch = append(batch, in)
		size += len(in)
		end++
	}
	return end, batch
}

// prepareInput makes text acceptable to the API: valid UTF-8, at most
// maxOpenAIInput bytes cut on a rune boundary, never empty.
func prepareInput(text string) string {
	if len(text) > maxOpenAIInput {
		cut := maxOpenAIInput
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return emptyPlaceholder
	}
	return text
}
