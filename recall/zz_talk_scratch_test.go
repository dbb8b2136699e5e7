package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/store"
)

func TestTalkScratch(t *testing.T) {
	cases := [][2]string{
		{"Never touch third_party/", "the build fails with an undefined symbol coming from the bundled zlib copy, can you fix it?"},
		{"Always keep your explanations short", "how do I debounce a function in JavaScript?"},
		{"Whenever the API changes, always regenerate the openapi spec with make openapi", "add an optional limit query param to GET /orders"},
		{"Never add the apologies and the 'great question!' stuff", "why does my useEffect run twice in dev?"},
		{"Always answer me in German", "what's the difference between a process and a thread?"},
		{"Never use emojis in your answers", "explain what a mutex is like I'm a junior dev"},
		{"Always run the linter before you commit", "what's the difference between TCP and UDP?"},
		{"Never touch the generated protobuf files", "recommend a good book on distributed systems"},
		{"Prefer early returns over nested ifs", "refactor validateOrder, it's a mess"},
	}
	ctx := context.Background()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var specs []belief.Spec
	for i, c := range cases {
		specs = append(specs, belief.Spec{Statement: c[0], Subject: "assistant", Predicate: "should",
			Object: strings.ToLower(c[0]), Kind: belief.KindGuideline, Scope: belief.ScopeProject, ProjectPath: fmt.Sprintf("/c%d", i)})
	}
	supportedBeliefs(t, db, specs)
	static, _ := embed.NewStatic()
	r := &Recaller{DB: db, Embedder: static, Opts: DefaultOptions()}
	for i, c := range cases {
		res, err := r.Recall(ctx, Query{Text: c[1], Project: fmt.Sprintf("/c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%q task=%v req=%v topics=%v -> %d beliefs\n", c[1], codeTask(c[1]), request(c[1]), topicNames(promptTopics(c[1])), len(res.Beliefs))
	}
}
