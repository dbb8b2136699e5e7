package hooks

import (
	"context"
	"errors"
	"fmt"

	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// flushSketchLimit bounds the vectors SessionEnd and PreCompact sketch.
const flushSketchLimit = 2048

// flush stores every complete exchange the transcript holds beyond the
// session's stored offset and moves the offset, in one transaction: either
// all of them and the new offset are stored, or nothing is. Exchanges the
// Stop hook or the agent already stored are skipped by their keys.
func (h *handler) flush(ctx context.Context, in Input) error {
	if in.SessionID == "" {
		return errors.New("flush: no session_id")
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
	path := in.TranscriptPath
	if path == "" {
		path = sess.TranscriptPath
	}
	if path == "" {
		return errors.New("flush: no transcript_path")
	}
	from := sess.TranscriptOffset
	exs, next, err := transcript.ReadFile(path, from)
	if errors.Is(err, transcript.ErrOffset) {
		// The file was rewritten; keys make reading it again from the
		// start safe.
		h.log.Info("transcript changed under its offset; rereading from the start", "offset", from)
		from = 0
		exs, next, err = transcript.ReadFile(path, 0)
	}
	if err != nil {
		return err
	}
	project := h.project(in.Cwd)
	added := 0
	err = db.Write(ctx, func(tx *store.Tx) error {
		for _, ex := range exs {
			p := project
			if ex.Cwd != "" {
				p = recall.ProjectRoot(ex.Cwd)
			}
			ep := &store.Episode{SessionID: ex.SessionID, ProjectPath: p, Kind: store.EpisodeExchange,
				Content: Storable(ex.Text()), DedupKey: ex.Key(), CreatedAt: ex.Timestamp}
			if ep.SessionID == "" {
				ep.SessionID = in.SessionID
			}
			ok, err := tx.AddEpisode(ctx, ep)
			if err != nil {
				return err
			}
			if ok {
				added++
			}
		}
		s := store.Session{ID: in.SessionID, ProjectPath: project, TranscriptPath: path}
		if h.event == EventSessionEnd {
			s.EndedAt = h.now().UnixMilli()
		}
		if err := tx.SaveSession(ctx, s); err != nil {
			return err
		}
		return tx.SetTranscriptOffset(ctx, in.SessionID, next)
	})
	if err != nil {
		return fmt.Errorf("store transcript exchanges: %w", err)
	}
	h.log.Info("flushed transcript", "exchanges", len(exs), "stored", added, "from", from, "to", next)
	return h.syncSketches(ctx, db, flushSketchLimit, project)
}
