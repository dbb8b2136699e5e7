package synth

import (
	"context"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// batchSize is how many rows go in one write transaction while loading.
const batchSize = 500

// LoadOptions say what Load writes besides episodes and beliefs.
type LoadOptions struct {
	// Embedder, when set, embeds every episode and belief into its space,
	// as the agent would have.
	Embedder embed.Embedder
	// NoVectorIndex drops libSQL's vector index on the space's tables
	// before the vectors go in: recall does not use it, and maintaining it
	// makes loading 100,000 vectors take hours here.
	NoVectorIndex bool
	// Progress, when set, is called after each batch.
	Progress func(done, total int)
}

// Load writes a history into db: episodes with their sessions and times,
// beliefs with their evidence and, with opts.Embedder, their vectors. It
// returns the database ID of every key.
func Load(ctx context.Context, db *store.DB, h History, opts LoadOptions) (map[string]string, error) {
	progress := opts.Progress
	idOf := make(map[string]string, len(h.Episodes)+len(h.Beliefs))
	total := len(h.Episodes) + len(h.Beliefs)
	for start := 0; start < len(h.Episodes); start += batchSize {
		batch := h.Episodes[start:min(start+batchSize, len(h.Episodes))]
		err := db.Write(ctx, func(tx *store.Tx) error {
			for _, e := range batch {
				ep := &store.Episode{SessionID: e.SessionID, ProjectPath: e.Project, Kind: e.Kind, Content: e.Text, CreatedAt: e.CreatedAt}
				if e.Kind == store.EpisodePrompt {
					if _, err := tx.NextTurn(ctx); err != nil {
						return err
					}
				}
				if _, err := tx.AddEpisode(ctx, ep); err != nil {
					return err
				}
				idOf[e.Key] = ep.ID
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("load episodes: %w", err)
		}
		if progress != nil {
			progress(start+len(batch), total)
		}
	}
	for start := 0; start < len(h.Beliefs); start += batchSize {
		batch := h.Beliefs[start:min(start+batchSize, len(h.Beliefs))]
		err := db.Write(ctx, func(tx *store.Tx) error {
			for _, b := range batch {
				id, err := tx.CreateBelief(ctx, b.Spec)
				if err != nil {
					return err
				}
				for i := 0; i < b.Supports+b.Contradicts; i++ {
					label := belief.Supports
					if i >= b.Supports {
						label = belief.Contradicts
					}
					ev := store.Evidence{BeliefID: id, Source: "synth", Label: label, Support: label.DefaultSupport(), Reliability: 1}
					if _, err := tx.AddEvidence(ctx, ev); err != nil {
						return err
					}
				}
				idOf[b.Key] = id
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("load beliefs: %w", err)
		}
		if progress != nil {
			progress(len(h.Episodes)+start+len(batch), total)
		}
	}
	if opts.Embedder == nil {
		return idOf, nil
	}
	if err := embedAll(ctx, db, h, opts, idOf); err != nil {
		return nil, err
	}
	return idOf, nil
}

// embedAll stores a vector for every episode and belief.
func embedAll(ctx context.Context, db *store.DB, h History, opts LoadOptions, idOf map[string]string) error {
	emb, progress := opts.Embedder, opts.Progress
	sp, err := db.EnsureSpace(ctx, emb.ID(), emb.Dim())
	if err != nil {
		return err
	}
	if opts.NoVectorIndex {
		for _, kind := range []string{"episodes", "beliefs"} {
			if _, err := db.SQL().ExecContext(ctx, `DROP INDEX IF EXISTS vec_`+sp.Name+`_`+kind+`_idx`); err != nil {
				return fmt.Errorf("drop vector index: %w", err)
			}
		}
	}
	type item struct{ key, text string }
	items := make([]item, 0, len(h.Episodes)+len(h.Beliefs))
	for _, e := range h.Episodes {
		items = append(items, item{e.Key, e.Text})
	}
	for _, b := range h.Beliefs {
		items = append(items, item{b.Key, b.Spec.Statement})
	}
	for start := 0; start < len(items); start += batchSize {
		batch := items[start:min(start+batchSize, len(items))]
		texts := make([]string, len(batch))
		for i, it := range batch {
			texts[i] = it.text
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("embed history: %w", err)
		}
		vs := make([]store.Vector, len(batch))
		for i, it := range batch {
			vs[i] = store.Vector{ID: idOf[it.key], Vec: vecs[i]}
		}
		if err := db.PutVectors(ctx, sp, vs); err != nil {
			return fmt.Errorf("store vectors: %w", err)
		}
		if progress != nil {
			progress(start+len(batch), len(items))
		}
	}
	return nil
}

// Describe summarizes a history's size for reports.
func (h History) Describe() string {
	var prompts, exchanges, bytes int
	for _, e := range h.Episodes {
		bytes += len(e.Text)
		if strings.EqualFold(e.Kind, "prompt") {
			prompts++
		} else {
			exchanges++
		}
	}
	return fmt.Sprintf("%d projects, %d episodes (%d prompts, %d exchanges, %.1f MB of text), %d beliefs, %d queries",
		len(h.Projects), len(h.Episodes), prompts, exchanges, float64(bytes)/1e6, len(h.Beliefs), len(h.Queries))
}
