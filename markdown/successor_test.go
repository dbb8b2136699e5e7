package markdown

import (
	"testing"
	"time"
)

// TestFormerNamesSuccessor checks the former bullet of a replaced belief
// names what replaced it, briefly, and reads back to its own statement, so
// a later diff does not take the bullet for a deleted one.
func TestFormerNamesSuccessor(t *testing.T) {
	demoted := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, old, successor, line string
	}{
		{"city", "User lives in Berlin", "User lives in Lisbon",
			"- [NO LONGER TRUE] User lives in Berlin → now Lisbon (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
		{"name", "User's name is Jon", "User's name is John.",
			"- [NO LONGER TRUE] User's name is Jon → now John (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
		{"tool, shared ending", "Project uses npm as its package manager", "Project uses pnpm as its package manager",
			"- [NO LONGER TRUE] Project uses npm as its package manager → now pnpm (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
		{"other shape: the whole statement", "User lives in Berlin", "User moved to Lisbon",
			"- [NO LONGER TRUE] User lives in Berlin → now User moved to Lisbon (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
		{"inert", "Uses npm", "Uses <!-- pnpm -->\nnow",
			"- [NO LONGER TRUE] Uses npm → now Uses <! -- pnpm -- > now (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
		{"no successor", "User lives in Berlin", "",
			"- [NO LONGER TRUE] User lives in Berlin (was: 0.85, now: 0.20, demoted: 2026-03-01)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := FormerEntry{ID: "bl_1", Statement: tt.old, Was: 0.85, Now: 0.2, Date: demoted, Reason: ReasonSuperseded,
				Successor: tt.successor, SuccessorID: "bl_2"}
			if got := formatFormer(f); got != tt.line {
				t.Fatalf("formatFormer=\n%s\nwant\n%s", got, tt.line)
			}
			s := Section{Former: []FormerEntry{f}}
			p, ok := ParseSection([]byte(RenderSection(s)))
			if !ok || len(p.Bullets(HeadingFormer)) != 1 {
				t.Fatalf("ParseSection: ok=%v, %d former bullets", ok, len(p.Bullets(HeadingFormer)))
			}
			b := p.Bullets(HeadingFormer)[0]
			if b.Kind != BulletFormer || b.Statement != tt.old {
				t.Errorf("parsed kind %v statement %q, want a former bullet of %q", b.Kind, b.Statement, tt.old)
			}
			if c := DiffSection(s, p); len(c.DeletedFormer)+len(c.Deleted)+len(c.Added) != 0 {
				t.Errorf("DiffSection of the section as written = %+v, want no change", c)
			}
		})
	}
}
