package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// TestRealClaudeCode runs the real Claude Code CLI, each pinned release
// (scripts/claude-code.versions, installed by scripts/install-claude-code.sh),
// with credence installed by `credence install --no-service` in a temporary
// HOME and a fake Messages API on 127.0.0.1 in place of the model. A person
// tells Claude a fact in three sessions; after `credence consolidate` a
// fourth session must carry what credence knows into the request Claude Code
// sends, through the UserPromptSubmit hook and through the MEMORY.md
// Claude Code loads.
func TestRealClaudeCode(t *testing.T) {
	for _, rel := range claudeReleases(t) {
		t.Run(rel.version, func(t *testing.T) { testRealClaudeCode(t, rel) })
	}
}

// told is what the person says in the first three sessions (the webapp's
// pnpm lines of TestHistory), with the fake model's replies.
var told = []step{
	{"We use pnpm as the package manager in this repo.", "Got it: pnpm for installs and scripts."},
	{"Reminder: we use pnpm as the package manager here.", "Yes, pnpm."},
	{"We use pnpm as the package manager, so add zod with it.", "Added zod with pnpm add zod."},
}

func testRealClaudeCode(t *testing.T, rel claudeRelease) {
	w := newWorld(t)
	root := w.project("webapp")
	gitInit(t, root)
	api := newFakeAPI(t)
	memPath := markdown.ProjectMemoryPath(w.home, root, "")

	var runs []claudeRun
	for _, st := range told {
		api.queue(say(st.reply))
		runs = append(runs, w.claude(rel, api, root, st.prompt))
		w.credence("consolidate")
	}
	api.queue(say("pnpm: it is this repo's package manager."))
	ask := w.claude(rel, api, root, "Should I use npm or pnpm to add a date library?")
	runs = append(runs, ask)
	// A manual compaction of that session runs PreCompact (and SessionStart
	// again); Claude Code asks the model for a summary, which the fake
	// answers unscripted.
	compact := w.claude(rel, api, root, "/compact", "--resume", ask.sessionID)
	if n := api.pending(); n != 0 {
		t.Fatalf("%d scripted replies were never asked for; requests:\n%s", n, api.log())
	}
	turns := api.turns()
	if len(turns) != len(runs) {
		t.Fatalf("the API saw %d conversation turns for %d prompts:\n%s", len(turns), len(runs), api.log())
	}

	t.Run("hooks ran without error", func(t *testing.T) {
		for i, run := range runs {
			checkHooks(t, i+1, run, "SessionStart", "UserPromptSubmit", "Stop")
		}
		checkHooks(t, len(runs)+1, compact, "SessionStart")
		if !regexp.MustCompile(`PreCompact:manual \[[^\]]*credence-hook PreCompact\] (finished|completed) with status 0`).MatchString(compact.debug) {
			t.Errorf("/compact ran no PreCompact hook with status 0; debug log:\n%s", tail(compact.debug, 4000))
		}
	})

	t.Run("Claude Code loads the MEMORY.md credence writes", func(t *testing.T) {
		// Claude Code names its auto-memory directory in the system prompt
		// ("# auto memory") and reads MEMORY.md from it; credence computes
		// the same directory from the project root (markdown.ProjectKey).
		dir := filepath.Dir(memPath) + string(filepath.Separator)
		body := requestText(t, turns[0])
		if !strings.Contains(body, dir) {
			t.Errorf("the first request never names the memory directory credence writes, %s; memory paths it names: %q",
				dir, regexp.MustCompile(`/[^\s"`+"`"+`]*/memory/`).FindAllString(body, -1))
		}
		// Newer releases also log the directory as they index it.
		if m := regexp.MustCompile(`/\.claude/projects/([^/\s]+)/memory`).FindStringSubmatch(runs[0].debug); m != nil && m[1] != markdown.ProjectKey(root) {
			t.Errorf("Claude Code's debug log keys the project as %q, credence as %q", m[1], markdown.ProjectKey(root))
		}
	})

	t.Run("exchanges stored", func(t *testing.T) {
		db := openDB(t, w)
		eps, err := db.EpisodesAfter(context.Background(), 0, 10000)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		for i, st := range append(told, step{"Should I use npm or pnpm to add a date library?", "pnpm: it is this repo's package manager."}) {
			found := 0
			for _, e := range eps {
				if e.Kind == store.EpisodeExchange && e.SessionID == runs[i].sessionID &&
					strings.Contains(e.Content, st.prompt) && strings.Contains(e.Content, st.reply) {
					found++
				}
			}
			if found != 1 {
				t.Errorf("session %d (%s): %d exchange episodes hold %q and its reply, want 1", i+1, runs[i].sessionID, found, st.prompt)
			}
		}
		out := w.credence("recall", "--project", root, "which package manager")
		if !strings.Contains(out, "pnpm") {
			t.Errorf("credence recall does not find the pnpm exchanges:\n%s", out)
		}
	})

	t.Run("injected context reaches the model", func(t *testing.T) {
		ups := ask.hook("UserPromptSubmit")
		if len(ups) != 1 {
			t.Fatalf("the last session ran %d UserPromptSubmit hooks, want 1", len(ups))
		}
		var out struct {
			HookSpecificOutput struct {
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(ups[0].Stdout), &out); err != nil {
			t.Fatalf("UserPromptSubmit printed %q: %v", ups[0].Stdout, err)
		}
		ctx := out.HookSpecificOutput.AdditionalContext
		if !regexp.MustCompile(`\[Belief 0\.\d\d[^\]]*\] [^\n]*pnpm`).MatchString(ctx) {
			t.Fatalf("credence told Claude Code:\n%s\nwant a pnpm belief line", ctx)
		}
		// Claude Code sends it as a system reminder in the message that
		// carries the prompt.
		var req messagesRequest
		if err := json.Unmarshal(turns[len(turns)-1], &req); err != nil {
			t.Fatal(err)
		}
		msg := lastText(req)
		if !strings.Contains(msg, "Should I use npm or pnpm to add a date library?") {
			t.Fatalf("the last request's last message is not the prompt: %q", tail(msg, 2000))
		}
		for _, line := range strings.Split(strings.TrimSpace(ctx), "\n") {
			if !strings.Contains(msg, strings.TrimSpace(line)) {
				t.Errorf("the prompt's message lacks the injected line %q", line)
			}
		}
		if strings.Contains(requestText(t, turns[0]), "[Belief") {
			t.Error("the first session's request already holds a belief; the check above would prove nothing")
		}
	})

	t.Run("MEMORY.md section reaches the model", func(t *testing.T) {
		data, err := os.ReadFile(memPath)
		if err != nil {
			t.Fatalf("credence wrote no MEMORY.md where Claude Code loads it: %v", err)
		}
		bullets := sectionBullets(string(data))
		if len(bullets) == 0 || !strings.Contains(strings.Join(bullets, "\n"), "pnpm") {
			t.Fatalf("MEMORY.md's credence section has no pnpm bullet:\n%s", data)
		}
		body := requestText(t, turns[len(turns)-1])
		// Claude Code loads it as the project's auto memory, by its path.
		if !strings.Contains(body, "Contents of "+memPath+" (") {
			t.Errorf("the request does not name %s as a file Claude Code loaded", memPath)
		}
		for _, b := range bullets {
			if !strings.Contains(body, b) {
				t.Errorf("the request after consolidation lacks the MEMORY.md line %q", b)
			}
		}
		if strings.Contains(requestText(t, turns[0]), bullets[0]) {
			t.Error("the first request already holds the section's first line; the check above would prove nothing")
		}
	})

	t.Run("no empty section reaches the model", func(t *testing.T) {
		// The global MEMORY.md, which ~/.claude/CLAUDE.md imports, has no
		// global belief yet; a heading with nothing under it would reach
		// the model as the user's instructions in every request.
		body := requestText(t, turns[len(turns)-1])
		if heading := emptyHeading(body); heading != "" {
			t.Errorf("the request holds credence's %q with nothing under it:\n%s", heading, body[max(0, strings.Index(body, "Contents of")):])
		}
	})

	if t.Failed() {
		return // the model-edit sessions below build on what failed above
	}
	agent := w.startAgent()
	defer agent.stop()

	t.Run("a memory file the model writes is ingested", func(t *testing.T) {
		testModelMemoryFile(t, w, rel, api, root, memPath)
	})
	t.Run("a model edit of credence's section is the model's and is repaired", func(t *testing.T) {
		testModelEditsSection(t, w, rel, api, root, memPath)
	})
}

// checkHooks fails t unless each of events ran in run and every
// credence hook run (stream-json events, and Claude Code's debug log for
// the hooks that run after the result, like SessionEnd) ended with status 0
// and wrote nothing to stderr.
func checkHooks(t *testing.T, session int, run claudeRun, events ...string) {
	t.Helper()
	for _, e := range events {
		if len(run.hook(e)) == 0 {
			t.Errorf("session %d: Claude Code ran no %s hook", session, e)
		}
	}
	for _, h := range run.hooks {
		if h.ExitCode != 0 || h.Outcome != "success" || h.Stderr != "" {
			t.Errorf("session %d: hook %s: exit %d, outcome %q, stderr %q", session, h.Name, h.ExitCode, h.Outcome, h.Stderr)
		}
	}
	// Claude Code's debug log has one line per hook command it ran
	// ("… [<command>] finished with status 0", "SessionEnd:other [<command>]
	// completed with status 0"); a failing one says another status or an
	// error.
	sawEnd := false
	for _, line := range strings.Split(run.debug, "\n") {
		if !strings.Contains(line, "credence-hook") || !strings.Contains(line, " status ") {
			continue // other lines name the command too ("provided additionalContext")
		}
		if !regexp.MustCompile(`(finished|completed) with status 0\b`).MatchString(line) {
			t.Errorf("session %d: Claude Code's debug log: %s", session, line)
		}
		if strings.Contains(line, "SessionEnd") {
			sawEnd = true
		}
	}
	if !sawEnd {
		t.Errorf("session %d: Claude Code's debug log never ran the SessionEnd hook:\n%s", session, tail(run.debug, 3000))
	}
	for _, line := range strings.Split(run.debug, "\n") {
		if regexp.MustCompile(`(?i)hook.*(error|failed|timed out|non-blocking status code)`).MatchString(line) &&
			!strings.Contains(line, "Event dropped") {
			t.Errorf("session %d: Claude Code's debug log reports a hook failure: %s", session, line)
		}
	}
}

// requestText returns every string of a Messages request body (system
// prompt, messages, tool results) joined by newlines: what the model reads.
func requestText(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				if k != "tools" { // the tools' descriptions are not context
					walk(x)
				}
			}
		}
	}
	m, _ := v.(map[string]any)
	walk(m["system"])
	walk(m["messages"])
	return b.String()
}

// sectionBullets returns the bullet lines of MEMORY.md's credence section.
func sectionBullets(text string) []string {
	var out []string
	section := between(text, "<!-- CREDENCE:BELIEFS:BEGIN -->", "<!-- CREDENCE:BELIEFS:END -->")
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "- ") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// emptyHeading returns the first of credence's headings in text whose next
// non-blank line is not a bullet, or "".
func emptyHeading(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		switch strings.TrimSpace(line) {
		case markdown.HeadingBeliefs, markdown.HeadingGuidelines, markdown.HeadingFormer:
		default:
			continue
		}
		next := ""
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) != "" {
				next = strings.TrimSpace(l)
				break
			}
		}
		if !strings.HasPrefix(next, "- ") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// gitInit makes root a git repository, as a project Claude Code opens is.
func gitInit(t *testing.T, root string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return // w.project's .git directory still marks the root for credence
	}
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// waitFor polls cond every 100 ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}
