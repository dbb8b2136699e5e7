package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
)

// Statement is one thing a person asked credence to remember, already
// split into a triple (by the extractor, or subject "user" and the text).
type Statement struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	Statement string `json:"statement"`
	Kind      string `json:"kind"`
	// Negated marks "I don't like X": it contradicts the positive belief
	// and is kept under the predicate "not_<predicate>".
	Negated bool `json:"negated,omitempty"`
	// Replaces is the old object the statement replaces ("switched from X").
	Replaces string `json:"replaces,omitempty"`
	// Exclusive marks a predicate with cardinality one even when the
	// relations table does not know it yet.
	Exclusive bool `json:"exclusive,omitempty"`
}

// Remembered is what Remember did.
type Remembered struct {
	EpisodeID string
	Beliefs   []RememberedOne
}

// RememberedOne is one belief Remember created or reinforced, with the
// beliefs its statement contradicted.
type RememberedOne struct {
	ID           string
	Statement    string
	Created      bool
	Confidence   float64
	Contradicted []string
}

// RememberInput is a user's own statement: its (already redacted) text, the
// statements found in it, and where it applies.
type RememberInput struct {
	Text       string
	Statements []Statement
	Scope      string // belief.ScopeGlobal or belief.ScopeProject
	Project    string // the project root for project scope
	SessionID  string // recorded on the note episode, e.g. "cli" or "mcp"
	Source     string // evidence source: "cli", "mcp"
}

// Remember records a user's statement as a note episode and, for each
// statement in it, MANUAL evidence (ρ=1, s=+1) on the matching active
// belief, creating the belief when none has the same scope, project and
// triple. Statements about an exclusive slot, or replacing an old value,
// give MANUAL contradicting evidence (s=−1) to the beliefs they displace.
// The episode is marked consolidated, so the agent does not count it again.
func (db *DB) Remember(ctx context.Context, in RememberInput) (Remembered, error) {
	var out Remembered
	if strings.TrimSpace(in.Text) == "" {
		return out, fmt.Errorf("remember: the text is empty")
	}
	if in.Scope == belief.ScopeGlobal {
		in.Project = ""
	}
	for _, st := range in.Statements {
		if st.Exclusive && st.Predicate != "" {
			if err := db.SetRelation(ctx, st.Predicate, true, "extract"); err != nil {
				return out, err
			}
		}
	}
	exclusive, err := db.ExclusivePredicates(ctx)
	if err != nil {
		return out, err
	}
	err = db.Write(ctx, func(tx *Tx) error {
		out = Remembered{}
		ep := Episode{Kind: EpisodeNote, Content: in.Text, ProjectPath: in.Project, Scope: in.Scope, SessionID: in.SessionID}
		if _, err := tx.AddEpisode(ctx, &ep); err != nil {
			return err
		}
		out.EpisodeID = ep.ID
		for _, st := range in.Statements {
			one, err := tx.Claim(ctx, ClaimInput{Statement: st, Scope: in.Scope, Project: in.Project, EpisodeID: ep.ID,
				Source: in.Source, BeliefSource: "user", Label: belief.Manual, Reliability: 1},
				st.Exclusive || exclusive[st.Predicate])
			if err != nil {
				return err
			}
			out.Beliefs = append(out.Beliefs, one)
		}
		facts, _ := json.Marshal(in.Statements)
		_, err := tx.MarkConsolidated(ctx, Consolidated{EpisodeID: ep.ID, Seq: ep.Seq, State: ConsolidationRetired,
			Mode: "offline", Facts: string(facts), CycleID: "remember"})
		return err
	})
	return out, err
}

// ClaimInput is one statement from a source credence records as evidence
// straight away, without the consolidator's reading: a person's own words
// (`credence remember`, MANUAL, ρ = 1) or a claim of a memory file Claude
// Code or a person keeps (SUPPORTS with that source's reliability).
type ClaimInput struct {
	Statement Statement
	Scope     string // belief.ScopeGlobal or belief.ScopeProject
	Project   string // the project root for project scope
	EpisodeID string
	// Source is the evidence source ("cli", "claude_memory" …);
	// BeliefSource the source of a belief the claim creates.
	Source, BeliefSource string
	// Label is MANUAL or SUPPORTS; the evidence against the beliefs the
	// claim displaces is MANUAL or CONTRADICTS accordingly.
	Label       belief.Label
	Reliability float64
}

// Claim records in's statement as evidence for the matching active belief
// of its scope, creating it when none has the same triple (or statement,
// without a predicate), and as evidence against the beliefs it displaces: the
// positive form of a negation, the value it replaces, and the other values
// of an exclusive slot.
func (tx *Tx) Claim(ctx context.Context, in ClaimInput, exclusive bool) (RememberedOne, error) {
	st, episodeID := in.Statement, in.EpisodeID
	against := belief.Contradicts
	if in.Label == belief.Manual {
		against = belief.Manual
	}
	manual := func(id string, support float64) (belief.State, error) {
		label := in.Label
		if support < 0 {
			label = against
		}
		return tx.AddEvidence(ctx, Evidence{BeliefID: id, EpisodeID: episodeID, Source: in.Source,
			Label: label, Support: support, Reliability: in.Reliability})
	}
	slot := Filter{Statuses: []belief.Status{belief.Active}, Scope: in.Scope, Project: in.Project, Subject: st.Subject}
	if in.Scope == belief.ScopeGlobal {
		slot.Project = ""
	}
	var one RememberedOne
	predicate := st.Predicate
	if st.Negated && predicate != "" {
		predicate = "not_" + predicate
	}
	// What the statement displaces: the positive form of a negation, the old
	// value it replaces, and the other values of an exclusive slot.
	if st.Predicate != "" {
		slot.Predicate = st.Predicate
		rivals, err := tx.Beliefs(ctx, slot)
		if err != nil {
			return one, err
		}
		for _, r := range rivals {
			displaced := (st.Negated && r.Object == st.Object) ||
				(st.Replaces != "" && r.Object == st.Replaces) ||
				(exclusive && !st.Negated && r.Object != st.Object)
			if !displaced {
				continue
			}
			if _, err := manual(r.ID, -1); err != nil {
				return one, err
			}
			one.Contradicted = append(one.Contradicted, r.ID)
		}
	}
	slot.Predicate, slot.Object = predicate, st.Object
	same, err := tx.Beliefs(ctx, slot)
	if err != nil {
		return one, err
	}
	id := ""
	for _, b := range same {
		if predicate != "" || b.Statement == st.Statement {
			id = b.ID
			break
		}
	}
	if id == "" {
		one.Created = true
		id, err = tx.CreateBelief(ctx, belief.Spec{Statement: st.Statement, Subject: st.Subject, Predicate: predicate,
			Object: st.Object, Kind: st.Kind, Scope: in.Scope, ProjectPath: in.Project, Source: in.BeliefSource})
		if err != nil {
			return one, err
		}
	}
	s, err := manual(id, 1)
	if err != nil {
		return one, err
	}
	one.ID, one.Statement = s.ID, s.Statement
	one.Confidence = tx.db.params.ConfidenceAt(s, s.CountsAt)
	return one, nil
}
