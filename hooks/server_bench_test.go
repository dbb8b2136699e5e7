package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/internal/testkit"
)

// BenchmarkServedPrompt measures what the agent spends on one
// UserPromptSubmit it serves, without the front's process: the handler
// against the warm database and embedder. It runs against the database
// scripts/bench-hooks.sh seeds (CREDENCE_BENCH_HOME, default
// /tmp/credence-bench) and is skipped when there is none.
func BenchmarkServedPrompt(b *testing.B) {
	home := testkit.BenchHome(b)
	raw, err := os.ReadFile(filepath.Join(home, "queries.json"))
	if err != nil {
		b.Fatal(err)
	}
	var queries []struct{ Text, Project string }
	if err := json.Unmarshal(raw, &queries); err != nil {
		b.Fatal(err)
	}
	// CREDENCE_BENCH_DISTINCT cycles over that many queries only, so the
	// caches are warm after the first pass, as in a person's sessions.
	distinct := len(queries)
	if n, err := strconv.Atoi(os.Getenv("CREDENCE_BENCH_DISTINCT")); err == nil && n > 0 {
		distinct = n
	}
	// Work on a copy: every prompt stored is an episode, and a database the
	// benchmark grew would make the next run measure something else.
	work := b.TempDir()
	if err := testkit.CopyDatabase(testkit.BenchDataDir(home), testkit.BenchDataDir(work)); err != nil {
		b.Fatal(err)
	}
	cfg, err := app.LoadConfig(app.Options{Env: config.EnvMap(map[string]string{"HOME": work})})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	srv, err := NewServer(ctx, cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	for _, event := range []string{EventUserPromptSubmit, EventStop, EventSessionStart} {
		b.Run(event, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				q := queries[i%min(len(queries), distinct)]
				in := map[string]any{"session_id": "bench-served", "cwd": q.Project, "hook_event_name": event,
					"prompt": q.Text, "last_assistant_message": fmt.Sprintf("Done (%d). All tests pass.", i),
					"transcript_path": filepath.Join(home, "transcript.jsonl")}
				data, _ := json.Marshal(in)
				var out discardGate
				h := &handler{cfg: cfg, log: srv.log, out: &gate{w: &out}, now: time.Now, event: event,
					deadline: time.Now().Add(time.Second), shared: srv.sh.Load()}
				if err := h.handleData(ctx, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type discardGate struct{ n int }

func (d *discardGate) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
