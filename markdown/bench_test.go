package markdown

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fullSection is a section at its caps.
func fullSection(round int) Section {
	s := Section{Beliefs: entries("belief", 10), Guidelines: entries("guideline", 2), Former: formers(5)}
	s.Beliefs[0].Confidence = float64(round%100) / 100 // a figure that changes every round
	return s
}

// typicalMemory is a MEMORY.md as Claude Code grows it: an index of topic
// files and dated session notes, 150 lines.
func typicalMemory() string {
	var b strings.Builder
	b.WriteString("# Project memory\n\n")
	for i := range 20 {
		fmt.Fprintf(&b, "- [Topic %d](topic-%d.md) — what to know about area %d\n", i, i, i)
	}
	b.WriteString("\n")
	for d := 1; d <= 10; d++ {
		b.WriteString(dated(fmt.Sprintf("2026-01-%02d", d), 10))
	}
	return b.String()
}

// BenchmarkWriteSection measures one render, splice and locked, fsynced,
// verified write of a 150-line MEMORY.md whose section changed.
func BenchmarkWriteSection(b *testing.B) {
	path := filepath.Join(b.TempDir(), "MEMORY.md")
	if err := os.WriteFile(path, []byte(typicalMemory()), 0o600); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	round := 0
	for b.Loop() {
		round++
		s := fullSection(round)
		if _, err := WriteSection(ctx, path, constant(RenderSection(s)), WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteSectionUnchanged measures the common cycle where nothing
// changed: lock, read, render, splice, compare, no write.
func BenchmarkWriteSectionUnchanged(b *testing.B) {
	path := filepath.Join(b.TempDir(), "MEMORY.md")
	section := RenderSection(fullSection(1))
	if err := os.WriteFile(path, []byte(section+"\n"+typicalMemory()), 0o600); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, err := WriteSection(ctx, path, constant(section), WriteOptions{}); err != nil || res.Changed {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkSplice measures render and splice alone, no I/O.
func BenchmarkSplice(b *testing.B) {
	doc := []byte(RenderSection(fullSection(0)) + "\n" + typicalMemory())
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	round := 0
	for b.Loop() {
		round++
		if _, err := Splice(doc, RenderSection(fullSection(round))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite100Projects measures the file side of one promotion cycle:
// a changed section written to each of 100 project MEMORY.md files, one
// after another and eight at a time (the fsyncs overlap).
func BenchmarkWrite100Projects(b *testing.B) {
	for _, workers := range []int{1, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) { benchmarkProjects(b, workers) })
	}
}

func benchmarkProjects(b *testing.B, workers int) {
	home := b.TempDir()
	var paths []string
	for i := range 100 {
		p := ProjectMemoryPath(home, fmt.Sprintf("/work/project-%03d", i), "")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(typicalMemory()), 0o600); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	ctx := context.Background()
	round := 0
	for b.Loop() {
		round++
		section := RenderSection(fullSection(round))
		jobs := make(chan string)
		errs := make(chan error, len(paths))
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for p := range jobs {
					if _, err := WriteSection(ctx, p, constant(section), WriteOptions{}); err != nil {
						errs <- err
					}
				}
			})
		}
		for _, p := range paths {
			jobs <- p
		}
		close(jobs)
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
}
