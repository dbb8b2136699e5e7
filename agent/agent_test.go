package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// testHome is a temporary HOME with its configuration and database.
type testHome struct {
	t    *testing.T
	home string
	cfg  *config.Config
	db   *store.DB
}

func newHome(t *testing.T, overrides map[string]string) *testHome {
	t.Helper()
	home := t.TempDir()
	cfg, err := app.LoadConfig(app.Options{Home: home, Env: config.EnvMap(map[string]string{"HOME": home}), Overrides: overrides})
	if err != nil {
		t.Fatal(err)
	}
	db, err := app.OpenStore(context.Background(), cfg, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &testHome{t: t, home: home, cfg: cfg, db: db}
}

// start opens an agent with fast checks; it is closed when the test ends.
func (h *testHome) start(opts Options) *Agent {
	h.t.Helper()
	opts.Config, opts.DB = h.cfg, h.db
	if opts.CheckEvery == 0 {
		opts.CheckEvery = 20 * time.Millisecond
	}
	if opts.TailQuiet == 0 {
		opts.TailQuiet = 20 * time.Millisecond
	}
	a, err := New(opts)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := a.Open(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

// eventually polls cond until it holds or a generous deadline passes. It
// waits for the agent's timers; it does not measure them.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *testHome) cycles() []store.Cycle {
	h.t.Helper()
	cs, err := h.db.Cycles(context.Background(), 100)
	if err != nil {
		h.t.Fatal(err)
	}
	return cs
}

func (h *testHome) prompt(project, text string) {
	h.t.Helper()
	ep := store.Episode{Kind: store.EpisodePrompt, Content: text, ProjectPath: project, SessionID: "s"}
	if _, err := h.db.AddEpisode(context.Background(), &ep); err != nil {
		h.t.Fatal(err)
	}
}

func TestOneAgentPerDataDirectory(t *testing.T) {
	h := newHome(t, nil)
	a := h.start(Options{NoPromote: true, NoSync: true})
	second, err := New(Options{Config: h.cfg, DB: h.db})
	if err != nil {
		t.Fatal(err)
	}
	err = second.Open(context.Background())
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second Open: %v; want ErrRunning naming pid %d", err, os.Getpid())
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	hb, health, err := h.db.ReadAgentHealth(context.Background(), time.Now())
	if err != nil || hb.State != StateStopped || health.Running {
		t.Fatalf("after Close: heartbeat %+v health %+v err %v; want stopped", hb, health, err)
	}
	again := h.start(Options{NoPromote: true, NoSync: true})
	if again == nil {
		t.Fatal("a new agent could not start after the first stopped")
	}
}

func TestScheduleStartThresholdAndOnDemand(t *testing.T) {
	h := newHome(t, map[string]string{"consolidation.episode_threshold": "5"})
	a := h.start(Options{NoPromote: true, NoSync: true})
	// Wait for the start cycle to finish, not just begin: prompts stored
	// while it runs can be consolidated by it, leaving fewer than the
	// threshold for the cycle this test waits for.
	eventually(t, "the start cycle", func() bool {
		c := h.cycles()
		return len(c) >= 1 && c[len(c)-1].FinishedAt != 0
	})
	if c := h.cycles(); c[len(c)-1].Trigger != "start" {
		t.Fatalf("first cycle trigger %q, want start", c[len(c)-1].Trigger)
	}
	for i := 0; i < 5; i++ {
		h.prompt("/p", fmt.Sprintf("we use pnpm (%d)", i))
	}
	eventually(t, "a cycle for the waiting episodes", func() bool {
		for _, c := range h.cycles() {
			if c.Trigger == "episodes" && c.Episodes == 5 {
				return true
			}
		}
		return false
	})
	a.Consolidate("cli")
	eventually(t, "the requested cycle", func() bool { return h.cycles()[0].Trigger == "cli" })
	hb, health, err := h.db.ReadAgentHealth(context.Background(), time.Now())
	if err != nil || !health.Running || hb.Mode != "offline" || hb.LastCycle == "" {
		t.Errorf("heartbeat %+v health %+v err %v; want a running offline agent with a last cycle", hb, health, err)
	}
	eventually(t, "episodes embedded", func() bool { return hb2(h).Embedded >= 5 })
}

func hb2(h *testHome) Heartbeat {
	hb, _ := h.db.ReadAgentHeartbeat(context.Background())
	return hb
}

// transcriptLines writes a Claude Code transcript with the given prompts,
// each answered.
func transcriptLines(sid, cwd string, prompts ...string) string {
	var b strings.Builder
	for i, p := range prompts {
		head := fmt.Sprintf(`"sessionId":%q,"cwd":%q,"timestamp":"2026-01-02T10:00:%02d.000Z"`, sid, cwd, i)
		fmt.Fprintf(&b, `{"type":"user",%s,"uuid":"u%d","message":{"role":"user","content":%q}}`+"\n", head, i, p)
		fmt.Fprintf(&b, `{"type":"assistant",%s,"uuid":"a%d","message":{"id":"m%d","role":"assistant","model":"claude","content":[{"type":"text","text":"Done: %d."}]}}`+"\n", head, i, i, i)
	}
	return b.String()
}

func TestTailerBackstop(t *testing.T) {
	h := newHome(t, nil)
	sid := "7e6d5c4b-3a29-4817-9605-f4e3d2c1b0a9"
	dir := filepath.Join(h.cfg.Paths.ClaudeProjects, "-home-dev-app")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sid+".jsonl")
	cwd := filepath.Join(h.home, "app")
	// The Stop hook already stored the first exchange under its key.
	hooked := store.Episode{SessionID: sid, Kind: store.EpisodeExchange, Content: "User: we use pnpm\n\nAssistant: Done: 0.",
		DedupKey: transcript.KeyFor(sid, "we use pnpm")}
	if _, err := h.db.AddEpisode(context.Background(), &hooked); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(transcriptLines(sid, cwd, "we use pnpm", "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD")), 0o600); err != nil {
		t.Fatal(err)
	}
	h.start(Options{NoPromote: true, NoSync: true})
	exchanges := func() []store.Episode {
		eps, err := h.db.EpisodesAfter(context.Background(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []store.Episode
		for _, e := range eps {
			if e.Kind == store.EpisodeExchange {
				out = append(out, e)
			}
		}
		return out
	}
	eventually(t, "the second exchange tailed", func() bool { return len(exchanges()) == 2 })
	// A SessionEnd that did fire later, or the next write, must not add
	// the same exchanges again; a new exchange is picked up.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	all := transcriptLines(sid, cwd, "we use pnpm", "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD", "always run go vet")
	prefix := transcriptLines(sid, cwd, "we use pnpm", "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD")
	if _, err := f.WriteString(strings.TrimPrefix(all, prefix)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	eventually(t, "the appended exchange tailed", func() bool { return len(exchanges()) == 3 })
	for _, e := range exchanges() {
		if strings.Contains(e.Content, "sk-proj-") {
			t.Errorf("tailed episode kept a secret: %q", e.Content)
		}
	}
	sess, err := h.db.Session(context.Background(), sid)
	if err != nil || sess.TranscriptOffset == 0 || sess.TranscriptPath != path {
		t.Errorf("session %+v, %v; want its offset moved and its transcript recorded", sess, err)
	}
	// The heartbeat counts what the tailer stored: the hook stored the first.
	eventually(t, "the heartbeat to count two tailed exchanges", func() bool { return hb2(h).Tailed == 2 })
}

func TestJudge(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	beat := Heartbeat{State: StateIdle, BeatAt: now.Add(-10 * time.Second), Every: 30 * time.Second}
	tests := []struct {
		name  string
		hb    Heartbeat
		found bool
		want  string
	}{
		{"never ran", Heartbeat{}, false, "never ran"},
		{"fresh", beat, true, "running"},
		{"stopped", Heartbeat{State: StateStopped, BeatAt: now, Every: time.Second}, true, "stopped"},
		{"stale", Heartbeat{State: StateIdle, BeatAt: now.Add(-5 * time.Minute), Every: 30 * time.Second}, true, "stale"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := store.JudgeAgent(tt.hb, tt.found, now); got.Status != tt.want || got.Running != (tt.want == "running") {
				t.Errorf("store.JudgeAgent()=%+v, want %s", got, tt.want)
			}
		})
	}
}

// TestAgentServesHooks checks that a running agent answers credence-hook on
// its socket, counts what it served in the heartbeat, and takes the socket
// away when it stops, so hooks go back to handling events in-process.
func TestAgentServesHooks(t *testing.T) {
	h := newHome(t, nil)
	a := h.start(Options{NoPromote: true, NoSync: true})
	sock := hookrelay.SocketPath(h.cfg.Paths.DataDir)
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v, %v; want a socket with mode 0600", sock, fi, err)
	}
	in := `{"session_id":"s1","cwd":"/tmp/p","hook_event_name":"UserPromptSubmit","prompt":"we deploy with fly.io"}`
	var out strings.Builder
	if err := hookrelay.Relay(sock, h.cfg.Paths.Database, "UserPromptSubmit", []byte(in), time.Now().Add(5*time.Second), &out); err != nil {
		t.Fatalf("Relay: %v", err)
	}
	eps, err := h.db.EpisodesAfter(context.Background(), 0, 10)
	if err != nil || len(eps) != 1 || eps[0].Content != "we deploy with fly.io" {
		t.Fatalf("episodes %+v, %v; want the prompt stored by the agent", eps, err)
	}
	a.beat(context.Background(), StateIdle)
	if hb, err := h.db.ReadAgentHeartbeat(context.Background()); err != nil || !hb.Hooks || hb.HooksServed != 1 {
		t.Errorf("heartbeat %+v, %v; want hooks served: 1", hb, err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket after Close: %v; want it removed", err)
	}
	err = hookrelay.Relay(sock, h.cfg.Paths.Database, "UserPromptSubmit", []byte(in), time.Now().Add(time.Second), &out)
	if !hookrelay.NotTaken(err) {
		t.Errorf("Relay to a stopped agent: %v; want not taken", err)
	}
}

// TestTailerSurvivesBadTranscripts puts transcripts the tailer must not
// get stuck on beside a good one: a link to /dev/zero, a FIFO nobody
// writes, and an 8 GiB file of zeros with no line break. The good one is
// still tailed, and the agent still closes promptly.
func TestTailerSurvivesBadTranscripts(t *testing.T) {
	h := newHome(t, nil)
	dir := filepath.Join(h.cfg.Paths.ClaudeProjects, "-home-dev-app")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(dir, "huge.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(8 << 30); err != nil {
		t.Fatal(err)
	}
	huge.Close()
	sid := "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"
	good := transcriptLines(sid, filepath.Join(h.home, "app"), "we use pnpm", "always run go vet")
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	a := h.start(Options{NoPromote: true, NoSync: true})
	eventually(t, "the good transcript tailed", func() bool { return hb2(h).Tailed == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Errorf("Close with bad transcripts about: %v", err)
	}
}
