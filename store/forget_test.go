package store

import (
	"context"
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
		name   string
		forget func(t *testing.T, db *DB, beliefID, episodeID string)
	}{
		{"belief", func(t *testing.T, db *DB, beliefID, _ string) {
			if err := db.ForgetBelief(ctx, beliefID); err != nil {
				t.Fatal(err)
			}
		}},
		{"episode", func(t *testing.T, db *DB, _, episodeID string) {
			if err := db.ForgetEpisode(ctx, episodeID); err != nil {
				t.Fatal(err)
			}
		}},
		{"belief and its evidence", func(t *testing.T, db *DB, beliefID, _ string) {
			episodes, err := db.EvidenceEpisodes(ctx, beliefID)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.ForgetBelief(ctx, beliefID); err != nil {
				t.Fatal(err)
			}
			for _, id := range episodes {
				if err := db.ForgetEpisode(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			beliefID, episodeID := learned(t, db, "we deploy with qqbelzz", "qqbelzz")
			assertSound(t, db, "remember")
			tc.forget(t, db, beliefID, episodeID)
			assertSound(t, db, "forget")
			// The index must stay usable after the forget, too.
			learned(t, db, "we deploy with qqbelzz again", "qqbelzz")
			assertSound(t, db, "remember after forget")
		})
	}
}

// TestTombstoneFromSyncKeepsIndexesSound forgets a belief and an episode on
// one machine and applies the rows (with their tombstones) on another, as a
// sync pull does.
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
	if err := src.ForgetBelief(ctx, beliefID); err != nil {
		t.Fatal(err)
	}
	if err := src.ForgetEpisode(ctx, episodeID); err != nil {
		t.Fatal(err)
	}
	apply(cursor)
	if b, err := dst.Belief(ctx, beliefID); err != nil || b.Status != belief.Forgotten {
		t.Fatalf("pulled belief: status %s, %v; want forgotten", b.Status, err)
	}
	if e, err := dst.Episode(ctx, episodeID); err != nil || !e.Forgotten {
		t.Fatalf("pulled episode: forgotten=%v, %v; want forgotten", e.Forgotten, err)
	}
	assertSound(t, dst, "applying the tombstones")
}
