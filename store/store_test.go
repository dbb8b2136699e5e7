package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

func openTest(t *testing.T) *DB {
	t.Helper()
	fixed := time.UnixMilli(1_700_000_000_000)
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "credence.db"), Options{Now: func() time.Time { return fixed }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenCreatesPrivateFile(t *testing.T) {
	// '#', '?' and spaces must not cut the path short (a raw file: DSN did).
	dir := filepath.Join(t.TempDir(), "my data #1?x")
	path := filepath.Join(dir, "credence.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode=%v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode=%v, want 0700", fi.Mode().Perm())
	}
	if db.MachineID() == "" {
		t.Error("no machine id")
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "credence.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := db.MachineID()
	if err := db.migrate(ctx); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	db.Close()
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if db.MachineID() != id {
		t.Errorf("machine id changed on reopen: %s → %s", id, db.MachineID())
	}
	ms, _ := loadMigrations()
	if v, _ := db.SchemaVersion(ctx); v != ms[len(ms)-1].version {
		t.Errorf("SchemaVersion()=%d, want %d", v, ms[len(ms)-1].version)
	}
}

func TestSplitStatements(t *testing.T) {
	src := "-- c\nCREATE TABLE a(x);\n\nCREATE TRIGGER t AFTER INSERT ON a BEGIN\n  INSERT INTO b VALUES (1);\n  INSERT INTO b VALUES (2);\nEND;\nINSERT INTO a\nVALUES (1);\n"
	got := splitStatements(src)
	if len(got) != 3 {
		t.Fatalf("splitStatements()=%q, want 3 statements", got)
	}
}

func TestWriteTicksClock(t *testing.T) {
	ctx := context.Background()
	fixed := time.UnixMilli(1_700_000_000_000)
	db, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"), Options{Now: func() time.Time { return fixed }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var last int64
	for i := 0; i < 5; i++ {
		err := db.Write(ctx, func(tx *Tx) error {
			h, err := tx.Tick(ctx)
			if int64(h) <= last {
				t.Errorf("clock did not advance: %v after %v", h, last)
			}
			last = int64(h)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestEpisodesDedupAndInvalidUTF8(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	e := &Episode{Kind: EpisodePrompt, Content: "bad \xff\xfe bytes\x00 and NUL", DedupKey: "k1", ProjectPath: "/p"}
	ok, err := db.AddEpisode(ctx, e)
	if err != nil || !ok {
		t.Fatalf("AddEpisode()=%v, %v", ok, err)
	}
	ok, err = db.AddEpisode(ctx, &Episode{Kind: EpisodeExchange, Content: "again", DedupKey: "k1"})
	if err != nil || ok {
		t.Fatalf("second AddEpisode with same key=%v, %v; want false, nil", ok, err)
	}
	got, err := db.Episode(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "bad \uFFFD bytes\u2400 and NUL" || got.Scope != "project" {
		t.Errorf("stored %q scope %s", got.Content, got.Scope)
	}
	hits, err := db.SearchEpisodes(ctx, "bytes please", "/p", 5)
	if err != nil || len(hits) != 1 || hits[0].ID != e.ID {
		t.Errorf("SearchEpisodes()=%v, %v", hits, err)
	}
	if hits, _ := db.SearchEpisodes(ctx, "bytes", "/other", 5); len(hits) != 0 {
		t.Errorf("another project's episode was found: %v", hits)
	}
}

// TestDateLikeTextSurvives guards the BLOB reads: the driver turns TEXT that
// parses as a date into a time.Time, which would rewrite "2026-01-02".
func TestDateLikeTextSurvives(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	e := &Episode{Kind: EpisodePrompt, Content: "2026-01-02"}
	if _, err := db.AddEpisode(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := db.Episode(ctx, e.ID)
	if err != nil || got.Content != "2026-01-02" {
		t.Errorf("episode content=%q, %v", got.Content, err)
	}
	var id string
	err = db.Write(ctx, func(tx *Tx) error {
		var err error
		id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "2026-01-02 15:04", Object: "2026-01-02"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Belief(ctx, id)
	if err != nil || b.Statement != "2026-01-02 15:04" || b.Object != "2026-01-02" {
		t.Errorf("belief statement=%q object=%q, %v", b.Statement, b.Object, err)
	}
}

// TestCloseCheckpointsWAL checks that closing the last handle closes the
// native database, which checkpoints and removes the WAL: a WAL left behind
// makes every later process rebuild its index, which cost each hook run
// several milliseconds.
func TestCloseCheckpointsWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if _, err := db.AddEpisode(ctx, &Episode{Kind: EpisodeNote, Content: "some text to fill the log"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("WAL left behind after Close: %d bytes", fi.Size())
	}
}

// TestConcurrentFirstOpen opens one new database file from several handles
// at once, as the hook and the agent do on a fresh install: every open
// succeeds (switching to WAL answers "locked" at once, without the busy
// handler, so Open retries).
func TestConcurrentFirstOpen(t *testing.T) {
	for round := 0; round < 30; round++ {
		path := filepath.Join(t.TempDir(), "new.db")
		errs := make(chan error, 8)
		for i := 0; i < 8; i++ {
			go func() {
				db, err := Open(context.Background(), path, Options{})
				if err == nil {
					err = db.Close()
				}
				errs <- err
			}()
		}
		for i := 0; i < 8; i++ {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: concurrent first open: %v", round, err)
			}
		}
	}
}

// TestMmapAppliesToEveryConnection: MmapBytes is a per-connection pragma,
// so each connection the pool opens must carry it, and a database opened
// without it must not map at all.
func TestMmapAppliesToEveryConnection(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "credence.db")
	for _, want := range []int64{0, 64 << 20} {
		db, err := Open(ctx, path, Options{MmapBytes: want})
		if err != nil {
			t.Fatal(err)
		}
		conns := make([]*sql.Conn, 3)
		for i := range conns {
			if conns[i], err = db.SQL().Conn(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range conns {
			var got int64
			if err := c.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("MmapBytes=%d: connection %d maps %d bytes", want, i, got)
			}
			c.Close()
		}
		db.Close()
	}
}

// TestDocFrequencies counts each word's episodes up to the cap, in one
// statement per 32 words: absent words count 0, a word with a quote in it
// is matched as a phrase, and more words than one statement takes still
// get their own counts.
func TestDocFrequencies(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for i := 0; i < 7; i++ {
		text := fmt.Sprintf("deploy step %d", i)
		if i < 3 {
			text += " rollback"
		}
		if _, err := db.AddEpisode(ctx, &Episode{Kind: EpisodeNote, Content: text}); err != nil {
			t.Fatal(err)
		}
	}
	words := []string{"deploy", "rollback", "absent", `quo"te`}
	for i := 0; i < 36; i++ {
		words = append(words, fmt.Sprintf("filler%d", i))
	}
	got, err := db.DocFrequencies(ctx, "episodes", words, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"deploy": 5, "rollback": 3, "absent": 0, `quo"te`: 0}
	for w, n := range want {
		if got[w] != n {
			t.Errorf("DocFrequencies(%q)=%d, want %d", w, got[w], n)
		}
	}
	if len(got) != len(words) {
		t.Errorf("%d counts for %d words", len(got), len(words))
	}
}

func TestChangeSearch(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	base := time.UnixMilli(1_700_000_000_000)
	add := func(content, project string, at time.Duration) string {
		t.Helper()
		e := &Episode{Kind: EpisodePrompt, Content: content, ProjectPath: project, CreatedAt: base.Add(at)}
		if ok, err := db.AddEpisode(ctx, e); err != nil || !ok {
			t.Fatalf("AddEpisode(%q)=%v, %v", content, ok, err)
		}
		return e.ID
	}
	add("we switched the database to MySQL", "/p", time.Hour) // before the cut-off
	add("the database is Postgres", "/p", 3*time.Hour)        // no word of change
	older := add("we switched the database to SQLite", "/p", 4*time.Hour)
	add("they switched the database to Oracle", "/other", 5*time.Hour) // another project
	newer := add("we migrated the database to CockroachDB", "/p", 6*time.Hour)
	hits, err := db.ChangeSearch(ctx, "database postgres", "/p", []string{"switched", "migrated"}, base.Add(2*time.Hour).UnixMilli(), 5)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.ID)
	}
	if len(got) != 2 || got[0] != newer || got[1] != older {
		t.Errorf("ChangeSearch()=%v, want the two changes after the cut-off, newest first: [%s %s]", got, newer, older)
	}
	if hits, _ := db.ChangeSearch(ctx, "database", "/p", []string{"switched"}, 0, 1); len(hits) != 1 || hits[0].ID != older {
		t.Errorf("ChangeSearch(k=1)=%v, want only the newest switch %s", hits, older)
	}
	if hits, err := db.ChangeSearch(ctx, "database", "/p", nil, 0, 5); err != nil || len(hits) != 0 {
		t.Errorf("ChangeSearch with no words of change=%v, %v; want nothing", hits, err)
	}
}

// TestBeliefsBySubjectPrefix: the person's kin and pets ("user's dog")
// are found by their prefix, not the person's own beliefs or a subject
// that only starts alike ("users").
func TestBeliefsBySubjectPrefix(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for _, sp := range []belief.Spec{
		{Statement: "User's dog's name is Pickle", Subject: "user's dog", Predicate: "name_is", Object: "pickle", Scope: belief.ScopeGlobal},
		{Statement: "User's sister is Hannah", Subject: "user's sister", Predicate: "name_is", Object: "hannah", Scope: belief.ScopeGlobal},
		{Statement: "User lives in Leeds", Subject: "user", Predicate: "lives_in", Object: "leeds", Scope: belief.ScopeGlobal},
		{Statement: "Users table is partitioned", Subject: "users table", Predicate: "is", Object: "partitioned", Scope: belief.ScopeGlobal},
	} {
		if err := db.Write(ctx, func(tx *Tx) error { _, err := tx.CreateBelief(ctx, sp); return err }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Beliefs(ctx, Filter{SubjectPrefix: "user's "})
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, b := range got {
		subjects = append(subjects, b.Subject)
	}
	slices.Sort(subjects)
	if !slices.Equal(subjects, []string{"user's dog", "user's sister"}) {
		t.Errorf("subjects %v, want the dog and the sister", subjects)
	}
}
