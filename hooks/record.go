package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// receive prepares the write an event asks for, before anything slow
// happens, and holds it: from here on the event is stored or spooled,
// whatever the database or the clock does. Events that store nothing
// (a blank prompt, a Stop without a reply) get nil.
func (h *handler) receive(in Input) *spoolRecord {
	if h.arrived != nil {
		defer close(h.arrived)
	}
	now := h.now()
	rec := &spoolRecord{Event: h.event, ReceivedAt: now.UnixNano(), SessionID: in.SessionID,
		Project: h.project(in.Cwd), Transcript: in.TranscriptPath}
	switch h.event {
	case EventUserPromptSubmit:
		if isBlank(in.Prompt) {
			return nil
		}
		rec.EpisodeID, rec.Content = ids.NewAt(ids.Episode, now), Storable(in.Prompt)
	case EventStop:
		if isBlank(in.LastAssistantMessage) {
			return nil
		}
		rec.Content = Storable(in.LastAssistantMessage)
		// The turn's prompt is the transcript's last before this size:
		// a Stop handled late must not read the next turn's prompt.
		if fi, err := os.Stat(in.TranscriptPath); err == nil && fi.Mode().IsRegular() {
			rec.TranscriptSize = fi.Size()
		}
	case EventSessionStart, EventSessionEnd, EventPreCompact:
		if in.SessionID == "" {
			return nil
		}
		rec.Ended = h.event == EventSessionEnd
	}
	h.pending.hold(rec)
	return rec
}

// pending is the write a handler holds until it is stored or spooled.
type pending struct {
	mu      sync.Mutex
	rec     *spoolRecord
	settled bool
}

func (p *pending) hold(rec *spoolRecord) {
	p.mu.Lock()
	p.rec, p.settled = rec, false
	p.mu.Unlock()
}

// open reports whether a write is held and not yet settled.
func (p *pending) open() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rec != nil && !p.settled
}

// settle marks the held write done (stored, or spooled) and reports
// whether it was still open.
func (p *pending) settle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	open := p.rec != nil && !p.settled
	p.settled = true
	return open
}

// salvage spools the held write unless it is already settled. The
// handler calls it when its write failed; Run calls it when the handler
// ran out of time, perhaps while the handler's own write was committing:
// storing a record is idempotent, so that costs nothing.
func (h *handler) salvage(why error) {
	h.pending.mu.Lock()
	defer h.pending.mu.Unlock()
	rec := h.pending.rec
	if rec == nil || h.pending.settled {
		return
	}
	h.pending.settled = true
	if why == nil {
		why = errors.New("the handler ended without storing it")
	}
	if err := writeSpool(h.spoolDir(), rec); err != nil {
		h.log.Error("event lost: neither stored nor spooled", "spool_err", safe(err), "why", safe(why))
		return
	}
	if errors.Is(why, errSchemaBehind) {
		h.log.Warn("event spooled; stored once the database is upgraded", "why", safe(why), "record", rec.name)
	} else {
		h.log.Info("event spooled; stored later", "why", safe(why), "record", rec.name)
	}
	if h.shared != nil {
		h.shared.wakeDrain()
	}
}

// store writes rec to the database, after any earlier record of its
// session still in the spool (a hook run without the agent stores those
// first, as many as its time allows). When rec cannot go in now, it is
// spooled; store returns an error only when it could do neither.
func (h *handler) store(ctx context.Context, db *store.DB, rec *spoolRecord) error {
	if rec == nil {
		return nil
	}
	dir := h.spoolDir()
	if h.shared == nil {
		h.drainSpool(ctx, db, 0)
	}
	waiting, err := pendingBefore(dir, rec.SessionID, rec.ReceivedAt, "")
	switch {
	case err != nil:
		h.salvage(err)
		return nil
	case waiting:
		h.salvage(errors.New("an earlier event of the session waits in the spool"))
		return nil
	}
	if err := h.apply(ctx, db, rec); err != nil {
		h.salvage(err)
		return nil
	}
	h.pending.settle()
	return nil
}

// apply stores one prepared write. It is idempotent: the prompt episode's
// ID and the exchange's key are fixed before the write, so applying a
// record twice stores it once.
func (h *handler) apply(ctx context.Context, db *store.DB, rec *spoolRecord) error {
	switch rec.Event {
	case EventUserPromptSubmit:
		return db.Write(ctx, func(tx *store.Tx) error {
			if ok, err := tx.HasEpisode(ctx, rec.EpisodeID); err != nil || ok {
				return err
			}
			turn, err := tx.NextTurn(ctx)
			if err != nil {
				return err
			}
			ep := &store.Episode{ID: rec.EpisodeID, SessionID: rec.SessionID, ProjectPath: rec.Project,
				Kind: store.EpisodePrompt, Content: rec.Content, Turn: turn, CreatedAt: rec.received()}
			ep.Scope = recall.PlaceScope(rec.Project)
			if rec.Project != "" && recall.PersonalStatement(rec.Content) {
				// what the person says of themselves holds in every project
				ep.Scope = belief.ScopeGlobal
			}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			if rec.SessionID == "" {
				return nil
			}
			return tx.SaveSession(ctx, store.Session{ID: rec.SessionID, ProjectPath: rec.Project,
				TranscriptPath: rec.Transcript, LastPromptID: ep.ID})
		})
	case EventStop:
		return h.storeExchange(ctx, db, rec)
	case EventSessionStart:
		return db.Write(ctx, func(tx *store.Tx) error {
			return tx.SaveSession(ctx, store.Session{ID: rec.SessionID, ProjectPath: rec.Project, TranscriptPath: rec.Transcript})
		})
	case EventSessionEnd, EventPreCompact:
		return h.flushTranscript(ctx, db, rec)
	}
	return fmt.Errorf("spool record for unknown event %q", rec.Event)
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
