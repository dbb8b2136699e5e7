package belief

// Status is where a belief is in its lifecycle.
type Status string

// Belief statuses. Only active beliefs are recalled and promoted.
const (
	Active     Status = "active"
	Revised    Status = "revised"
	SplitUp    Status = "split"
	Merged     Status = "merged"
	Archived   Status = "archived"
	Superseded Status = "superseded"
	Rejected   Status = "rejected"
	Forgotten  Status = "forgotten"
)

// Kinds and scopes of beliefs.
const (
	KindFact      = "fact"
	KindGuideline = "guideline"
	ScopeGlobal   = "global"
	ScopeProject  = "project"
)

// EventKind names an entry in a belief's history.
type EventKind string

// Belief event kinds. Reinforce, Contradict and PartialEvidence carry a piece
// of evidence; the others change the belief's status or structure.
const (
	Create          EventKind = "create"
	Reinforce       EventKind = "reinforce"
	Contradict      EventKind = "contradict"
	PartialEvidence EventKind = "partial"
	Revise          EventKind = "revise"
	Split           EventKind = "split"
	Merge           EventKind = "merge"
	Archive         EventKind = "archive"
	Supersede       EventKind = "supersede"
	Reactivate      EventKind = "reactivate"
	Reject          EventKind = "reject"
	Pin             EventKind = "pin"
	Unpin           EventKind = "unpin"
	Forget          EventKind = "forget"
	// Restate replaces a belief's statement with a sentence rendered again
	// from its triple (the extractor's wording changed, or an older
	// sentence said how the value came about: "User moved to Lisbon" for
	// (user, lives_in, lisbon)). The triple, counts and status stay.
	Restate EventKind = "restate"
)

// EvidenceKind returns the event kind recorded for evidence with support s.
func EvidenceKind(s float64) EventKind {
	switch {
	case s > 0:
		return Reinforce
	case s < 0:
		return Contradict
	}
	return PartialEvidence
}

// IsEvidence reports whether events of kind k carry evidence.
func (k EventKind) IsEvidence() bool {
	return k == Reinforce || k == Contradict || k == PartialEvidence
}

// Spec is what a create event says about a new belief.
type Spec struct {
	Statement   string  `json:"statement"`
	Subject     string  `json:"subject,omitempty"`
	Predicate   string  `json:"predicate,omitempty"`
	Object      string  `json:"object,omitempty"`
	Context     string  `json:"context,omitempty"`
	Timeframe   string  `json:"timeframe,omitempty"`
	Kind        string  `json:"kind"`
	Scope       string  `json:"scope"`
	ProjectPath string  `json:"project_path,omitempty"`
	Source      string  `json:"source,omitempty"`
	ParentID    string  `json:"parent_belief_id,omitempty"`
	Pinned      bool    `json:"pinned,omitempty"`
	Alpha       float64 `json:"alpha,omitempty"` // counts above the prior it starts with (split children)
	Beta        float64 `json:"beta,omitempty"`
}

// Absorb is what a merge target takes over from the belief merged into it:
// its counts above the prior at merge time and its evidence tallies.
type Absorb struct {
	From           string  `json:"from"`
	Alpha          float64 `json:"alpha"`
	Beta           float64 `json:"beta"`
	Evidence       int     `json:"evidence"`
	Supports       int     `json:"supports"`
	Contradictions int     `json:"contradictions"`
	Partials       int     `json:"partials"`
}

// Record is one entry of a belief's history: an event, joined with its
// evidence when it carries some. Records are applied in (HLC, ID) order.
type Record struct {
	ID       string
	BeliefID string
	HLC      int64
	Kind     EventKind
	At       Moment
	Origin   string

	// Evidence, for Reinforce, Contradict and PartialEvidence.
	Label       Label
	Support     float64
	Reliability float64

	Spec   *Spec   // Create; Restate (its Statement only)
	Target string  // Revise: the new belief; Merge (source side): the survivor; Supersede: the winner
	Absorb *Absorb // Merge (survivor side)
}

// State is the materialized, replicated state of one belief: a deterministic
// function of its records. Columns that are local by design (retrieval
// stability, access time, promotion marks, embeddings) are not part of it.
type State struct {
	ID string
	Spec
	Status Status

	// Alpha and Beta are the counts, including the prior, as of CountsAt.
	// Read them through Params.ConfidenceAt, which decays them lazily.
	Alpha, Beta float64
	CountsAt    Moment

	Peak           float64
	EvidenceCount  int
	Supports       int
	Contradictions int
	Partials       int

	LastReinforced int64 // Unix ms; 0 when never reinforced
	ValidAt        int64
	InvalidAt      int64 // 0 while valid
	MergedInto     string
	CreatedAt      int64
	UpdatedAt      int64
	LastHLC        int64
	Origin         string
}

// ConfidenceAt is the belief's confidence at moment now, its counts decayed
// toward the prior since they were last updated.
func (p Params) ConfidenceAt(s State, now Moment) float64 {
	a, b := p.Decay(s.Alpha, s.Beta, s.CountsAt, now)
	return Confidence(a, b)
}

// Apply folds one record into the state. Applying a belief's records in
// (HLC, ID) order from the zero State gives its materialized row; the store
// uses the same function for incremental updates and for rebuild, so both
// always agree.
func (p Params) Apply(s *State, r Record) {
	if s.Status == Forgotten {
		return // forgetting is final; later records carry no text to restore
	}
	if r.Kind != Create && s.ID == "" {
		return // history without its create event (not yet synced): nothing to fold into
	}
	switch r.Kind {
	case Create:
		if s.ID != "" || r.Spec == nil || r.BeliefID == "" {
			return
		}
		*s = State{
			ID:        r.BeliefID,
			Spec:      *r.Spec,
			Status:    Active,
			Alpha:     p.PriorAlpha + r.Spec.Alpha,
			Beta:      p.PriorBeta + r.Spec.Beta,
			CountsAt:  r.At,
			ValidAt:   r.At.Millis,
			CreatedAt: r.At.Millis,
			Origin:    r.Origin,
		}
		s.Spec.Alpha, s.Spec.Beta = 0, 0 // folded into the counts; not a column
		s.Peak = Confidence(s.Alpha, s.Beta)
	case Reinforce, Contradict, PartialEvidence:
		p.applyEvidence(s, r)
	case Revise:
		s.Status, s.InvalidAt = Revised, r.At.Millis
	case Split:
		s.Status, s.InvalidAt = SplitUp, r.At.Millis
	case Merge:
		if r.Absorb != nil {
			a, b := p.Decay(s.Alpha, s.Beta, s.CountsAt, r.At)
			s.Alpha, s.Beta = a+r.Absorb.Alpha, b+r.Absorb.Beta
			s.CountsAt = later(s.CountsAt, r.At)
			s.EvidenceCount += r.Absorb.Evidence
			s.Supports += r.Absorb.Supports
			s.Contradictions += r.Absorb.Contradictions
			s.Partials += r.Absorb.Partials
			s.Peak = max(s.Peak, Confidence(s.Alpha, s.Beta))
		} else {
			s.Status, s.MergedInto, s.InvalidAt = Merged, r.Target, r.At.Millis
		}
	case Archive:
		s.Status = Archived
	case Supersede:
		s.Status, s.InvalidAt = Superseded, r.At.Millis
	case Reject:
		s.Status, s.InvalidAt = Rejected, r.At.Millis
	case Reactivate:
		s.Status, s.InvalidAt, s.MergedInto = Active, 0, ""
	case Restate:
		if r.Spec != nil && r.Spec.Statement != "" {
			s.Statement = r.Spec.Statement
		}
	case Pin:
		s.Pinned = true
	case Unpin:
		s.Pinned = false
	case Forget:
		id := s.ID
		*s = State{ID: id, Status: Forgotten, Spec: Spec{Kind: s.Kind, Scope: s.Scope, ProjectPath: s.ProjectPath},
			Alpha: p.PriorAlpha, Beta: p.PriorBeta, CreatedAt: s.CreatedAt, Origin: s.Origin}
		s.InvalidAt = r.At.Millis
	}
	s.UpdatedAt = max(s.UpdatedAt, r.At.Millis)
	s.LastHLC = max(s.LastHLC, r.HLC)
}

func (p Params) applyEvidence(s *State, r Record) {
	a, b := p.Decay(s.Alpha, s.Beta, s.CountsAt, r.At)
	da, db := Counts(r.Support, r.Reliability, p.LearningRate)
	s.Alpha, s.Beta = a+da, b+db
	s.CountsAt = later(s.CountsAt, r.At)
	s.EvidenceCount++
	switch {
	case r.Support > 0:
		s.Supports++
		s.LastReinforced = max(s.LastReinforced, r.At.Millis)
	case r.Support < 0:
		s.Contradictions++
	default:
		s.Partials++
	}
	s.Peak = max(s.Peak, Confidence(s.Alpha, s.Beta))
}

func later(a, b Moment) Moment {
	if b.Millis > a.Millis {
		a.Millis = b.Millis
	}
	if b.Turn > a.Turn {
		a.Turn = b.Turn
	}
	return a
}
