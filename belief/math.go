package belief

import (
	"math"
	"time"
)

// Label is the kind of a piece of evidence.
type Label string

// Evidence labels. SUPPORTS, CONTRADICTS and PARTIAL come from
// classification; USER_EDIT from a person editing MEMORY.md; MANUAL from
// `credence remember` and pinning by hand.
const (
	Supports    Label = "SUPPORTS"
	Contradicts Label = "CONTRADICTS"
	Partial     Label = "PARTIAL"
	Irrelevant  Label = "IRRELEVANT"
	UserEdit    Label = "USER_EDIT"
	Manual      Label = "MANUAL"
)

// Valid reports whether l is one of the known labels.
func (l Label) Valid() bool {
	switch l {
	case Supports, Contradicts, Partial, Irrelevant, UserEdit, Manual:
		return true
	}
	return false
}

// DefaultSupport returns the support s a label carries when the source does
// not grade it: +1 for SUPPORTS and MANUAL, −1 for CONTRADICTS and USER_EDIT
// (a person deleting a belief), 0 for PARTIAL and IRRELEVANT.
func (l Label) DefaultSupport() float64 {
	switch l {
	case Supports, Manual:
		return 1
	case Contradicts, UserEdit:
		return -1
	}
	return 0
}

// Counts converts one piece of evidence with support s ∈ [−1, 1] and
// reliability rho ∈ [0, 1] into the counts it adds: rate·ρ·(1+s)/2 to alpha
// and rate·ρ·(1−s)/2 to beta. Out-of-range inputs are clamped.
func Counts(s, rho, rate float64) (dAlpha, dBeta float64) {
	s = clamp(s, -1, 1)
	rho = clamp(rho, 0, 1)
	return rate * rho * (1 + s) / 2, rate * rho * (1 - s) / 2
}

// Confidence is the mean of Beta(alpha, beta).
func Confidence(alpha, beta float64) float64 {
	if alpha+beta <= 0 {
		return 0.5
	}
	return alpha / (alpha + beta)
}

// Moment is a point on both clocks: wall time in Unix milliseconds and the
// turn counter.
type Moment struct {
	Millis int64
	Turn   int64
}

// MomentAt returns the moment at wall time t and turn n.
func MomentAt(t time.Time, turn int64) Moment { return Moment{Millis: t.UnixMilli(), Turn: turn} }

// DecayFactor is the share of evidence weight that survives from one moment
// to a later one: exp(−λ·Δ) on the configured clock. It is 1 when decay is
// off or when to is not after from.
func (p Params) DecayFactor(from, to Moment) float64 {
	switch p.Clock {
	case TurnClock:
		d := to.Turn - from.Turn
		if d <= 0 || p.DecayPerTurn == 0 {
			return 1
		}
		return math.Exp(-p.DecayPerTurn * float64(d))
	default:
		d := to.Millis - from.Millis
		if d <= 0 || p.HalfLife <= 0 {
			return 1
		}
		return math.Exp(-math.Ln2 * float64(d) / float64(p.HalfLife.Milliseconds()))
	}
}

// Decay moves counts toward the prior: the part of each count above the prior
// is multiplied by the decay factor between the two moments.
func (p Params) Decay(alpha, beta float64, from, to Moment) (float64, float64) {
	f := p.DecayFactor(from, to)
	if f == 1 {
		return alpha, beta
	}
	return p.PriorAlpha + (alpha-p.PriorAlpha)*f, p.PriorBeta + (beta-p.PriorBeta)*f
}

// Normalize applies exclusivity to the confidences of one group of competing
// beliefs: when they sum above 1, each is divided by the sum plus epsilon;
// otherwise they are returned unchanged. A lone belief keeps its confidence.
func Normalize(conf []float64, epsilon float64) []float64 {
	out := make([]float64, len(conf))
	copy(out, conf)
	if len(conf) < 2 {
		return out
	}
	var sum float64
	for _, c := range conf {
		sum += c
	}
	if sum <= 1 {
		return out
	}
	for i := range out {
		out[i] /= sum + epsilon
	}
	return out
}

// Contested reports whether a group of competing beliefs (raw confidences,
// before normalization) has no clear winner: at least two members at or above
// p.ContestedMinConfidence, or the top two within p.ContestedMargin.
func (p Params) Contested(conf []float64) bool {
	if len(conf) < 2 {
		return false
	}
	first, second := math.Inf(-1), math.Inf(-1)
	high := 0
	for _, c := range conf {
		if c >= p.ContestedMinConfidence {
			high++
		}
		if c > first {
			first, second = c, first
		} else if c > second {
			second = c
		}
	}
	return high >= 2 || first-second <= p.ContestedMargin+1e-12
}

// RetrievalStrength is Bjork's retrieval strength exp(−t/S) for t days since
// the last access and stability S in days.
func RetrievalStrength(lastAccess, now time.Time, stabilityDays float64) float64 {
	if stabilityDays <= 0 {
		return 0
	}
	t := now.Sub(lastAccess).Hours() / 24
	if t < 0 {
		t = 0
	}
	return math.Exp(-t / stabilityDays)
}

// NextStability returns the stability after a belief is surfaced again:
// S·(1 + 0.1·ln(1 + hours_since_last/24)), capped at p.StabilityMax. Longer
// gaps between retrievals give larger gains (the spacing effect).
func (p Params) NextStability(stability float64, lastAccess, now time.Time) float64 {
	if stability <= 0 {
		stability = p.StabilityInitial
	}
	h := now.Sub(lastAccess).Hours()
	if h < 0 {
		h = 0
	}
	s := stability * (1 + 0.1*math.Log(1+h/24))
	return math.Min(s, p.StabilityMax)
}

func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Max(lo, math.Min(hi, x))
}

func ln1p(x float64) float64 { return math.Log1p(x) }
