package consolidate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// Modes of consolidation.
const (
	ModeOffline = "offline"
	ModeLLM     = "llm"
)

// Model is the language model LLM mode asks; *llm.Client implements it.
// Every method reports what it cost, also when it fails.
type Model interface {
	Extract(ctx context.Context, req llm.ExtractRequest) (llm.Extraction, llm.Usage, error)
	Synthesize(ctx context.Context, episodes []string) (llm.Candidate, llm.Usage, error)
	Classify(ctx context.Context, candidate, existing string) (llm.Judgement, llm.Usage, error)
	Revise(ctx context.Context, statement string, evidence []string) (llm.Candidate, llm.Usage, error)
	Split(ctx context.Context, statement string, evidence []string) ([]llm.Candidate, llm.Usage, error)
}

// PromotionStats is what one promotion pass changed in the MEMORY.md files.
type PromotionStats struct {
	Promoted     int `json:"promoted"`
	Demoted      int `json:"demoted"`
	Removed      int `json:"removed"`
	FilesWritten int `json:"files_written"`
}

// Promoter keeps MEMORY.md in step with the strongest beliefs; package
// promote implements it. A cycle calls it last, after the lifecycle gates.
type Promoter interface {
	Promote(ctx context.Context) (PromotionStats, error)
}

// Budget bounds one cycle (DESIGN §5). When Cycle runs out, or more
// clusters are waiting than MaxClusters, progress is saved and the next
// cycle resumes.
type Budget struct {
	Cycle              time.Duration // wall time of a cycle; default 2 min
	MaxClusters        int           // clusters synthesized per cycle; default 10
	MaxClassifications int           // beliefs classified per candidate; default 5
	MinClusterSize     int           // episodes a cluster needs; default 3
	CallTimeout        time.Duration // each LLM call; default 10 s
	// BatchSize is how many episodes one offline transaction applies; an
	// LLM-mode episode always gets its own. Default 128: a batch holds the
	// write lock for about a tenth of a second.
	BatchSize int
	// PoolSize is how many extracted episodes wait for a cluster; older ones
	// retire. Default 1000.
	PoolSize int
}

// DefaultBudget returns the seeds' budget.
func DefaultBudget() Budget {
	return Budget{Cycle: 2 * time.Minute, MaxClusters: 10, MaxClassifications: 5, MinClusterSize: 3,
		CallTimeout: 10 * time.Second, BatchSize: 128, PoolSize: 1000}
}

func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	if b.Cycle <= 0 {
		b.Cycle = d.Cycle
	}
	if b.MaxClusters <= 0 {
		b.MaxClusters = d.MaxClusters
	}
	if b.MaxClassifications <= 0 {
		b.MaxClassifications = d.MaxClassifications
	}
	if b.MinClusterSize <= 0 {
		b.MinClusterSize = d.MinClusterSize
	}
	if b.CallTimeout <= 0 {
		b.CallTimeout = d.CallTimeout
	}
	if b.BatchSize <= 0 {
		b.BatchSize = d.BatchSize
	}
	if b.PoolSize <= 0 {
		b.PoolSize = d.PoolSize
	}
	return b
}

// Options configure a Consolidator.
type Options struct {
	DB *store.DB
	// Embedder is the configured embedder and Thresholds its thresholds.
	// A remote one (any whose ID does not start with "offline") sits
	// behind a breaker: while it fails, cycles use Fallback, with
	// Fallback's calibrated thresholds, and it is tried again later.
	Embedder   embed.Embedder
	Thresholds embed.Thresholds
	// Fallback stands in for a remote Embedder that does not answer;
	// default the offline embedder.
	Fallback embed.Embedder
	// EmbedderURL and ModelURL say where the remote endpoints are, for
	// Endpoints.
	EmbedderURL, ModelURL string
	// ProbeTimeout bounds the call that checks a remote embedder before a
	// cycle uses it (when its dimension is unknown, or it is due for a
	// retry); default 3 s.
	ProbeTimeout time.Duration
	// Model turns LLM mode on; nil means offline mode. It sits behind a
	// breaker too: while its endpoint fails, every item falls back to
	// offline mode at once.
	Model    Model
	Promoter Promoter
	Budget   Budget
	Logger   *slog.Logger
	// LockPath is the file that keeps two cycles from running at once,
	// shared by the agent and `credence consolidate`; default
	// consolidate.lock beside the database.
	LockPath string
	// Clock measures the budget; default time.Now. Tests advance it to run
	// the budget out without waiting.
	Clock func() time.Time
}

// Consolidator runs consolidation cycles over one database.
type Consolidator struct {
	opts Options
	// vecs remembers episode vectors computed for clustering, so the pool
	// is not embedded again every cycle; a cycle runs under the cycle lock,
	// one at a time, so it needs no mutex.
	vecs map[string][]float32
	// poolAll makes the next clustering pass read the whole pool (after a
	// start, or a pass cut short); otherwise it reads only the projects in
	// poolDirty, whose pool gained episodes since.
	poolAll   bool
	poolDirty map[string]bool
	// vecsOf is the embedder whose vectors vecs holds.
	vecsOf string
	// remote is the configured embedder when it is remote, behind its
	// breaker, and fallback with fallbackTh what stands in for it.
	remote     *guardedEmbedder
	fallback   embed.Embedder
	fallbackTh embed.Thresholds
	model      *guardedModel
}

// defaultProbeTimeout bounds a remote embedder's check before a cycle.
const defaultProbeTimeout = 3 * time.Second

// New checks opts and returns a Consolidator.
func New(opts Options) (*Consolidator, error) {
	if opts.DB == nil || opts.Embedder == nil {
		return nil, errors.New("new consolidator: a database and an embedder are required")
	}
	if opts.Thresholds == (embed.Thresholds{}) {
		opts.Thresholds = embed.ThresholdsFor(opts.Embedder.ID())
	}
	opts.Budget = opts.Budget.withDefaults()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.LockPath == "" {
		opts.LockPath = filepath.Join(filepath.Dir(opts.DB.Path()), LockFile)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = defaultProbeTimeout
	}
	c := &Consolidator{opts: opts, vecs: map[string][]float32{}, poolAll: true, poolDirty: map[string]bool{}}
	logWarn := func(msg string, args ...any) { opts.Logger.Warn(msg, args...) }
	if isRemote(opts.Embedder) {
		c.remote = &guardedEmbedder{Embedder: opts.Embedder, b: newBreaker(EndpointEmbedder, opts.Embedder.ID(), opts.EmbedderURL, time.Now),
			timeout: opts.Budget.CallTimeout, log: logWarn}
		c.fallback = opts.Fallback
		if c.fallback == nil {
			c.fallback = embed.NewOffline()
		}
		c.fallbackTh = embed.ThresholdsFor(c.fallback.ID())
	}
	if opts.Model != nil {
		name := "llm"
		if n, ok := opts.Model.(interface{ Model() string }); ok {
			name = n.Model()
		}
		c.model = &guardedModel{m: opts.Model, b: newBreaker(EndpointLLM, name, opts.ModelURL, time.Now), log: logWarn}
		c.opts.Model = c.model
	}
	return c, nil
}

// isRemote reports whether an embedder calls out (and can fail to answer).
func isRemote(e embed.Embedder) bool { return !embed.Local(e.ID()) }

// Endpoints returns what is known of the remote endpoints in use: the
// embedder's when it is remote and the LLM's in LLM mode.
func (c *Consolidator) Endpoints() []store.EndpointHealth {
	var out []store.EndpointHealth
	if c.remote != nil {
		h := c.remote.b.state()
		h.Remote = c.remote.ID() // its dimension may have been learned since
		out = append(out, h)
	}
	if c.model != nil {
		out = append(out, c.model.b.state())
	}
	return out
}

// runEmbedder returns the embedder a cycle uses, with its thresholds: the
// configured one, unless it is remote and down — or, checked now because
// its dimension is unknown or it is due for a retry, does not answer within
// ProbeTimeout — in which case the fallback.
func (c *Consolidator) runEmbedder(ctx context.Context) (embed.Embedder, embed.Thresholds, bool) {
	g := c.remote
	if g == nil {
		return c.opts.Embedder, c.opts.Thresholds, false
	}
	if g.b.ready() {
		if g.Dim() > 0 && !g.b.state().Down {
			return g, c.opts.Thresholds, false
		}
		if g.probe(ctx, c.opts.ProbeTimeout) == nil {
			return g, c.opts.Thresholds, false
		}
	}
	return c.fallback, c.fallbackTh, true
}

// Mode reports ModeLLM when a model is configured, else ModeOffline.
func (c *Consolidator) Mode() string {
	if c.opts.Model != nil {
		return ModeLLM
	}
	return ModeOffline
}

// SetPromoter plugs in the promotion step (package promote).
func (c *Consolidator) SetPromoter(p Promoter) { c.opts.Promoter = p }

// LockPath returns the file the cycle lock is held on.
func (c *Consolidator) LockPath() string { return c.opts.LockPath }

// Pending returns how many of this machine's episodes wait to be
// consolidated.
func (c *Consolidator) Pending(ctx context.Context) (int, error) {
	return PendingEpisodes(ctx, c.opts.DB)
}

// PendingEpisodes returns how many of this machine's episodes no cycle has
// consolidated yet, for readers without a Consolidator (credence status).
func PendingEpisodes(ctx context.Context, db *store.DB) (int, error) {
	seq, err := checkpoint(ctx, db)
	if err != nil {
		return 0, err
	}
	return db.CountLocalEpisodesAfter(ctx, db.MachineID(), seq)
}

// Run takes the cycle lock and runs one cycle. It returns ErrBusy at once
// when another cycle (the agent's or a `credence consolidate`) holds the
// lock. A cycle stopped by its budget or by ctx saves its progress and
// reports Status "checkpointed"; the next cycle resumes after the last
// episode it applied.
func (c *Consolidator) Run(ctx context.Context, trigger string) (Stats, error) {
	unlock, err := TryLock(c.opts.LockPath)
	if err != nil {
		return Stats{}, err
	}
	defer unlock()
	return c.RunLocked(ctx, trigger)
}

// RunLocked runs one cycle; the caller holds the cycle lock (see Lock).
func (c *Consolidator) RunLocked(ctx context.Context, trigger string) (Stats, error) {
	r, err := c.newRun(ctx, trigger)
	if err != nil {
		return Stats{}, err
	}
	err = r.execute(ctx)
	return r.finish(ctx, err)
}

// checkpoint reads the sequence number consolidation has reached.
func checkpoint(ctx context.Context, db *store.DB) (int64, error) {
	v, err := db.Meta(ctx, store.MetaConsolidationCheckpoint)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var seq int64
	if _, err := fmt.Sscan(v, &seq); err != nil {
		return 0, nil // an unreadable checkpoint only costs a longer scan
	}
	return seq, nil
}
