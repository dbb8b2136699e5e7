package store

import (
	"time"
)

// CardJSON is the shape of a Card in `--json` output and MCP results:
// snake_case keys, times in RFC 3339, related beliefs by ID and statement.
type CardJSON struct {
	ID             string              `json:"id"`
	Statement      string              `json:"statement"`
	Subject        string              `json:"subject"`
	Predicate      string              `json:"predicate"`
	Object         string              `json:"object"`
	Context        string              `json:"context,omitempty"`
	Timeframe      string              `json:"timeframe,omitempty"`
	Kind           string              `json:"kind"`
	Scope          string              `json:"scope"`
	Project        string              `json:"project,omitempty"`
	Source         string              `json:"source,omitempty"`
	Status         string              `json:"status"`
	Pinned         bool                `json:"pinned"`
	Confidence     float64             `json:"confidence"`
	Normalized     float64             `json:"normalized_confidence"`
	Alpha          float64             `json:"alpha"`
	Beta           float64             `json:"beta"`
	StoredAlpha    float64             `json:"stored_alpha"`
	StoredBeta     float64             `json:"stored_beta"`
	Peak           float64             `json:"peak_confidence"`
	EvidenceCount  int                 `json:"evidence_count"`
	Supports       int                 `json:"supports"`
	Contradictions int                 `json:"contradictions"`
	Partials       int                 `json:"partials"`
	Exclusive      bool                `json:"exclusive"`
	Contested      bool                `json:"contested"`
	Rivals         []RelatedJSON       `json:"rivals,omitempty"`
	CreatedAt      string              `json:"created_at"`
	UpdatedAt      string              `json:"updated_at"`
	ValidAt        string              `json:"valid_at,omitempty"`
	InvalidAt      string              `json:"invalid_at,omitempty"`
	LastReinforced string              `json:"last_reinforced_at,omitempty"`
	Evidence       []EvidenceJSON      `json:"evidence"`
	Events         []EventJSON         `json:"events"`
	Parent         *RelatedJSON        `json:"parent,omitempty"`
	RevisedInto    *RelatedJSON        `json:"revised_into,omitempty"`
	MergedInto     *RelatedJSON        `json:"merged_into,omitempty"`
	SupersededBy   *RelatedJSON        `json:"superseded_by,omitempty"`
	Children       []RelatedJSON       `json:"children,omitempty"`
	MergedFrom     []RelatedJSON       `json:"merged_from,omitempty"`
	Timeline       []TimelinePointJSON `json:"timeline,omitempty"`
}

// RelatedJSON names a related belief.
type RelatedJSON struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Status    string `json:"status"`
}

// EvidenceJSON is one piece of evidence with its episode.
type EvidenceJSON struct {
	ID          string       `json:"id"`
	Label       string       `json:"label"`
	Support     float64      `json:"support"`
	Reliability float64      `json:"reliability"`
	Source      string       `json:"source"`
	Note        string       `json:"note,omitempty"`
	CreatedAt   string       `json:"created_at"`
	Origin      string       `json:"origin"`
	EpisodeID   string       `json:"episode_id,omitempty"`
	Episode     *EpisodeJSON `json:"episode,omitempty"`
}

// EpisodeJSON is an episode in JSON output.
type EpisodeJSON struct {
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

// EventJSON is one belief event.
type EventJSON struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	EvidenceID string `json:"evidence_id,omitempty"`
	CreatedAt  string `json:"created_at"`
	Origin     string `json:"origin"`
}

// TimelinePointJSON is one point of a confidence timeline.
type TimelinePointJSON struct {
	At         string  `json:"at"`
	Confidence float64 `json:"confidence"`
	Status     string  `json:"status"`
	Event      string  `json:"event,omitempty"`
}

// JSON returns the card in its JSON shape.
func (c Card) JSON() CardJSON {
	b := c.Belief
	out := CardJSON{
		ID: b.ID, Statement: b.Statement, Subject: b.Subject, Predicate: b.Predicate, Object: b.Object,
		Context: b.Context, Timeframe: b.Timeframe, Kind: b.Kind, Scope: b.Scope, Project: b.ProjectPath,
		Source: b.Source, Status: string(b.Status), Pinned: b.Pinned,
		Confidence: round4(c.Confidence), Normalized: round4(c.Normalized), Alpha: round4(c.Alpha), Beta: round4(c.Beta),
		StoredAlpha: round4(b.Alpha), StoredBeta: round4(b.Beta), Peak: round4(b.Peak),
		EvidenceCount: b.EvidenceCount, Supports: b.Supports, Contradictions: b.Contradictions, Partials: b.Partials,
		Exclusive: c.Exclusive, Contested: c.Contested,
		CreatedAt: msTime(b.CreatedAt), UpdatedAt: msTime(b.UpdatedAt), ValidAt: msTime(b.ValidAt),
		InvalidAt: msTime(b.InvalidAt), LastReinforced: msTime(b.LastReinforced),
		Evidence: []EvidenceJSON{}, Events: []EventJSON{},
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
		ej := EvidenceJSON{ID: e.ID, Label: string(e.Label), Support: e.Support, Reliability: e.Reliability,
			Source: e.Source, Note: e.Note, CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin,
			EpisodeID: e.EpisodeID}
		if e.Episode != nil {
			ep := e.Episode.JSON()
			ej.Episode = &ep
		}
		out.Evidence = append(out.Evidence, ej)
	}
	for _, e := range c.Events {
		out.Events = append(out.Events, EventJSON{ID: e.ID, Kind: string(e.Kind), EvidenceID: e.EvidenceID,
			CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin})
	}
	return out
}

// JSON returns the episode in its JSON shape.
func (e Episode) JSON() EpisodeJSON {
	return EpisodeJSON{ID: e.ID, Kind: e.Kind, SessionID: e.SessionID, Project: e.ProjectPath, Scope: e.Scope,
		Content: e.Content, Summary: e.Summary, Surprise: e.Surprise,
		CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), Origin: e.Origin, Forgotten: e.Forgotten}
}

// TimelineJSON converts timeline points to their JSON shape.
func TimelineJSON(points []TimelinePoint) []TimelinePointJSON {
	out := make([]TimelinePointJSON, len(points))
	for i, p := range points {
		out[i] = TimelinePointJSON{At: p.At.UTC().Format(time.RFC3339), Confidence: round4(p.Confidence),
			Status: string(p.Status), Event: string(p.Event)}
	}
	return out
}

func related(b *Belief) *RelatedJSON {
	if b == nil {
		return nil
	}
	return &RelatedJSON{ID: b.ID, Statement: b.Statement, Status: string(b.Status)}
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
