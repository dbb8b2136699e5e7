package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 13, items 3 and 4, through the real binaries.

// TestFreshFactAcrossSessions: what one session's prompt said is recalled
// by the next prompt of another session at once, before any consolidation
// or vector exists, with the hooks run in-process and with a running
// `credence agent` answering them (its caches and 30 s vector tick once
// hid such a fact for half a minute).
func TestFreshFactAcrossSessions(t *testing.T) {
	for _, withAgent := range []bool{false, true} {
		name := "in-process"
		if withAgent {
			name = "agent"
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.env = append(w.env, "CREDENCE_LOG_LEVEL=debug")
			var agent *runningAgent
			if withAgent {
				agent = w.startAgent()
				t.Cleanup(agent.stop)
			}
			root := w.project("ledger")
			s0 := w.open(root)
			// A first prompt that searches for the word: an agent's cache
			// now holds "no episode says it".
			s0.turn("is there a zanzibarledger database?", "I don't know of one.")
			s1 := w.open(root)
			s1.turn("FYI the staging database is called zanzibarledger", "Noted.")
			s2 := w.open(root)
			told := s2.turn("connect to zanzibarledger for me", "OK.")
			if !strings.Contains(told, "staging database is called zanzibarledger") {
				t.Errorf("the next session was told %q; want the fact told a moment ago", told)
			}
			if withAgent {
				agent.stop()
				logs, err := os.ReadFile(filepath.Join(w.home, ".local", "share", "credence", "logs", "hook.log"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(logs), `"via":"agent"`) || !strings.Contains(string(logs), `"msg":"served"`) {
					t.Errorf("the agent served no hook event; hook.log:\n%s", logs)
				}
			}
		})
	}
}

// TestCurrentValueEverywhere: after "we switched from pnpm to bun", every
// place that tells Claude about the package manager — the prompt hook,
// `credence recall`, MCP memory_recall and the SessionStart digest —
// gives bun as the current value and never names pnpm without saying it
// is the earlier one.
func TestCurrentValueEverywhere(t *testing.T) {
	w := newWorld(t)
	root := w.project("shop")
	for _, p := range []string{"We use pnpm for this repo.", "pnpm install is slow on CI, can we cache the store?", "remember we're a pnpm shop"} {
		s := w.open(root)
		s.turn(p, "OK.")
		s.end()
		w.credence("consolidate")
	}
	s := w.open(root)
	s.turn("We switched from pnpm to bun this week.", "Got it.")
	s.end()
	w.credence("consolidate")

	const question = "Which package manager do we use?"
	check := func(where, text string) {
		t.Helper()
		if !containsWord(text, []string{"bun", "Bun"}) {
			t.Errorf("%s does not give bun:\n%s", where, text)
		}
		if staleUnmarked(text, []string{"pnpm"}) {
			t.Errorf("%s names pnpm without marking it earlier:\n%s", where, text)
		}
	}

	// The prompt hook.
	s = w.open(root)
	digest := s.hook("SessionStart", map[string]any{"source": "startup"})
	check("the prompt hook", s.turn(question, "OK."))
	s.end()
	if digest != "" && staleUnmarked(digest, []string{"pnpm"}) {
		t.Errorf("the SessionStart digest names pnpm as if current:\n%s", digest)
	}
	if digest == "" {
		t.Error("the SessionStart digest after the switch says nothing; want the change")
	} else {
		check("the SessionStart digest", digest)
	}

	// credence recall, as text and as JSON.
	cmd := exec.Command(credenceBin, "recall", question)
	cmd.Env, cmd.Dir = w.env, root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("credence recall: %v", err)
	}
	check("credence recall", string(out))
	cmd = exec.Command(credenceBin, "recall", "--json", question)
	cmd.Env, cmd.Dir = w.env, root
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("credence recall --json: %v", err)
	}
	var res struct {
		Beliefs []struct {
			Statement, Earlier string
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Beliefs) == 0 || !containsWord(res.Beliefs[0].Statement, []string{"bun", "Bun"}) {
		t.Errorf("credence recall --json: first belief %+v; want the bun one\n%s", res.Beliefs, out)
	}

	// MCP memory_recall: its context and its structured beliefs.
	mcpCmd := exec.Command(credenceBin, "mcp")
	mcpCmd.Env, mcpCmd.Dir = w.env, root
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: mcpCmd}, nil)
	if err != nil {
		t.Fatalf("connect to credence mcp: %v", err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": question}})
	if err != nil || r.IsError {
		t.Fatalf("memory_recall: %v %+v", err, r)
	}
	var rec struct {
		Context string `json:"context"`
		Beliefs []struct {
			Statement string `json:"statement"`
			Earlier   string `json:"earlier"`
		} `json:"beliefs"`
		Episodes []struct {
			Text         string `json:"text"`
			SupersededBy string `json:"superseded_by"`
			Note         string `json:"note"`
		} `json:"episodes"`
	}
	data, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	check("memory_recall's context", rec.Context)
	if len(rec.Beliefs) == 0 || !containsWord(rec.Beliefs[0].Statement, []string{"bun", "Bun"}) {
		t.Errorf("memory_recall: first belief %+v; want the bun one", rec.Beliefs)
	}
	for _, e := range rec.Episodes {
		if containsWord(e.Text, []string{"pnpm"}) && e.SupersededBy == "" && !strings.Contains(e.Note, "earlier") {
			t.Errorf("memory_recall gives the episode %q naming pnpm with nothing saying it is the earlier value", e.Text)
		}
	}
}

// TestSaidOutsideAnyRepository: a rule and a project-like fact said in a
// directory outside any repository (Claude Code opened in ~) hold wherever
// the person works, since there is no project there for them to be of;
// what is said in a repository stays in it.
func TestSaidOutsideAnyRepository(t *testing.T) {
	w := newWorld(t)
	home := filepath.Join(w.home, "scratch")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := w.project("atlas"), w.project("borealis")
	for _, step := range []struct{ dir, said string }{
		{home, "no emojis in anything you write, ever"},
		{b, "this repo deploys with fly, always fly deploy --remote-only"},
	} {
		s := w.open(step.dir)
		s.turn(step.said, "OK.")
		s.end()
		w.credence("consolidate")
	}
	s := w.open(a)
	told := s.turn("write the release notes for v2.3", "OK.")
	s.end()
	if !containsWord(told, []string{"emojis"}) {
		t.Errorf("a project was not told the rule said outside any repository:\n%s", told)
	}
	if containsWord(told, []string{"fly"}) {
		t.Errorf("a project was told another repository's rule:\n%s", told)
	}
}
