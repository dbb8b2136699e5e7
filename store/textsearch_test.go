package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// joinedTextSearch is TextSearch as one query, the form it had before it
// ranked in the index first: every matching row joined to its table,
// filtered, then ranked.
func joinedTextSearch(ctx context.Context, db *DB, kind, text, project string, k int) ([]TextHit, error) {
	fts, table, live := "episodes_fts", "episodes", "forgotten_at IS NULL"
	if kind == "beliefs" {
		fts, table, live = "beliefs_fts", "beliefs", "status = 'active'"
	}
	return db.blobHits(ctx, "joined", `SELECT nullif(CAST(t.id AS BLOB), x''), -bm25(`+fts+`) FROM `+fts+` JOIN `+table+` t ON t.seq = `+fts+`.rowid
		WHERE `+fts+` MATCH ? AND t.`+live+` AND (? = '' OR t.scope = 'global' OR t.project_path = ?)
		ORDER BY bm25(`+fts+`) LIMIT ?`, MatchQuery(text, 32), project, project, k)
}

// TestTextSearchSameAsJoined checks that ranking in the index first
// returns what the joined query returns, ties and filters included: many
// rows of equal text (equal scores), rows forgotten, projects common and
// rare, so both the first try and its fallback run.
func TestTextSearchSameAsJoined(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	base := time.UnixMilli(1_700_000_000_000)
	texts := []string{"always run the tests before a commit", "the deploy runs after the tests",
		"never commit to main", "before the release, bump the version", "prefer small commits"}
	n := 0
	for i := 0; i < 400; i++ {
		project := fmt.Sprintf("/p%d", i%12)
		if i%37 == 0 {
			project = "/rare" // few rows: the first try finds too few
		}
		e := &Episode{Kind: EpisodePrompt, Content: fmt.Sprintf("%s (%d)", texts[i%len(texts)], i%3), ProjectPath: project, CreatedAt: base.Add(time.Duration(i) * time.Second)}
		if ok, err := db.AddEpisode(ctx, e); err != nil || !ok {
			t.Fatalf("AddEpisode: %v, %v", ok, err)
		}
		if i%5 == 0 {
			if _, err := db.sql.ExecContext(ctx, `UPDATE episodes SET forgotten_at = 1 WHERE id = ?`, e.ID); err != nil {
				t.Fatal(err)
			}
		}
		n++
	}
	compareTextSearch(t, ctx, db, "episodes", []string{"tests before commit", "always never prefer avoid before after", "release", "nothingmatches"},
		[]string{"", "/p0", "/p7", "/rare", "/none"}, []int{1, 5, 12, 32, 100})
}

// TestTextSearchSameAsJoinedBench runs the comparison on the database
// scripts/bench-hooks.sh seeds (CREDENCE_BENCH_HOME), with the queries it
// seeded, for both kinds; skipped without one.
func TestTextSearchSameAsJoinedBench(t *testing.T) {
	home := os.Getenv("CREDENCE_BENCH_HOME")
	if home == "" {
		t.Skip("CREDENCE_BENCH_HOME not set")
	}
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(home, ".local", "share", "credence", "credence.db"), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	words := []string{"always never prefer avoid whenever before after", "always never prefer avoid whenever before after test tests testing",
		"npm pnpm yarn bun", "which package manager does this repo use", "migration pipeline deploy", "user", "timezone meeting"}
	projects := []string{"", "/home/dev/src/storefront", "/home/dev/src/infra", "/nowhere"}
	for _, kind := range []string{"beliefs", "episodes"} {
		compareTextSearch(t, ctx, db, kind, words, projects, []int{8, 10, 12, 32, 50})
	}
}

func compareTextSearch(t *testing.T, ctx context.Context, db *DB, kind string, words, projects []string, ks []int) {
	t.Helper()
	for _, w := range words {
		for _, p := range projects {
			for _, k := range ks {
				got, err := db.TextSearch(ctx, kind, w, p, k)
				if err != nil {
					t.Fatal(err)
				}
				want, err := joinedTextSearch(ctx, db, kind, w, p, k)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("TextSearch(%s, %q, %q, %d) =\n%v\nthe joined query gives\n%v", kind, w, p, k, got, want)
				}
			}
		}
	}
}
