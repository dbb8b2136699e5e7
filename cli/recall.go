package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "recall",
		Usage:   "[--project P] [--as-of T] [-k N] [--json] <query>",
		Summary: "show what credence recalls for a query: the beliefs and episodes a prompt would be given",
		Run:     runRecall,
	})
}

// recallQueryTimeout bounds embedding the query from the command line,
// where a person can wait for a remote embedder longer than a prompt can.
const recallQueryTimeout = 10 * time.Second

func runRecall(env *Env, args []string) int {
	fs := env.Flags("recall")
	project := fs.String("project", ".", `project root to recall for: "." for the current one, "" for all projects`)
	asOf := fs.String("as-of", "", "recall beliefs as they were then (RFC 3339, or YYYY-MM-DD[THH:MM])")
	asJSON := fs.Bool("json", false, "print the results as JSON, with each belief's evidence episodes")
	k := fs.Int("k", 0, "return the best N beliefs and N episodes as ranked, relevant or not (each says whether a prompt would be given it); 0 shows what a prompt would be given")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	query := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if query == "" {
		fs.Usage()
		return 2
	}
	if *k < 0 {
		return env.Fail("recall", fmt.Errorf("-k %d: want 0 or more", *k))
	}
	var at time.Time
	if *asOf != "" {
		t, err := parseAsOf(*asOf)
		if err != nil {
			return env.Fail("recall", err)
		}
		at = t
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("recall", err)
	}
	defer db.Close()
	ctx := env.Ctx
	emb, err := app.NewEmbedder(cfg)
	if err != nil {
		return env.Fail("recall", err)
	}
	// Bring the vector sketches up to date: the hooks do it a little at a
	// time, a person asking can wait for all of it.
	if spaces, err := db.Spaces(ctx); err == nil {
		for _, sp := range spaces {
			if sp.EmbedderID == emb.ID() {
				if _, err := recall.SyncSketches(ctx, db, sp, 0); err != nil && !errors.Is(err, store.ErrLocked) {
					return env.Fail("recall", err)
				}
			}
		}
	}
	opts := recall.FromConfig(cfg, emb.ID())
	opts.QueryTimeout = recallQueryTimeout
	if *k > 0 {
		opts.MaxBeliefs, opts.MaxEpisodes, opts.Unfiltered = *k, *k, true
	}
	r := &recall.Recaller{DB: db, Embedder: emb, Opts: opts}
	res, err := r.Recall(ctx, recall.Query{Text: query, Project: projectFlag(env, *project), AsOf: at})
	if err != nil {
		return env.Fail("recall", err)
	}
	if at.IsZero() && len(res.Beliefs) > 0 {
		// Shown is surfaced: the beliefs' retrieval strength grows as it
		// does when a prompt gets them.
		if err := db.Touch(ctx, db.Now(), res.BeliefIDs()...); err != nil && !errors.Is(err, store.ErrLocked) {
			return env.Fail("recall", err)
		}
	}
	if *asJSON {
		for i, b := range res.Beliefs {
			ev, err := db.Evidence(ctx, b.ID)
			if err != nil {
				return env.Fail("recall", err)
			}
			res.Beliefs[i].Episodes = []string{}
			for _, e := range ev {
				if e.EpisodeID != "" {
					res.Beliefs[i].Episodes = append(res.Beliefs[i].Episodes, e.EpisodeID)
				}
			}
		}
		return env.JSON(res)
	}
	if res.Lexical != "" {
		fmt.Fprintf(env.Stderr, "credence recall: searched by words only (%s)\n", res.Lexical)
	}
	if out := recall.Render(res, opts.MaxChars, opts.MaxChars); out != "" {
		env.Printf("%s\n", out)
		return 0
	}
	env.Printf("Nothing relevant to %q.\n", query)
	return 0
}

// parseAsOf reads an --as-of time: RFC 3339, or a local date with an
// optional time; a bare date means the end of that day.
func parseAsOf(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t.Add(24*time.Hour - time.Millisecond), nil
	}
	return time.Time{}, fmt.Errorf("--as-of %q: want RFC 3339 (2025-06-01T12:00:00Z) or YYYY-MM-DD[THH:MM]", s)
}
