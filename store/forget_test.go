package store

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// assertSound fails the test when SQLite's integrity_check or FTS5's
// integrity-check of either full-text index reports a problem.
func assertSound(t *testing.T, db *DB, after string) {
	t.Helper()
	problems, err := db.CheckIntegrity(context.Background(), true)
	if err != nil {
		t.Fatalf("after %s: CheckIntegrity: %v", after, err)
	}
	for _, p := range problems {
		t.Errorf("after %s: %s", after, p)
	}
}

// learned stores a statement the way `remember` does: a note episode and a
// belief with MANUAL evidence from it. Each write is its own transaction,
// so each leaves its own FTS5 segment, as separate CLI runs do.
func learned(t *testing.T, db *DB, text, object string) (beliefID, episodeID string) {
	t.Helper()
	r, err := db.Remember(context.Background(), RememberInput{Text: text, Scope: belief.ScopeGlobal, Source: "cli",
		Statements: []Statement{{Subject: "project", Predicate: "uses", Object: object, Statement: text, Kind: belief.KindFact}}})
	if err != nil {
		t.Fatal(err)
	}
	return r.Beliefs[0].ID, r.EpisodeID
}

// TestForgetKeepsIndexesSound forgets in each way the store offers and
// checks the database and both full-text indexes afterwards. The FTS5
// 'secure-delete' option used to leave an external-content index that
// integrity_check calls malformed after the first forget.
func TestForgetKeepsIndexesSound(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		episode bool // forget the note instead of the belief
		scope   ForgetScope
	}{
		{"belief", false, ForgetSources},
		{"belief alone", false, KeepEpisodes},
		{"belief with its evidence", false, ForgetEvidence},
		{"episode", true, ForgetSources},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			beliefID, episodeID := learned(t, db, "we deploy with qqbelzz", "qqbelzz")
			assertSound(t, db, "remember")
			target := beliefID
			if tc.episode {
				target = episodeID
			}
			if _, err := db.Forget(ctx, []string{target}, tc.scope); err != nil {
				t.Fatal(err)
			}
			assertSound(t, db, "forget")
			// The index must stay usable after the forget, too.
			learned(t, db, "we deploy with qqbelzz again", "qqbelzz")
			assertSound(t, db, "remember after forget")
		})
	}
}

// TestTombstoneFromSyncKeepsIndexesSound forgets a belief on one machine
// and applies the rows, with the tombstones of the belief and of the
// episode it took along, on another, as a sync pull does.
func TestTombstoneFromSyncKeepsIndexesSound(t *testing.T) {
	ctx := context.Background()
	src, dst := openTest(t), openTest(t)
	beliefID, episodeID := learned(t, src, "we deploy with qqbelzz", "qqbelzz")
	apply := func(after SyncCursor) SyncCursor {
		t.Helper()
		b, err := src.SyncRows(ctx, after, SyncSelect{Origins: []string{src.MachineID()}}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var applied SyncApplied
		if err := dst.Write(ctx, func(tx *Tx) error { applied, err = tx.ApplySync(ctx, b); return err }); err != nil {
			t.Fatal(err)
		}
		if applied.Purged > 0 {
			if err := dst.Purge(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return b.Advance(after)
	}
	cursor := apply(SyncCursor{})
	assertSound(t, dst, "pulling the belief")
	if _, err := src.Forget(ctx, []string{beliefID}, ForgetSources); err != nil {
		t.Fatal(err)
	}
	apply(cursor)
	if b, err := dst.Belief(ctx, beliefID); err != nil || b.Status != belief.Forgotten {
		t.Fatalf("pulled belief: status %s, %v; want forgotten", b.Status, err)
	}
	if e, err := dst.Episode(ctx, episodeID); err != nil || !e.Forgotten || e.Content != "" {
		t.Fatalf("pulled episode: %+v, %v; want it forgotten and blank, by its tombstone", e, err)
	}
	assertSound(t, dst, "applying the tombstones")
}

// TestForgetTakesEpisodes checks which episodes forgetting a belief takes
// with it, and which it keeps, for each scope.
func TestForgetTakesEpisodes(t *testing.T) {
	ctx := context.Background()
	type world struct {
		db      *DB
		belief  string
		episode map[string]string // name → ID
	}
	// build stores episodes by name and a belief "Project deploys with
	// qqbelzz" (project /p) learned from the episodes in sources; shared
	// sources are evidence for a second belief too.
	build := func(t *testing.T, episodes map[string]Episode, sources, shared []string) world {
		w := world{db: openTest(t), episode: map[string]string{}}
		err := w.db.Write(ctx, func(tx *Tx) error {
			for _, name := range slices.Sorted(maps.Keys(episodes)) {
				e := episodes[name]
				if e.ProjectPath == "" {
					e.ProjectPath = "/p"
				}
				if _, err := tx.AddEpisode(ctx, &e); err != nil {
					return err
				}
				w.episode[name] = e.ID
			}
			var err error
			w.belief, err = tx.CreateBelief(ctx, belief.Spec{Statement: "Project deploys with qqbelzz", Subject: "project",
				Predicate: "deploys_with", Object: "qqbelzz", Scope: belief.ScopeProject, ProjectPath: "/p", Kind: belief.KindFact})
			if err != nil {
				return err
			}
			other, err := tx.CreateBelief(ctx, belief.Spec{Statement: "Project tests with gotestsum", Subject: "project",
				Predicate: "tests_with", Object: "gotestsum", Scope: belief.ScopeProject, ProjectPath: "/p", Kind: belief.KindFact})
			if err != nil {
				return err
			}
			for _, name := range sources {
				if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: w.belief, EpisodeID: w.episode[name], Label: belief.Supports}); err != nil {
					return err
				}
			}
			for _, name := range shared {
				if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: other, EpisodeID: w.episode[name], Label: belief.Supports}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	prompt := Episode{SessionID: "s1", Kind: EpisodePrompt, Content: "btw we deploy with qqbelzz now"}
	exchange := Episode{SessionID: "s1", Kind: EpisodeExchange, Content: "User: btw we deploy with qqbelzz now\n\nAssistant: Noted."}
	tests := []struct {
		name     string
		episodes map[string]Episode
		sources  []string
		shared   []string
		scope    ForgetScope
		want     []string // episodes forgotten
		kept     []string
	}{
		{"a sole source and its copy in the exchange", map[string]Episode{"prompt": prompt, "exchange": exchange,
			"unrelated": {SessionID: "s1", Kind: EpisodePrompt, Content: "run the linter please"}},
			[]string{"prompt"}, nil, ForgetSources, []string{"exchange", "prompt"}, nil},
		{"another session saying it again", map[string]Episode{"prompt": prompt,
			"again": {SessionID: "s2", Kind: EpisodePrompt, Content: "Reminder: we deploy with qqbelzz. Tests run nightly."}},
			[]string{"prompt"}, nil, ForgetSources, []string{"again", "prompt"}, nil},
		{"mentions without stating it are kept", map[string]Episode{"prompt": prompt,
			"mention": {SessionID: "s2", Kind: EpisodePrompt, Content: "what is qqbelzz anyway?"},
			"other":   {SessionID: "s3", Kind: EpisodePrompt, Content: "we tried qqbelzz once. We deploy by hand."}},
			[]string{"prompt"}, nil, ForgetSources, []string{"prompt"}, nil},
		{"another project's episode is kept", map[string]Episode{"prompt": prompt,
			"elsewhere": {SessionID: "s2", Kind: EpisodePrompt, ProjectPath: "/q", Content: "we deploy with qqbelzz"}},
			[]string{"prompt"}, nil, ForgetSources, []string{"prompt"}, nil},
		{"a shared source that states it goes", map[string]Episode{
			"both": {SessionID: "s1", Kind: EpisodeNote, Content: "Our stack: we ship it with qqbelzz and test with gotestsum"}},
			[]string{"both"}, []string{"both"}, ForgetSources, []string{"both"}, nil},
		{"a shared source that does not is kept", map[string]Episode{
			"both": {SessionID: "s1", Kind: EpisodeNote, Content: "Deploys and tests: see the Makefile, gotestsum"}},
			[]string{"both"}, []string{"both"}, ForgetSources, nil, []string{"both"}},
		{"with evidence takes shared sources too", map[string]Episode{
			"both": {SessionID: "s1", Kind: EpisodeNote, Content: "Deploys and tests: see the Makefile, gotestsum"}},
			[]string{"both"}, []string{"both"}, ForgetEvidence, []string{"both"}, nil},
		{"keep episodes takes none", map[string]Episode{"prompt": prompt, "exchange": exchange},
			[]string{"prompt"}, nil, KeepEpisodes, nil, []string{"prompt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build(t, tt.episodes, tt.sources, tt.shared)
			got, err := w.db.Forget(ctx, []string{w.belief}, tt.scope)
			if err != nil {
				t.Fatal(err)
			}
			names := func(ids []string) []string {
				var out []string
				for name, id := range w.episode {
					if slices.Contains(ids, id) {
						out = append(out, name)
					}
				}
				slices.Sort(out)
				return out
			}
			if !slices.Equal(got.Beliefs, []string{w.belief}) {
				t.Errorf("Forget().Beliefs=%v, want [%s]", got.Beliefs, w.belief)
			}
			if g := names(got.Episodes); !slices.Equal(g, tt.want) || len(got.Episodes) != len(tt.want) {
				t.Errorf("Forget().Episodes=%v, want %v", g, tt.want)
			}
			if g := names(got.Kept); !slices.Equal(g, tt.kept) {
				t.Errorf("Forget().Kept=%v, want %v", g, tt.kept)
			}
			for name, id := range w.episode {
				e, err := w.db.Episode(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if want := slices.Contains(tt.want, name); e.Forgotten != want || (want && e.Content != "") {
					t.Errorf("episode %q: forgotten=%v content=%q; want forgotten=%v", name, e.Forgotten, e.Content, want)
				}
			}
			var stones int
			if err := w.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM tombstones WHERE kind = 'episode'`).Scan(&stones); err != nil || stones != len(tt.want) {
				t.Errorf("episode tombstones=%d, %v; want %d, one per forgotten episode", stones, err, len(tt.want))
			}
			assertSound(t, w.db, "forget")
		})
	}
}

func TestStatesBelief(t *testing.T) {
	pnpm := belief.State{Spec: belief.Spec{Statement: "User prefers pnpm", Subject: "user", Predicate: "prefers", Object: "pnpm"}}
	lint := belief.State{Spec: belief.Spec{Statement: "Assistant should run make lint before committing", Subject: "assistant",
		Predicate: "should", Object: "run make lint before committing"}}
	berlin := belief.State{Spec: belief.Spec{Statement: "Alice lives in Berlin", Subject: "alice", Predicate: "lives_in", Object: "berlin"}}
	tests := []struct {
		text          string
		s             belief.State
		loose, strict bool
	}{
		{"I prefer pnpm over npm.", pnpm, true, true},
		{"user prefers pnpm", pnpm, true, true}, // the statement itself
		{"I ran pnpm install and it failed", pnpm, true, false},
		{"pnpm install failed", pnpm, false, false},
		{"I prefer tabs. The repo uses pnpm.", pnpm, false, false}, // not in one sentence
		{"Always run make lint before committing!", lint, true, true},
		{"make lint failed", lint, false, false},
		{"Alice lived in Berlin for years", berlin, true, true},
		{"Alice visited Berlin", berlin, true, false},
		{"Bob lives in Berlin", berlin, false, false},
		{"my package manager is PNPMs", pnpm, true, false}, // plural and case aside
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := statesBelief(tt.text, tt.s, false); got != tt.loose {
				t.Errorf("statesBelief(loose)=%v, want %v", got, tt.loose)
			}
			if got := statesBelief(tt.text, tt.s, true); got != tt.strict {
				t.Errorf("statesBelief(strict)=%v, want %v", got, tt.strict)
			}
		})
	}
}
