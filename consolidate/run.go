package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// errBudget stops a phase when the cycle's time is up.
var errBudget = errors.New("cycle budget exhausted")

// cycleRun is the state of one cycle.
type cycleRun struct {
	c         *Consolidator
	db        *store.DB
	params    belief.Params
	turn      int64
	exclusive map[string]bool
	deadline  time.Time
	stats     Stats
	affected  map[string]bool // beliefs that got evidence or changed status
	index     *beliefIndex    // active beliefs with vectors, loaded on demand
	// emb is the embedder this cycle uses and th its thresholds: the
	// configured ones, or the fallback's while a remote embedder is down
	// (stats.EmbedderFallback), whose vectors are computed, never stored.
	emb embed.Embedder
	th  embed.Thresholds
	// dedupeVecs caches emb's vectors of the statements dedupe compared
	// (dedupe.go), by text.
	dedupeVecs map[string][]float32
}

func (c *Consolidator) newRun(ctx context.Context, trigger string) (*cycleRun, error) {
	db := c.opts.DB
	start := c.opts.Clock()
	r := &cycleRun{c: c, db: db, params: db.Params(), deadline: start.Add(c.opts.Budget.Cycle),
		affected: map[string]bool{}}
	r.stats = Stats{CycleID: ids.New(cyclePrefix), Trigger: trigger, Mode: c.Mode(), Status: store.CycleRunning, StartedAt: db.Now()}
	r.emb, r.th, r.stats.EmbedderFallback = c.runEmbedder(ctx)
	r.stats.Embedder = r.emb.ID()
	var err error
	if r.turn, err = db.CurrentTurn(ctx); err != nil {
		return nil, err
	}
	if r.exclusive, err = db.ExclusivePredicates(ctx); err != nil {
		return nil, err
	}
	// The lock is held: a cycle still marked running died with its process.
	if _, err := db.AbandonCycles(ctx, "the process running it stopped"); err != nil {
		return nil, err
	}
	if err := db.SaveCycle(ctx, r.cycleRecord()); err != nil {
		return nil, err
	}
	return r, nil
}

// execute runs the phases in order. Running out of budget or being
// cancelled ends the cycle early but is not an error: progress is kept.
func (r *cycleRun) execute(ctx context.Context) error {
	phases := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"extract", r.extractPhase},
		{"cluster", r.clusterPhase},
		{"lifecycle", r.lifecyclePhase},
		{"archive", r.archivePhase},
		{"promote", r.promotePhase},
	}
	for _, p := range phases {
		if err := r.stop(ctx); err != nil {
			r.c.opts.Logger.Info("consolidation stopped early", "cycle", r.stats.CycleID, "before", p.name, "reason", err.Error())
			r.stats.Checkpointed = true
			return nil
		}
		err := p.fn(ctx)
		if errors.Is(err, ErrEndpointDown) && ctx.Err() == nil && r.useFallback() {
			// The remote embedder stopped answering half way: the phase
			// resumes, as after a crash, on the fallback's vectors.
			r.c.opts.Logger.Warn("embedder lost during the cycle; the phase goes on with the offline embedder",
				"cycle", r.stats.CycleID, "phase", p.name)
			err = p.fn(ctx)
		}
		if err != nil {
			if errors.Is(err, errBudget) || ctx.Err() != nil {
				r.stats.Checkpointed = true
				r.c.opts.Logger.Info("consolidation stopped early", "cycle", r.stats.CycleID, "in", p.name, "reason", err.Error())
				return nil
			}
			return err
		}
	}
	return nil
}

// useFallback switches the cycle to the fallback embedder, dropping what
// it computed with the other one; it reports false when there is none to
// switch to.
func (r *cycleRun) useFallback() bool {
	if r.c.fallback == nil || r.stats.EmbedderFallback {
		return false
	}
	r.emb, r.th, r.stats.EmbedderFallback = r.c.fallback, r.c.fallbackTh, true
	r.stats.Embedder = r.emb.ID()
	r.invalidate()
	r.dedupeVecs = nil
	return true
}

// stop reports why the cycle must stop now, or nil.
func (r *cycleRun) stop(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !r.c.opts.Clock().Before(r.deadline) {
		return errBudget
	}
	return nil
}

// finish records the cycle's outcome.
func (r *cycleRun) finish(ctx context.Context, runErr error) (Stats, error) {
	r.stats.FinishedAt = r.db.Now()
	switch {
	case runErr != nil:
		r.stats.Status, r.stats.Error = store.CycleFailed, runErr.Error()
	case r.stats.Checkpointed || r.stats.ClustersDeferred > 0:
		r.stats.Status = store.CycleCheckpointed
	default:
		r.stats.Status = store.CycleDone
	}
	if n, err := r.c.Pending(context.WithoutCancel(ctx)); err == nil {
		r.stats.Remaining = n
	}
	for _, h := range r.c.Endpoints() {
		if h.Down {
			r.stats.Endpoints = append(r.stats.Endpoints, h)
		}
	}
	// Record even when ctx is cancelled: a stopping agent still says what
	// its last cycle did.
	if err := r.db.SaveCycle(context.WithoutCancel(ctx), r.cycleRecord()); err != nil && runErr == nil {
		runErr = err
	}
	log := r.c.opts.Logger
	log.Info("consolidation cycle", "cycle", r.stats.CycleID, "status", r.stats.Status, "mode", r.stats.Mode,
		"episodes", r.stats.Episodes, "created", r.stats.BeliefsCreated, "reinforced", r.stats.Reinforced,
		"contradicted", r.stats.Contradicted, "superseded", r.stats.Superseded, "clusters", r.stats.Clusters,
		"prompt_tokens", r.stats.LLM.PromptTokens, "completion_tokens", r.stats.LLM.CompletionTokens,
		"fallbacks", r.stats.LLMFallbacks, "embedder", r.stats.Embedder, "remaining", r.stats.Remaining)
	return r.stats, runErr
}

func (r *cycleRun) cycleRecord() store.Cycle {
	b, _ := json.Marshal(r.stats)
	c := store.Cycle{ID: r.stats.CycleID, Trigger: r.stats.Trigger, Mode: r.stats.Mode, Status: r.stats.Status,
		StartedAt: r.stats.StartedAt.UnixMilli(), Episodes: r.stats.Episodes, PromptTokens: r.stats.LLM.PromptTokens,
		CompletionTokens: r.stats.LLM.CompletionTokens, Stats: string(b), Error: r.stats.Error}
	if !r.stats.FinishedAt.IsZero() {
		c.FinishedAt = r.stats.FinishedAt.UnixMilli()
	}
	return c
}

// conf is a belief's decayed confidence now.
func (r *cycleRun) conf(b store.Belief) float64 {
	return b.Confidence(r.params, r.db.Now(), r.turn)
}

// snapshot is what the lifecycle gates look at.
func (r *cycleRun) snapshot(b store.Belief) belief.Snapshot {
	return belief.Snapshot{State: b.State, Confidence: r.conf(b)}
}

func (r *cycleRun) touch(id string) { r.affected[id] = true }

func (r *cycleRun) account(u llm.Usage) { r.stats.LLM = r.stats.LLM.Add(u) }

// fallback records that an LLM call failed and offline mode took the item.
// While the endpoint is down (ErrEndpointDown) that is logged once, when it
// goes down, not for every item.
func (r *cycleRun) fallback(task, item string, err error) {
	r.stats.LLMFallbacks++
	if errors.Is(err, ErrEndpointDown) {
		return
	}
	r.c.opts.Logger.Warn("llm call failed; offline mode takes the item", "task", task, "item", item, "err", err.Error())
}

// callContext bounds one LLM call by the per-call timeout and the cycle's
// deadline, whichever comes first.
func (r *cycleRun) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	d := r.c.opts.Budget.CallTimeout
	if left := r.deadline.Sub(r.c.opts.Clock()); left < d {
		d = max(left, time.Millisecond)
	}
	return context.WithTimeout(ctx, d)
}

// saveCheckpoint records the last episode sequence number applied.
func (r *cycleRun) saveCheckpoint(ctx context.Context, seq int64) error {
	return r.db.SetMeta(context.WithoutCancel(ctx), store.MetaConsolidationCheckpoint, strconv.FormatInt(seq, 10))
}
