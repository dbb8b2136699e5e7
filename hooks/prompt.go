package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// userPromptSubmit recalls what bears on the prompt and prints it as
// additionalContext, then records the prompt (redacted) as an episode of a
// new turn. Recall comes first because what Claude is told does not depend
// on the write: the agent replies while it stores the prompt, and the
// prompt cannot be recalled to itself. A failed write (a locked database)
// is logged and does not take the context away.
func (h *handler) userPromptSubmit(ctx context.Context, in Input) error {
	if strings.TrimSpace(in.Prompt) == "" {
		return nil
	}
	text := Storable(in.Prompt)
	project := h.project(in.Cwd)
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	r, err := h.recaller(db)
	if err != nil {
		return err
	}
	res, recallErr := r.Recall(ctx, recall.Query{Text: text, Project: project})
	var emitErr error
	if recallErr == nil {
		if res.Lexical != "" {
			h.log.Debug("recall fell back to BM25", "why", res.Lexical)
		}
		emitErr = h.emit(ctx, recall.Render(res, r.Opts.BudgetChars, r.Opts.MaxChars))
	}
	err = db.Write(ctx, func(tx *store.Tx) error {
		turn, err := tx.NextTurn(ctx)
		if err != nil {
			return err
		}
		ep := &store.Episode{SessionID: in.SessionID, ProjectPath: project, Kind: store.EpisodePrompt, Content: text, Turn: turn}
		if _, err := tx.AddEpisode(ctx, ep); err != nil {
			return err
		}
		if in.SessionID == "" {
			return nil
		}
		return tx.SaveSession(ctx, store.Session{ID: in.SessionID, ProjectPath: project, TranscriptPath: in.TranscriptPath, LastPromptID: ep.ID})
	})
	switch {
	case err != nil:
		h.log.Warn("store prompt", "err", safe(err))
	case recallErr == nil && len(res.Beliefs) > 0:
		if err := db.Touch(ctx, h.now(), res.BeliefIDs()...); err != nil {
			h.log.Warn("record belief access", "err", safe(err))
		}
	}
	if recallErr != nil {
		return fmt.Errorf("recall: %w", recallErr)
	}
	return emitErr
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
	}
	return r, nil
}
