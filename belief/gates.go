package belief

import "time"

// Snapshot is what the lifecycle gates look at: a belief's state and its
// confidence at the moment of the check.
type Snapshot struct {
	State
	Confidence float64
}

// ShouldRevise reports whether a belief has fallen far enough to be
// re-synthesized: confidence below p.ReviseConfidence after a peak of at
// least p.RevisePeak, with enough contradictions and evidence. Pinned beliefs
// are never revised.
func (p Params) ShouldRevise(b Snapshot) bool {
	return b.Status == Active && !b.Pinned &&
		b.Confidence < p.ReviseConfidence &&
		b.Peak >= p.RevisePeak &&
		b.Contradictions >= p.ReviseMinContradictions &&
		b.EvidenceCount >= p.ReviseMinEvidence
}

// ShouldSplit reports whether a belief holds in some contexts and not in
// others: enough contradictions, supports and PARTIAL evidence.
func (p Params) ShouldSplit(b Snapshot) bool {
	return b.Status == Active && !b.Pinned &&
		b.Contradictions >= p.SplitMinContradictions &&
		b.Supports >= p.SplitMinSupports &&
		b.Partials >= p.SplitMinPartial &&
		b.EvidenceCount >= p.SplitMinEvidence
}

// ShouldMerge reports whether two beliefs say the same thing closely enough
// to become one: cosine above p.MergeMinSimilarity, same scope and project,
// both confident, and neither created or revised within the cooldown.
func (p Params) ShouldMerge(a, b Snapshot, cosine float64, now time.Time) bool {
	cool := func(s Snapshot) bool {
		return now.Sub(time.UnixMilli(s.CreatedAt)) >= p.MergeCooldown
	}
	return a.ID != b.ID && a.Status == Active && b.Status == Active &&
		cosine > p.MergeMinSimilarity &&
		a.Scope == b.Scope && a.ProjectPath == b.ProjectPath &&
		a.Confidence > p.MergeMinConfidence && b.Confidence > p.MergeMinConfidence &&
		cool(a) && cool(b)
}

// ShouldArchive reports whether a belief should leave recall: confidence
// below p.ArchiveConfidence, or not reinforced within p.ArchiveStale while
// holding less than p.ArchiveMinEvidence evidence. Pinned beliefs never are.
func (p Params) ShouldArchive(b Snapshot, now time.Time) bool {
	if b.Status != Active || b.Pinned {
		return false
	}
	if b.Confidence < p.ArchiveConfidence {
		return true
	}
	last := b.LastReinforced
	if last == 0 {
		last = b.CreatedAt
	}
	return now.Sub(time.UnixMilli(last)) >= p.ArchiveStale && b.EvidenceCount < p.ArchiveMinEvidence
}

// Share returns the counts above the prior that a child of a split (or a
// merge survivor) takes over: the parent's counts at moment now, decayed,
// minus the prior, times share.
func (p Params) Share(s State, now Moment, share float64) (alpha, beta float64) {
	a, b := p.Decay(s.Alpha, s.Beta, s.CountsAt, now)
	return (a - p.PriorAlpha) * share, (b - p.PriorBeta) * share
}

// Rank is the MEMORY.md ranking of a belief: confidence · ln(1 + evidence).
func Rank(confidence float64, evidence int) float64 {
	return confidence * ln1p(float64(evidence))
}
