package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/store"
)

// runningAgent is `credence agent` started for a world.
type runningAgent struct {
	t      *testing.T
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	done   chan error
}

func (a *runningAgent) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stderr.Write(p)
}

func (a *runningAgent) output() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stderr.String()
}

// startAgent runs `credence agent` in the world, as the service install
// would, and waits until it says it is running.
func (w *world) startAgent() *runningAgent {
	w.t.Helper()
	a := &runningAgent{t: w.t, done: make(chan error, 1)}
	a.cmd = exec.Command(credenceBin, "agent")
	a.cmd.Env = w.env
	a.cmd.Dir = w.home
	a.cmd.Stderr = a
	if err := a.cmd.Start(); err != nil {
		w.t.Fatalf("start credence agent: %v", err)
	}
	go func() { a.done <- a.cmd.Wait() }()
	if !waitFor(30*time.Second, func() bool { return strings.Contains(a.output(), "running (pid") }) {
		a.stop()
		w.t.Fatalf("credence agent did not start:\n%s", a.output())
	}
	return a
}

// stop ends the agent with SIGTERM (a graceful stop) and waits for it.
func (a *runningAgent) stop() {
	if a.cmd.Process == nil || a.cmd.ProcessState != nil {
		return
	}
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		a.cmd.Process.Kill()
		<-a.done
		a.t.Errorf("credence agent ignored SIGTERM for 10 s:\n%s", a.output())
	}
}

// deployMemory is the memory file the fake model writes, in the layout
// Claude Code's system prompt asks for: frontmatter with name, description
// and metadata.type, then the memory itself. Its body's words are in no
// prompt or reply, so only the file can bring them into credence. Claude
// Code rewrites the frontmatter as it writes the file.
const deployMemory = `---
name: Deploy target
description: Where and how this project deploys
metadata:
  type: project
---
Deploys of this project go to render through the blue-green pipeline; never deploy on Fridays.
`

// testModelMemoryFile has the fake model save a memory the way Claude Code
// tells it to (index it in MEMORY.md, Write the file in the memory
// directory) and checks that credence leaves both alone and, once issue 15
// lands, stores the file as an episode of its own kind that recall finds.
func testModelMemoryFile(t *testing.T, w *world, rel claudeRelease, api *fakeAPI, root, memPath string) {
	memDir := filepath.Dir(memPath)
	file := filepath.Join(memDir, "deploy_target.md")
	before, err := os.ReadFile(memPath)
	if err != nil {
		t.Fatal(err)
	}
	indexLine := "- [Deploy target](deploy_target.md) — render, blue-green, no Friday deploys"
	// The index line goes in first: a memory file appearing may make the
	// agent rewrite its section, and Claude Code refuses to Write a file
	// that changed since the model read it.
	api.queue(
		use("Read", map[string]any{"file_path": memPath}),
		use("Write", map[string]any{"file_path": memPath, "content": string(before) + indexLine + "\n"}),
		use("Write", map[string]any{"file_path": file, "content": deployMemory}),
		say("Saved that to memory."),
	)
	run := w.claude(rel, api, root, "Remember how this project deploys, it matters.")
	checkHooks(t, 5, run, "SessionStart", "UserPromptSubmit", "Stop")
	if errs := api.takeToolErrors(); len(errs) > 0 {
		t.Fatalf("Claude Code answered the model's tool calls with errors: %q", errs)
	}
	// Claude Code keeps the body and rewrites the frontmatter of a memory
	// file the model writes: it slugs the name and adds node_type,
	// originSessionId and (newer releases) modified to metadata.
	written, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(written), "blue-green pipeline; never deploy on Fridays.") ||
		!strings.Contains(string(written), "type: project") {
		t.Fatalf("the model's Write left %q (%v), want the memory file", written, err)
	}

	w.credence("consolidate")
	if got, err := os.ReadFile(file); err != nil || string(got) != string(written) {
		t.Errorf("credence changed the model's memory file: %q (%v)", got, err)
	}
	after, err := os.ReadFile(memPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(after), indexLine) {
		t.Errorf("credence dropped the model's index line from MEMORY.md:\n%s", after)
	}
	if len(sectionBullets(string(after))) == 0 {
		t.Errorf("MEMORY.md lost credence's section after the model's edit:\n%s", after)
	}

	// The agent watches the memory directory: the file becomes an episode
	// of its own kind (not one the hooks write), frontmatter and body.
	var ep store.Episode
	if !waitFor(30*time.Second, func() bool {
		ep = memoryEpisode(t, w, "blue-green pipeline")
		return ep.ID != ""
	}) {
		t.Fatalf("no episode holds the model's memory file after 30 s; agent:\n%s", tail(readAgentLog(w), 4000))
	}
	if ep.ProjectPath != root {
		// Claude Code keys the memory directory by the project root, so
		// a project memory belongs to that project.
		t.Errorf("the memory episode belongs to project %q, want %q", ep.ProjectPath, root)
	}
	if !strings.Contains(ep.Content, "project") || !strings.Contains(ep.Content, "never deploy on Fridays") {
		t.Errorf("the memory episode lacks the file's type or body: %q", ep.Content)
	}
	out := w.credence("recall", "--project", root, "blue-green pipeline deploys")
	if !strings.Contains(out, "blue-green") {
		t.Errorf("credence recall does not find the model's memory:\n%s", out)
	}
	// A file credence did not create is never written to.
	w.credence("consolidate")
	if got, err := os.ReadFile(file); err != nil || string(got) != string(written) {
		t.Errorf("credence changed the model's memory file: %q (%v)", got, err)
	}
}

// testModelEditsSection has the fake model tidy MEMORY.md as Claude Code's
// prompt tells it to, removing credence's pnpm line with the Edit tool, and
// checks that, once issue 15 lands, the PostToolUse hook records the edit,
// the agent repairs the section and the belief loses nothing: the model
// rewrote an index, nobody rejected the belief.
func testModelEditsSection(t *testing.T, w *world, rel claudeRelease, api *fakeAPI, root, memPath string) {
	data, err := os.ReadFile(memPath)
	if err != nil {
		t.Fatal(err)
	}
	var pnpmLine string
	for _, b := range sectionBullets(string(data)) {
		if strings.Contains(b, "pnpm") {
			pnpmLine = b
		}
	}
	if pnpmLine == "" {
		t.Fatalf("MEMORY.md has no pnpm line to edit:\n%s", data)
	}
	db := openDB(t, w)
	pnpm := findBelief(t, db, "pnpm")
	db.Close()
	cardBefore := beliefCard(t, w, pnpm.ID)

	api.queue(
		use("Read", map[string]any{"file_path": memPath}),
		use("Edit", map[string]any{"file_path": memPath, "old_string": pnpmLine + "\n", "new_string": ""}),
		say("Tidied the memory index."),
	)
	run := w.claude(rel, api, root, "Tidy up the memory index, please.")
	// The Edit's tool result, which Claude Code sends back to the model,
	// says whether the line was removed (an old_string not found, a file
	// not read first or a denied permission come back as errors).
	if errs := api.takeToolErrors(); len(errs) > 0 {
		t.Fatalf("Claude Code answered the model's tool calls with errors: %q", errs)
	}
	checkHooks(t, 6, run, "SessionStart", "UserPromptSubmit", "Stop")
	// credence install registered a PostToolUse hook for the file tools;
	// Claude Code ran it for the Edit (stream-json names it
	// "PostToolUse:Edit"), and it succeeded (checkHooks above).
	if w.hooks["PostToolUse"] == "" {
		t.Errorf("credence install registered no credence-hook for PostToolUse")
	}
	var post []hookEvent
	for _, h := range run.hook("PostToolUse") {
		if strings.HasSuffix(h.Name, ":Edit") {
			post = append(post, h)
		}
	}
	if len(post) != 1 {
		t.Errorf("Claude Code ran %d PostToolUse hooks for the Edit, want credence's one; hooks: %+v", len(post), run.hooks)
	}
	// The agent sees the change, matches it with the hook's record, calls
	// it the model's and puts credence's line back.
	// The line it puts back may differ from the one removed (a confidence
	// moved, an index line in place of a bullet); it must name pnpm.
	repaired := func() bool {
		b, err := os.ReadFile(memPath)
		return err == nil && strings.Contains(strings.Join(sectionBullets(string(b)), "\n"), "pnpm")
	}
	if !waitFor(30*time.Second, repaired) {
		b, _ := os.ReadFile(memPath)
		t.Errorf("the agent did not repair credence's section within 30 s:\n%s\nagent:\n%s", b, tail(readAgentLog(w), 4000))
	}
	w.credence("consolidate")
	cardAfter := beliefCard(t, w, pnpm.ID)
	if cardAfter.Status != "active" {
		t.Errorf("after the model's edit the pnpm belief is %s, want active", cardAfter.Status)
	}
	if cardAfter.Contradictions != cardBefore.Contradictions {
		t.Errorf("the model's edit counted against the pnpm belief: contradictions %d → %d",
			cardBefore.Contradictions, cardAfter.Contradictions)
	}
	if cardAfter.Confidence < cardBefore.Confidence-0.01 {
		t.Errorf("the model's edit lowered the pnpm belief's confidence: %.3f → %.3f", cardBefore.Confidence, cardAfter.Confidence)
	}
	if !repaired() {
		b, _ := os.ReadFile(memPath)
		t.Errorf("after consolidation credence's section has no pnpm line:\n%s", b)
	}
}

// whyCard is the part of `credence why --json` these tests read.
type whyCard struct {
	Status         string  `json:"status"`
	Confidence     float64 `json:"confidence"`
	Contradictions int     `json:"contradictions"`
}

func beliefCard(t *testing.T, w *world, id string) whyCard {
	t.Helper()
	var c whyCard
	if err := json.Unmarshal([]byte(w.credence("why", "--json", id)), &c); err != nil {
		t.Fatalf("credence why --json %s: %v", id, err)
	}
	return c
}

// memoryEpisode returns the episode, of a kind the hooks and the transcript
// import do not write, whose content holds phrase; a zero Episode when none
// does.
func memoryEpisode(t *testing.T, w *world, phrase string) store.Episode {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(w.home, ".local", "share", "credence", "credence.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	eps, err := db.EpisodesAfter(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		switch e.Kind {
		case store.EpisodePrompt, store.EpisodeExchange, store.EpisodeImport:
			continue
		}
		if strings.Contains(e.Content, phrase) {
			return e
		}
	}
	return store.Episode{}
}

// readAgentLog returns the agent's log, for failure messages.
func readAgentLog(w *world) string {
	b, _ := os.ReadFile(filepath.Join(w.home, ".local", "share", "credence", "logs", "agent.log"))
	return string(b)
}
