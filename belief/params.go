package belief

import (
	"fmt"
	"math"
	"time"
)

// Clock names the clock that decay runs on.
type Clock string

const (
	// WallClock decays evidence with elapsed real time.
	WallClock Clock = "wall"
	// TurnClock decays evidence with elapsed conversation turns (one
	// UserPromptSubmit is one turn), as the substrate's toy world does.
	TurnClock Clock = "turn"
)

// Params are the constants of the belief model. Defaults come from the seeds:
// Engram's BELIEF_CONFIG for the gates, the substrate's parameters for decay
// and exclusivity. All are overridable from the config file.
type Params struct {
	// LearningRate scales the counts every piece of evidence adds. 1 is
	// Engram's counting; the substrate's toy world uses 0.3.
	LearningRate float64
	// PriorAlpha and PriorBeta are the counts of a belief with no evidence.
	PriorAlpha, PriorBeta float64

	Clock Clock
	// HalfLife is the wall-clock half-life of evidence weight; 0 disables decay.
	HalfLife time.Duration
	// DecayPerTurn is λ on the turn clock: weight fades as exp(−λ·turns).
	DecayPerTurn float64

	// Epsilon is added to the sum when an exclusive group is normalized.
	Epsilon float64
	// ContestedMinConfidence and ContestedMargin define a contested group:
	// two or more members at or above the minimum, or the top two within
	// the margin.
	ContestedMinConfidence float64
	ContestedMargin        float64

	ReviseConfidence        float64 // revise when confidence falls below this…
	RevisePeak              float64 // …after having reached at least this,
	ReviseMinContradictions int     // with at least this many contradictions
	ReviseMinEvidence       int     // and this much evidence.

	SplitMinContradictions int
	SplitMinSupports       int
	SplitMinPartial        int
	SplitMinEvidence       int

	MergeMinSimilarity float64 // cosine must exceed this
	MergeMinConfidence float64 // both confidences must exceed this
	MergeCooldown      time.Duration

	ArchiveConfidence  float64 // archive below this confidence,
	ArchiveStale       time.Duration
	ArchiveMinEvidence int // or when stale with less evidence than this.

	// StabilityInitial and StabilityMax bound retrieval stability in days.
	StabilityInitial float64
	StabilityMax     float64
}

// DefaultParams returns the seeds' constants.
func DefaultParams() Params {
	return Params{
		LearningRate:            1,
		PriorAlpha:              1,
		PriorBeta:               1,
		Clock:                   WallClock,
		HalfLife:                365 * 24 * time.Hour,
		DecayPerTurn:            0.002,
		Epsilon:                 1e-6,
		ContestedMinConfidence:  0.55,
		ContestedMargin:         0.10,
		ReviseConfidence:        0.4,
		RevisePeak:              0.5,
		ReviseMinContradictions: 3,
		ReviseMinEvidence:       5,
		SplitMinContradictions:  3,
		SplitMinSupports:        3,
		SplitMinPartial:         2,
		SplitMinEvidence:        5,
		MergeMinSimilarity:      0.92,
		MergeMinConfidence:      0.6,
		MergeCooldown:           7 * 24 * time.Hour,
		ArchiveConfidence:       0.3,
		ArchiveStale:            90 * 24 * time.Hour,
		ArchiveMinEvidence:      5,
		StabilityInitial:        1,
		StabilityMax:            365,
	}
}

// ToyWorldParams returns the substrate's toy-world parameters: learning rate
// 0.3, decay 0.002 per turn on the turn clock, prior 0.5.
func ToyWorldParams() Params {
	p := DefaultParams()
	p.LearningRate = 0.3
	p.Clock = TurnClock
	p.DecayPerTurn = 0.002
	return p
}

// Validate reports the first parameter that is out of range, naming it.
func (p Params) Validate() error {
	switch {
	case !(p.LearningRate > 0):
		return fmt.Errorf("belief.learning_rate: must be > 0, got %v", p.LearningRate)
	case !(p.PriorAlpha > 0) || !(p.PriorBeta > 0):
		return fmt.Errorf("belief.prior_alpha/prior_beta: must be > 0, got %v/%v", p.PriorAlpha, p.PriorBeta)
	case p.Clock != WallClock && p.Clock != TurnClock:
		return fmt.Errorf("belief.clock: must be %q or %q, got %q", WallClock, TurnClock, p.Clock)
	case p.HalfLife < 0:
		return fmt.Errorf("belief.half_life_days: must be ≥ 0 (0 turns decay off), got %v", p.HalfLife)
	case p.DecayPerTurn < 0 || math.IsNaN(p.DecayPerTurn):
		return fmt.Errorf("belief.decay_per_turn: must be ≥ 0, got %v", p.DecayPerTurn)
	case p.StabilityInitial <= 0 || p.StabilityMax < p.StabilityInitial:
		return fmt.Errorf("belief.stability_initial_days/stability_max_days: need 0 < initial ≤ max, got %v/%v", p.StabilityInitial, p.StabilityMax)
	}
	return nil
}

// PriorConfidence is the confidence of a belief with no evidence.
func (p Params) PriorConfidence() float64 { return p.PriorAlpha / (p.PriorAlpha + p.PriorBeta) }
