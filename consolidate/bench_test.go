package consolidate

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// benchCorpus returns n episodes as a developer's history might hold them
// over 50 projects: a share of them explicit statements — each project's
// package manager and deploy target (half the projects switch package
// manager part way), the user's city (they move twice), likes and working
// rules, restated from time to time — and the rest ordinary requests and
// questions that state nothing.
func benchCorpus(n int, share float64) []store.Episode {
	rng := rand.New(rand.NewSource(7))
	tools := []string{"pnpm", "npm", "yarn", "bun"}
	hosts := []string{"Fly", "Render", "Vercel"}
	cities := []string{"Lisbon", "Porto", "Berlin"}
	chatter := []string{
		"can you fix the failing test in %s_test.go?", "why is the build slow in module %s?",
		"refactor the handler in %s.go please", "what does the regex in %s do?", "show me the diff for %s",
		"add logging to %s and rerun the tests",
	}
	out := make([]store.Episode, n)
	for i := range out {
		p := rng.Intn(50)
		ep := store.Episode{Kind: store.EpisodePrompt, SessionID: fmt.Sprintf("s%d", i/40),
			ProjectPath: fmt.Sprintf("/work/project%02d", p)}
		tool := tools[p%4]
		switched := p%2 == 0 && i > n*6/10
		if switched {
			tool = tools[(p+1)%4]
		}
		if rng.Float64() >= share {
			ep.Content = fmt.Sprintf(chatter[rng.Intn(len(chatter))], fmt.Sprintf("pkg%d", rng.Intn(300)))
			out[i] = ep
			continue
		}
		switch k := rng.Intn(10); {
		case k < 3:
			ep.Content = "we use " + tool
		case k == 3 && switched:
			ep.Content = fmt.Sprintf("we switched from %s to %s", tools[p%4], tool)
		case k == 3:
			ep.Content = "I prefer " + tool + " over npm"
		case k == 4:
			ep.Content = "we deploy with " + hosts[p%3]
		case k == 5:
			ep.Content = "I live in " + cities[min(i*3/n, 2)]
		case k == 6:
			ep.Content = "always run go vet before committing"
		case k == 7:
			ep.Content = fmt.Sprintf("never edit the generated file gen%d.go", p%5)
		default:
			ep.Content = "I like " + []string{"Rust", "Go", "Zig", "TypeScript"}[rng.Intn(4)]
		}
		out[i] = ep
	}
	return out
}

func benchDB(b *testing.B, eps []store.Episode) *store.DB {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	for start := 0; start < len(eps); start += 500 {
		err := db.Write(ctx, func(tx *store.Tx) error {
			for i := start; i < min(start+500, len(eps)); i++ {
				ep := eps[i]
				if _, err := tx.AddEpisode(ctx, &ep); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return db
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOffline10k consolidates 10,000 new episodes in offline mode, in
// one cycle with the default budget, and reports wall and CPU seconds.
//
//	go test ./consolidate -run XXX -bench Offline10k -benchtime 1x
func BenchmarkOffline10k(b *testing.B) {
	for _, share := range []float64{0.2, 1} {
		b.Run(fmt.Sprintf("statements=%.0f%%", 100*share), func(b *testing.B) {
			eps := benchCorpus(10_000, share)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db := benchDB(b, eps)
				c, err := New(Options{DB: db, Embedder: embed.NewOffline()})
				if err != nil {
					b.Fatal(err)
				}
				cpu0 := cpuTime()
				b.StartTimer()
				start := time.Now()
				st, err := c.Run(context.Background(), "bench")
				wall := time.Since(start)
				b.StopTimer()
				if err != nil || st.Episodes != len(eps) {
					b.Fatalf("cycle: %v, %d episodes consolidated (status %s)", err, st.Episodes, st.Status)
				}
				b.ReportMetric(wall.Seconds(), "wall-s")
				b.ReportMetric((cpuTime() - cpu0).Seconds(), "cpu-s")
				b.ReportMetric(float64(st.Facts), "facts")
				b.ReportMetric(float64(st.BeliefsCreated), "beliefs")
				b.ReportMetric(float64(st.Clusters), "clusters")
			}
		})
	}
}
