package consolidate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// Endpoint names in EndpointHealth.
const (
	EndpointEmbedder = "embedder"
	EndpointLLM      = "llm"
)

// Retry schedule of an endpoint that failed: the first retry after
// retryFirst, each next one twice as late up to retryMax, every wait
// jittered by ±20 % so several agents do not retry in step.
const (
	retryFirst = 30 * time.Second
	retryMax   = 15 * time.Minute
)

// ErrEndpointDown is returned instead of calling an endpoint that failed
// recently and is not due for a retry, and wraps the error of a call that
// just made it fail. The caller uses the offline embedder or extractor.
var ErrEndpointDown = errors.New("endpoint unavailable")

// breaker remembers whether a remote endpoint answers, so that a cycle
// does not wait on one that is down: after a failed call the endpoint is
// left alone until its next try, and the offline side stands in.
type breaker struct {
	mu     sync.Mutex
	health store.EndpointHealth
	now    func() time.Time
	jitter func() float64 // in [0, 1)
}

func newBreaker(name, remote, url string, now func() time.Time) *breaker {
	return &breaker{health: store.EndpointHealth{Name: name, Remote: remote, URL: url}, now: now, jitter: rand.Float64}
}

// ready reports whether the endpoint may be called: it is up, or down and
// due for its next try.
func (b *breaker) ready() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.health.Down || !b.now().Before(b.health.NextTry)
}

// fail records a failed call and schedules the next try. It reports
// whether the endpoint was up until now.
func (b *breaker) fail(err error) (wasUp bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	h := &b.health
	wasUp = !h.Down
	if wasUp {
		h.Down, h.Since, h.Failures = true, now, 0
	}
	h.Failures++
	wait := retryMax
	if h.Failures <= 10 {
		wait = min(retryFirst<<(h.Failures-1), retryMax)
	}
	wait = time.Duration(float64(wait) * (0.8 + 0.4*b.jitter()))
	h.NextTry, h.Error, h.Fallback = now.Add(wait), err.Error(), "offline"
	return wasUp
}

// succeed records a call that got an answer. It reports whether the
// endpoint was down until now.
func (b *breaker) succeed() (wasDown bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	wasDown = b.health.Down
	b.health = store.EndpointHealth{Name: b.health.Name, Remote: b.health.Remote, URL: b.health.URL, LastOK: b.now()}
	return wasDown
}

// state returns what is known now.
func (b *breaker) state() store.EndpointHealth {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.health
}

// unavailable is the error a call skipped while the endpoint is down
// returns.
func (b *breaker) unavailable() error {
	h := b.state()
	return fmt.Errorf("%w: %s unreachable since %s (%s); next try at %s", ErrEndpointDown, h.Name,
		h.Since.Format(time.TimeOnly), h.Error, h.NextTry.Format(time.TimeOnly))
}

// guardedEmbedder is a remote embedder behind a breaker: every call is
// bounded by timeout, and a failed one marks the endpoint down.
type guardedEmbedder struct {
	embed.Embedder
	b       *breaker
	timeout time.Duration
	log     func(msg string, args ...any)
}

// Embed calls the remote embedder unless it is down and not due; a failure
// that is not the caller's own cancellation marks it down.
func (g *guardedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if !g.b.ready() {
		return nil, g.b.unavailable()
	}
	cctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	vecs, err := g.Embedder.Embed(cctx, texts)
	if err == nil {
		if g.b.succeed() {
			g.log("embedding endpoint answers again", "embedder", g.ID())
		}
		return vecs, nil
	}
	if ctx.Err() != nil {
		return nil, err // stopping: not the endpoint's fault
	}
	if cctx.Err() != nil {
		err = fmt.Errorf("no answer within %v: %w", g.timeout, err)
	}
	return nil, g.failed(err)
}

// probe learns the dimension of a remote embedder that does not know it,
// or checks one that is due for a retry, within timeout.
func (g *guardedEmbedder) probe(ctx context.Context, timeout time.Duration) error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var err error
	if p, ok := g.Embedder.(interface{ Probe(context.Context) error }); ok {
		err = p.Probe(cctx)
	} else {
		_, err = g.Embedder.Embed(cctx, []string{"credence probe"})
	}
	switch {
	case err == nil:
		if g.b.succeed() {
			g.log("embedding endpoint answers again", "embedder", g.ID())
		}
		return nil
	case ctx.Err() != nil:
		return err
	case cctx.Err() != nil:
		err = fmt.Errorf("no answer within %v: %w", timeout, err)
	}
	return g.failed(err)
}

func (g *guardedEmbedder) failed(err error) error {
	if g.b.fail(err) {
		h := g.b.state()
		g.log("embedding endpoint unavailable; using the offline embedder until it answers",
			"embedder", h.Remote, "err", err.Error(), "next_try", h.NextTry)
	}
	return fmt.Errorf("%w: %w", ErrEndpointDown, err)
}

// guardedModel is the LLM behind a breaker: while the endpoint is down,
// calls return ErrEndpointDown at once and the cycle's items fall back to
// offline mode without waiting on it.
type guardedModel struct {
	m   Model
	b   *breaker
	log func(msg string, args ...any)
}

func guard[T any](g *guardedModel, ctx context.Context, call func(context.Context) (T, llm.Usage, error)) (T, llm.Usage, error) {
	var zero T
	if !g.b.ready() {
		return zero, llm.Usage{}, g.b.unavailable()
	}
	out, usage, err := call(ctx)
	switch {
	case err == nil || !endpointFault(err):
		if g.b.succeed() {
			g.log("LLM endpoint answers again")
		}
	case errors.Is(err, context.Canceled):
		// the caller stopped it
	default:
		if g.b.fail(err) {
			h := g.b.state()
			g.log("LLM endpoint unavailable; offline mode takes every item until it answers",
				"err", err.Error(), "next_try", h.NextTry)
		}
		err = fmt.Errorf("%w: %w", ErrEndpointDown, err)
	}
	return out, usage, err
}

// endpointFault reports whether a failed LLM call says the endpoint itself
// is unusable (no answer, a timeout, an overloaded or failing server, a
// rejected key, a wrong URL or model) rather than that one request or
// reply was bad.
func endpointFault(err error) bool {
	var ce *llm.CallError
	if !errors.As(err, &ce) {
		return false // a malformed reply: the endpoint answered
	}
	switch s := ce.StatusCode; {
	case s == 0, s >= 500, s == http.StatusTooManyRequests, s == http.StatusRequestTimeout,
		s == http.StatusUnauthorized, s == http.StatusForbidden, s == http.StatusNotFound:
		return true
	}
	return false
}

func (g *guardedModel) Extract(ctx context.Context, req llm.ExtractRequest) (llm.Extraction, llm.Usage, error) {
	return guard(g, ctx, func(ctx context.Context) (llm.Extraction, llm.Usage, error) { return g.m.Extract(ctx, req) })
}

func (g *guardedModel) Synthesize(ctx context.Context, episodes []string) (llm.Candidate, llm.Usage, error) {
	return guard(g, ctx, func(ctx context.Context) (llm.Candidate, llm.Usage, error) { return g.m.Synthesize(ctx, episodes) })
}

func (g *guardedModel) Classify(ctx context.Context, candidate, existing string) (llm.Judgement, llm.Usage, error) {
	return guard(g, ctx, func(ctx context.Context) (llm.Judgement, llm.Usage, error) {
		return g.m.Classify(ctx, candidate, existing)
	})
}

func (g *guardedModel) Revise(ctx context.Context, statement string, evidence []string) (llm.Candidate, llm.Usage, error) {
	return guard(g, ctx, func(ctx context.Context) (llm.Candidate, llm.Usage, error) {
		return g.m.Revise(ctx, statement, evidence)
	})
}

func (g *guardedModel) Split(ctx context.Context, statement string, evidence []string) ([]llm.Candidate, llm.Usage, error) {
	return guard(g, ctx, func(ctx context.Context) ([]llm.Candidate, llm.Usage, error) {
		return g.m.Split(ctx, statement, evidence)
	})
}
