package consolidate

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/llm/llmtest"
)

// contextLine matches a known belief in an extraction request:
// "- bl_…: statement (subject, predicate, object; confidence 0.66)".
var contextLine = regexp.MustCompile(`(?m)^- (bl_\w+): .* \(([^,]*), ([^,]*), ([^;]*); confidence`)

// oracle answers extraction requests the way a careful model would: the
// facts the offline extractor finds in the episode, each marked reinforce
// when a known belief states it, invalidate when it replaces a known value
// of the same slot, new otherwise. Synthesis and classification requests
// get coherent, rule-following answers too.
func oracle(req llmtest.Request) llmtest.Reply {
	switch req.Schema {
	case "semantic_extraction":
		_, episode, _ := strings.Cut(req.User, "\nEpisode:\n")
		var known [][]string
		for _, m := range contextLine.FindAllStringSubmatch(req.User, -1) {
			known = append(known, m[1:])
		}
		out := llm.Extraction{Facts: []llm.Fact{}}
		for _, f := range extract.Extract(episode) {
			lf := llm.Fact{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Fact: f.Statement,
				Kind: f.Kind, Negated: f.Negated, Action: llm.ActionNew}
			for _, k := range known {
				switch {
				case k[2] == f.Predicate && k[3] == f.Object:
					lf.Action, lf.BeliefID = llm.ActionReinforce, k[0]
				case k[2] == f.Predicate && f.Exclusive && k[3] != f.Object && lf.Action == llm.ActionNew:
					lf.Action, lf.BeliefID = llm.ActionInvalidate, k[0]
				}
			}
			out.Facts = append(out.Facts, lf)
		}
		if strings.Contains(req.System, "surprise_explanation with") {
			out.SurpriseExplanation = "The user was believed to live elsewhere."
		}
		return llmtest.JSON(out)
	case "belief_synthesis":
		return llmtest.JSON(llm.Candidate{Coherent: false})
	case "belief_classification":
		return llmtest.JSON(llm.Judgement{Label: llm.LabelIrrelevant, Reliability: 1})
	}
	return llmtest.Reply{Status: 400}
}

// newModel starts a scripted server and a client for it.
func newModel(t *testing.T, script func(*llmtest.Server)) (*llm.Client, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New()
	t.Cleanup(srv.Close)
	if script != nil {
		script(srv)
	}
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: "sk-test", Model: "test-model",
		Timeout: 2 * time.Second, MaxRetries: 2, RetryBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

// modes runs a test in offline mode and in LLM mode against the oracle.
func modes(t *testing.T, fn func(t *testing.T, opts ...envOption)) {
	t.Run("offline", func(t *testing.T) { fn(t) })
	t.Run("llm", func(t *testing.T) {
		m, _ := newModel(t, func(s *llmtest.Server) { s.Otherwise(oracle) })
		fn(t, withModel(m), strict)
	})
}
