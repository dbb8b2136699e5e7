package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func embedOne(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatalf("Embed(%.40q): %v", text, err)
	}
	return vs[0]
}

func TestOfflineIdentity(t *testing.T) {
	o := NewOffline()
	if got, want := o.ID(), "offline-v1-384"; got != want {
		t.Errorf("ID()=%q, want %q", got, want)
	}
	if o.Dim() != 384 {
		t.Errorf("Dim()=%d, want 384", o.Dim())
	}
	var _ Embedder = o
}

func TestOfflineDeterministic(t *testing.T) {
	texts := []string{"I prefer pnpm over npm", "Don't use default exports", ""}
	first := make([][]float32, len(texts))
	for i, text := range texts {
		first[i] = embedOne(t, NewOffline(), text)
	}
	// Same vectors from another instance, concurrently: pooled scratch
	// buffers must not leak state between calls.
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := NewOffline()
			for round := 0; round < 20; round++ {
				for i, text := range texts {
					vs, err := o.Embed(context.Background(), []string{text})
					if err != nil {
						errs <- err.Error()
						return
					}
					if string(EncodeF32(vs[0])) != string(EncodeF32(first[i])) {
						errs <- fmt.Sprintf("vector for %q changed between calls", text)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestOfflineGolden pins the exact vectors. If it fails after a change to
// the tokenizer, stemmer, lexicon or weights, the change moved vectors
// already stored under the old ID: bump offlineVersion, recalibrate, then
// run `go test ./embed -run TestOfflineGolden -update`.
func TestOfflineGolden(t *testing.T) {
	texts := []string{
		"I prefer pnpm over npm",
		"We migrated from Jest to Vitest last week; don't use Jest anymore.",
		"Ünïcödé: 日本語のテキストとemoji 🚀",
		"",
	}
	checkGolden(t, NewOffline(), texts, "testdata/offline_golden.txt", "offlineVersion")
}

// checkGolden compares the SHA-256 prefixes of e's vectors for texts with
// the golden file at path (rewritten with -update); a change must bump the
// embedder's version constant, named by version.
func checkGolden(t *testing.T, e Embedder, texts []string, path, version string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: sha256 of EncodeF32(vector) per text\n", e.ID())
	for _, text := range texts {
		sum := sha256.Sum256(EncodeF32(embedOne(t, e, text)))
		fmt.Fprintf(&b, "%s %q\n", hex.EncodeToString(sum[:8]), text)
	}
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatalf("write golden: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("%s vectors changed:\n got:\n%s\nwant:\n%s\nbump %s if this is intended", e.ID(), got, want, version)
	}
}

func TestOfflineParaphraseBeatsUnrelated(t *testing.T) {
	tests := []struct {
		name                          string
		anchor, paraphrase, unrelated string
	}{
		{"package manager", "I prefer pnpm over npm", "I like using pnpm instead of npm", "The API runs on port 8080"},
		{"synonym verbs", "We utilize Postgres for storage", "We use PostgreSQL for storage", "Keep commit messages short"},
		{"migrate is switch", "We migrated from Jest to Vitest", "We switched from Jest to Vitest", "Deploy on Fridays"},
		{"ship is deploy", "Ship the app with GitHub Actions", "Deploy the app through GitHub Actions", "I prefer dark mode"},
		{"js abbreviation", "Use single quotes in JavaScript", "Use single quotes in JS", "Use Redis for caching"},
		{"ts abbreviation", "Avoid any in TypeScript", "Don't use any in TS", "My name is Priya"},
		{"spec is test", "Write specs for the parser", "Write tests for the parser", "The frontend is built with Vite"},
		{"inflection", "Always running the linter before pushing", "Always run the linters before you push", "We host on AWS"},
		{"favour", "Favour composition over inheritance", "Prefer composition over inheritance", "Use tabs for indentation"},
		{"number words", "Indent with two spaces", "Indent with 2 spaces", "Migrations live in db/migrations"},
	}
	o := NewOffline()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := embedOne(t, o, tt.anchor)
			para := Cosine(a, embedOne(t, o, tt.paraphrase))
			unrel := Cosine(a, embedOne(t, o, tt.unrelated))
			if para < unrel+0.3 {
				t.Errorf("cos(paraphrase)=%.3f, cos(unrelated)=%.3f, want the paraphrase at least 0.3 higher", para, unrel)
			}
		})
	}
}

func TestOfflineRelatedSitsBetween(t *testing.T) {
	tests := []struct {
		name                         string
		anchor, same, related, other string
	}{
		{"other object", "I prefer pnpm", "I like pnpm", "I prefer bun", "The API runs on port 8080"},
		{"negation", "Use Docker for local development", "Local development uses Docker", "Don't use Docker for local development", "My name is Priya"},
		{"swapped preference", "Use async/await instead of callbacks", "Prefer async await over callbacks", "Use callbacks instead of async/await", "Store timestamps in UTC"},
		{"other version", "We're on Node 20", "The project uses Node 20", "We're on Node 18", "Use tabs for indentation"},
	}
	o := NewOffline()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := embedOne(t, o, tt.anchor)
			same := Cosine(a, embedOne(t, o, tt.same))
			related := Cosine(a, embedOne(t, o, tt.related))
			other := Cosine(a, embedOne(t, o, tt.other))
			if !(same > related && related > other) {
				t.Errorf("cos(same)=%.3f cos(related)=%.3f cos(unrelated)=%.3f, want them in that order", same, related, other)
			}
		})
	}
}

// TestOfflineSlotPairsReachRelated guards the case the relation classes
// exist for: a short claim and the same claim with another tool of the same
// kind must be similar enough to be checked for contradiction.
func TestOfflineSlotPairsReachRelated(t *testing.T) {
	tests := []struct{ a, b string }{
		{"I prefer pnpm", "I prefer bun"},
		{"Use fish shell", "Use zsh"},
		{"I work on a Mac", "I work on Linux"},
		{"Use vitest", "Use jest"},
		{"We deploy to Vercel", "We deploy to Netlify"},
	}
	o := NewOffline()
	th := ThresholdsFor(o.ID())
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			c := Cosine(embedOne(t, o, tt.a), embedOne(t, o, tt.b))
			if c < th.Related || c >= th.Reinforce {
				t.Errorf("cos=%.3f, want in [Related=%.2f, Reinforce=%.2f)", c, th.Related, th.Reinforce)
			}
		})
	}
}

func TestOfflineRobustInput(t *testing.T) {
	megabyte := strings.Repeat("pnpm is fast and we like it ", 1<<20/28)
	tests := []struct {
		name string
		text string
	}{
		{"empty", ""},
		{"whitespace", " \t\n\r "},
		{"punctuation only", "!!! ??? ... ---"},
		{"one megabyte", megabyte},
		{"one megabyte word", strings.Repeat("a", 1<<20)},
		{"invalid UTF-8", "use \xff\xfe pnpm \xc3"},
		{"NUL bytes", "use\x00pnpm\x00\x00"},
		{"binary", string([]byte{0, 1, 2, 0xff, 0x80, 0x7f, 0x1b, '[', '3', '1', 'm'})},
		{"emoji", "🚀🔥 ship it 🚀"},
		{"CJK", "我们使用 pnpm 管理依赖"},
		{"Cyrillic", "Мы используем PostgreSQL"},
		{"Arabic", "نستخدم بايثون"},
		{"combining marks", "e\u0301e\u0301 cafe\u0301"},
		{"truncated rune at cap", strings.Repeat("a", maxOfflineInput-1) + "é"},
		{"apostrophes only", "''' ’’’ don'"},
	}
	o := NewOffline()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := embedOne(t, o, tt.text)
			if len(v) != OfflineDim {
				t.Fatalf("len(vector)=%d, want %d", len(v), OfflineDim)
			}
			var sum float64
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("vector holds %v", x)
				}
				sum += float64(x) * float64(x)
			}
			if math.Abs(math.Sqrt(sum)-1) > 1e-5 {
				t.Errorf("|vector|=%v, want 1", math.Sqrt(sum))
			}
		})
	}
	t.Run("only the first 8 KiB count", func(t *testing.T) {
		head := megabyte[:maxOfflineInput]
		if string(EncodeF32(embedOne(t, o, megabyte))) != string(EncodeF32(embedOne(t, o, head))) {
			t.Error("the vector of a 1 MB text differs from the vector of its first 8 KiB")
		}
	})
	t.Run("case does not matter", func(t *testing.T) {
		if c := Cosine(embedOne(t, o, "WE USE POSTGRES"), embedOne(t, o, "we use postgres")); c < 0.98 {
			t.Errorf("cos(upper, lower)=%v, want >= 0.98 (only the name weight of capitals differs)", c)
		}
	})
	t.Run("empty texts are alike and unlike words", func(t *testing.T) {
		empty := embedOne(t, o, "")
		if string(EncodeF32(empty)) != string(EncodeF32(embedOne(t, o, "\x00\xff"))) {
			t.Error("an empty text and a wordless binary one have different vectors, want the same")
		}
		if c := Cosine(empty, embedOne(t, o, "I prefer pnpm")); math.Abs(c) > 0.3 {
			t.Errorf("cos(empty, sentence)=%v, want near 0", c)
		}
	})
}

func TestOfflineCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewOffline().Embed(ctx, []string{"a", "b"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a canceled context: err=%v, want context.Canceled", err)
	}
}

func FuzzOfflineEmbed(f *testing.F) {
	for _, seed := range []string{"", "I prefer pnpm", "don't use X, not Y", "\xff\x00", "c++ c# 3.12 node.js", "'s ’s"} {
		f.Add(seed)
	}
	o := NewOffline()
	f.Fuzz(func(t *testing.T, text string) {
		v := embedOne(t, o, text)
		if n := norm(v); math.Abs(n-1) > 1e-4 {
			t.Errorf("|Embed(%q)|=%v, want 1", text, n)
		}
	})
}
