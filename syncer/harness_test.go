package syncer

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer/hranatest"
)

// clock is a fake wall clock one machine reads; each test machine has its
// own, skewed from the others, so HLC ordering across machines is tested.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(7 * time.Millisecond)
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// machine is one laptop in a test: a local database and its syncer.
type machine struct {
	name  string
	db    *store.DB
	clock *clock
	sync  *Syncer
}

func remoteURL(t testing.TB) string {
	return "file:" + filepath.Join(t.TempDir(), "remote.db")
}

func newMachine(t testing.TB, name string, skew time.Duration, dial Dialer) *machine {
	t.Helper()
	c := &clock{t: time.UnixMilli(1_700_000_000_000).Add(skew)}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), name+".db"), store.Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	m := &machine{name: name, db: db, clock: c, sync: NewWithDialer(db, "test-remote", dial, Options{Batch: 7})}
	t.Cleanup(func() { m.sync.Close() })
	return m
}

func (m *machine) round(t testing.TB) Report {
	t.Helper()
	rep, err := m.sync.Round(context.Background())
	if err != nil {
		t.Fatalf("%s: Round()=%v", m.name, err)
	}
	return rep
}

func (m *machine) write(t testing.TB, fn func(ctx context.Context, tx *store.Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := m.db.Write(ctx, func(tx *store.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatalf("%s: write: %v", m.name, err)
	}
}

func (m *machine) create(t testing.TB, spec belief.Spec, supports int) string {
	t.Helper()
	var id string
	m.write(t, func(ctx context.Context, tx *store.Tx) error {
		var err error
		if id, err = tx.CreateBelief(ctx, spec); err != nil {
			return err
		}
		for i := 0; i < supports; i++ {
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "test", Label: belief.Supports,
				Note: fmt.Sprintf("%s saw it %d", m.name, i)}); err != nil {
				return err
			}
		}
		return nil
	})
	return id
}

// snapshot is the replicated content of a database, as sorted lines, so two
// machines can be compared and a difference printed.
type snapshot map[string][]string

// snapQuery selects columns from a table for a snapshot. Each column is
// read through quote(): go-libsql hands back TEXT that looks like a date as
// a time.Time, which prints the same for "2026-01-02" and
// "2026-01-02T00:00:00Z", so a snapshot read any other way would not see a
// date rewritten in transit.
type snapQuery struct {
	cols []string
	from string
}

func (q snapQuery) sql() string {
	cols := make([]string, len(q.cols))
	for i, c := range q.cols {
		cols[i] = "quote(" + c + ")"
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM " + q.from
}

// localQueries select every replicated column; columns local by design
// (seq, stability, access and promotion marks, surprise, dedup keys, the
// time a forget was applied) are left out.
var localQueries = map[string]snapQuery{
	"episodes": {[]string{"id", "session_id", "project_path", "scope", "kind", "content", "summary", "turn",
		"created_at", "hlc", "origin", "forgotten_at IS NOT NULL"}, "episodes"},
	"evidence": {[]string{"id", "belief_id", "coalesce(episode_id, '')", "source", "label", "support",
		"reliability", "note", "turn", "created_at", "hlc", "origin"}, "evidence"},
	"events": {[]string{"id", "belief_id", "kind", "coalesce(evidence_id, '')", "payload", "turn", "created_at",
		"hlc", "origin"}, "belief_events"},
	"tombstones": {[]string{"target_id", "kind"}, "tombstones"},
	"beliefs": {[]string{"id", "statement", "subject", "predicate", "object", "context", "timeframe", "kind",
		"scope", "project_path", "source", "status", "alpha", "beta", "counts_at", "counts_turn", "peak_confidence",
		"evidence_count", "supports", "contradictions", "partials", "coalesce(last_reinforced_at, 0)", "valid_at",
		"coalesce(invalid_at, 0)", "coalesce(parent_belief_id, '')", "coalesce(merged_into, '')", "pinned",
		"created_at", "updated_at", "last_hlc", "origin"}, "beliefs"},
}

// remoteQueries select the same columns from the remote's tables.
var remoteQueries = map[string]snapQuery{
	"episodes":   {localQueries["episodes"].cols[:11], "episodes"},
	"evidence":   localQueries["evidence"],
	"events":     localQueries["events"],
	"tombstones": localQueries["tombstones"],
}

func takeSnapshot(t testing.TB, db *sql.DB, queries map[string]snapQuery) snapshot {
	t.Helper()
	out := snapshot{}
	for table, q := range queries {
		rows, err := db.Query(q.sql())
		if err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("snapshot %s: %v", table, err)
			}
			out[table] = append(out[table], fmt.Sprint(vals...))
		}
		rows.Close()
		sort.Strings(out[table])
	}
	return out
}

func (m *machine) snapshot(t testing.TB) snapshot { return takeSnapshot(t, m.db.SQL(), localQueries) }

// diff describes how b differs from a, or returns "".
func diff(a, b snapshot, tables ...string) string {
	var out []string
	for _, table := range tables {
		as, bs := map[string]bool{}, map[string]bool{}
		for _, l := range a[table] {
			as[l] = true
		}
		for _, l := range b[table] {
			bs[l] = true
		}
		for _, l := range a[table] {
			if !bs[l] {
				out = append(out, fmt.Sprintf("%s only in first: %s", table, l))
			}
		}
		for _, l := range b[table] {
			if !as[l] {
				out = append(out, fmt.Sprintf("%s only in second: %s", table, l))
			}
		}
	}
	if len(out) > 8 {
		out = append(out[:8], fmt.Sprintf("… and %d more", len(out)-8))
	}
	return strings.Join(out, "\n")
}

// openFileRemote opens the test remote's file directly, to inspect it.
func openFileRemote(t testing.TB, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("libsql", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// remoteKind is one way to reach a remote in tests: a file (go-libsql's
// local engine) or the Hrana server over HTTP (go-libsql's remote client).
type remoteKind struct {
	name string
	// dial returns a Dialer for the kind's remote, the same remote on
	// every call within a test.
	dial func(t testing.TB) Dialer
	// inspect opens the remote's file directly.
	inspect func(t testing.TB) *sql.DB
}

// remoteKinds returns a fresh remote of each kind for one test.
func remoteKinds(t *testing.T) []remoteKind {
	file := remoteURL(t)
	var srv *hranatest.Server
	server := func(t testing.TB) *hranatest.Server {
		if srv == nil {
			srv = startServer(t, hranatest.Options{Token: testToken})
		}
		return srv
	}
	return []remoteKind{
		{name: "file",
			dial:    func(testing.TB) Dialer { return Dial(file, "") },
			inspect: func(t testing.TB) *sql.DB { return openFileRemote(t, file) }},
		{name: "http",
			dial:    func(t testing.TB) Dialer { return Dial(server(t).URL(), testToken) },
			inspect: func(t testing.TB) *sql.DB { return openFileRemote(t, "file:"+server(t).Path()) }},
	}
}

// testToken is the bearer token the test server wants.
const testToken = "tok-3f9a1c77e2b04d5c9a8e"

// startServer serves a fresh remote over Hrana on 127.0.0.1.
func startServer(t testing.TB, opts hranatest.Options) *hranatest.Server {
	t.Helper()
	srv, err := hranatest.New(filepath.Join(t.TempDir(), "remote.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
