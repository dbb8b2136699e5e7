package hooks

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// userPromptSubmit recalls what bears on the prompt and prints it as
// additionalContext, then records the prompt (redacted) as an episode of a
// new turn. The write is prepared first (receive), so the prompt is stored
// or spooled whatever happens after; recall comes before the write
// because what Claude is told does not depend on it: the agent replies
// while it stores the prompt, and the prompt cannot be recalled to itself.
// Recall gives up at the budget; storing does not (hookrelay.StoreGrace,
// then the spool).
func (h *handler) userPromptSubmit(ctx context.Context, in Input) error {
	rec := h.receive(in)
	if rec == nil {
		return nil
	}
	h.rememberPrompt(rec)
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	var res recalled
	var recallErr, emitErr error
	if rctx, cancel := context.WithDeadline(ctx, h.deadline); rctx.Err() == nil {
		res, recallErr = h.recall(rctx, db, rec)
		if recallErr == nil {
			emitErr = h.emit(rctx, res.rendered)
		}
		cancel()
	} else {
		cancel()
		recallErr = fmt.Errorf("no time left for recall: %w", rctx.Err())
	}
	if err := h.store(ctx, db, rec); err != nil {
		return err
	}
	if recallErr == nil && len(res.BeliefIDs()) > 0 {
		if err := db.Touch(ctx, h.now(), res.BeliefIDs()...); err != nil {
			h.log.Warn("record belief access", "err", safe(err))
		}
	}
	if recallErr != nil {
		return fmt.Errorf("recall: %w", recallErr)
	}
	return emitErr
}

// recalled is a recall result with its rendering.
type recalled struct {
	recall.Result
	rendered string
}

// recall searches for what bears on the prompt and renders it.
func (h *handler) recall(ctx context.Context, db *store.DB, rec *spoolRecord) (recalled, error) {
	r, err := h.recaller(db)
	if err != nil {
		return recalled{}, err
	}
	if h.log.Enabled(ctx, slog.LevelDebug) {
		// Where a prompt's time goes (scripts/bench-hooks.sh reads it).
		var mu sync.Mutex
		var attrs []any
		r.Trace = func(stage string, d time.Duration) {
			mu.Lock()
			attrs = append(attrs, strings.ReplaceAll(stage, " ", "_")+"_us", d.Microseconds())
			mu.Unlock()
		}
		defer func() { h.log.Debug("recall stages", attrs...) }()
	}
	res, err := r.Recall(ctx, recall.Query{Text: rec.Content, Project: rec.Project})
	if err != nil {
		return recalled{}, err
	}
	if res.Lexical != "" {
		h.log.Debug("recall fell back to BM25", "why", res.Lexical)
	}
	return recalled{Result: res, rendered: recall.Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)}, nil
}

// recaller builds the recall engine for the configured embedder. Without
// a usable embedder recall is lexical.
func (h *handler) recaller(db *store.DB) (*recall.Recaller, error) {
	emb, err := h.queryEmbedder()
	id := "offline-v1"
	if err != nil {
		h.log.Warn("embedder unavailable; recall is lexical", "err", safe(err))
		emb = nil
	} else {
		id = emb.ID()
	}
	r := &recall.Recaller{DB: db, Embedder: emb, Opts: recall.FromConfig(h.cfg, id), Now: h.now}
	if h.shared != nil {
		r.Cache, r.SideBySide = h.shared.cache, true
	} else {
		r.OneShot = true
	}
	return r, nil
}
