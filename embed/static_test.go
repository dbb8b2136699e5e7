package embed

import (
	"context"
	"math"
	"strings"
	"testing"
)

func newStaticT(t testing.TB) *Static {
	t.Helper()
	s, err := NewStatic()
	if err != nil {
		t.Fatalf("NewStatic: %v", err)
	}
	return s
}

func TestStaticShape(t *testing.T) {
	s := newStaticT(t)
	if s.ID() != StaticID || s.Dim() != 484 || !Local(s.ID()) || !Local(NewOffline().ID()) {
		t.Errorf("ID()=%q Dim()=%d, want %s and 484, both built-in embedders local", s.ID(), s.Dim(), StaticID)
	}
	for _, text := range []string{"", "   ", "!!!", "pnpm", "I live in Lisbon", strings.Repeat("word ", 5000), "\x00\xff\xfe"} {
		v := embedOne(t, s, text)
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		if len(v) != s.Dim() || math.Abs(sum-1) > 1e-5 {
			t.Errorf("Embed(%.20q): len %d, squared norm %v; want %d and 1", text, len(v), sum, s.Dim())
		}
	}
}

// TestStaticGolden pins static-v1's vectors: they must be the same on every
// machine that syncs, and a change to the table, the weights or the hashed
// features must bump staticVersion (and recalibrate). Regenerate with
// go test ./embed -run TestStaticGolden -update
func TestStaticGolden(t *testing.T) {
	texts := []string{
		"I live in Lisbon",
		"Who is my boss? We switched from pnpm to bun; don't use npm.",
		"Ünïcödé: 日本語のテキストとemoji 🚀",
		"",
	}
	checkGolden(t, newStaticT(t), texts, "testdata/static_golden.txt", "staticVersion")
}

// TestStaticKnowsWhatOfflineMissed checks the pairs issue 13 names: words
// offline-v1 cannot relate, which the word vectors do, against a distractor
// from the same kind of memory.
func TestStaticKnowsWhatOfflineMissed(t *testing.T) {
	s := newStaticT(t)
	tests := []struct{ memory, prompt, distractor string }{
		{"I live in Lisbon", "Where do I reside these days?", "My manager is Priya"},
		{"My manager is Priya", "who is my boss", "I live in Lisbon"},
		{"The project uses pnpm", "which package manager do we use", "My manager is Priya"},
		{"I'm vegetarian", "do I eat meat?", "We deploy to Fly.io"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			vs, err := s.Embed(context.Background(), []string{tt.memory, tt.prompt, tt.distractor})
			if err != nil {
				t.Fatal(err)
			}
			right, wrong := Cosine(vs[0], vs[1]), Cosine(vs[2], vs[1])
			if right <= wrong+0.1 {
				t.Errorf("cos(%q)=%.2f, distractor %q %.2f: want the memory well ahead", tt.memory, right, tt.distractor, wrong)
			}
		})
	}
}

// TestStaticKeepsHashedDistinctions: identifiers GloVe does not know and
// negation still count, through the hashed half.
func TestStaticKeepsHashedDistinctions(t *testing.T) {
	s := newStaticT(t)
	cos := func(a, b string) float64 {
		vs, err := s.Embed(context.Background(), []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		return Cosine(vs[0], vs[1])
	}
	th := ThresholdsFor(s.ID())
	tests := []struct {
		name           string
		a, b           string
		lo, hi         float64
		loName, hiName string
	}{
		{"same claim", "I prefer pnpm over npm", "I like using pnpm instead of npm", th.Reinforce, 1.01, "Reinforce", "1"},
		{"other tool of the slot", "I prefer pnpm", "I prefer bun", th.Related, th.Reinforce, "Related", "Reinforce"},
		{"negated", "Use Docker for local development", "Don't use Docker for local development", th.Related, th.Reinforce, "Related", "Reinforce"},
		{"unrelated", "I prefer pnpm", "I prefer dark mode", -1, th.Related, "-1", "Related"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c := cos(tt.a, tt.b); c < tt.lo || c >= tt.hi {
				t.Errorf("cos(%q, %q)=%.3f, want in [%s, %s)", tt.a, tt.b, c, tt.loName, tt.hiName)
			}
		})
	}
}

func TestStaticCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newStaticT(t).Embed(ctx, []string{"a"}); err == nil {
		t.Error("Embed with a cancelled context: nil error")
	}
}
