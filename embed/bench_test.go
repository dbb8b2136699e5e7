package embed

import (
	"context"
	"strings"
	"testing"
)

// benchSentence has 20 words, the size of a typical prompt claim.
const benchSentence = "We switched the monorepo from npm to pnpm last month because installs were slow, so please always use pnpm here."

// BenchmarkOfflineEmbed times one text per Embed call, as the hook hot path
// does: go test ./embed -run '^$' -bench OfflineEmbed -cpu 1
func BenchmarkOfflineEmbed(b *testing.B) {
	paragraph := strings.Repeat("The backend is written in Go and talks to Postgres through sqlc; tests run with go test -race in CI. ", 21)[:2048]
	cases := []struct {
		name string
		text string
	}{
		{"sentence_20_words", benchSentence},
		{"paragraph_2KB", paragraph},
		{"huge_1MB_capped", strings.Repeat(paragraph, 512)},
	}
	o := NewOffline()
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			texts := []string{c.text}
			b.SetBytes(int64(min(len(c.text), maxOfflineInput)))
			b.ReportAllocs()
			cpu0, ok := processCPUTime()
			n := 0
			for b.Loop() {
				if _, err := o.Embed(ctx, texts); err != nil {
					b.Fatal(err)
				}
				n++
			}
			// With -cpu 1 this is the CPU time per call; on a busy machine
			// it is steadier than ns/op.
			if cpu1, ok1 := processCPUTime(); ok && ok1 && n > 0 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(n), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkCosine times one comparison of two offline vectors.
func BenchmarkCosine(b *testing.B) {
	o := NewOffline()
	vs, err := o.Embed(context.Background(), []string{benchSentence, "I prefer pnpm"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Cosine(vs[0], vs[1])
	}
}
