package belief

import (
	"math"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCounts(t *testing.T) {
	tests := []struct {
		name           string
		s, rho, rate   float64
		wantDA, wantDB float64
	}{
		{"support reliable is Engram's alpha+1", 1, 1, 1, 1, 0},
		{"contradiction reliable is Engram's beta+1", -1, 1, 1, 0, 1},
		{"partial splits evenly", 0, 1, 1, 0.5, 0.5},
		{"graded support", 0.5, 1, 1, 0.75, 0.25},
		{"reliability scales", 1, 0.4, 1, 0.4, 0},
		{"learning rate scales", -1, 1, 0.3, 0, 0.3},
		{"unreliable moves nothing", 1, 0, 1, 0, 0},
		{"support clamped", 3, 1, 1, 1, 0},
		{"reliability clamped", -1, 7, 1, 0, 1},
		{"NaN support treated as partial", math.NaN(), 1, 1, 0.5, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			da, db := Counts(tt.s, tt.rho, tt.rate)
			if !near(da, tt.wantDA) || !near(db, tt.wantDB) {
				t.Errorf("Counts(%v,%v,%v)=(%v,%v), want (%v,%v)", tt.s, tt.rho, tt.rate, da, db, tt.wantDA, tt.wantDB)
			}
		})
	}
}

// TestEngramCounting replays a sequence of SUPPORTS/CONTRADICTS with ρ=1 and
// checks the counts equal Engram's alpha/beta increments exactly.
func TestEngramCounting(t *testing.T) {
	p := DefaultParams()
	p.HalfLife = 0
	s := State{}
	p.Apply(&s, Record{BeliefID: "bl_t", Kind: Create, Spec: &Spec{Statement: "x", Kind: KindFact, Scope: ScopeGlobal}})
	labels := []float64{1, 1, -1, 1, -1, -1, 1, 1}
	alpha, beta := 1.0, 1.0
	for i, l := range labels {
		p.Apply(&s, Record{Kind: EvidenceKind(l), Support: l, Reliability: 1, At: Moment{Millis: int64(i)}})
		if l > 0 {
			alpha++
		} else {
			beta++
		}
		if s.Alpha != alpha || s.Beta != beta {
			t.Fatalf("after %d items: (α,β)=(%v,%v), want (%v,%v)", i+1, s.Alpha, s.Beta, alpha, beta)
		}
	}
	if got, want := Confidence(s.Alpha, s.Beta), 6.0/10; !near(got, want) {
		t.Errorf("Confidence()=%v, want %v", got, want)
	}
	if s.EvidenceCount != 8 || s.Supports != 5 || s.Contradictions != 3 {
		t.Errorf("tallies=%d/%d/%d, want 8/5/3", s.EvidenceCount, s.Supports, s.Contradictions)
	}
}

func TestConfidence(t *testing.T) {
	tests := []struct{ a, b, want float64 }{
		{1, 1, 0.5}, {2, 1, 2.0 / 3}, {8, 2, 0.8}, {0, 0, 0.5},
	}
	for _, tt := range tests {
		if got := Confidence(tt.a, tt.b); !near(got, tt.want) {
			t.Errorf("Confidence(%v,%v)=%v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDecay(t *testing.T) {
	day := int64(24 * time.Hour / time.Millisecond)
	wall := DefaultParams() // half-life 365 days
	turn := ToyWorldParams()
	off := DefaultParams()
	off.HalfLife = 0
	tests := []struct {
		name       string
		p          Params
		a, b       float64
		from, to   Moment
		wantA, wan float64
	}{
		{"one half-life halves the excess", wall, 9, 3, Moment{Millis: 0}, Moment{Millis: 365 * day}, 5, 2},
		{"no time, no decay", wall, 9, 3, Moment{Millis: 5}, Moment{Millis: 5}, 9, 3},
		{"backwards time, no decay", wall, 9, 3, Moment{Millis: 10 * day}, Moment{Millis: 0}, 9, 3},
		{"decay off", off, 9, 3, Moment{Millis: 0}, Moment{Millis: 9999 * day}, 9, 3},
		{"turn clock 100 turns", turn, 3, 1, Moment{Turn: 0}, Moment{Turn: 100}, 1 + 2*math.Exp(-0.2), 1},
		{"turn clock ignores wall time", turn, 3, 1, Moment{Millis: 0}, Moment{Millis: 1000 * day}, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := tt.p.Decay(tt.a, tt.b, tt.from, tt.to)
			if !near(a, tt.wantA) || !near(b, tt.wan) {
				t.Errorf("Decay()=(%v,%v), want (%v,%v)", a, b, tt.wantA, tt.wan)
			}
		})
	}
	// Decay alone drifts confidence toward the prior mean and never past it.
	s := State{Alpha: 10, Beta: 1}
	prev := Confidence(s.Alpha, s.Beta)
	for n := int64(100); n <= 5000; n += 100 {
		c := turn.ConfidenceAt(s, Moment{Turn: n})
		if c >= prev || c < 0.5 {
			t.Fatalf("turn %d: confidence %v after %v: not drifting toward 0.5", n, c, prev)
		}
		prev = c
	}
	if prev > 0.51 {
		t.Errorf("after 5000 turns confidence=%v, want ≈0.5", prev)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want []float64
	}{
		{"lone belief keeps its confidence", []float64{0.9}, []float64{0.9}},
		{"sum below one unchanged", []float64{0.6, 0.3}, []float64{0.6, 0.3}},
		{"sum exactly one unchanged", []float64{0.5, 0.5}, []float64{0.5, 0.5}},
		{"sum above one normalized", []float64{0.9, 0.6}, []float64{0.9 / (1.5 + 1e-6), 0.6 / (1.5 + 1e-6)}},
		{"empty", nil, []float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(tt.in, 1e-6)
			if len(got) != len(tt.want) {
				t.Fatalf("Normalize()=%v, want %v", got, tt.want)
			}
			for i := range got {
				if !near(got[i], tt.want[i]) {
					t.Errorf("Normalize()[%d]=%v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestContested(t *testing.T) {
	p := DefaultParams()
	tests := []struct {
		name string
		in   []float64
		want bool
	}{
		{"lone belief", []float64{0.6}, false},
		{"clear winner", []float64{0.9, 0.2}, false},
		{"two at 0.55", []float64{0.55, 0.56}, true},
		{"one just below 0.55 but far apart", []float64{0.549, 0.8}, false},
		{"top two within 0.10", []float64{0.5, 0.41, 0.1}, true},
		{"top two just over 0.10 apart", []float64{0.5, 0.39}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Contested(tt.in); got != tt.want {
				t.Errorf("Contested(%v)=%v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestRetrievalStrength(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	if got := RetrievalStrength(t0, t0, 1); !near(got, 1) {
		t.Errorf("R(0)=%v, want 1", got)
	}
	if got, want := RetrievalStrength(t0, t0.Add(48*time.Hour), 2), math.Exp(-1); !near(got, want) {
		t.Errorf("R(2 days, S=2)=%v, want %v", got, want)
	}
	p := DefaultParams()
	if got, want := p.NextStability(1, t0, t0.Add(24*time.Hour)), 1+0.1*math.Log(2); !near(got, want) {
		t.Errorf("NextStability(1 day gap)=%v, want %v", got, want)
	}
	if got := p.NextStability(1, t0, t0); !near(got, 1) {
		t.Errorf("NextStability(no gap)=%v, want 1", got)
	}
	if got := p.NextStability(364, t0, t0.Add(1000*24*time.Hour)); got != 365 {
		t.Errorf("NextStability capped=%v, want 365", got)
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatalf("DefaultParams().Validate()=%v", err)
	}
	p := DefaultParams()
	p.Clock = "sundial"
	if err := p.Validate(); err == nil {
		t.Error("Validate accepted an unknown clock")
	}
	p = DefaultParams()
	p.LearningRate = 0
	if err := p.Validate(); err == nil {
		t.Error("Validate accepted learning rate 0")
	}
}
