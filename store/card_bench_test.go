package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// cardBenchDB returns a database with n prompt episodes and one belief with
// evidence from the first 50 of them.
func cardBenchDB(b *testing.B, n int) (*DB, string, []string) {
	b.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"), Options{Params: belief.DefaultParams()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	var ids []string
	var beliefID string
	err = db.Write(ctx, func(tx *Tx) error {
		for i := range n {
			e := Episode{SessionID: fmt.Sprintf("s%d", i/20), Kind: EpisodePrompt,
				Content: fmt.Sprintf("prompt %d: we use pnpm as the package manager and deploy service %d with render", i, i)}
			if _, err := tx.AddEpisode(ctx, &e); err != nil {
				return err
			}
			ids = append(ids, e.ID)
		}
		if beliefID, err = tx.CreateBelief(ctx, belief.Spec{Statement: "Project uses pnpm", Subject: "project",
			Predicate: "uses_package_manager", Object: "pnpm", Scope: belief.ScopeGlobal}); err != nil {
			return err
		}
		for _, id := range ids[:50] {
			if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: beliefID, EpisodeID: id, Label: belief.Supports}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return db, beliefID, ids
}

// BenchmarkCardAndTimeline is `credence why` minus printing: the card of a
// belief with 50 pieces of evidence and its 40-point timeline.
func BenchmarkCardAndTimeline(b *testing.B) {
	db, id, _ := cardBenchDB(b, 1000)
	ctx := context.Background()
	for b.Loop() {
		if _, err := db.Card(ctx, id); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Timeline(ctx, id, 40); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkForgetEpisode is `credence forget <episode>` in a database of
// 10,000 episodes: tombstone, purge, derived rows, FTS merge, checkpoint.
func BenchmarkForgetEpisode(b *testing.B) {
	db, _, ids := cardBenchDB(b, 10000)
	ctx := context.Background()
	i := 100
	for b.Loop() {
		if err := db.ForgetEpisode(ctx, ids[i]); err != nil {
			b.Fatal(err)
		}
		if _, err := db.PurgeDerived(ctx); err != nil {
			b.Fatal(err)
		}
		if err := db.Purge(ctx); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
