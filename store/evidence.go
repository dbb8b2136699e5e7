package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
)

// ErrIrrelevant is returned for IRRELEVANT evidence, which is not recorded:
// an unrelated episode must not pollute a belief's evidence chain.
var ErrIrrelevant = errors.New("irrelevant evidence is not recorded")

// Evidence is one append-only piece of evidence about a belief.
type Evidence struct {
	ID          string
	BeliefID    string
	EpisodeID   string // empty when the evidence has another source
	Source      string // e.g. "episode", "memory.md", "cli", "llm", "heuristic"
	Label       belief.Label
	Support     float64
	Reliability float64
	Note        string
	Turn        int64
	CreatedAt   time.Time
	HLC         int64
	Origin      string
}

// Event is one entry of a belief's event log.
type Event struct {
	ID         string
	BeliefID   string
	Kind       belief.EventKind
	EvidenceID string
	Payload    string
	Turn       int64
	CreatedAt  time.Time
	HLC        int64
	Origin     string
}

type eventPayload struct {
	Spec   *belief.Spec   `json:"spec,omitempty"`
	Target string         `json:"target,omitempty"`
	Absorb *belief.Absorb `json:"absorb,omitempty"`
}

// CreateBelief records a new belief from spec and returns its ID. It starts
// at the prior plus any counts the spec carries; evidence follows with
// AddEvidence.
func (tx *Tx) CreateBelief(ctx context.Context, spec belief.Spec) (string, error) {
	if err := validateSpec(&spec); err != nil {
		return "", err
	}
	id := ids.NewAt(ids.Belief, tx.db.now())
	if _, err := tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: belief.Create, Spec: &spec}, ""); err != nil {
		return "", err
	}
	for _, name := range []string{spec.Subject, spec.Object} {
		if err := tx.addEntity(ctx, name); err != nil {
			return "", err
		}
	}
	return id, nil
}

func validateSpec(s *belief.Spec) error {
	for _, f := range []*string{&s.Statement, &s.Subject, &s.Predicate, &s.Object, &s.Context, &s.Timeframe, &s.ProjectPath, &s.Source} {
		*f = validUTF8(*f)
	}
	s.Statement = strings.TrimSpace(s.Statement)
	if s.Statement == "" {
		return fmt.Errorf("create belief: statement is empty")
	}
	if s.Kind == "" {
		s.Kind = belief.KindFact
	}
	if s.Kind != belief.KindFact && s.Kind != belief.KindGuideline {
		return fmt.Errorf("create belief: kind %q is not fact or guideline", s.Kind)
	}
	if s.Scope == "" {
		s.Scope = belief.ScopeProject
		if s.ProjectPath == "" {
			s.Scope = belief.ScopeGlobal
		}
	}
	if s.Scope != belief.ScopeGlobal && s.Scope != belief.ScopeProject {
		return fmt.Errorf("create belief: scope %q is not global or project", s.Scope)
	}
	if s.Scope == belief.ScopeGlobal {
		s.ProjectPath = ""
	}
	return nil
}

// AddEvidence appends a piece of evidence and its belief event and updates
// the belief's row, all in this transaction. A zero Support takes the
// label's default (except for PARTIAL, whose support is 0) and a zero
// Reliability means 1.
func (tx *Tx) AddEvidence(ctx context.Context, ev Evidence) (belief.State, error) {
	if !ev.Label.Valid() {
		return belief.State{}, fmt.Errorf("add evidence: unknown label %q", ev.Label)
	}
	if ev.Label == belief.Irrelevant {
		return belief.State{}, ErrIrrelevant
	}
	if ev.Support == 0 && ev.Label != belief.Partial {
		ev.Support = ev.Label.DefaultSupport()
	}
	if ev.Reliability == 0 {
		ev.Reliability = 1
	}
	if ev.Support < -1 || ev.Support > 1 || ev.Reliability < 0 || ev.Reliability > 1 {
		return belief.State{}, fmt.Errorf("add evidence: support %v or reliability %v out of range", ev.Support, ev.Reliability)
	}
	h, err := tx.Tick(ctx)
	if err != nil {
		return belief.State{}, err
	}
	turn, err := tx.Turn(ctx)
	if err != nil {
		return belief.State{}, err
	}
	now := tx.db.now()
	ev.Note = validUTF8(ev.Note)
	ev.ID, ev.HLC, ev.Turn, ev.CreatedAt, ev.Origin = ids.NewAt(ids.Evidence, now), int64(h), turn, now, tx.db.machineID
	if _, err := tx.Exec(ctx, `INSERT INTO evidence(id, belief_id, episode_id, source, label, support, reliability,
		note, turn, created_at, hlc, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.ID, ev.BeliefID, nullString(ev.EpisodeID), ev.Source, string(ev.Label), ev.Support, ev.Reliability,
		ev.Note, ev.Turn, now.UnixMilli(), ev.HLC, ev.Origin); err != nil {
		return belief.State{}, wrap("add evidence", err)
	}
	return tx.appendEvent(ctx, belief.Record{BeliefID: ev.BeliefID, Kind: belief.EvidenceKind(ev.Support),
		Label: ev.Label, Support: ev.Support, Reliability: ev.Reliability, HLC: ev.HLC}, ev.ID)
}

// Mark appends a status or flag event to a belief: Archive, Reactivate,
// Reject, Pin or Unpin. Supersede, Revise, Split, Merge and Forget have their
// own methods because they carry more than a kind.
func (tx *Tx) Mark(ctx context.Context, id string, kind belief.EventKind) (belief.State, error) {
	switch kind {
	case belief.Archive, belief.Reactivate, belief.Reject, belief.Pin, belief.Unpin:
	default:
		return belief.State{}, fmt.Errorf("mark belief %s: %s needs its own method", id, kind)
	}
	return tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: kind}, "")
}

// Supersede marks oldID as superseded by winnerID (an exclusive group found
// a new clear winner): it stays queryable with its invalid_at set, and later
// evidence can reactivate it.
func (tx *Tx) Supersede(ctx context.Context, oldID, winnerID string) (belief.State, error) {
	return tx.appendEvent(ctx, belief.Record{BeliefID: oldID, Kind: belief.Supersede, Target: winnerID}, "")
}

// Restate gives a belief a new statement for the same triple, through the
// event log like any belief change, so rebuild and sync agree on it. The
// vectors embedded from the old statement are dropped; the agent embeds
// the new one with the other beliefs that have none.
func (tx *Tx) Restate(ctx context.Context, id, statement string) (belief.State, error) {
	statement = strings.TrimSpace(validUTF8(statement))
	if statement == "" {
		return belief.State{}, fmt.Errorf("restate belief %s: statement is empty", id)
	}
	st, err := tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: belief.Restate, Spec: &belief.Spec{Statement: statement}}, "")
	if err != nil {
		return st, err
	}
	return st, tx.db.deleteVectors(ctx, tx, id)
}

// Revise replaces a belief that has fallen below the revision gate with a
// re-synthesized one, linked by parent_belief_id. It returns the new ID.
func (tx *Tx) Revise(ctx context.Context, oldID string, next belief.Spec) (string, error) {
	next.ParentID = oldID
	id, err := tx.CreateBelief(ctx, next)
	if err != nil {
		return "", err
	}
	_, err = tx.appendEvent(ctx, belief.Record{BeliefID: oldID, Kind: belief.Revise, Target: id}, "")
	return id, err
}

// Split breaks a belief into context-specific children; child i inherits
// shares[i] of the parent's counts above the prior. It returns the child IDs.
func (tx *Tx) Split(ctx context.Context, parentID string, children []belief.Spec, shares []float64) ([]string, error) {
	if len(children) != len(shares) || len(children) < 2 {
		return nil, fmt.Errorf("split %s: need two or more children with one share each", parentID)
	}
	parent, err := tx.state(ctx, parentID)
	if err != nil {
		return nil, err
	}
	turn, err := tx.Turn(ctx)
	if err != nil {
		return nil, err
	}
	at := belief.MomentAt(tx.db.now(), turn)
	var out []string
	for i, c := range children {
		c.ParentID = parentID
		c.Alpha, c.Beta = tx.db.params.Share(parent, at, shares[i])
		id, err := tx.CreateBelief(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	_, err = tx.appendEvent(ctx, belief.Record{BeliefID: parentID, Kind: belief.Split}, "")
	return out, err
}

// Merge folds sourceID into survivorID: the survivor absorbs the source's
// counts above the prior and its evidence tallies, and the source is marked
// merged into it.
func (tx *Tx) Merge(ctx context.Context, sourceID, survivorID string) (belief.State, error) {
	src, err := tx.state(ctx, sourceID)
	if err != nil {
		return belief.State{}, err
	}
	turn, err := tx.Turn(ctx)
	if err != nil {
		return belief.State{}, err
	}
	a, b := tx.db.params.Share(src, belief.MomentAt(tx.db.now(), turn), 1)
	abs := &belief.Absorb{From: sourceID, Alpha: a, Beta: b, Evidence: src.EvidenceCount,
		Supports: src.Supports, Contradictions: src.Contradictions, Partials: src.Partials}
	if _, err := tx.appendEvent(ctx, belief.Record{BeliefID: sourceID, Kind: belief.Merge, Target: survivorID}, ""); err != nil {
		return belief.State{}, err
	}
	return tx.appendEvent(ctx, belief.Record{BeliefID: survivorID, Kind: belief.Merge, Absorb: abs}, "")
}

// appendEvent writes one belief event and folds it into the belief's row.
func (tx *Tx) appendEvent(ctx context.Context, r belief.Record, evidenceID string) (belief.State, error) {
	if r.HLC == 0 {
		h, err := tx.Tick(ctx)
		if err != nil {
			return belief.State{}, err
		}
		r.HLC = int64(h)
	}
	turn, err := tx.Turn(ctx)
	if err != nil {
		return belief.State{}, err
	}
	now := tx.db.now()
	r.ID = ids.NewAt(ids.BeliefEvent, now)
	r.At = belief.MomentAt(now, turn)
	r.Origin = tx.db.machineID
	payload, err := json.Marshal(eventPayload{Spec: r.Spec, Target: r.Target, Absorb: r.Absorb})
	if err != nil {
		return belief.State{}, fmt.Errorf("encode event: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO belief_events(id, belief_id, kind, evidence_id, payload, turn,
		created_at, hlc, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.BeliefID, string(r.Kind), nullString(evidenceID), string(payload), turn, now.UnixMilli(),
		r.HLC, r.Origin); err != nil {
		return belief.State{}, wrap("append belief event", err)
	}
	var s belief.State
	if r.Kind != belief.Create {
		if s, err = tx.state(ctx, r.BeliefID); err != nil {
			return belief.State{}, err
		}
	}
	tx.db.params.Apply(&s, r)
	if s.ID == "" {
		return s, fmt.Errorf("%s belief %s: no such belief", r.Kind, r.BeliefID)
	}
	return s, tx.writeState(ctx, s)
}

// state reads a belief's current replicated state inside the transaction.
func (tx *Tx) state(ctx context.Context, id string) (belief.State, error) {
	b, err := scanBelief(tx.QueryRow(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id = ?`, id))
	if err != nil {
		return belief.State{}, fmt.Errorf("read belief %s: %w", id, notFound(err))
	}
	return b.State, nil
}

func (tx *Tx) addEntity(ctx context.Context, name string) error {
	norm := NormalizeEntity(name)
	if norm == "" {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO entities(name, display, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		norm, strings.TrimSpace(name), tx.db.now().UnixMilli())
	return wrap("add entity", err)
}

// NormalizeEntity is the canonical form of an entity name: trimmed, lower
// case, inner whitespace collapsed.
func NormalizeEntity(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(name)), " ")
}

// Evidence returns a belief's evidence, oldest first.
func (db *DB) Evidence(ctx context.Context, beliefID string) ([]Evidence, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, belief_id, coalesce(episode_id, ''), source, label, support,
		reliability, note, turn, created_at, hlc, origin FROM evidence WHERE belief_id = ? ORDER BY hlc, id`, beliefID)
	if err != nil {
		return nil, wrap("list evidence", err)
	}
	defer rows.Close()
	var out []Evidence
	for rows.Next() {
		var e Evidence
		var label string
		var created int64
		if err := rows.Scan(&e.ID, &e.BeliefID, &e.EpisodeID, &e.Source, &label, &e.Support, &e.Reliability,
			&e.Note, &e.Turn, &created, &e.HLC, &e.Origin); err != nil {
			return nil, wrap("list evidence", err)
		}
		e.Label, e.CreatedAt = belief.Label(label), time.UnixMilli(created)
		out = append(out, e)
	}
	return out, wrap("list evidence", rows.Err())
}

// Events returns a belief's event log, in fold order.
func (db *DB) Events(ctx context.Context, beliefID string) ([]Event, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, belief_id, kind, coalesce(evidence_id, ''), payload, turn,
		created_at, hlc, origin FROM belief_events WHERE belief_id = ? ORDER BY hlc, id`, beliefID)
	if err != nil {
		return nil, wrap("list events", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		var kind string
		var created int64
		if err := rows.Scan(&e.ID, &e.BeliefID, &kind, &e.EvidenceID, &e.Payload, &e.Turn, &created, &e.HLC, &e.Origin); err != nil {
			return nil, wrap("list events", err)
		}
		e.Kind, e.CreatedAt = belief.EventKind(kind), time.UnixMilli(created)
		out = append(out, e)
	}
	return out, wrap("list events", rows.Err())
}

// BeliefsFromEpisode returns the beliefs that have evidence from the episode.
func (db *DB) BeliefsFromEpisode(ctx context.Context, episodeID string) ([]Belief, error) {
	return db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE id IN
		(SELECT belief_id FROM evidence WHERE episode_id = ?) ORDER BY seq`, episodeID)
}

// Support is the newest message a belief rests on.
type Support struct {
	EpisodeID string
	SessionID string
	Kind      string // the episode's kind: prompt, exchange, note
	At        int64  // Unix ms
	Content   string // its first kilobyte
}

// NewestSupport returns, for each of the beliefs that has one, the newest
// episode supporting it. A belief's own times are those of consolidation:
// a correction said in the same session as the value it corrects is
// consolidated with it, so only the episodes tell which was said last.
func (db *DB) NewestSupport(ctx context.Context, beliefIDs []string) (map[string]Support, error) {
	out := map[string]Support{}
	if len(beliefIDs) == 0 {
		return out, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT ev.belief_id, e.id, e.session_id, e.kind, MAX(e.created_at), substr(e.content, 1, 1024) FROM evidence ev
		JOIN episodes e ON e.id = ev.episode_id
		WHERE ev.belief_id IN (SELECT value FROM json_each(?)) AND ev.support > 0
		GROUP BY ev.belief_id`, idsJSON(beliefIDs))
	if err != nil {
		return nil, wrap("read newest support", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var s Support
		if err := rows.Scan(&id, &s.EpisodeID, &s.SessionID, &s.Kind, &s.At, &s.Content); err != nil {
			return nil, wrap("read newest support", err)
		}
		out[id] = s
	}
	return out, wrap("read newest support", rows.Err())
}
