package embed

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchSentence has 20 words, the size of a typical prompt claim.
const benchSentence = "We switched the monorepo from npm to pnpm last month because installs were slow, so please always use pnpm here."

// BenchmarkOfflineEmbed times one text per Embed call, as the hook hot path
// does: go test ./embed -run '^$' -bench OfflineEmbed -cpu 1
func BenchmarkOfflineEmbed(b *testing.B) {
	benchEmbed(b, NewOffline())
}

// BenchmarkStaticEmbed is BenchmarkOfflineEmbed for the static embedder.
func BenchmarkStaticEmbed(b *testing.B) {
	s, err := NewStatic()
	if err != nil {
		b.Fatal(err)
	}
	benchEmbed(b, s)
}

func benchEmbed(b *testing.B, e Embedder) {
	paragraph := strings.Repeat("The backend is written in Go and talks to Postgres through sqlc; tests run with go test -race in CI. ", 21)[:2048]
	cases := []struct {
		name string
		text string
	}{
		{"sentence_20_words", benchSentence},
		{"paragraph_2KB", paragraph},
		{"huge_1MB_capped", strings.Repeat(paragraph, 512)},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			texts := []string{c.text}
			b.SetBytes(int64(min(len(c.text), maxOfflineInput)))
			b.ReportAllocs()
			cpu0, ok := processCPUTime()
			n := 0
			for b.Loop() {
				if _, err := e.Embed(ctx, texts); err != nil {
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

// firstQueryEnv makes the test binary a child that embeds one query with a
// fresh embedder and prints how long that took (TestFirstQueryChild).
const firstQueryEnv = "CREDENCE_EMBED_FIRST_QUERY"

// TestFirstQueryChild is the child of BenchmarkFirstQuery; it does nothing
// in an ordinary test run.
func TestFirstQueryChild(t *testing.T) {
	which := os.Getenv(firstQueryEnv)
	if which == "" {
		t.Skip("the child of BenchmarkFirstQuery")
	}
	faults0, _ := pageFaults()
	cpu0, _ := processCPUTime()
	start := time.Now()
	var e Embedder = NewOffline()
	if which == "static" {
		s, err := NewStatic()
		if err != nil {
			t.Fatal(err)
		}
		e = s
	}
	if _, err := e.Embed(context.Background(), []string{benchSentence}); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	cpu1, _ := processCPUTime()
	faults1, _ := pageFaults()
	fmt.Printf("first-query %d %d %d\n", wall.Nanoseconds(), (cpu1 - cpu0).Nanoseconds(), faults1-faults0)
}

// BenchmarkFirstQuery times what the in-process hook path pays: building an
// embedder and embedding one 20-word query in a fresh process, where
// nothing has been built and no page of the word table has been read. Each
// iteration starts the test binary again; the metrics are the child's wall
// and CPU time from before the constructor to the returned vector, and the
// pages it touched for the first time meanwhile (the CPU time and the page
// faults hold steady on a loaded machine; the wall time does not).
//
//	go test ./embed -run '^$' -bench FirstQuery -benchtime 20x
func BenchmarkFirstQuery(b *testing.B) {
	for _, which := range []string{"offline", "static"} {
		b.Run(which, func(b *testing.B) {
			var wall, cpu, faults int64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestFirstQueryChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), firstQueryEnv+"="+which)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				_, after, ok := strings.Cut(string(out), "first-query ")
				f := strings.Fields(after)
				if !ok || len(f) < 3 {
					b.Fatalf("child printed no times:\n%s", out)
				}
				for i, dst := range []*int64{&wall, &cpu, &faults} {
					x, err := strconv.ParseInt(f[i], 10, 64)
					if err != nil {
						b.Fatal(err)
					}
					*dst += x
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(wall)/n, "first-query-ns")
			b.ReportMetric(float64(cpu)/n, "first-query-cpu-ns")
			b.ReportMetric(float64(faults)/n, "page-faults")
		})
	}
}
