package config

import (
	"time"

	"github.com/credence-mem/credence/belief"
)

// BeliefParams returns the belief constants the config describes. An unset
// belief.merge_min_similarity (0) leaves the seed's value in place: the
// merge gate's similarity belongs to the embedder, and consolidation sets it
// from the embedder's thresholds (app.Thresholds) before asking the gate.
func (c *Config) BeliefParams() belief.Params {
	b := c.Belief
	day := 24 * time.Hour
	mergeSim := b.MergeMinSimilarity
	if mergeSim == 0 {
		mergeSim = belief.DefaultParams().MergeMinSimilarity
	}
	return belief.Params{
		LearningRate:            b.LearningRate,
		PriorAlpha:              b.PriorAlpha,
		PriorBeta:               b.PriorBeta,
		Clock:                   belief.Clock(b.Clock),
		HalfLife:                time.Duration(b.HalfLifeDays * float64(day)),
		DecayPerTurn:            b.DecayPerTurn,
		Epsilon:                 b.ExclusivityEpsilon,
		ContestedMinConfidence:  b.ContestedMinConfidence,
		ContestedMargin:         b.ContestedMargin,
		ReviseConfidence:        b.ReviseConfidence,
		RevisePeak:              b.RevisePeak,
		ReviseMinContradictions: b.ReviseMinContradictions,
		ReviseMinEvidence:       b.ReviseMinEvidence,
		SplitMinContradictions:  b.SplitMinContradictions,
		SplitMinSupports:        b.SplitMinSupports,
		SplitMinPartial:         b.SplitMinPartial,
		SplitMinEvidence:        b.SplitMinEvidence,
		MergeMinSimilarity:      mergeSim,
		MergeMinConfidence:      b.MergeMinConfidence,
		MergeCooldown:           time.Duration(b.MergeCooldownDays) * day,
		ArchiveConfidence:       b.ArchiveConfidence,
		ArchiveStale:            time.Duration(b.ArchiveStaleDays) * day,
		ArchiveMinEvidence:      b.ArchiveMinEvidence,
		StabilityInitial:        b.StabilityInitialDays,
		StabilityMax:            b.StabilityMaxDays,
	}
}
