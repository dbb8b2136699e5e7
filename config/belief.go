package config

import (
	"time"

	"github.com/credence-mem/credence/belief"
)

// BeliefParams returns the belief constants the config describes.
func (c *Config) BeliefParams() belief.Params {
	b := c.Belief
	day := 24 * time.Hour
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
		MergeMinSimilarity:      b.MergeMinSimilarity,
		MergeMinConfidence:      b.MergeMinConfidence,
		MergeCooldown:           time.Duration(b.MergeCooldownDays) * day,
		ArchiveConfidence:       b.ArchiveConfidence,
		ArchiveStale:            time.Duration(b.ArchiveStaleDays) * day,
		ArchiveMinEvidence:      b.ArchiveMinEvidence,
		StabilityInitial:        b.StabilityInitialDays,
		StabilityMax:            b.StabilityMaxDays,
	}
}
