package promote

import (
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// Contested beliefs are never promoted; a clear winner is, with the
// confidence exclusivity gives it.
func TestExclusiveGroups(t *testing.T) {
	spec := func(city string) belief.Spec {
		return belief.Spec{Statement: "User lives in " + city, Subject: "user", Predicate: "lives_in",
			Object: strings.ToLower(city), Scope: belief.ScopeGlobal}
	}
	tests := []struct {
		name      string
		paris     [2]int // supports, contradictions of the rival
		wantTokyo string // bullet, "" when not promoted
	}{
		{"both strong: contested", [2]int{8, 0}, ""},
		{"a rival at the prior pulls it below the threshold", [2]int{0, 0}, ""},
		{"clear winner", [2]int{0, 1}, "- User lives in Tokyo (confidence: 0.73, evidence: 9)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.belief(spec("Tokyo"), 9, 0) // 10/11 = 0.91 alone
			e.belief(spec("Paris"), tc.paris[0], tc.paris[1])
			e.promote()
			path := e.cfg.Paths.GlobalMemory
			if got := e.bulletLine(path, "Tokyo"); got != tc.wantTokyo {
				t.Fatalf("Tokyo bullet %q, want %q", got, tc.wantTokyo)
			}
			if strings.Contains(e.read(path), "Paris") {
				t.Fatalf("the rival was promoted:\n%s", e.read(path))
			}
		})
	}
}

// A promoted belief whose group becomes contested goes to Former as
// uncertain, not as untrue.
func TestContestedAfterPromotion(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	spec := belief.Spec{Statement: "Project uses npm", Subject: "project", Predicate: "uses_package_manager", Object: "npm", Scope: belief.ScopeGlobal}
	e.belief(spec, 9, 0)
	e.promote()
	spec.Statement, spec.Object = "Project uses pnpm", "pnpm"
	e.belief(spec, 3, 0) // 0.80 raw: both ≥ 0.55, npm normalized to 0.53
	e.promote()
	if line := e.bulletLine(path, "Project uses npm"); line != "- [UNCERTAIN] Project uses npm (was: 0.91, now: 0.53, demoted: 2026-03-01)" {
		t.Fatalf("former bullet %q, want [UNCERTAIN] from 0.91 to 0.53", line)
	}
	if strings.Contains(e.read(path), "pnpm") {
		t.Fatalf("a contested belief was promoted:\n%s", e.read(path))
	}
}

// Status changes: superseded (no longer true) goes to Former, gone statuses
// are removed at once, and Former expires after the configured days.
func TestStatusChangesAndExpiry(t *testing.T) {
	tests := []struct {
		name       string
		change     func(e *env, id string)
		advance    time.Duration
		wantPrefix string // "" when removed
	}{
		{"superseded", func(e *env, id string) {
			winner := e.global("User uses Zed", 4, 0)
			if err := e.db.Write(e.ctx, func(tx *store.Tx) error { _, err := tx.Supersede(e.ctx, id, winner); return err }); err != nil {
				t.Fatal(err)
			}
		}, 0, "- [NO LONGER TRUE] User uses Vim → now Zed (was: 0.83, now: 0.83, demoted: 2026-03-01)"},
		{"archived", func(e *env, id string) { e.mark(id, belief.Archive) }, 0, ""},
		{"forgotten", func(e *env, id string) {
			if err := e.db.ForgetBelief(e.ctx, id); err != nil {
				t.Fatal(err)
			}
		}, 0, ""},
		{"former for 29 days", func(e *env, id string) { e.evidence(id, 0, 2) }, 29 * 24 * time.Hour,
			"- [NO LONGER TRUE] User uses Vim (was: 0.83, now: 0.62, demoted: 2026-03-01)"},
		{"former for 30 days", func(e *env, id string) { e.evidence(id, 0, 2) }, 30 * 24 * time.Hour, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			path := e.cfg.Paths.GlobalMemory
			id := e.global("User uses Vim", 4, 0)
			e.promote()
			tc.change(e, id)
			e.promote()
			if tc.advance > 0 {
				e.clock.Advance(tc.advance)
				e.promote()
			}
			line := e.bulletLine(path, "User uses Vim")
			if tc.wantPrefix == "" {
				if line != "" {
					t.Fatalf("bullet %q still in the file, want it removed", line)
				}
				if b, err := e.db.Belief(e.ctx, id); err == nil && (b.PromotedAt != 0 || b.DemotedAt != 0) {
					t.Fatalf("marks left: promoted_at=%d demoted_at=%d", b.PromotedAt, b.DemotedAt)
				}
				return
			}
			if !strings.HasPrefix(line, strings.TrimSuffix(tc.wantPrefix, ")")) {
				t.Fatalf("bullet %q, want %q", line, tc.wantPrefix)
			}
		})
	}
}

// A belief outranked out of the ten slots leaves without a Former entry
// and loses its marks, so the file and the marks agree.
func TestDisplacedBelief(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	weakest := e.global("Weakest fact", 3, 0)
	for i := range 9 {
		e.global("Strong fact "+itoa(i), 6+i, 0)
	}
	e.promote()
	if e.get(weakest).PromotedAt == 0 {
		t.Fatalf("weakest of ten not promoted")
	}
	e.global("Stronger newcomer", 20, 0)
	st := e.promote()
	if strings.Contains(e.read(path), "Weakest fact") || e.get(weakest).PromotedAt != 0 || st.Removed != 1 {
		t.Fatalf("displaced belief: Stats=%+v promoted_at=%d file:\n%s", st, e.get(weakest).PromotedAt, e.read(path))
	}
	if !e.under(path, markdown.HeadingBeliefs, "Stronger newcomer") {
		t.Fatalf("newcomer not promoted")
	}
}

func TestFirstPerson(t *testing.T) {
	tests := []struct{ in, want string }{
		{"User prefers tabs", "I prefer tabs"},
		{"User is a vegetarian", "I am a vegetarian"},
		{"User has two cats", "I have two cats"},
		{"User watches anime", "I watch anime"},
		{"User studies Rust", "I study Rust"},
		{"The user lives in Oslo", "I live in Oslo"},
		{"User access", ""},
		{"Project uses pnpm", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := firstPerson(tc.in); got != tc.want {
				t.Fatalf("firstPerson(%q)=%q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
