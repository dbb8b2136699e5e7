package card

import (
	"time"

	"github.com/credence-mem/credence/store"
)

// Belief is a belief's card (store.Card) as shown: snake_case keys, times
// in RFC 3339, confidences to four places, related beliefs by ID and
// statement.
type Belief struct {
	ID             string     `json:"id"`
	Statement      string     `json:"statement"`
	Subject        string     `json:"subject"`
	Predicate      string     `json:"predicate"`
	Object         string     `json:"object"`
	Context        string     `json:"context,omitempty"`
	Timeframe      string     `json:"timeframe,omitempty"`
	Kind           string     `json:"kind"`
	Scope          string     `json:"scope"`
	Project        string     `json:"project,omitempty"`
	Source         string     `json:"source,omitempty"`
	Status         string     `json:"status"`
	Pinned         bool       `json:"pinned"`
	Confidence     float64    `json:"confidence"`
	Normalized     float64    `json:"normalized_confidence"`
	Alpha          float64    `json:"alpha"`
	Beta           float64    `json:"beta"`
	StoredAlpha    float64    `json:"stored_alpha"`
	StoredBeta     float64    `json:"stored_beta"`
	Peak           float64    `json:"peak_confidence"`
	EvidenceCount  int        `json:"evidence_count"`
	Supports       int        `json:"supports"`
	Contradictions int        `json:"contradictions"`
	Partials       int        `json:"partials"`
	Exclusive      bool       `json:"exclusive"`
	Contested      bool       `json:"contested"`
	Rivals         []Related  `json:"rivals,omitempty"`
	CreatedAt      string     `json:"created_at"`
	UpdatedAt      string     `json:"updated_at"`
	ValidAt        string     `json:"valid_at,omitempty"`
	InvalidAt      string     `json:"invalid_at,omitempty"`
	LastReinforced string     `json:"last_reinforced_at,omitempty"`
	Evidence       []Evidence `json:"evidence"`
	Events         []Event    `json:"events"`
	Parent         *Related   `json:"parent,omitempty"`
	RevisedInto    *Related   `json:"revised_into,omitempty"`
	MergedInto     *Related   `json:"merged_into,omitempty"`
	SupersededBy   *Related   `json:"superseded_by,omitempty"`
	Children       []Related  `json:"children,omitempty"`
	MergedFrom     []Related  `json:"merged_from,omitempty"`
	Timeline       []Point    `json:"timeline,omitempty"`
}

// Related names a related belief.
type Related struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Status    string `json:"status"`
}

// Evidence is one piece of evidence with its episode.
type Evidence struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Support     float64  `json:"support"`
	Reliability float64  `json:"reliability"`
	Source      string   `json:"source"`
	Note        string   `json:"note,omitempty"`
	CreatedAt   string   `json:"created_at"`
	Origin      string   `json:"origin"`
	EpisodeID   string   `json:"episode_id,omitempty"`
	Episode     *Episode `json:"episode,omitempty"`
}

// Episode is an episode as shown.
type Episode struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind"`
	SessionID string  `json:"session_id,omitempty"`
	Project   string  `json:"project,omitempty"`
	Scope     string  `json:"scope"`
	Content   string  `json:"content"`
	Summary   string  `json:"summary,omitempty"`
	Surprise  float64 `json:"surprise,omitempty"`
	CreatedAt string  `json:"created_at"`
	Origin    string  `json:"origin"`
	Forgotten bool    `json:"forgotten,omitempty"`
}

// Event is one belief event.
type Event struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	EvidenceID string `json:"evidence_id,omitempty"`
	CreatedAt  string `json:"created_at"`
	Origin     string `json:"origin"`
}

// Point is one point of a confidence timeline.
type Point struct {
	At         string  `json:"at"`
	Confidence float64 `json:"confidence"`
	Status     string  `json:"status"`
	Event      string  `json:"event,omitempty"`
}

// Of returns the card c as shown.
func Of(c store.Card) Belief {
	b := c.Belief
	out := Belief{
		ID: b.ID, Statement: b.Statement, Subject: b.Subject, Predicate: b.Predicate, Object: b.Object,
		Context: b.Context, Timeframe: b.Timeframe, Kind: b.Kind, Scope: b.Scope, Project: b.ProjectPath,
		Source: b.Source, Status: string(b.Status), Pinned: b.Pinned,
		Confidence: round4(c.Confidence), Normalized: round4(c.Normalized), Alpha: round4(c.Alpha), Beta: round4(c.Beta),
		StoredAlpha: round4(b.Alpha), StoredBeta: round4(b.Beta), Peak: round4(b.Peak),
		EvidenceCount: b.EvidenceCount, Supports: b.Supports, Contradictions: b.Contradictions, Partials: b.Partials,
		Exclusive: c.Exclusive, Contested: c.Contested,
		CreatedAt: msTime(b.CreatedAt), UpdatedAt: msTime(b.UpdatedAt), ValidAt: msTime(b.ValidAt),
		InvalidAt: msTime(b.InvalidAt), LastReinforced: msTime(b.LastReinforced),
		Evidence: []Evidence{}, Events: []Event{},
		Parent: related(c.Parent), RevisedInto: related(c.RevisedInto), MergedInto: related(c.MergedInto),
		SupersededBy: related(c.SupersededBy),
	}
	for _, r := range c.Rivals {
		out.Rivals = append(out.Rivals, *related(&r))
	}
	for _, r := range c.Children {
		out.Children = append(out.Children, *related(&r))
	}
	for _, r := range c.MergedFrom {
		out.MergedFrom = append(out.MergedFrom, *related(&r))
	}
	for _, e := range c.Evidence {
		ej := Evidence{ID: e.ID, Label: string(e.Label), Support: e.Support, Reliability: e.Reliability,
			Source: e.Source, Note: e.Note, CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin,
			EpisodeID: e.EpisodeID}
		if e.Episode != nil {
			ep := EpisodeOf(*e.Episode)
			ej.Episode = &ep
		}
		out.Evidence = append(out.Evidence, ej)
	}
	for _, e := range c.Events {
		out.Events = append(out.Events, Event{ID: e.ID, Kind: string(e.Kind), EvidenceID: e.EvidenceID,
			CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin})
	}
	return out
}

// EpisodeOf returns the episode e as shown.
func EpisodeOf(e store.Episode) Episode {
	return Episode{ID: e.ID, Kind: e.Kind, SessionID: e.SessionID, Project: e.ProjectPath, Scope: e.Scope,
		Content: e.Content, Summary: e.Summary, Surprise: e.Surprise,
		CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin, Forgotten: e.Forgotten}
}

// TimelineOf returns a confidence timeline as shown.
func TimelineOf(points []store.TimelinePoint) []Point {
	out := make([]Point, len(points))
	for i, p := range points {
		out[i] = Point{At: p.At.UTC().Format(time.RFC3339), Confidence: round4(p.Confidence),
			Status: string(p.Status), Event: string(p.Event)}
	}
	return out
}

// RelatedOf names the belief b as a related belief is shown.
func RelatedOf(b store.Belief) Related {
	return Related{ID: b.ID, Statement: b.Statement, Status: string(b.Status)}
}

func related(b *store.Belief) *Related {
	if b == nil {
		return nil
	}
	r := RelatedOf(*b)
	return &r
}

func msTime(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

func round4(x float64) float64 {
	return float64(int64(x*10000+0.5)) / 10000
}
