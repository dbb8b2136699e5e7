package agent

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

// NewConsolidator builds the consolidator the configuration describes: its
// embedder and thresholds, the LLM when one is configured (an API key or a
// base URL, from credence's settings or OPENAI_API_KEY / OPENAI_BASE_URL),
// the budget, and the cycle lock beside the database. The agent and
// `credence consolidate` both use it, so both run the same pipeline under
// the same lock.
func NewConsolidator(ctx context.Context, cfg *config.Config, db *store.DB, log *slog.Logger) (*consolidate.Consolidator, error) {
	emb, err := app.NewEmbedder(cfg)
	if err != nil {
		return nil, err
	}
	if p, ok := emb.(interface{ Probe(context.Context) error }); ok && emb.Dim() == 0 {
		if err := p.Probe(ctx); err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
	}
	var model consolidate.Model
	if cfg.LLMEnabled() {
		c, err := llm.New(llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model,
			Timeout: callTimeout(cfg), MaxRetries: cfg.LLM.MaxRetries})
		if err != nil {
			return nil, err
		}
		model = c
	}
	cc := cfg.Consolidation
	return consolidate.New(consolidate.Options{
		DB: db, Embedder: emb, Thresholds: app.Thresholds(cfg, emb.ID()), Model: model, Logger: log,
		LockPath: filepath.Join(cfg.Paths.DataDir, consolidate.LockFile),
		Budget: consolidate.Budget{Cycle: cc.CycleBudget, MaxClusters: cc.MaxClusters,
			MaxClassifications: cc.MaxClassifications, MinClusterSize: cc.MinClusterSize, CallTimeout: callTimeout(cfg)},
	})
}

// callTimeout is the tighter of the budget's per-call limit and the LLM's
// own request timeout.
func callTimeout(cfg *config.Config) time.Duration {
	d := cfg.Consolidation.LLMCallTimeout
	if t := cfg.LLM.Timeout; t > 0 && (d <= 0 || t < d) {
		d = t
	}
	return d
}

// PromoterFor makes a MEMORY.md promoter the last step of every cycle of a
// consolidator: `credence consolidate` uses it as the agent does.
func PromoterFor(p *promote.Promoter) consolidate.Promoter { return promoterAdapter{p} }

// promoterAdapter lets package promote (which must not import consolidate)
// serve as the consolidation cycle's last step.
type promoterAdapter struct{ p *promote.Promoter }

// Promote runs one promotion cycle and reports it in consolidate's terms.
func (a promoterAdapter) Promote(ctx context.Context) (consolidate.PromotionStats, error) {
	st, err := a.p.Promote(ctx)
	return consolidate.PromotionStats{Promoted: st.Promoted + st.Repromoted, Demoted: st.Demoted,
		Removed: st.Removed, FilesWritten: st.Written}, err
}
