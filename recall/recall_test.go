package recall

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

// slowEmbedder stands in for a remote embedder that does not answer in time.
type slowEmbedder struct{}

func (slowEmbedder) ID() string { return "openai:test-model:16" }
func (slowEmbedder) Dim() int   { return 16 }
func (slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// smallDB holds a few episodes and beliefs of two projects.
func smallDB(t *testing.T) (*store.DB, map[string]string) {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	id := map[string]string{}
	err = db.Write(ctx, func(tx *store.Tx) error {
		for _, e := range []struct{ key, project, text string }{
			{"deploy-a", "/a", "We deploy the api to fly.io from the main branch"},
			{"deploy-b", "/b", "We deploy the api to heroku every friday"},
			{"prompt", "/a", "how do we deploy the api"},
		} {
			ep := &store.Episode{ProjectPath: e.project, Kind: store.EpisodePrompt, Content: e.text}
			if _, err := tx.AddEpisode(ctx, ep); err != nil {
				return err
			}
			id[e.key] = ep.ID
		}
		for _, b := range []struct {
			key  string
			spec belief.Spec
		}{
			{"fly", belief.Spec{Statement: "The api deploys to fly.io", Subject: "project", Predicate: "deploys_with", Object: "fly.io", Scope: belief.ScopeProject, ProjectPath: "/a"}},
			{"heroku", belief.Spec{Statement: "The api deploys to heroku", Subject: "project", Predicate: "deploys_with", Object: "heroku", Scope: belief.ScopeProject, ProjectPath: "/b"}},
		} {
			bid, err := tx.CreateBelief(ctx, b.spec)
			if err != nil {
				return err
			}
			for i := 0; i < 4; i++ {
				if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: bid, Label: belief.Supports, Support: 1, Reliability: 1, Source: "t"}); err != nil {
					return err
				}
			}
			id[b.key] = bid
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, id
}

func TestRecallScopesAndExcludes(t *testing.T) {
	db, id := smallDB(t)
	r := &Recaller{DB: db, Embedder: embed.NewOffline(), Opts: DefaultOptions()}
	res, err := r.Recall(context.Background(), Query{Text: "how do we deploy the api", Project: "/a"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(append(res.BeliefIDs(), episodeIDs(res)...), " ")
	for _, want := range []string{id["deploy-a"], id["fly"]} {
		if !strings.Contains(got, want) {
			t.Errorf("recall for /a lacks %s: %+v", want, res)
		}
	}
	for _, not := range []string{id["deploy-b"], id["heroku"], id["prompt"]} {
		if strings.Contains(got, not) {
			t.Errorf("recall for /a returned %s (other project, or the prompt itself): %+v", not, res)
		}
	}
}

func TestRecallFallsBackToLexical(t *testing.T) {
	db, id := smallDB(t)
	if _, err := db.EnsureSpace(context.Background(), slowEmbedder{}.ID(), 16); err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.QueryTimeout = 20 * time.Millisecond
	r := &Recaller{DB: db, Embedder: slowEmbedder{}, Opts: opts}
	res, err := r.Recall(context.Background(), Query{Text: "deploy the api to fly.io", Project: "/a"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Lexical, "deadline") {
		t.Errorf("Lexical=%q, want the embedding deadline named", res.Lexical)
	}
	if len(res.Beliefs) == 0 || res.Beliefs[0].ID != id["fly"] {
		t.Errorf("lexical fallback beliefs %+v, want the fly.io belief", res.Beliefs)
	}
}

func TestRecallAsOf(t *testing.T) {
	db, id := smallDB(t)
	ctx := context.Background()
	before := db.Now().Add(-time.Hour)
	r := &Recaller{DB: db, Embedder: embed.NewOffline(), Opts: DefaultOptions()}
	res, err := r.Recall(ctx, Query{Text: "where does the api deploy, fly.io?", Project: "/a", AsOf: before})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Empty() {
		t.Errorf("recall as of before anything existed: %+v", res)
	}
	res, err = r.Recall(ctx, Query{Text: "where does the api deploy, fly.io?", Project: "/a", AsOf: db.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Beliefs) == 0 || res.Beliefs[0].ID != id["fly"] {
		t.Errorf("recall as of now: %+v, want the fly.io belief", res.Beliefs)
	}
}

// saidIn returns an empty database and a function that stores an episode
// of project /a in it and returns its ID.
func saidIn(t *testing.T) (*store.DB, func(session, kind, text string) string) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "said.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, func(session, kind, text string) string {
		t.Helper()
		ep := &store.Episode{SessionID: session, ProjectPath: "/a", Kind: kind, Content: text}
		if _, err := db.AddEpisode(context.Background(), ep); err != nil {
			t.Fatal(err)
		}
		return ep.ID
	}
}

func TestRecallLeavesOutPastQuestions(t *testing.T) {
	ctx := context.Background()
	db, say := saidIn(t)
	add := func(kind, text string) string { return say("", kind, text) }
	asked := add(store.EpisodePrompt, "which package manager does this repo use")
	askedMark := add(store.EpisodePrompt, "what package manager is this repo on?")
	stated := add(store.EpisodePrompt, "this repo's package manager is pnpm, not npm")
	mixed := add(store.EpisodePrompt, "should we keep the package manager pnpm now that the repo moved to turbo?")
	answered := add(store.EpisodeExchange, "User: which package manager does this repo use?\n\nAssistant: The lockfile says pnpm.")
	for _, unfiltered := range []bool{false, true} {
		opts := DefaultOptions()
		opts.Unfiltered, opts.MaxEpisodes = unfiltered, 10
		r := &Recaller{DB: db, Embedder: embed.NewOffline(), Opts: opts}
		res, err := r.Recall(ctx, Query{Text: "which package manager should I use to add lodash to this repo", Project: "/a"})
		if err != nil {
			t.Fatal(err)
		}
		shown := map[string]bool{}
		for _, e := range res.Episodes {
			shown[e.ID] = e.Relevant
		}
		for _, id := range []string{asked, askedMark} {
			if relevant, ok := shown[id]; relevant || unfiltered && !ok {
				t.Errorf("unfiltered=%v: the bare question %s was given as relevant (or dropped from an unfiltered list): %+v", unfiltered, id, res.Episodes)
			}
		}
		for _, id := range []string{stated, mixed, answered} {
			if _, ok := shown[id]; !ok {
				t.Errorf("unfiltered=%v: %s, which states something, is missing: %+v", unfiltered, id, res.Episodes)
			}
		}
	}
}

func TestBareQuestion(t *testing.T) {
	for text, want := range map[string]bool{
		"which package manager does this repo use":                         true,
		"Where do I live these days?":                                      true,
		"can you fix the flaky test?":                                      true,
		"we use pnpm":                                                      false,
		"what's up. we moved the api to fly.io":                            false,
		"should we keep Jest now that we're on Vitest?":                    false,
		"is the staging db on 5433, or did that change?":                   false,
		"Which version do we need?\nWe pin node 20 in .nvmrc":              false,
		"run the tests":                                                    false,
		"How do I add a column to the orders table in the billing schema?": true,
	} {
		if got := bareQuestion(text); got != want {
			t.Errorf("bareQuestion(%q)=%v, want %v", text, got, want)
		}
	}
}

func TestRecallShowsWhatWasSaidOnce(t *testing.T) {
	ctx := context.Background()
	db, add := saidIn(t)
	said := "We deploy the storefront api to fly.io from main."
	for _, sess := range []string{"s1", "s2", "s3"} {
		add(sess, store.EpisodePrompt, said)
	}
	add("s3", store.EpisodeExchange, "User: "+said+"\n\nAssistant: Noted, fly.io it is.")
	other := add("s4", store.EpisodePrompt, "The storefront api deploy needs the FLY_API_TOKEN secret.")
	opts := DefaultOptions()
	opts.MaxEpisodes = 3
	r := &Recaller{DB: db, Embedder: embed.NewOffline(), Opts: opts}
	res, err := r.Recall(ctx, Query{Text: "how do we deploy the storefront api", Project: "/a"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var ids []string
	for _, e := range res.Episodes {
		ids = append(ids, e.ID)
		if strings.Contains(e.Text, said) {
			n++
		}
	}
	if n != 1 || !slices.Contains(ids, other) {
		t.Errorf("episodes %v: want the deploy statement once and the other memory %s", res.Episodes, other)
	}
	opts.Unfiltered = true
	r.Opts = opts
	if res, _ := r.Recall(ctx, Query{Text: "how do we deploy the storefront api", Project: "/a"}); len(res.Episodes) != 3 {
		t.Errorf("unfiltered: %d episodes, want the ranking as it is (3)", len(res.Episodes))
	}
}
