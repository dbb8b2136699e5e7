package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

// TestUpgradeFromFirstMigration builds a database at schema version 1 only,
// writes episodes, a belief, its evidence and events the way version 1
// stored them, then applies every later migration: nothing is lost, the
// later indexes cover the old rows (FTS finds them), and a rebuild folds the
// old history into the same belief.
func TestUpgradeFromFirstMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	fixed := time.UnixMilli(1_700_000_000_000)
	db, err := openAt(ctx, path, 1, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := db.SchemaVersion(ctx); v != 1 {
		t.Fatalf("schema version %d, want 1", v)
	}
	e := &Episode{Kind: EpisodePrompt, Content: "we deploy the marketing site with netlify", ProjectPath: "/p"}
	if _, err := db.AddEpisode(ctx, e); err != nil {
		t.Fatal(err)
	}
	// Version 1 has no entities table, so write the belief's history
	// without CreateBelief's entity rows, as version 1 did.
	id := "bl_01HF7YAT00Z9T7G60VX38TKCK4"
	err = db.Write(ctx, func(tx *Tx) error {
		spec := belief.Spec{Statement: "Project deploys with Netlify", Subject: "project", Predicate: "deploys_with",
			Object: "netlify", ProjectPath: "/p", Scope: belief.ScopeProject, Kind: belief.KindFact}
		if _, err := tx.appendEvent(ctx, belief.Record{BeliefID: id, Kind: belief.Create, Spec: &spec}, ""); err != nil {
			return err
		}
		for i := 0; i < 3; i++ {
			if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, EpisodeID: e.ID, Label: belief.Supports}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before, err := db.Belief(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path, Options{Now: func() time.Time { return fixed }})
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	defer db.Close()
	ms, _ := loadMigrations()
	if v, _ := db.SchemaVersion(ctx); v != ms[len(ms)-1].version {
		t.Errorf("after upgrade: schema version %d, want %d", v, ms[len(ms)-1].version)
	}
	got, err := db.Episode(ctx, e.ID)
	if err != nil || got.Content != e.Content {
		t.Fatalf("episode after upgrade: %q, %v", got.Content, err)
	}
	if hits, err := db.SearchEpisodes(ctx, "netlify", "/p", 5); err != nil || len(hits) != 1 {
		t.Errorf("FTS over an episode written before the index existed: %v, %v", hits, err)
	}
	if hits, err := db.SearchBeliefs(ctx, "netlify", "/p", 5); err != nil || len(hits) != 1 {
		t.Errorf("FTS over a belief written before the index existed: %v, %v", hits, err)
	}
	after, err := db.Belief(ctx, id)
	if err != nil || after.State != before.State {
		t.Fatalf("belief after upgrade:\n got %+v\nwant %+v (%v)", after.State, before.State, err)
	}
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if rebuilt, _ := db.Belief(ctx, id); rebuilt.State != before.State {
		t.Errorf("rebuild after upgrade:\n got %+v\nwant %+v", rebuilt.State, before.State)
	}
	if evs, _ := db.Evidence(ctx, id); len(evs) != 3 {
		t.Errorf("evidence after upgrade: %d rows, want 3", len(evs))
	}
}

// openAt opens a database migrated only up to version max.
func openAt(ctx context.Context, path string, max int, now time.Time) (*DB, error) {
	conn, err := newConnector(fileURL(path), 5*time.Second, 0, 0)
	if err != nil {
		return nil, err
	}
	db := &DB{sql: sqlOpen(conn), path: path, params: belief.DefaultParams(), now: func() time.Time { return now },
		busy: 5 * time.Second, gate: gateFor(path)}
	if err := db.migrateTo(ctx, max); err != nil {
		return nil, err
	}
	id, err := db.ensureMachineID(ctx, false)
	if err != nil {
		return nil, err
	}
	db.machineID = id
	return db, nil
}

// TestMigrationDropsVectorIndexes: migration 0009 drops the DiskANN
// indexes a database made before it has on its vector tables.
func TestMigrationDropsVectorIndexes(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "v.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sp, err := db.EnsureSpace(ctx, "old-embedder-8", 8)
	if err != nil {
		t.Fatal(err)
	}
	// The database as the migration finds it: indexes, version 9 (and the
	// later ones) not applied.
	for _, kind := range []string{"episodes", "beliefs"} {
		tbl := "vec_" + sp.Name + "_" + kind
		if _, err := db.SQL().ExecContext(ctx, `CREATE INDEX `+tbl+`_idx ON `+tbl+`(libsql_vector_idx(embedding, 'metric=cosine'))`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SQL().ExecContext(ctx, `DELETE FROM schema_migrations WHERE version >= 9`); err != nil {
		t.Fatal(err)
	}
	if err := db.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'vec_%_idx'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d vector indexes left after migration 0009, want 0", n)
	}
	if err := db.PutVectors(ctx, sp, []Vector{{ID: "ep_x", Vec: make([]float32, 8)}}); err != nil {
		t.Fatalf("PutVectors after the migration: %v", err)
	}
}

// TestUpgradeRepairsDamagedIndexes forgets under migration 0007, whose FTS5
// 'secure-delete' option left both indexes malformed, and expects the
// upgrade to repair them and keep finding what was not forgotten.
func TestUpgradeRepairsDamagedIndexes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := openAt(ctx, path, 7, time.UnixMilli(1_700_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	beliefID, episodeID := learned(t, db, "we deploy with qqbelzz", "qqbelzz")
	if err := db.ForgetBelief(ctx, beliefID); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetEpisode(ctx, episodeID); err != nil {
		t.Fatal(err)
	}
	learned(t, db, "we test with zzkeptzz", "zzkeptzz")
	if problems, err := db.CheckIntegrity(ctx, true); err != nil || len(problems) == 0 {
		t.Fatalf("before the upgrade: CheckIntegrity()=%q, %v; want the damage this test is about", problems, err)
	}
	db.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	assertSound(t, db, "the upgrade")
	if hits, err := db.SearchEpisodes(ctx, "zzkeptzz", "", 5); err != nil || len(hits) != 1 {
		t.Errorf("SearchEpisodes(kept word)=%v, %v; want 1 hit", hits, err)
	}
	if hits, err := db.SearchBeliefs(ctx, "zzkeptzz", "", 5); err != nil || len(hits) != 1 {
		t.Errorf("SearchBeliefs(kept word)=%v, %v; want 1 hit", hits, err)
	}
	for _, table := range ftsTables {
		var n int
		if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE `+table+` MATCH 'qqbelzz'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s MATCH forgotten word: %d rows, %v; want none", table, n, err)
		}
	}
}
