package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// userPromptSubmit records the prompt (redacted) as an episode of a new
// turn, then recalls what bears on it and prints that as additionalContext.
// A failed write (a locked database) is logged and recall still runs: the
// reads work under WAL, and the prompt is still kept out of its own
// context by comparing texts.
func (h *handler) userPromptSubmit(ctx context.Context, in Input) error {
	if strings.TrimSpace(in.Prompt) == "" {
		return nil
	}
	text := storable(in.Prompt)
	project := h.project(in.Cwd)
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	var episodeID string
	err = db.Write(ctx, func(tx *store.Tx) error {
		turn, err := tx.NextTurn(ctx)
		if err != nil {
			return err
		}
		ep := &store.Episode{SessionID: in.SessionID, ProjectPath: project, Kind: store.EpisodePrompt, Content: text, Turn: turn}
		if _, err := tx.AddEpisode(ctx, ep); err != nil {
			return err
		}
		episodeID = ep.ID
		if in.SessionID == "" {
			return nil
		}
		return tx.SaveSession(ctx, store.Session{ID: in.SessionID, ProjectPath: project, TranscriptPath: in.TranscriptPath, LastPromptID: ep.ID})
	})
	stored := err == nil
	if err != nil {
		episodeID = ""
		h.log.Warn("store prompt; recalling anyway", "err", safe(err))
	}
	r, err := h.recaller(db)
	if err != nil {
		return err
	}
	res, err := r.Recall(ctx, recall.Query{Text: text, Project: project, Exclude: []string{episodeID}})
	if err != nil {
		return fmt.Errorf("recall: %w", err)
	}
	if res.Lexical != "" {
		h.log.Debug("recall fell back to BM25", "why", res.Lexical)
	}
	if err := h.emit(ctx, recall.Render(res, r.Opts.BudgetChars, r.Opts.MaxChars)); err != nil {
		return err
	}
	if stored && len(res.Beliefs) > 0 {
		if err := db.Touch(ctx, h.now(), res.BeliefIDs()...); err != nil {
			return fmt.Errorf("record belief access: %w", err)
		}
	}
	return nil
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
		r.Cache = h.shared.cache
	}
	return r, nil
}
