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

// stop records the exchange that just ended: the turn's prompt with
// last_assistant_message as the reply (the transcript's last assistant line
// may not be written yet). Its dedup key is the one the agent's transcript
// tailer and the SessionEnd flush compute for the same turn, so whichever
// path stores it first wins and it is never stored twice.
func (h *handler) stop(ctx context.Context, in Input) error {
	if in.SessionID == "" && !isBlank(in.LastAssistantMessage) {
		return errors.New("stop: no session_id")
	}
	rec := h.receive(in)
	if rec == nil {
		return nil
	}
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := h.store(ctx, db, rec); err != nil {
		return err
	}
	return h.syncSketches(ctx, db, stopSketchLimit, rec.Project)
}

// storeExchange stores a Stop's exchange: the reply with the prompt of
// its turn (pairStop), keyed as the transcript readers key that turn.
func (h *handler) storeExchange(ctx context.Context, db *store.DB, rec *spoolRecord) error {
	key, prompt, err := h.pairStop(ctx, db, rec)
	if err != nil {
		return err
	}
	content := Storable(transcript.Exchange{Prompt: prompt, Response: rec.Content}.Text())
	err = db.Write(ctx, func(tx *store.Tx) error {
		ep := &store.Episode{SessionID: rec.SessionID, ProjectPath: rec.Project, Kind: store.EpisodeExchange,
			Content: content, DedupKey: key, CreatedAt: rec.received()}
		if _, err := tx.AddEpisode(ctx, ep); err != nil {
			return err
		}
		return tx.SaveSession(ctx, store.Session{ID: rec.SessionID, ProjectPath: rec.Project, TranscriptPath: rec.Transcript})
	})
	if err != nil {
		return fmt.Errorf("store exchange: %w", err)
	}
	return nil
}

// pairStop returns the dedup key of the turn a Stop ended and its prompt.
// The transcript as it was when the Stop arrived is the authority: its
// last prompt, with its occurrence, gives the key the tailer computes.
// The session's own last prompt (stored, spooled before it, or received
// by this agent) is checked against it: when they differ and the
// transcript does not hold the session's prompt at all, the transcript
// lags behind the hooks and the session's prompt is the turn's, keyed by
// its occurrence among the session's stored prompts; when the transcript
// holds it, a prompt the hooks never saw came after it, and the
// transcript is right. It never pairs a reply with "the last stored
// prompt" just because a newer prompt failed to store.
func (h *handler) pairStop(ctx context.Context, db *store.DB, rec *spoolRecord) (key, prompt string, err error) {
	own, err := h.sessionPrompt(ctx, db, rec)
	if err != nil {
		return "", "", err
	}
	ref, ok, terr := h.promptScans().lastPrompt(ctx, rec.Transcript, rec.TranscriptSize)
	switch {
	case terr != nil:
		h.log.Info("transcript unreadable; keying the turn from the session's own prompt", "err", safe(terr))
	case !ok:
	case own == "" || samePrompt(Storable(ref.Text), own):
		return ref.Key(), ref.Text, nil
	default:
		has, err := transcriptHolds(ctx, rec.Transcript, rec.TranscriptSize, own)
		if err != nil || has {
			return ref.Key(), ref.Text, nil
		}
		h.log.Info("the transcript lags behind the session's prompt; keying the turn from the prompt")
	}
	if own == "" {
		return "", "", errors.New("stop: no prompt for this turn in the transcript or the database")
	}
	n, err := db.CountSessionPrompts(ctx, rec.SessionID, own)
	if err != nil {
		return "", "", err
	}
	return transcript.KeyForOccurrence(rec.SessionID, own, n), own, nil
}

// sessionPrompt returns the (redacted) text of the session's latest
// prompt before the Stop arrived: the stored one, or a later one this
// agent received and has not stored yet.
func (h *handler) sessionPrompt(ctx context.Context, db *store.DB, rec *spoolRecord) (string, error) {
	text, err := db.LastSessionPrompt(ctx, rec.SessionID, rec.received())
	if err != nil {
		return "", err
	}
	if h.shared != nil {
		if r, ok := h.shared.recent.get(rec.SessionID); ok && r.ReceivedAt < rec.ReceivedAt {
			if stored, err := db.HasEpisode(ctx, r.EpisodeID); err == nil && !stored {
				text = r.Content
			}
		}
	}
	return text, nil
}

// transcriptHolds reports whether the transcript, up to size, has a prompt
// whose stored form is prompt.
func transcriptHolds(ctx context.Context, path string, size int64, prompt string) (bool, error) {
	found := false
	err := transcript.EachPrompt(ctx, path, size, func(text string) {
		found = found || samePrompt(Storable(text), prompt)
	})
	return found, err
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
