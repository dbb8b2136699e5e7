package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/card"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// connect starts the server over an in-memory transport and returns a
// client session of the SDK's own client.
func connect(t *testing.T) (*mcp.ClientSession, *store.DB, string) {
	t.Helper()
	home := t.TempDir()
	cfg, err := app.LoadConfig(app.Options{Home: home, Env: config.EnvMap(map[string]string{"HOME": home})})
	if err != nil {
		t.Fatal(err)
	}
	db, err := app.OpenStore(context.Background(), cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	project := filepath.Join(home, "app")
	srv := New(cfg, db, Options{Project: project, Embedder: embed.NewOffline()})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, db, home
}

// call calls a tool and decodes its structured output into out; it
// returns the text content.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		t.Fatalf("%s returned an error: %s", name, text)
	}
	if out != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: decode %s: %v", name, data, err)
		}
	}
	return text
}

func TestTools(t *testing.T) {
	cs, _, _ := connect(t)
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	want := "memory_expand memory_forget memory_recall memory_save memory_status memory_why"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
}

func TestSaveRecallExpandWhyForget(t *testing.T) {
	cs, db, home := connect(t)
	var saved SaveOutput
	text := call(t, cs, "memory_save", map[string]any{"text": "I prefer pnpm over npm for every project", "remember": true}, &saved)
	if len(saved.Beliefs) != 1 || !saved.Beliefs[0].Created || !strings.Contains(text, "Created belief") {
		t.Fatalf("memory_save = %+v %q", saved, text)
	}
	id := saved.Beliefs[0].ID
	b, err := db.Belief(context.Background(), id)
	if err != nil || b.Scope != belief.ScopeGlobal || b.Source != "user" {
		t.Fatalf("saved belief %+v, %v; want a global user belief", b, err)
	}

	var rec RecallOutput
	text = call(t, cs, "memory_recall", map[string]any{"query": "which package manager do I prefer, pnpm or npm?"}, &rec)
	if len(rec.Beliefs) == 0 || rec.Beliefs[0].ID != id || !strings.Contains(text, "## Known Facts") {
		t.Fatalf("memory_recall = %+v\n%s", rec, text)
	}
	if after, _ := db.Belief(context.Background(), id); after.LastAccessedAt == 0 {
		t.Error("recall did not record the access")
	}

	var ex ExpandOutput
	text = call(t, cs, "memory_expand", map[string]any{"id": id[:12]}, &ex)
	if ex.Belief == nil || ex.Belief.ID != id || len(ex.Belief.Evidence) != 1 || ex.Belief.Evidence[0].Label != "MANUAL" {
		t.Fatalf("memory_expand = %+v", ex)
	}
	if !strings.Contains(text, "alpha 2.00") {
		t.Errorf("expand text lacks the alpha/beta breakdown:\n%s", text)
	}
	episode := ex.Belief.Evidence[0].EpisodeID
	text = call(t, cs, "memory_expand", map[string]any{"id": episode}, &ex)
	if ex.Episode == nil || len(ex.Beliefs) != 1 || !strings.Contains(text, "I prefer pnpm") {
		t.Errorf("memory_expand of the episode = %+v\n%s", ex, text)
	}

	var why card.Belief
	text = call(t, cs, "memory_why", map[string]any{"id": id}, &why)
	if len(why.Timeline) < 2 || !strings.Contains(text, "confidence over time: 0.50 (create") {
		t.Errorf("memory_why timeline %+v\n%s", why.Timeline, text)
	}

	// By default the belief takes the note it was learned from along.
	var forgot ForgetOutput
	text = call(t, cs, "memory_forget", map[string]any{"id": id}, &forgot)
	if len(forgot.Beliefs) != 1 || len(forgot.Episodes) != 1 || forgot.Episodes[0] != episode || len(forgot.EpisodesKept) != 0 {
		t.Fatalf("memory_forget = %+v, want the belief and episode %s", forgot, episode)
	}
	if want := "Forgot belief " + id + " and episode " + episode + ";"; !strings.HasPrefix(text, want) {
		t.Errorf("memory_forget said %q, want it to start %q", text, want)
	}
	if hits := grepTree(t, home, "pnpm over npm"); len(hits) > 0 {
		t.Errorf("forgotten text still on disk: %v", hits)
	}
	if problems, err := db.CheckIntegrity(context.Background(), true); err != nil || len(problems) > 0 {
		t.Errorf("after memory_forget: CheckIntegrity()=%q, %v; want a sound database", problems, err)
	}
	call(t, cs, "memory_recall", map[string]any{"query": "which package manager do I prefer, pnpm or npm?"}, &rec)
	if len(rec.Beliefs)+len(rec.Episodes) != 0 {
		t.Errorf("recall after forget = %+v", rec)
	}
}

func TestSaveRedactsAndScopes(t *testing.T) {
	tests := []struct {
		name      string
		args      map[string]any
		wantScope string
	}{
		{"a plain note belongs to the project", map[string]any{"text": "the flaky test is TestWidgetRender"}, belief.ScopeProject},
		{"global when asked", map[string]any{"text": "the flaky test is TestWidgetRender", "scope": "global"}, belief.ScopeGlobal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, db, _ := connect(t)
			var out SaveOutput
			call(t, cs, "memory_save", tt.args, &out)
			e, err := db.Episode(context.Background(), out.EpisodeID)
			if err != nil || e.Scope != tt.wantScope || e.Kind != store.EpisodeNote {
				t.Errorf("episode %+v, %v; want a %s note", e, err, tt.wantScope)
			}
		})
	}
	cs, _, home := connect(t)
	secret := "AKIA" + "IOSFODNN7EXAMPLE"
	var out SaveOutput
	call(t, cs, "memory_save", map[string]any{"text": "the CI uses access key " + secret}, &out)
	if !out.Redacted {
		t.Error("memory_save did not report the redaction")
	}
	if hits := grepTree(t, home, secret); len(hits) > 0 {
		t.Errorf("secret on disk: %v", hits)
	}
}

func TestStatusAndErrors(t *testing.T) {
	cs, db, _ := connect(t)
	call(t, cs, "memory_save", map[string]any{"text": "I live in Lisbon", "remember": true}, nil)
	var st StatusOutput
	text := call(t, cs, "memory_status", map[string]any{}, &st)
	if st.Episodes != 1 || st.Beliefs["active"] != 1 || st.AgentAlive || !strings.Contains(text, "agent has never run") {
		t.Errorf("memory_status = %+v\n%s", st, text)
	}
	// What a running agent writes (store.AgentHeartbeat); until session 3
	// this test wrote a bare timestamp, which no agent has written since the
	// heartbeat became JSON, so memory_status never saw a live agent.
	beat, _ := json.Marshal(store.AgentHeartbeat{PID: 1, State: store.AgentIdle, BeatAt: time.Now(), Every: time.Minute})
	if err := db.SetMeta(context.Background(), store.MetaAgentHeartbeat, string(beat)); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "memory_status", map[string]any{}, &st)
	if !st.AgentAlive {
		t.Errorf("a fresh heartbeat reads as dead: %+v", st)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"memory_expand", map[string]any{"id": "bl_01ZZZZZZZZZZZZZZZZZZZZZZZZ"}},
		{"memory_forget", map[string]any{"id": "tokyo"}},
		{"memory_forget", map[string]any{"id": "bl_01ZZZZZZZZZZZZZZZZZZZZZZZZ", "keep_episodes": true, "with_evidence": true}},
		{"memory_save", map[string]any{"text": "  "}},
		{"memory_recall", map[string]any{"query": "x", "as_of": "last tuesday"}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil || !res.IsError {
			t.Errorf("%s %v: err %v, result %+v; want a tool error", tc.tool, tc.args, err, res)
		}
	}
}

// TestForgetKeepEpisodes forgets a belief alone: the note it was learned
// from stays, and memory_forget names it as kept instead of claiming the
// words are gone.
func TestForgetKeepEpisodes(t *testing.T) {
	cs, db, _ := connect(t)
	var saved SaveOutput
	call(t, cs, "memory_save", map[string]any{"text": "I prefer pnpm over npm for every project", "remember": true}, &saved)
	var forgot ForgetOutput
	text := call(t, cs, "memory_forget", map[string]any{"id": saved.Beliefs[0].ID, "keep_episodes": true}, &forgot)
	if len(forgot.Beliefs) != 1 || len(forgot.Episodes) != 0 || len(forgot.EpisodesKept) != 1 || forgot.EpisodesKept[0] != saved.EpisodeID {
		t.Fatalf("memory_forget = %+v, want the belief forgotten and note %s kept", forgot, saved.EpisodeID)
	}
	if !strings.Contains(text, "Kept 1 episode(s) it was learned from, which still hold what they said: "+saved.EpisodeID) {
		t.Errorf("memory_forget said %q, want it to name the kept note", text)
	}
	if e, err := db.Episode(context.Background(), saved.EpisodeID); err != nil || e.Forgotten {
		t.Errorf("note after keep_episodes: %+v, %v; want it kept", e, err)
	}
	if problems, err := db.CheckIntegrity(context.Background(), true); err != nil || len(problems) > 0 {
		t.Errorf("after memory_forget: CheckIntegrity()=%q, %v", problems, err)
	}
}

// grepTree returns the files under dir whose bytes contain text.
func grepTree(t *testing.T, dir, text string) []string {
	t.Helper()
	var hits []string
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if data, _ := os.ReadFile(path); strings.Contains(string(data), text) {
				hits = append(hits, path)
			}
		}
		return nil
	})
	return hits
}
