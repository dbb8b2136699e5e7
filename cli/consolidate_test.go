package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/llm/llmtest"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// say stores prompt episodes as the UserPromptSubmit hook does.
func (h *cmdHarness) say(db *store.DB, project string, texts ...string) {
	h.t.Helper()
	for _, text := range texts {
		ep := store.Episode{Kind: store.EpisodePrompt, Content: text, ProjectPath: project, SessionID: "s1"}
		if _, err := db.AddEpisode(context.Background(), &ep); err != nil {
			h.t.Fatal(err)
		}
	}
}

// TestPreferenceChangeScenario: a preference stated several times forms a
// belief; "we switched from pnpm to bun" makes bun the top belief and
// supersedes pnpm within a few statements; recall shows bun with its bl_ ID.
func TestPreferenceChangeScenario(t *testing.T) {
	h := newCmdHarness(t)
	project := filepath.Join(h.home, "src", "shop")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	db := h.db()
	h.say(db, project, "I prefer pnpm over npm", "please add a lint script", "I prefer pnpm over npm", "I prefer pnpm over npm")
	var st consolidate.Stats
	h.json(&st, "consolidate", "--no-promote")
	pnpm := activeOf(t, db, "pnpm")
	if pnpm == nil || pnpm.EvidenceCount != 3 {
		t.Fatalf("after three statements: pnpm belief %+v; want one active belief with 3 sources", pnpm)
	}
	statements := 0
	for statements < 3 && activeOf(t, db, "pnpm") != nil {
		h.say(db, project, "we switched from pnpm to bun")
		statements++
		h.json(&st, "consolidate", "--no-promote")
	}
	if activeOf(t, db, "pnpm") != nil {
		t.Fatalf("pnpm still active after %d statements of the switch", statements)
	}
	bun := activeOf(t, db, "bun")
	if bun == nil {
		t.Fatal("no active bun belief")
	}
	old, err := db.Belief(context.Background(), pnpm.ID)
	if err != nil || old.Status != "superseded" || old.InvalidAt == 0 {
		t.Fatalf("pnpm belief %s status %s invalid_at %d (%v); want superseded with invalid_at", pnpm.ID, old.Status, old.InvalidAt, err)
	}
	hits := recallBeliefs(t, h, project, "install the dependencies with bun or pnpm?")
	if len(hits) == 0 || hits[0].ID != bun.ID || !strings.HasPrefix(hits[0].ID, "bl_") {
		t.Fatalf("recall beliefs %+v; want bun's belief %s first", hits, bun.ID)
	}
	for _, b := range hits {
		if b.ID == pnpm.ID {
			t.Errorf("recall still shows the superseded pnpm belief: %+v", b)
		}
	}
	t.Logf("bun superseded pnpm after %d statement(s); recall's top belief: %s %q (%.2f)", statements, hits[0].ID, hits[0].Statement, hits[0].Confidence)
}

// activeOf returns the active package-manager belief naming object.
func activeOf(t *testing.T, db *store.DB, object string) *store.Belief {
	t.Helper()
	bs, err := db.Beliefs(context.Background(), store.Filter{Predicate: "uses_package_manager", Object: object, Statuses: []belief.Status{belief.Active}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) == 0 {
		return nil
	}
	return &bs[0]
}

// recallBeliefs asks `credence recall --json` what Claude would be told.
func recallBeliefs(t *testing.T, h *cmdHarness, project, query string) []recall.BeliefHit {
	t.Helper()
	var res recall.Result
	h.json(&res, "recall", "--project", project, query)
	return res.Beliefs
}

func TestStatusReport(t *testing.T) {
	h := newCmdHarness(t)
	db := h.db()
	h.say(db, "", "I live in Lisbon", "I like Rust", "what is this?")
	var st consolidate.Stats
	h.json(&st, "consolidate", "--no-promote")
	if st.Episodes != 3 || st.BeliefsCreated != 2 || st.Status != store.CycleDone {
		t.Fatalf("consolidate: %+v", st)
	}
	var rep StatusReport
	h.json(&rep, "status")
	if rep.Episodes.Total != 3 || rep.Episodes.Waiting != 0 || rep.Beliefs["active"] != 2 || rep.Mode != "offline" {
		t.Errorf("status episodes %+v beliefs %v mode %s; want 3 stored, none waiting, 2 active, offline", rep.Episodes, rep.Beliefs, rep.Mode)
	}
	if rep.Agent.Status != "never ran" || rep.Agent.Heartbeat != nil {
		t.Errorf("agent %+v, want never ran", rep.Agent)
	}
	if rep.LastCycle == nil || rep.LastCycle.ID != st.CycleID || rep.LastCycle.Stats == nil || rep.LastCycle.Stats.BeliefsCreated != 2 {
		t.Errorf("last cycle %+v, want %s with its stats", rep.LastCycle, st.CycleID)
	}
	if len(rep.Cycles) != 1 || rep.Sync.Enabled {
		t.Errorf("cycles %d sync %+v; want one cycle and sync off", len(rep.Cycles), rep.Sync)
	}
	if err := db.SetMeta(context.Background(), "sync_last_push_at", fmt.Sprint(time.Date(2026, 1, 1, 12, 0, 0, 0, time.Local).UnixMilli())); err != nil {
		t.Fatal(err)
	}
	out := h.ok("status")
	for _, want := range []string{"0 waiting", "active 2", "never ran", st.CycleID, "last pushed 2026-01-01"} {
		if !strings.Contains(out, want) {
			t.Errorf("status output lacks %q:\n%s", want, out)
		}
	}
}

func TestConsolidateWaitsForTheRunningCycle(t *testing.T) {
	h := newCmdHarness(t)
	cfg := h.config()
	unlock, err := consolidate.TryLock(filepath.Join(cfg.Paths.DataDir, consolidate.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := h.run("consolidate", "--wait=0")
	if code != 1 || !strings.Contains(errs, "another consolidation cycle is running") {
		t.Errorf("consolidate while a cycle runs: exit %d, %q; want 1 and the reason", code, errs)
	}
	unlock()
	h.ok("consolidate", "--wait=0", "--no-promote")
}

// TestConsolidateLLMModeFromEnvironment points OPENAI_BASE_URL and
// OPENAI_API_KEY at a scripted OpenAI-compatible server: the cycle runs in
// LLM mode, and the tokens it used show in the cycle and in status.
func TestConsolidateLLMModeFromEnvironment(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	srv.Otherwise(func(req llmtest.Request) llmtest.Reply {
		if req.Schema != "semantic_extraction" {
			return llmtest.JSON(llm.Candidate{Coherent: false})
		}
		return llmtest.JSON(llm.Extraction{Facts: []llm.Fact{{Subject: "user", Predicate: "lives_in", Object: "Lisbon",
			Fact: "User lives in Lisbon", Kind: "fact", Action: llm.ActionNew}}})
	})
	h := newCmdHarness(t)
	h.vars["OPENAI_BASE_URL"] = srv.URL()
	h.vars["OPENAI_API_KEY"] = "sk-test-key"
	db := h.db()
	h.say(db, "", "I live in Lisbon, by the way")
	var st consolidate.Stats
	h.json(&st, "consolidate", "--no-promote")
	if st.Mode != consolidate.ModeLLM || st.LLM.Calls == 0 || st.LLM.PromptTokens == 0 || st.LLMFallbacks != 0 {
		t.Fatalf("cycle %+v; want LLM mode with tokens and no fallback", st)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || reqs[0].Auth != "Bearer sk-test-key" {
		t.Fatalf("server saw %d requests (auth %q)", len(reqs), reqs[0].Auth)
	}
	var rep StatusReport
	h.json(&rep, "status")
	if rep.Mode != consolidate.ModeLLM || rep.Tokens.PromptTokens != st.LLM.PromptTokens || rep.Beliefs["active"] != 1 {
		t.Errorf("status mode %s tokens %+v beliefs %v; want llm, %d prompt tokens, one belief", rep.Mode, rep.Tokens, rep.Beliefs, st.LLM.PromptTokens)
	}
}

// TestPrintConsolidationCounts: counts of one are printed in the singular.
func TestPrintConsolidationCounts(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Stdout: &out}
	printConsolidation(env, consolidate.Stats{Mode: consolidate.ModeLLM, LLM: llm.Usage{Calls: 1},
		Promotion: &consolidate.PromotionStats{Promoted: 1, FilesWritten: 1}})
	for _, want := range []string{"1 file written", "llm: 1 call,"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("printConsolidation wrote:\n%s\nwant %q", out.String(), want)
		}
	}
}

// TestConsolidateEmbedsWhatHasNoVector: a cycle run by hand also stores
// the vectors the agent would store between its cycles, so recall finds
// the episodes by meaning without the agent; --embed-for 0 leaves them.
func TestConsolidateEmbedsWhatHasNoVector(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{{[]string{"consolidate", "--no-promote"}, true}, {[]string{"consolidate", "--no-promote", "--embed-for", "0"}, false}} {
		h := newCmdHarness(t)
		db := h.db()
		h.say(db, "", "I live in Lisbon", "my sister Ana is a nurse in Porto")
		out := h.ok(tc.args...)
		spaces, err := db.Spaces(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		left := -1
		for _, sp := range spaces {
			ids, err := db.Unembedded(context.Background(), sp, "episodes", 10)
			if err != nil {
				t.Fatal(err)
			}
			left = len(ids)
		}
		if embedded := left == 0 && strings.Contains(out, "vectors: "); embedded != tc.want {
			t.Errorf("%v: episodes left without a vector %d (-1: no space), output:\n%s\nwant embedded=%v", tc.args, left, out, tc.want)
		}
	}
}
