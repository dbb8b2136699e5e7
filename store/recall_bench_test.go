package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/credence-mem/credence/internal/testkit"
)

// BenchmarkRecallRows reads recall's candidate rows by ID, as a prompt does
// (two dozen beliefs, four dozen episodes), from a copy of the database
// scripts/bench-hooks.sh seeds (CREDENCE_BENCH_HOME, default
// /tmp/credence-bench), mapped as the agent maps it. Skipped when there is
// none.
func BenchmarkRecallRows(b *testing.B) {
	work := b.TempDir()
	if err := testkit.CopyDatabase(testkit.BenchDataDir(testkit.BenchHome(b)), work); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(work, "credence.db")
	ctx := context.Background()
	db, err := Open(ctx, path, Options{MmapBytes: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ids := func(table string, n int) []string {
		rows, err := db.sql.QueryContext(ctx, `SELECT CAST(id AS BLOB) FROM `+table+` ORDER BY seq DESC LIMIT ?`, n)
		if err != nil {
			b.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id []byte
			rows.Scan(&id)
			out = append(out, string(id))
		}
		return out
	}
	beliefs, episodes := ids("beliefs", 24), ids("episodes", 44)
	b.Run("beliefs-24", func(b *testing.B) {
		for b.Loop() {
			if bs, err := db.RecallBeliefs(ctx, beliefs); err != nil || len(bs) != len(beliefs) {
				b.Fatal(len(bs), err)
			}
		}
	})
	b.Run("episodes-44", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.RecallEpisodes(ctx, episodes, "", 2000); err != nil {
				b.Fatal(err)
			}
		}
	})
}
