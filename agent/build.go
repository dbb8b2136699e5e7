package agent

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

// NewConsolidator builds the consolidator the configuration describes: its
// embedder and thresholds, the LLM when one is configured (an API key or a
// base URL, from credence's settings or OPENAI_API_KEY / OPENAI_BASE_URL),
// the budget, and the cycle lock beside the database. The agent and
// `credence consolidate` both use it, so both run the same pipeline under
// the same lock. It makes no request: a remote endpoint is first called by
// a cycle, and one that does not answer then is replaced by the offline
// side until it does (consolidate.Options).
func NewConsolidator(cfg *config.Config, db *store.DB, log *slog.Logger) (*consolidate.Consolidator, error) {
	emb, err := app.NewEmbedder(cfg)
	if err != nil {
		return nil, err
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
		EmbedderURL: endpointURL(cfg.Embedder.BaseURL, embed.DefaultOpenAIBaseURL), ModelURL: endpointURL(cfg.LLM.BaseURL, llm.DefaultBaseURL),
		LockPath: filepath.Join(cfg.Paths.DataDir, consolidate.LockFile),
		Budget: consolidate.Budget{Cycle: cc.CycleBudget, MaxClusters: cc.MaxClusters,
			MaxClassifications: cc.MaxClassifications, MinClusterSize: cc.MinClusterSize, CallTimeout: callTimeout(cfg)},
	})
}

// endpointURL is the base URL an endpoint is reached at.
func endpointURL(base, def string) string {
	if base == "" {
		return def
	}
	return base
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
