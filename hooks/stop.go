package hooks

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// stopSketchLimit bounds how many new vectors one Stop sketches for recall.
const stopSketchLimit = 256

// stop records the exchange that just ended: the prompt with
// last_assistant_message as the reply (the transcript's last assistant line
// may not be written yet). Its dedup key is the one the agent's transcript
// tailer and the SessionEnd flush compute for the same turn, so whichever
// path stores it first wins and it is never stored twice.
func (h *handler) stop(ctx context.Context, in Input) error {
	if strings.TrimSpace(in.LastAssistantMessage) == "" {
		return nil
	}
	if in.SessionID == "" {
		return errors.New("stop: no session_id")
	}
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	sess, err := db.Session(ctx, in.SessionID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	stored := ""
	if sess.LastPromptID != "" {
		if ep, err := db.Episode(ctx, sess.LastPromptID); err == nil {
			stored = ep.Content
		}
	}
	key, prompt, err := h.turnKey(ctx, db, in, stored)
	if err != nil {
		return err
	}
	project := h.project(in.Cwd)
	content := Storable(transcript.Exchange{Prompt: prompt, Response: in.LastAssistantMessage}.Text())
	err = db.Write(ctx, func(tx *store.Tx) error {
		ep := &store.Episode{SessionID: in.SessionID, ProjectPath: project, Kind: store.EpisodeExchange, Content: content, DedupKey: key}
		if _, err := tx.AddEpisode(ctx, ep); err != nil {
			return err
		}
		return tx.SaveSession(ctx, store.Session{ID: in.SessionID, ProjectPath: project, TranscriptPath: in.TranscriptPath})
	})
	if err != nil {
		return fmt.Errorf("store exchange: %w", err)
	}
	return h.syncSketches(ctx, db, stopSketchLimit, project)
}

// turnKey returns the dedup key of the turn that just ended and its prompt.
// The transcript is the authority: its last prompt, with its occurrence,
// gives the key the tailer computes, when it is the prompt this session's
// UserPromptSubmit stored (or nothing was stored). Without a usable
// transcript the stored prompt is keyed with its occurrence among the
// session's stored prompts.
func (h *handler) turnKey(ctx context.Context, db *store.DB, in Input, stored string) (key, prompt string, err error) {
	ref, ok, terr := h.promptScans().lastPrompt(ctx, in.TranscriptPath)
	switch {
	case terr != nil:
		h.log.Info("transcript unreadable; keying the turn from the stored prompt", "err", safe(terr))
	case ok && (stored == "" || samePrompt(Storable(ref.Text), stored)):
		return ref.Key(), ref.Text, nil
	}
	if stored == "" {
		return "", "", errors.New("stop: no prompt for this turn in the transcript or the database")
	}
	n, err := db.CountSessionPrompts(ctx, in.SessionID, stored)
	if err != nil {
		return "", "", err
	}
	return transcript.KeyForOccurrence(in.SessionID, stored, n), stored, nil
}

func samePrompt(a, b string) bool {
	return transcript.NormalizePrompt(a) == transcript.NormalizePrompt(b)
}

// syncSketches sketches vectors the agent stored since the last sync, a few
// at a time, so recall's vector search sees them. It is skipped when no
// vectors exist yet. In the agent it then reloads project's cached
// sketches, off the next prompt's path.
func (h *handler) syncSketches(ctx context.Context, db *store.DB, limit int, project string) error {
	emb, err := h.queryEmbedder()
	if err != nil {
		return nil // logged where recall needs it
	}
	spaces, err := db.Spaces(ctx)
	if err != nil {
		return err
	}
	for _, sp := range spaces {
		if sp.EmbedderID != emb.ID() && !(emb.Dim() == 0 && strings.HasPrefix(sp.EmbedderID, strings.TrimSuffix(emb.ID(), "0"))) {
			continue
		}
		if _, err := recall.SyncSketches(ctx, db, sp, limit); err != nil {
			return err
		}
		if h.shared != nil {
			if err := h.shared.cache.WarmProject(ctx, db, sp, project); err != nil {
				return err
			}
		}
	}
	return nil
}
