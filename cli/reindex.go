package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "reindex",
		Usage:   "[--missing] [--drop-old] [--batch n] [--json]",
		Summary: "re-embed every episode and belief with the configured embedder (after changing embedder.kind or model)",
		Run:     runReindex,
	})
}

// reindexReport sums up a reindex.
type reindexReport struct {
	Embedder string   `json:"embedder"`
	Dim      int      `json:"dim"`
	Episodes int      `json:"episodes"`
	Beliefs  int      `json:"beliefs"`
	Dropped  []string `json:"dropped_spaces,omitempty"`
	Seconds  float64  `json:"seconds"`
}

// reindexItem is one text to embed.
type reindexItem struct{ id, text string }

func runReindex(env *Env, args []string) int {
	fs := env.Flags("reindex")
	missing := fs.Bool("missing", false, "embed only what has no vector in the configured embedder's space yet")
	dropOld := fs.Bool("drop-old", false, "after a successful reindex, delete the vectors of every other embedder")
	batch := fs.Int("batch", 64, "texts per embedding request")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || *batch <= 0 {
		fs.Usage()
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("reindex", err)
	}
	defer db.Close()
	emb, err := app.NewEmbedder(cfg)
	if err != nil {
		return env.Fail("reindex", err)
	}
	start := time.Now()
	sp, err := db.EnsureSpace(env.Ctx, emb.ID(), emb.Dim())
	if err != nil {
		return env.Fail("reindex", err)
	}
	items, nEpisodes, err := reindexItems(env.Ctx, db, sp, *missing)
	if err != nil {
		return env.Fail("reindex", err)
	}
	rep := reindexReport{Embedder: emb.ID(), Dim: emb.Dim(), Episodes: nEpisodes, Beliefs: len(items) - nEpisodes}
	bar := newProgressBar(env, "embedding", len(items))
	for i := 0; i < len(items); i += *batch {
		chunk := items[i:min(i+*batch, len(items))]
		if err := embedChunk(env.Ctx, db, emb, sp, chunk); err != nil {
			bar.Finish()
			return env.Fail("reindex", fmt.Errorf("%w; what was embedded is kept, run `credence reindex --missing` to continue", err))
		}
		bar.Add(len(chunk), "")
	}
	bar.Finish()
	if *dropOld {
		spaces, err := db.Spaces(env.Ctx)
		if err != nil {
			return env.Fail("reindex", err)
		}
		for _, other := range spaces {
			if other.EmbedderID == sp.EmbedderID {
				continue
			}
			if err := db.DropSpace(env.Ctx, other); err != nil {
				return env.Fail("reindex", err)
			}
			rep.Dropped = append(rep.Dropped, other.EmbedderID)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		return env.JSON(rep)
	}
	env.Printf("embedded %s and %s with %s (%d dimensions) in %s\n", plural.Count(rep.Episodes, "episode"),
		plural.Count(rep.Beliefs, "belief"), rep.Embedder, rep.Dim, time.Since(start).Round(time.Millisecond))
	for _, d := range rep.Dropped {
		env.Printf("dropped the vectors of %s\n", d)
	}
	return 0
}

// reindexItems lists the live episodes and beliefs to embed, episodes first;
// with onlyMissing, just those without a vector in sp.
func reindexItems(ctx context.Context, db *store.DB, sp store.Space, onlyMissing bool) ([]reindexItem, int, error) {
	want := func(string) bool { return true }
	if onlyMissing {
		need := map[string]bool{}
		for _, kind := range []string{"episodes", "beliefs"} {
			idList, err := db.Unembedded(ctx, sp, kind, 1<<30)
			if err != nil {
				return nil, 0, err
			}
			for _, id := range idList {
				need[id] = true
			}
		}
		want = func(id string) bool { return need[id] }
	}
	var items []reindexItem
	for seq := int64(0); ; {
		eps, err := db.EpisodesAfter(ctx, seq, 1000)
		if err != nil {
			return nil, 0, err
		}
		if len(eps) == 0 {
			break
		}
		for _, e := range eps {
			if want(e.ID) && e.Content != "" {
				items = append(items, reindexItem{e.ID, e.Content})
			}
			seq = e.Seq
		}
	}
	nEpisodes := len(items)
	bs, err := db.Beliefs(ctx, store.Filter{})
	if err != nil {
		return nil, 0, err
	}
	for _, b := range bs {
		if b.Status != belief.Forgotten && b.Statement != "" && want(b.ID) {
			items = append(items, reindexItem{b.ID, b.Statement})
		}
	}
	return items, nEpisodes, nil
}

// embedChunk embeds one batch of texts and stores the vectors.
func embedChunk(ctx context.Context, db *store.DB, emb embed.Embedder, sp store.Space, chunk []reindexItem) error {
	texts := make([]string, len(chunk))
	for i, it := range chunk {
		texts[i] = it.text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	if len(vecs) != len(chunk) {
		return fmt.Errorf("embed: %d vectors for %d texts", len(vecs), len(chunk))
	}
	vs := make([]store.Vector, len(chunk))
	for i, it := range chunk {
		vs[i] = store.Vector{ID: it.id, Vec: vecs[i]}
	}
	return db.PutVectors(ctx, sp, vs)
}
