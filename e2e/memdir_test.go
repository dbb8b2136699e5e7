package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// memWait bounds every wait for the agent to react to a file.
const memWait = 30 * time.Second

// waitFor polls cond until it holds.
func (w *world) waitFor(what string, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(memWait)
	for !cond() {
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond) // polling another process's effect
	}
}

// toolUse runs the PostToolUse command settings.json registered, as Claude
// Code does after the model's tool ran.
func (s *session) toolUse(tool string, input map[string]any) {
	s.w.t.Helper()
	data, err := json.Marshal(map[string]any{"session_id": s.id, "transcript_path": s.transcript, "cwd": s.cwd,
		"hook_event_name": "PostToolUse", "tool_name": tool, "tool_input": input, "tool_response": map[string]any{"success": true}})
	if err != nil {
		s.w.t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", s.w.hooks["PostToolUse"])
	cmd.Env, cmd.Dir, cmd.Stdin = s.w.env, s.cwd, bytes.NewReader(data)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		s.w.t.Fatalf("PostToolUse hook: %v, output %q (must be silent)", err, out)
	}
}

// writeAtomic writes a file the way Claude Code's tools do: temp, rename.
func writeAtomic(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp.1.2"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestClaudeMemoryDirectory runs Claude Code's memory directory convention
// through the real binaries (credence install, credence-hook, credence
// agent, credence consolidate, credence uninstall) and real fsnotify: a
// memory file the model writes with Write is read as assistant evidence;
// credence's section becomes index lines with detail files; the model
// deleting credence's bullet with Edit is repaired without counting
// against the belief; uninstall removes the hook and the detail files.
func TestClaudeMemoryDirectory(t *testing.T) {
	w := newWorld(t)
	settings, err := os.ReadFile(filepath.Join(w.home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(settings), `"matcher": "Write|Edit|MultiEdit|Bash"`) || w.hooks["PostToolUse"] == "" {
		t.Fatalf("install registered no PostToolUse hook with the edit matcher:\n%s", settings)
	}
	if _, out, _ := w.credenceCode("doctor"); strings.Contains(out, "not registered for") {
		t.Fatalf("doctor after install:\n%s", out)
	}
	app := w.project("app")
	s := w.start(app)
	s.turn("hello, let's work on the app", "Sure.")
	memDir := filepath.Join(filepath.Dir(s.transcript), "memory")
	if err := os.MkdirAll(memDir, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := w.startAgent()
	defer agent.stop()
	// The agent's log, should the test fail.
	defer func() {
		if t.Failed() {
			t.Logf("agent:\n%s\nagent.log:\n%s", agent.output(), readAgentLog(w))
		}
	}()

	// The model writes a memory file with its Write tool.
	note := filepath.Join(memDir, "feedback_testing.md")
	writeAtomic(t, note, "---\nname: Integration tests\ndescription: Never mock the database in integration tests\nmetadata:\n  type: feedback\n---\n\nA mocked database hid a broken migration last quarter.\n")
	s.toolUse("Write", map[string]any{"file_path": note, "content": "…"})
	db := openDB(t, w)
	ctx := context.Background()
	var rec store.MemoryFile
	w.waitFor("the memory file to be read", func() bool {
		rec, err = db.MemoryFile(ctx, note)
		return err == nil
	})
	if rec.Author != "model" || rec.Type != "feedback" || len(rec.Claims) == 0 {
		t.Fatalf("memory file record = %+v", rec)
	}
	for _, id := range rec.Claims {
		evs, err := db.Evidence(ctx, id)
		if err != nil || len(evs) != 1 || evs[0].Source != "claude_memory" || evs[0].Reliability != 0.6 {
			t.Fatalf("evidence of %s = %+v, %v; want one claude_memory piece at 0.6", id, evs, err)
		}
	}
	ep, err := db.Episode(ctx, rec.EpisodeID)
	if err != nil || ep.Kind != store.EpisodeMemory || ep.ProjectPath != app {
		t.Fatalf("memory episode = %+v, %v", ep, err)
	}

	// A belief the person stated three times is promoted by the next cycle:
	// as an index line linking to its detail file, since the directory
	// holds Claude Code's own memory files.
	for range 3 {
		cmd := exec.Command(credenceBin, "remember", "--project", "The project deploys to Fly.io")
		cmd.Env, cmd.Dir = w.env, app
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("credence remember: %v\n%s", err, out)
		}
	}
	w.credence("consolidate")
	index := filepath.Join(memDir, "MEMORY.md")
	doc, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := markdown.ParseSection(doc)
	bullets := sec.Bullets(markdown.HeadingBeliefs)
	if !ok || len(bullets) != 1 || bullets[0].File == "" || !strings.HasPrefix(bullets[0].Raw, "- [Project deploys to Fly.io](credence-") {
		t.Fatalf("MEMORY.md:\n%s", doc)
	}
	detail := filepath.Join(memDir, bullets[0].File)
	d, err := os.ReadFile(detail)
	if err != nil || !markdown.OwnDetail(d) || markdown.ParseMemoryNote(d).Type != markdown.TypeProject {
		t.Fatalf("detail file %s: %v\n%s", detail, err, d)
	}
	fly := findBelief(t, db, "fly.io")

	// The model tidies MEMORY.md with Edit, deleting credence's line.
	edited := strings.Replace(string(doc), bullets[0].Raw+"\n", "", 1)
	writeAtomic(t, index, edited)
	s.toolUse("Edit", map[string]any{"file_path": index, "old_string": bullets[0].Raw, "new_string": ""})
	w.waitFor("the agent to repair the section", func() bool {
		b, _ := os.ReadFile(index)
		return strings.Contains(string(b), bullets[0].Raw)
	})
	b, err := db.Belief(ctx, fly.ID)
	if err != nil || b.Status != belief.Active {
		t.Fatalf("belief after the model's edit: %+v, %v", b, err)
	}
	evs, err := db.Evidence(ctx, fly.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Label == belief.UserEdit || ev.Support < 0 {
			t.Fatalf("the model's edit counted against the belief: %+v", ev)
		}
	}

	// Uninstall: the hook and credence's detail files go; Claude's files stay.
	w.credence("uninstall")
	if _, err := os.Stat(detail); !os.IsNotExist(err) {
		t.Fatalf("detail file after uninstall: %v", err)
	}
	if _, err := os.Stat(note); err != nil {
		t.Fatalf("Claude's memory file after uninstall: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, ".claude", "settings.json")); strings.Contains(string(b), "PostToolUse") {
		t.Fatalf("settings.json after uninstall:\n%s", b)
	}
}
