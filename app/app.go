package app

import (
	"context"
	"fmt"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// Options say where to load the config from; zero values mean the real
// environment. Tests point Home (and Env's HOME) at a temporary directory.
type Options struct {
	Home      string
	Env       func(string) string
	Overrides map[string]string
}

// LoadConfig loads and validates the configuration.
func LoadConfig(opts Options) (*config.Config, error) {
	return config.Load(config.LoadOptions{Home: opts.Home, Env: opts.Env, Overrides: opts.Overrides})
}

// OpenStore opens the configured database with the configured belief
// constants. busy bounds how long a statement waits for another writer.
func OpenStore(ctx context.Context, cfg *config.Config, busy time.Duration) (*store.DB, error) {
	p := cfg.BeliefParams()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg.Paths.Database, store.Options{BusyTimeout: busy, Params: p})
}

// NewEmbedder builds the configured embedder: "offline" (the default) is the
// built-in static-v1 (word vectors with hashed features), "hashed" its
// hashed features alone (offline-v1). The OpenAI-compatible one makes no
// request until it is used.
func NewEmbedder(cfg *config.Config) (embed.Embedder, error) {
	switch cfg.Embedder.Kind {
	case "", "offline":
		return embed.NewStatic()
	case "hashed":
		return embed.NewOffline(), nil
	case "openai":
		e, err := embed.NewOpenAI(embed.OpenAIConfig{
			BaseURL:    cfg.Embedder.BaseURL,
			APIKey:     cfg.Embedder.APIKey,
			Model:      cfg.Embedder.Model,
			Dimensions: cfg.Embedder.Dimensions,
			MaxRetries: cfg.LLM.MaxRetries,
		})
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		return e, nil
	}
	return nil, fmt.Errorf("embedder.kind: unknown kind %q; use \"offline\", \"hashed\" or \"openai\"", cfg.Embedder.Kind)
}

// Thresholds returns the cosine thresholds for vectors of the given
// embedder: its calibrated values, with any set in the config winning.
func Thresholds(cfg *config.Config, embedderID string) embed.Thresholds {
	t := embed.ThresholdsFor(embedderID)
	c := cfg.Consolidation
	for _, o := range []struct {
		v   float64
		dst *float64
	}{{c.ClusterThreshold, &t.Cluster}, {c.RelatedThreshold, &t.Related}, {c.ReinforceThreshold, &t.Reinforce}, {c.DedupeThreshold, &t.Dedupe}} {
		if o.v > 0 {
			*o.dst = o.v
		}
	}
	if cfg.Belief.MergeMinSimilarity > 0 {
		t.Merge = cfg.Belief.MergeMinSimilarity
	}
	return t
}
