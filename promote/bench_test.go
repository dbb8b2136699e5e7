package promote

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// Benchmark sizes: DESIGN's target is one cycle over 100 projects holding
// 10,000 beliefs in at most a second.
const (
	benchProjects          = 100
	benchBeliefsPerProject = 100
)

// benchEnv fills a temporary HOME with benchProjects projects of
// benchBeliefsPerProject beliefs each (plus 100 global ones): evidence
// varies so that about a third pass the promotion rule, and every tenth
// belief of a project is in one exclusive group.
func benchEnv(b *testing.B) *env {
	b.Helper()
	e := newEnv(b, nil)
	ctx := context.Background()
	start := time.Now()
	err := e.db.Write(ctx, func(tx *store.Tx) error {
		for p := range benchProjects + 1 {
			spec := belief.Spec{Scope: belief.ScopeGlobal}
			if p < benchProjects {
				root := filepath.Join(e.home, "src", fmt.Sprintf("project-%03d", p))
				if err := os.MkdirAll(root, 0o755); err != nil {
					return err
				}
				spec = belief.Spec{Scope: belief.ScopeProject, ProjectPath: root}
			}
			for j := range benchBeliefsPerProject {
				spec.Statement = fmt.Sprintf("Project %d holds fact %d", p, j)
				spec.Subject, spec.Predicate, spec.Object = "project", fmt.Sprintf("fact_%d", j), fmt.Sprintf("value %d", j)
				if j%10 == 0 {
					spec.Predicate = "uses_database"
				}
				id, err := tx.CreateBelief(ctx, spec)
				if err != nil {
					return err
				}
				if err := addEvidence(ctx, tx, id, j%7, j%3); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatalf("fill database: %v", err)
	}
	b.Logf("filled %d beliefs in %v", (benchProjects+1)*benchBeliefsPerProject, time.Since(start))
	return e
}

// reset removes every memory file, record and mark, so the next cycle
// starts from nothing and writes every file.
func (e *env) reset(b *testing.B) {
	b.Helper()
	for _, dir := range []string{e.cfg.Paths.ClaudeProjects, filepath.Dir(e.cfg.Paths.GlobalMemory)} {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := e.db.SQL().ExecContext(e.ctx, `DELETE FROM memory_sections`); err != nil {
		b.Fatal(err)
	}
	if _, err := e.db.SQL().ExecContext(e.ctx, `UPDATE beliefs SET promoted_at = NULL, demoted_at = NULL`); err != nil {
		b.Fatal(err)
	}
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPromoteCycle times one promotion cycle over 100 projects and
// 10,000 beliefs: "cold" writes all 101 files from nothing (1,000+
// promotions), "steady" finds every file already in step. cpu-ms/op is the
// process CPU time per cycle, which a loaded machine does not inflate the
// way it inflates wall time.
func BenchmarkPromoteCycle(b *testing.B) {
	e := benchEnv(b)
	for _, mode := range []string{"cold", "steady"} {
		b.Run(mode, func(b *testing.B) {
			var cpu time.Duration
			var st Stats
			e.reset(b)
			if mode == "steady" {
				if _, err := e.p.Promote(e.ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				if mode == "cold" {
					b.StopTimer()
					e.reset(b)
					b.StartTimer()
				}
				c := cpuTime()
				var err error
				if st, err = e.p.Promote(e.ctx); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(st.Files), "files")
			b.ReportMetric(float64(st.Written), "written")
			b.ReportMetric(float64(st.Promoted), "promoted")
		})
	}
}

// BenchmarkWatcherLatency times how long a person's edit takes to be read
// back: from the rename that saves the file to the watcher's report, with
// the default 300 ms debounce.
func BenchmarkWatcherLatency(b *testing.B) {
	e := newEnv(b, nil)
	id := e.global("User keeps a changelog", 4, 0)
	if _, err := e.p.Promote(e.ctx); err != nil {
		b.Fatal(err)
	}
	path := e.cfg.Paths.GlobalMemory
	events := make(chan SyncEvent, 16)
	w := NewWatcher(e.p, WatcherOptions{OnSync: func(ev SyncEvent) { events <- ev }})
	if err := w.Open(e.ctx); err != nil {
		b.Fatal(err)
	}
	defer w.Close(e.ctx)
	base, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		doc := fmt.Appendf(append([]byte(nil), base...), "\n- note %d from Claude Code\n", i)
		tmp := path + ".tmp.bench"
		if err := os.WriteFile(tmp, doc, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
		select {
		case ev := <-events:
			if ev.Err != nil || ev.Own {
				b.Fatalf("event %+v", ev)
			}
		case <-time.After(10 * time.Second):
			b.Fatal("no event")
		}
		total += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-sync")
	if e.get(id).Status != belief.Active || !markdownHasSection(path) {
		b.Fatal("the edits changed the belief or the section")
	}
}

func markdownHasSection(path string) bool {
	doc, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	_, ok := markdown.ParseSection(doc)
	return ok
}
