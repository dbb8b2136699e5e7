package belief

import (
	"testing"
	"time"
)

var now = time.Unix(1_800_000_000, 0)

func snap(mod func(*Snapshot)) Snapshot {
	s := Snapshot{State: State{ID: "bl_a", Status: Active, Spec: Spec{Scope: ScopeProject, ProjectPath: "/p"},
		CreatedAt: now.Add(-30 * 24 * time.Hour).UnixMilli(), LastReinforced: now.UnixMilli()}}
	mod(&s)
	return s
}

func TestShouldRevise(t *testing.T) {
	p := DefaultParams()
	base := func(s *Snapshot) { s.Confidence, s.Peak, s.Contradictions, s.EvidenceCount = 0.39, 0.5, 3, 5 }
	tests := []struct {
		name string
		mod  func(*Snapshot)
		want bool
	}{
		{"all gates at threshold", base, true},
		{"confidence exactly 0.4", func(s *Snapshot) { base(s); s.Confidence = 0.4 }, false},
		{"peak just short", func(s *Snapshot) { base(s); s.Peak = 0.499 }, false},
		{"two contradictions", func(s *Snapshot) { base(s); s.Contradictions = 2 }, false},
		{"four evidence", func(s *Snapshot) { base(s); s.EvidenceCount = 4 }, false},
		{"pinned", func(s *Snapshot) { base(s); s.Pinned = true }, false},
		{"not active", func(s *Snapshot) { base(s); s.Status = Archived }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.ShouldRevise(snap(tt.mod)); got != tt.want {
				t.Errorf("ShouldRevise()=%v, want %v", got, tt.want)
			}
		})
	}
}

func TestShouldSplit(t *testing.T) {
	p := DefaultParams()
	base := func(s *Snapshot) { s.Contradictions, s.Supports, s.Partials, s.EvidenceCount = 3, 3, 2, 8 }
	tests := []struct {
		name string
		mod  func(*Snapshot)
		want bool
	}{
		{"all gates at threshold", base, true},
		{"evidence exactly 5", func(s *Snapshot) { base(s); s.EvidenceCount = 5 }, true},
		{"evidence 4", func(s *Snapshot) { base(s); s.EvidenceCount = 4 }, false},
		{"two contradictions", func(s *Snapshot) { base(s); s.Contradictions = 2 }, false},
		{"two supports", func(s *Snapshot) { base(s); s.Supports = 2 }, false},
		{"one partial", func(s *Snapshot) { base(s); s.Partials = 1 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.ShouldSplit(snap(tt.mod)); got != tt.want {
				t.Errorf("ShouldSplit()=%v, want %v", got, tt.want)
			}
		})
	}
}

func TestShouldMerge(t *testing.T) {
	p := DefaultParams()
	a := snap(func(s *Snapshot) { s.Confidence = 0.61 })
	b := snap(func(s *Snapshot) { s.ID, s.Confidence = "bl_b", 0.61 })
	week := 7 * 24 * time.Hour
	tests := []struct {
		name   string
		mod    func(a, b *Snapshot)
		cosine float64
		want   bool
	}{
		{"all gates just past threshold", func(a, b *Snapshot) {}, 0.9201, true},
		{"cosine exactly 0.92", func(a, b *Snapshot) {}, 0.92, false},
		{"confidence exactly 0.6", func(a, b *Snapshot) { b.Confidence = 0.6 }, 0.95, false},
		{"other project", func(a, b *Snapshot) { b.ProjectPath = "/q" }, 0.95, false},
		{"other scope", func(a, b *Snapshot) { b.Scope = ScopeGlobal }, 0.95, false},
		{"created exactly 7 days ago", func(a, b *Snapshot) { b.CreatedAt = now.Add(-week).UnixMilli() }, 0.95, true},
		{"revised 6 days ago", func(a, b *Snapshot) { b.CreatedAt = now.Add(-week + 24*time.Hour).UnixMilli() }, 0.95, false},
		{"same belief", func(a, b *Snapshot) { b.ID = a.ID }, 0.99, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y := a, b
			tt.mod(&x, &y)
			if got := p.ShouldMerge(x, y, tt.cosine, now); got != tt.want {
				t.Errorf("ShouldMerge()=%v, want %v", got, tt.want)
			}
		})
	}
}

func TestShouldArchive(t *testing.T) {
	p := DefaultParams()
	stale := now.Add(-90 * 24 * time.Hour).UnixMilli()
	tests := []struct {
		name string
		mod  func(*Snapshot)
		want bool
	}{
		{"confident and fresh", func(s *Snapshot) { s.Confidence, s.EvidenceCount = 0.8, 2 }, false},
		{"confidence 0.299", func(s *Snapshot) { s.Confidence = 0.299 }, true},
		{"confidence exactly 0.3", func(s *Snapshot) { s.Confidence = 0.3 }, false},
		{"stale 90 days with 4 evidence", func(s *Snapshot) { s.Confidence, s.LastReinforced, s.EvidenceCount = 0.8, stale, 4 }, true},
		{"stale 89 days", func(s *Snapshot) {
			s.Confidence, s.LastReinforced, s.EvidenceCount = 0.8, now.Add(-89*24*time.Hour).UnixMilli(), 4
		}, false},
		{"stale with 5 evidence", func(s *Snapshot) { s.Confidence, s.LastReinforced, s.EvidenceCount = 0.8, stale, 5 }, false},
		{"never reinforced, created long ago", func(s *Snapshot) {
			s.Confidence, s.LastReinforced, s.CreatedAt, s.EvidenceCount = 0.6, 0, stale, 1
		}, true},
		{"pinned never archived", func(s *Snapshot) { s.Confidence, s.Pinned = 0.1, true }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.ShouldArchive(snap(tt.mod), now); got != tt.want {
				t.Errorf("ShouldArchive()=%v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplyLifecycle(t *testing.T) {
	p := DefaultParams()
	s := State{}
	at := func(ms int64) Moment { return Moment{Millis: ms} }
	p.Apply(&s, Record{Kind: Reinforce, Support: 1, Reliability: 1, At: at(1)})
	if s.ID != "" || s.EvidenceCount != 0 {
		t.Fatal("evidence before create was folded in")
	}
	p.Apply(&s, Record{BeliefID: "bl_x", HLC: 1, Kind: Create, At: at(10), Spec: &Spec{Statement: "User lives in Beijing", Kind: KindFact, Scope: ScopeGlobal}})
	p.Apply(&s, Record{HLC: 2, Kind: Supersede, At: at(20), Target: "bl_y"})
	if s.Status != Superseded || s.InvalidAt != 20 {
		t.Fatalf("after supersede: %v invalid_at=%d", s.Status, s.InvalidAt)
	}
	p.Apply(&s, Record{HLC: 3, Kind: Reactivate, At: at(30)})
	if s.Status != Active || s.InvalidAt != 0 || s.ValidAt != 10 {
		t.Fatalf("after reactivate: %v invalid_at=%d valid_at=%d", s.Status, s.InvalidAt, s.ValidAt)
	}
	p.Apply(&s, Record{HLC: 4, Kind: Merge, At: at(40), Absorb: &Absorb{Alpha: 2, Beta: 1, Evidence: 3, Supports: 2, Contradictions: 1}})
	if s.Alpha != 3 || s.Beta != 2 || s.EvidenceCount != 3 {
		t.Fatalf("after absorbing: α=%v β=%v n=%d", s.Alpha, s.Beta, s.EvidenceCount)
	}
	p.Apply(&s, Record{HLC: 5, Kind: Forget, At: at(50)})
	if s.Status != Forgotten || s.Statement != "" {
		t.Fatalf("after forget: %v %q", s.Status, s.Statement)
	}
	p.Apply(&s, Record{HLC: 6, Kind: Reactivate, At: at(60)})
	if s.Status != Forgotten {
		t.Fatal("a forgotten belief came back")
	}
}
