package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/llm/llmtest"
	"github.com/credence-mem/credence/store"
)

// Each path of LLM mode, with the fake server scripted per case, asserted
// on the beliefs the path leaves. Removing a path's effect (the model's
// reinforce target, its invalidate, a label's evidence, the synthesis, a
// fallback) fails its case: each case is built so that nothing else in the
// pipeline would produce the same beliefs.

// Schema names of the three calls a cycle makes (package llm).
const (
	schemaExtract  = "semantic_extraction"
	schemaSynth    = "belief_synthesis"
	schemaClassify = "belief_classification"
)

// script answers each call of a case; a nil function answers extraction
// with no facts, synthesis as incoherent and classification IRRELEVANT.
type script struct {
	extract, synthesize, classify func(llmtest.Request) llmtest.Reply
}

func (s script) reply(req llmtest.Request) llmtest.Reply {
	fn := map[string]func(llmtest.Request) llmtest.Reply{schemaExtract: s.extract, schemaSynth: s.synthesize,
		schemaClassify: s.classify}[req.Schema]
	if fn != nil {
		return fn(req)
	}
	switch req.Schema {
	case schemaExtract:
		return llmtest.JSON(llm.Extraction{Facts: []llm.Fact{}})
	case schemaSynth:
		return llmtest.JSON(llm.Candidate{Coherent: false})
	case schemaClassify:
		return llmtest.JSON(llm.Judgement{Label: llm.LabelIrrelevant, Reliability: 1})
	}
	return llmtest.Reply{Status: 400}
}

// scriptedEnv is an LLM-mode environment whose server answers by s, and
// whose calls give up after callTimeout (0: the default).
func scriptedEnv(t *testing.T, s *script, callTimeout time.Duration) (*testEnv, *llmtest.Server) {
	t.Helper()
	m, srv := newModel(t, func(srv *llmtest.Server) { srv.Otherwise(func(r llmtest.Request) llmtest.Reply { return s.reply(r) }) })
	opts := []envOption{withModel(m)}
	if callTimeout > 0 {
		opts = append(opts, withBudget(Budget{CallTimeout: callTimeout}))
	}
	return newEnv(t, opts...), srv
}

// knownID returns the ID of the belief about object that an extraction
// request shows the model, or "" when it shows none.
func knownID(req llmtest.Request, object string) string {
	for _, m := range contextLine.FindAllStringSubmatch(req.User, -1) {
		if m[4] == object {
			return m[1]
		}
	}
	return ""
}

// facts answers an extraction with the given facts.
func facts(fs ...llm.Fact) llmtest.Reply { return llmtest.JSON(llm.Extraction{Facts: fs}) }

var livesInLisbon = llm.Fact{Subject: "user", Predicate: "lives_in", Object: "Lisbon", Fact: "User lives in Lisbon",
	Kind: "fact", Action: llm.ActionNew}

// one returns the only belief about (subject, predicate), failing unless
// there is exactly one.
func (e *testEnv) one(subject, predicate string) store.Belief {
	e.t.Helper()
	bs := e.beliefs(subject, predicate)
	if len(bs) != 1 {
		e.t.Fatalf("beliefs about %s %s: %v, want one", subject, predicate, objects(bs))
	}
	return bs[0]
}

// count returns how many beliefs exist, in any status.
func (e *testEnv) count() int {
	e.t.Helper()
	bs, err := e.db.Beliefs(e.ctx, store.Filter{})
	if err != nil {
		e.t.Fatal(err)
	}
	return len(bs)
}

// TestLLMPredictCalibrate scripts each predict-calibrate action the model
// can return — new, reinforce a known belief, invalidate one — on episodes
// the offline extractor reads nothing in, so only the model's reading can
// leave the beliefs checked.
func TestLLMPredictCalibrate(t *testing.T) {
	t.Run("new adds a belief", func(t *testing.T) {
		e, _ := scriptedEnv(t, &script{extract: func(llmtest.Request) llmtest.Reply { return facts(livesInLisbon) }}, 0)
		e.say("", "Lisbon has been home since the spring.")
		if st := e.run(); st.LLMFallbacks != 0 {
			t.Fatalf("%d fallbacks, want none", st.LLMFallbacks)
		}
		b := e.one("user", "lives_in")
		if b.Object != "lisbon" || b.Source != SourceLLM || b.Status != belief.Active || b.Supports != 1 {
			t.Errorf("belief %q (%s, %s) with %d supports; want lisbon from the model, active, one support",
				b.Object, b.Source, b.Status, b.Supports)
		}
	})

	t.Run("reinforce supports the belief it names", func(t *testing.T) {
		// Another triple than the belief's, so only the target can tie them.
		e, lisbon := secondReading(t, "Lisbon is still home, by the river.", func(target string) llm.Fact {
			return llm.Fact{Subject: "user", Predicate: "lives_by", Object: "the river", Fact: "User lives by the river",
				Kind: "fact", Action: llm.ActionReinforce, BeliefID: target}
		})
		if b := e.one("user", "lives_in"); b.ID != lisbon.ID || b.Supports != 2 || b.EvidenceCount != 2 {
			t.Errorf("lisbon has %d supports of %d, want 2 of 2", b.Supports, b.EvidenceCount)
		}
		if n := e.count(); n != 1 {
			t.Errorf("%d beliefs, want 1: a reinforcement creates nothing", n)
		}
	})

	t.Run("invalidate supersedes the belief it names", func(t *testing.T) {
		e, _ := secondReading(t, "Lisbon was lovely, but Porto is where I am based these days.", func(target string) llm.Fact {
			return llm.Fact{Subject: "user", Predicate: "based_in", Object: "Porto", Fact: "User is based in Porto",
				Kind: "fact", Action: llm.ActionInvalidate, BeliefID: target}
		})
		lisbon, porto := e.one("user", "lives_in"), e.one("user", "based_in")
		if lisbon.Status != belief.Superseded || lisbon.InvalidAt == 0 || lisbon.Contradictions != 1 {
			t.Errorf("lisbon %s (invalid_at %d) with %d contradictions; want superseded by the model's invalidate, one contradiction",
				lisbon.Status, lisbon.InvalidAt, lisbon.Contradictions)
		}
		if porto.Status != belief.Active || porto.Object != "porto" {
			t.Errorf("porto %s %q, want active", porto.Status, porto.Object)
		}
	})
}

// secondReading makes "User lives in Lisbon" from the model's reading of
// one episode, then has the model read text as fact, given the ID of that
// belief as it finds it in its context, and returns the environment and the
// belief as it was before.
func secondReading(t *testing.T, text string, fact func(target string) llm.Fact) (*testEnv, store.Belief) {
	t.Helper()
	s := &script{extract: func(llmtest.Request) llmtest.Reply { return facts(livesInLisbon) }}
	e, _ := scriptedEnv(t, s, 0)
	e.say("", "I live in Lisbon")
	e.run()
	lisbon := e.one("user", "lives_in")
	s.extract = func(req llmtest.Request) llmtest.Reply { return facts(fact(knownID(req, "lisbon"))) }
	e.say("", text)
	if st := e.run(); st.LLMFallbacks != 0 {
		t.Fatalf("%d fallbacks, want none (was the belief in the model's context?)", st.LLMFallbacks)
	}
	return e, lisbon
}

// tramEpisodes are three episodes the offline extractor reads nothing in
// and the offline embedder clusters; the model's synthesis of them is
// tramCandidate, whose statement is close enough to "User lives in
// Lisbon" to be classified against it, not close enough to reinforce it.
var tramEpisodes = []string{
	"The tram to the office was late again.",
	"The tram was late again this morning.",
	"Another late tram this morning.",
}

var tramCandidate = llm.Candidate{Coherent: true, Statement: "User takes the tram to work", Subject: "user",
	Predicate: "commutes_by", Object: "tram", Kind: "fact"}

// clusterCase makes "User lives in Lisbon" (one support) in one project,
// then the tram episodes in another, and runs the cycle that clusters them.
func clusterCase(t *testing.T, s *script, callTimeout time.Duration) (*testEnv, store.Belief, Stats) {
	t.Helper()
	if s.extract == nil {
		s.extract = func(req llmtest.Request) llmtest.Reply {
			if strings.Contains(req.User, "I live in Lisbon") {
				return facts(livesInLisbon)
			}
			return facts()
		}
	}
	e, _ := scriptedEnv(t, s, callTimeout)
	vecs, err := embed.NewOffline().Embed(e.ctx, []string{tramCandidate.Statement, "User lives in Lisbon"})
	if err != nil {
		t.Fatal(err)
	}
	th := embed.ThresholdsFor(embed.NewOffline().ID())
	if sim := embed.Cosine(vecs[0], vecs[1]); sim < th.Related || sim > th.Reinforce {
		t.Fatalf("precondition: candidate vs belief %.2f, want within [%.2f, %.2f] so it is classified", sim, th.Related, th.Reinforce)
	}
	e.say("/src/home", "I live in Lisbon")
	e.run()
	lisbon := e.one("user", "lives_in")
	e.dbTime.Advance(time.Hour)
	e.say("/src/work", tramEpisodes...)
	st := e.run()
	if st.Clusters != 1 {
		t.Fatalf("%d clusters, want the tram episodes as one", st.Clusters)
	}
	return e, lisbon, st
}

// TestLLMClassification scripts each label the model can give a
// synthesized candidate against the belief it resembles, and a synthesis
// that finds nothing coherent.
func TestLLMClassification(t *testing.T) {
	label := func(l string) func(llmtest.Request) llmtest.Reply {
		return func(llmtest.Request) llmtest.Reply { return llmtest.JSON(llm.Judgement{Label: l, Reliability: 1}) }
	}
	coherent := func(llmtest.Request) llmtest.Reply { return llmtest.JSON(tramCandidate) }
	tests := []struct {
		name  string
		label string
		// supports, contradictions, partials: what "User lives in Lisbon"
		// holds after the cycle (it had one support); created: whether the
		// candidate became a belief of its own.
		supports, contradictions, partials int
		created                            bool
	}{
		{"SUPPORTS adds the cluster's support to the belief", llm.LabelSupports, 4, 0, 0, false},
		{"CONTRADICTS speaks against it; the candidate stands alone", llm.LabelContradicts, 1, 3, 0, true},
		{"PARTIAL half supports it; the candidate stands alone", llm.LabelPartial, 1, 0, 3, true},
		{"IRRELEVANT leaves it; the candidate stands alone", llm.LabelIrrelevant, 1, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, lisbon, st := clusterCase(t, &script{synthesize: coherent, classify: label(tt.label)}, 0)
			if st.LLMFallbacks != 0 || st.Candidates != 1 || st.Classifications != 1 {
				t.Fatalf("%d fallbacks, %d candidates, %d classifications; want 0, 1, 1", st.LLMFallbacks, st.Candidates, st.Classifications)
			}
			b := e.one("user", "lives_in")
			if b.ID != lisbon.ID || b.Supports != tt.supports || b.Contradictions != tt.contradictions || b.Partials != tt.partials {
				t.Errorf("lisbon supports/contradictions/partials %d/%d/%d, want %d/%d/%d",
					b.Supports, b.Contradictions, b.Partials, tt.supports, tt.contradictions, tt.partials)
			}
			cands := e.beliefs("user", "commutes_by")
			if created := len(cands) == 1; created != tt.created || len(cands) > 1 {
				t.Fatalf("candidate beliefs %v, want created=%v", objects(cands), tt.created)
			}
			if tt.created && (cands[0].Statement != tramCandidate.Statement || cands[0].Supports != 3 || cands[0].Source != SourceLLM) {
				t.Errorf("candidate %q (%s) with %d supports, want the model's statement with the three episodes behind it",
					cands[0].Statement, cands[0].Source, cands[0].Supports)
			}
		})
	}

	t.Run("an incoherent synthesis makes no belief and leaves the pool", func(t *testing.T) {
		e, lisbon, st := clusterCase(t, &script{}, 0) // synthesis answers "not coherent"
		if st.LLMFallbacks != 0 || st.Candidates != 0 || st.Classifications != 0 {
			t.Fatalf("%d fallbacks, %d candidates, %d classifications; want none", st.LLMFallbacks, st.Candidates, st.Classifications)
		}
		if n := e.count(); n != 1 {
			t.Errorf("%d beliefs, want only lisbon", n)
		}
		if b := e.one("user", "lives_in"); b.ID != lisbon.ID || b.EvidenceCount != 1 {
			t.Errorf("lisbon has %d evidence, want 1", b.EvidenceCount)
		}
		pool, err := e.db.Pool(e.ctx, 100)
		if err != nil || len(pool) != 1 {
			t.Errorf("pool %d episodes (%v), want lisbon's only: the cluster was dealt with", len(pool), err)
		}
	})
}

// TestLLMFailuresPerPath fails each call in each way a server does — a
// malformed reply, a refusal, no answer in time — and checks the item is
// read the offline way instead: the beliefs are the offline rules'.
func TestLLMFailuresPerPath(t *testing.T) {
	failures := []struct {
		name    string
		reply   llmtest.Reply
		timeout time.Duration
	}{
		{"malformed json", llmtest.Reply{Content: `{"label": "SUPP`}, 0},
		{"refusal", llmtest.Reply{Refusal: "I can't help with that."}, 0},
		{"timeout", llmtest.Reply{Stall: time.Minute}, 200 * time.Millisecond},
	}
	fail := func(r llmtest.Reply) func(llmtest.Request) llmtest.Reply {
		return func(llmtest.Request) llmtest.Reply { return r }
	}
	for _, f := range failures {
		t.Run("extraction/"+f.name, func(t *testing.T) {
			e, _ := scriptedEnv(t, &script{extract: fail(f.reply)}, f.timeout)
			e.say("", "I live in Lisbon")
			st := e.run()
			b := e.one("user", "lives_in")
			if st.LLMFallbacks != 1 || b.Source != SourceHeuristic || b.Object != "lisbon" || b.Supports != 1 {
				t.Errorf("%d fallbacks; belief %q from %s with %d supports; want the offline reading: lisbon, heuristic, one",
					st.LLMFallbacks, b.Object, b.Source, b.Supports)
			}
		})

		t.Run("synthesis/"+f.name, func(t *testing.T) {
			// Hedged statements make no belief alone; their cluster does,
			// by medoid synthesis when the model's fails. The extraction
			// fails too (without taking the endpoint out), so the pool
			// holds the offline reading.
			malformed := func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "not json"} }
			e, _ := scriptedEnv(t, &script{extract: malformed, synthesize: fail(f.reply)}, f.timeout)
			e.say("/src/app", "I think I prefer tabs", "Probably I prefer tabs", "I think I prefer tabs over spaces")
			st := e.run()
			b := e.one("user", "prefers")
			if st.Candidates != 1 || b.Object != "tabs" || b.Source != SourceCluster || b.Supports < 2 {
				t.Errorf("%d candidates; belief %q from %s with %d supports; want medoid synthesis's: tabs, cluster, its backers",
					st.Candidates, b.Object, b.Source, b.Supports)
			}
		})

		t.Run("classification/"+f.name, func(t *testing.T) {
			e, lisbon, st := clusterCase(t, &script{synthesize: func(llmtest.Request) llmtest.Reply { return llmtest.JSON(tramCandidate) },
				classify: fail(f.reply)}, f.timeout)
			if st.LLMFallbacks != 1 || st.Classifications != 1 {
				t.Fatalf("%d fallbacks, %d classifications; want 1 and 1", st.LLMFallbacks, st.Classifications)
			}
			// The offline rules find nothing in common between commuting and
			// living somewhere: IRRELEVANT.
			if b := e.one("user", "lives_in"); b.ID != lisbon.ID || b.EvidenceCount != 1 {
				t.Errorf("lisbon has %d evidence, want 1", b.EvidenceCount)
			}
			if c := e.one("user", "commutes_by"); c.Supports != 3 {
				t.Errorf("candidate has %d supports, want 3", c.Supports)
			}
		})
	}
}
