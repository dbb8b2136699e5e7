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

// StoreExchanges stores the exchanges read from a session's transcript and
// moves the session's offset to next, in one transaction: either all of
// them and the new offset are stored, or nothing is. Each exchange is filed
// under the project of its own cwd, else s.ProjectPath, which takes the
// first exchange's when empty; the session row gets s. Exchanges already
// stored (by Stop, a flush or the agent's tailer) are skipped by their
// keys; it returns how many were new.
func StoreExchanges(ctx context.Context, db *store.DB, s store.Session, exs []transcript.Exchange, next int64) (int, error) {
	added := 0
	err := db.Write(ctx, func(tx *store.Tx) error {
		for _, ex := range exs {
			p := s.ProjectPath
			if ex.Cwd != "" {
				p = recall.ProjectRoot(ex.Cwd)
			}
			if s.ProjectPath == "" {
				s.ProjectPath = p
			}
			ep := &store.Episode{SessionID: ex.SessionID, ProjectPath: p, Kind: store.EpisodeExchange,
				Content: Storable(ex.Text()), DedupKey: ex.Key(), CreatedAt: ex.Timestamp, Scope: recall.PlaceScope(p)}
			if ep.SessionID == "" {
				ep.SessionID = s.ID
			}
			ok, err := tx.AddEpisode(ctx, ep)
			if err != nil {
				return err
			}
			if ok {
				added++
			}
		}
		if err := tx.SaveSession(ctx, s); err != nil {
			return err
		}
		return tx.SetTranscriptOffset(ctx, s.ID, next)
	})
	if err != nil {
		return 0, fmt.Errorf("store transcript exchanges: %w", err)
	}
	return added, nil
}

// flush stores every complete exchange the transcript holds beyond the
// session's stored offset and moves the offset, in one transaction: either
// all of them and the new offset are stored, or nothing is. Exchanges the
// Stop hook or the agent already stored are skipped by their keys. When
// the database is busy the flush is spooled and done later, from the same
// transcript.
func (h *handler) flush(ctx context.Context, in Input) error {
	if in.SessionID == "" {
		return errors.New("flush: no session_id")
	}
	rec := h.receive(in)
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := h.store(ctx, db, rec); err != nil {
		return err
	}
	return h.syncSketches(ctx, db, flushSketchLimit, rec.Project)
}

// flushTranscript does a SessionEnd's or PreCompact's flush (see flush).
func (h *handler) flushTranscript(ctx context.Context, db *store.DB, rec *spoolRecord) error {
	sess, err := db.Session(ctx, rec.SessionID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	path := rec.Transcript
	if path == "" {
		path = sess.TranscriptPath
	}
	if path == "" {
		return errors.New("flush: no transcript_path")
	}
	from := sess.TranscriptOffset
	exs, next, reread, err := transcript.ReadFileResuming(ctx, path, from)
	if err != nil {
		return err
	}
	if reread {
		h.log.Info("transcript changed under its offset; reread from the start", "offset", from)
		from = 0
	}
	s := store.Session{ID: rec.SessionID, ProjectPath: rec.Project, TranscriptPath: path}
	if rec.Ended {
		s.EndedAt = rec.received().UnixMilli()
	}
	added, err := StoreExchanges(ctx, db, s, exs, next)
	if err != nil {
		return err
	}
	h.log.Info("flushed transcript", "exchanges", len(exs), "stored", added, "from", from, "to", next)
	return nil
}
