package consolidate

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// raceParaphrases are one instruction in five wordings the offline
// extractor reads today, each to a different object, so only dedupe can
// join them; every one is within the Dedupe threshold of the first under
// both built-in embedders.
var raceParaphrases = []string{
	"Always run go test with -race.",
	"Please always use -race when you run go test.",
	"Use -race with go test, always.",
	"Always use go test -race.",
	"Always run go test with the race detector.",
}

// TestParaphrasesConverge says one claim in several wordings, one session
// each, and checks how many beliefs it makes: paraphrases of an instruction
// are one belief with every episode as a source; rival values of one slot,
// other objects of a many-valued predicate and the opposite polarity stay
// apart however alike the sentences are.
func TestParaphrasesConverge(t *testing.T) {
	tests := []struct {
		name      string
		texts     []string
		subject   string
		predicate string
		want      []int // supports per belief of (subject, predicate), most first
		perCycle  bool  // a cycle after each session, rather than one for all
	}{
		{"five paraphrases, one cycle", raceParaphrases, "assistant", "should", []int{5}, false},
		{"five paraphrases, a cycle each", raceParaphrases, "assistant", "should", []int{5}, true},
		{"two package managers", []string{"Always use pnpm in this repo.", "Always use yarn in this repo."}, "assistant", "should", []int{1, 1}, true},
		{"two languages liked", []string{"I like Rust", "I like Go"}, "user", "likes", []int{1, 1}, true},
		{"two cities (exclusive)", []string{"I live in Berlin", "I live in Potsdam"}, "user", "lives_in", []int{1, 1}, true},
		{"a liked thing twice, another once", []string{"I like Rust", "I like Go", "I like Rust"}, "user", "likes", []int{2, 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for i, text := range tt.texts {
				ep := store.Episode{Kind: store.EpisodePrompt, Content: text, ProjectPath: "/src/app", SessionID: fmt.Sprintf("s%d", i+1)}
				if _, err := e.db.AddEpisode(e.ctx, &ep); err != nil {
					t.Fatal(err)
				}
				if tt.perCycle {
					e.run()
				}
			}
			if !tt.perCycle {
				e.run()
			}
			bs := e.beliefs(tt.subject, tt.predicate)
			var got []int
			for _, b := range bs {
				got = append(got, b.Supports)
			}
			if len(got) == 2 && got[1] > got[0] {
				got[0], got[1] = got[1], got[0]
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("supports per belief=%v (%v), want %v", got, objects(bs), tt.want)
			}
		})
	}
}

// remoteOffline is the offline embedder under another ID, so the
// consolidator treats it as remote: it never calls it inside a
// transaction, and uses the thresholds it is given.
type remoteOffline struct {
	embed.Embedder
	calls int
}

func (r *remoteOffline) ID() string { return "test-remote:384" }

func (r *remoteOffline) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.calls++
	return r.Embedder.Embed(ctx, texts)
}

// TestDedupeAtConfiguredThreshold checks that dedupe acts at the Dedupe
// threshold it is given (consolidation.dedupe_threshold, else the
// embedder's calibration) — at 0.99 two paraphrases stay two beliefs, at
// the calibrated 0.78 they are one — on an in-process embedder and on a
// remote one, whose vectors are computed before the transaction.
func TestDedupeAtConfiguredThreshold(t *testing.T) {
	for _, tt := range []struct {
		remote bool
		dedupe float64 // 0: the calibrated value
		want   int
	}{{false, 0, 1}, {false, 0.99, 2}, {true, 0, 1}, {true, 0.99, 2}} {
		t.Run(fmt.Sprintf("remote=%v,dedupe=%v", tt.remote, tt.dedupe), func(t *testing.T) {
			th := embed.ThresholdsFor(embed.NewOffline().ID())
			if tt.dedupe > 0 {
				th.Dedupe = tt.dedupe
			}
			emb := &remoteOffline{Embedder: embed.NewOffline()}
			e := newEnv(t, func(c *envConfig) {
				c.opts.Thresholds = th
				if tt.remote {
					c.opts.Embedder = emb
				}
			})
			e.say("/src/app", raceParaphrases[0])
			e.run()
			e.say("/src/app", raceParaphrases[1])
			st := e.run()
			if tt.remote && (st.EmbedderFallback || emb.calls == 0) {
				t.Fatalf("cycle on the fallback (%v) or without calling the embedder (%d calls)", st.EmbedderFallback, emb.calls)
			}
			if n := len(e.beliefs("assistant", "should")); n != tt.want {
				t.Errorf("Dedupe %v: %d beliefs, want %d", th.Dedupe, n, tt.want)
			}
		})
	}
}

// TestMergeGateUsesEmbedderThreshold checks the merge gate's similarity is
// the embedder's Merge (0.65 offline), not the seed's 0.92 from the belief
// constants, and that two beliefs of one many-valued slot merge only when
// they restate each other (at or above Dedupe).
func TestMergeGateUsesEmbedderThreshold(t *testing.T) {
	S := belief.Supports
	guideline := func(statement, object string) belief.Spec {
		return belief.Spec{Statement: statement, Subject: "assistant", Predicate: "should", Object: object,
			Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: "/p"}
	}
	tests := []struct {
		name   string
		a, b   belief.Spec
		merged bool
	}{
		{"between the offline and the seed threshold",
			belief.Spec{Statement: "User likes Rust", Scope: belief.ScopeGlobal},
			belief.Spec{Statement: "User is a fan of the Rust language", Scope: belief.ScopeGlobal}, true},
		{"paraphrased guidelines",
			guideline("Assistant should run go test with the -race flag", "run go test with the -race flag"),
			guideline("Assistant should use -race when you run go test", "use -race when you run go test"), true},
		{"two package managers",
			guideline("Assistant should use pnpm for installs", "use pnpm for installs"),
			guideline("Assistant should use yarn for installs", "use yarn for installs"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t) // store params carry the seed's 0.92
			idA := e.makeBelief(tt.a, repeat(S, 4)...)
			idB := e.makeBelief(tt.b, repeat(S, 3)...)
			e.dbTime.Advance(8 * 24 * time.Hour)
			st := e.gates(idA, idB)
			if got := e.status(idB) == belief.Merged; got != tt.merged || st.Merged != map[bool]int{true: 1}[tt.merged] {
				t.Errorf("b %s, %d merged; want merged=%v", e.status(idB), st.Merged, tt.merged)
			}
		})
	}
}
