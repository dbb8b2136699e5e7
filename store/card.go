package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/credence-mem/credence/belief"
)

// Card is everything credence knows about one belief, for `credence expand`,
// `credence why` and the MCP server: the row, its decayed and exclusivity-
// normalized confidence, the evidence with the episodes behind it, the
// event log and the beliefs it came from or turned into.
type Card struct {
	Belief Belief
	// Confidence is the decayed confidence now; Normalized is the same after
	// exclusivity in its group (equal to Confidence outside exclusive groups).
	Confidence float64
	Normalized float64
	// Alpha and Beta are the decayed counts behind Confidence.
	Alpha, Beta float64
	Exclusive   bool
	Contested   bool
	// Rivals are the other active members of its exclusive group.
	Rivals   []Belief
	Evidence []CardEvidence
	Events   []Event
	// Lineage: the belief it was split or revised from, what it was revised
	// into or merged into, its split children and the beliefs merged into it.
	Parent       *Belief
	RevisedInto  *Belief
	MergedInto   *Belief
	SupersededBy *Belief
	Children     []Belief
	MergedFrom   []Belief
}

// CardEvidence is one piece of evidence with the episode it came from, when
// it came from one that still exists.
type CardEvidence struct {
	Evidence
	Episode *Episode
}

// Card assembles the card of the belief with the given ID (or unambiguous
// prefix) as of now and the current turn.
func (db *DB) Card(ctx context.Context, id string) (Card, error) {
	b, err := db.Belief(ctx, id)
	if err != nil {
		return Card{}, err
	}
	turn, err := db.CurrentTurn(ctx)
	if err != nil {
		return Card{}, err
	}
	now := db.now()
	p := db.params
	c := Card{Belief: b}
	c.Alpha, c.Beta = p.Decay(b.Alpha, b.Beta, b.CountsAt, belief.MomentAt(now, turn))
	c.Confidence = belief.Confidence(c.Alpha, c.Beta)
	c.Normalized = c.Confidence
	if err := db.fillGroup(ctx, &c, now, turn); err != nil {
		return Card{}, err
	}
	if err := db.fillEvidence(ctx, &c); err != nil {
		return Card{}, err
	}
	if c.Events, err = db.Events(ctx, b.ID); err != nil {
		return Card{}, err
	}
	if err := db.fillLineage(ctx, &c); err != nil {
		return Card{}, err
	}
	return c, nil
}

// fillGroup normalizes the belief's confidence over its exclusive group and
// says whether the group is contested.
func (db *DB) fillGroup(ctx context.Context, c *Card, now time.Time, turn int64) error {
	b := c.Belief
	if b.Predicate == "" {
		return nil
	}
	ex, err := db.Exclusive(ctx, b.Predicate)
	if err != nil || !ex {
		return err
	}
	c.Exclusive = true
	if b.Status != belief.Active {
		return nil
	}
	f := Filter{Statuses: []belief.Status{belief.Active}, Scope: b.Scope, Subject: b.Subject, Predicate: b.Predicate}
	if b.Scope == belief.ScopeProject {
		f.Project = b.ProjectPath
	}
	members, err := db.Beliefs(ctx, f)
	if err != nil || len(members) < 2 {
		return err
	}
	raw := make([]float64, len(members))
	self := -1
	for i, m := range members {
		raw[i] = m.Confidence(db.params, now, turn)
		if m.ID == b.ID {
			self = i
		} else {
			c.Rivals = append(c.Rivals, m)
		}
	}
	if self >= 0 {
		c.Normalized = belief.Normalize(raw, db.params.Epsilon)[self]
	}
	c.Contested = db.params.Contested(raw)
	return nil
}

func (db *DB) fillEvidence(ctx context.Context, c *Card) error {
	evs, err := db.Evidence(ctx, c.Belief.ID)
	if err != nil {
		return err
	}
	var epIDs []string
	for _, e := range evs {
		if e.EpisodeID != "" {
			epIDs = append(epIDs, e.EpisodeID)
		}
	}
	eps, err := db.EpisodesByID(ctx, epIDs)
	if err != nil {
		return err
	}
	byID := make(map[string]*Episode, len(eps))
	for i := range eps {
		byID[eps[i].ID] = &eps[i]
	}
	for _, e := range evs {
		c.Evidence = append(c.Evidence, CardEvidence{Evidence: e, Episode: byID[e.EpisodeID]})
	}
	return nil
}

// fillLineage finds the beliefs this one is related to by revision, split,
// merge and supersession. A related belief that no longer exists is left out.
func (db *DB) fillLineage(ctx context.Context, c *Card) error {
	one := func(id string) (*Belief, error) {
		if id == "" {
			return nil, nil
		}
		b, err := db.Belief(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return &b, nil
	}
	var err error
	if c.Parent, err = one(c.Belief.ParentID); err != nil {
		return err
	}
	if c.MergedInto, err = one(c.Belief.MergedInto); err != nil {
		return err
	}
	for _, e := range c.Events {
		var p eventPayload
		if e.Payload == "" || json.Unmarshal([]byte(e.Payload), &p) != nil || p.Target == "" {
			continue
		}
		switch e.Kind {
		case belief.Revise:
			if c.RevisedInto, err = one(p.Target); err != nil {
				return err
			}
		case belief.Supersede:
			if c.SupersededBy, err = one(p.Target); err != nil {
				return err
			}
		}
	}
	if c.Children, err = db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE parent_belief_id = ? ORDER BY seq`, c.Belief.ID); err != nil {
		return err
	}
	c.MergedFrom, err = db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs WHERE merged_into = ? ORDER BY seq`, c.Belief.ID)
	return err
}

// TimelinePoint is a belief's confidence at one moment of its history.
type TimelinePoint struct {
	At         time.Time
	Confidence float64
	Status     belief.Status
	// Event names what happened at this point ("create", "reinforce", …);
	// empty for points sampled between events.
	Event belief.EventKind
}

// Timeline returns the belief's confidence over its life, replaying its
// history record by record: one point right after each event (thinned
// evenly, first and last kept, when there are more than maxPoints), plus,
// when the belief is more than an hour old, samples between its first event
// and now so decay toward the prior shows. Points are oldest first; the
// last sample is now, at the current turn.
func (db *DB) Timeline(ctx context.Context, id string, maxPoints int) ([]TimelinePoint, error) {
	b, err := db.Belief(ctx, id)
	if err != nil {
		return nil, err
	}
	maxPoints = max(maxPoints, 2)
	type step struct {
		at    time.Time
		kind  belief.EventKind
		state belief.State
	}
	var steps []step
	var cur belief.State
	err = records(ctx, db.sql, "WHERE e.belief_id = ?", []any{b.ID}, func(r belief.Record) error {
		db.params.Apply(&cur, r)
		if cur.ID != "" {
			steps = append(steps, step{time.UnixMilli(r.At.Millis), r.Kind, cur})
		}
		return nil
	})
	if err != nil || len(steps) == 0 {
		return nil, err
	}
	turn, err := db.CurrentTurn(ctx)
	if err != nil {
		return nil, err
	}
	now := db.now()
	first := steps[0].at
	samples := 0
	if now.Sub(first) >= time.Hour {
		samples = max(maxPoints/3, 1)
	}
	if keep := maxPoints - samples; len(steps) > keep {
		kept := make([]step, 0, keep)
		stride := float64(len(steps)-1) / float64(keep-1)
		for i := range keep {
			kept = append(kept, steps[int(float64(i)*stride+0.5)])
		}
		steps = kept
	}
	// The turn at a past moment is not recorded: a past point is read at
	// the turn of its own counts (no turn-clock decay), the present at the
	// current turn.
	point := func(at time.Time, kind belief.EventKind, s belief.State, t int64) TimelinePoint {
		return TimelinePoint{At: at, Confidence: db.params.ConfidenceAt(s, belief.MomentAt(at, t)), Status: s.Status, Event: kind}
	}
	out := make([]TimelinePoint, 0, len(steps)+samples)
	next := 0
	for i := 1; i <= samples; i++ {
		at := first.Add(now.Sub(first) * time.Duration(i) / time.Duration(samples))
		for next < len(steps) && !steps[next].at.After(at) {
			out = append(out, point(steps[next].at, steps[next].kind, steps[next].state, steps[next].state.CountsAt.Turn))
			next++
		}
		s := steps[next-1].state
		t := s.CountsAt.Turn
		if i == samples {
			t = max(turn, t)
		}
		out = append(out, point(at, "", s, t))
	}
	for ; next < len(steps); next++ {
		out = append(out, point(steps[next].at, steps[next].kind, steps[next].state, steps[next].state.CountsAt.Turn))
	}
	return out, nil
}
