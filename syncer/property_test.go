package syncer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer/hranatest"
)

// world is three machines sharing one remote, driven by a seeded source.
type world struct {
	t        *testing.T
	rng      *rand.Rand
	url      string // the remote: a file, or the Hrana server's
	path     string // the remote's database file
	machines []*machine
	faults   *faults           // faults on the client's side of the wire
	wire     *wireFaults       // faults on the server's side; nil for a file remote
	episodes map[string]bool   // every episode ID written anywhere
	beliefs  map[string]bool   // every belief ID created anywhere
	gone     map[string]string // text of every episode forgotten anywhere, by ID
	rounds   int               // rounds run
	failed   int               // rounds that returned an error
}

// newWorld builds three machines on a file remote with client-side faults
// at faultRate.
func newWorld(t *testing.T, seed uint64, faultRate float64) *world {
	url := remoteURL(t)
	w := newWorldAt(t, seed, faultRate, url, strings.TrimPrefix(url, "file:"), "")
	return w
}

// newWireWorld builds three machines on the Hrana server, with faults at
// clientRate on the client's side and at serverRate on the server's,
// inside every request and between rounds.
func newWireWorld(t *testing.T, seed uint64, clientRate, serverRate float64) *world {
	srv := startServer(t, hranatest.Options{Token: testToken, StreamTimeout: time.Second,
		MaxRequestBytes: 256 << 10})
	w := newWorldAt(t, seed, clientRate, srv.URL(), srv.Path(), testToken)
	w.wire = newWireFaults(srv, seed, serverRate)
	return w
}

func newWorldAt(t *testing.T, seed uint64, faultRate float64, url, path, token string) *world {
	w := &world{t: t, rng: rand.New(rand.NewPCG(seed, 7)), url: url, path: path, faults: newFaults(seed, faultRate),
		episodes: map[string]bool{}, beliefs: map[string]bool{}, gone: map[string]string{}}
	for i, name := range []string{"laptop", "desktop", "travel"} {
		// Skewed clocks: the desktop runs four seconds ahead, the travel
		// laptop two behind.
		skew := []time.Duration{0, 4 * time.Second, -2 * time.Second}[i]
		m := newMachine(t, name, skew, faultyDialer(url, token, w.faults))
		m.sync.batch = 3 + w.rng.IntN(6)
		w.machines = append(w.machines, m)
	}
	return w
}

// vocabulary is small on purpose, so machines create the same belief
// independently and twins have to be merged.
var (
	subjects   = []string{"user", "project"}
	predicates = []string{"uses_package_manager", "lives_in", "prefers"}
	objects    = []string{"pnpm", "Bun", "Paris", "tabs"}
	statements = []string{"Run the tests before committing.", "Keep commits small.", "Write docs with the code."}
	labels     = []belief.Label{belief.Supports, belief.Supports, belief.Contradicts, belief.Partial, belief.Manual}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func (w *world) randomSpec() belief.Spec {
	if w.rng.IntN(4) == 0 {
		return belief.Spec{Statement: pick(w.rng, statements), Kind: belief.KindGuideline}
	}
	s, p, o := pick(w.rng, subjects), pick(w.rng, predicates), pick(w.rng, objects)
	spec := belief.Spec{Statement: fmt.Sprintf("The %s %s %s.", s, p, o), Subject: s, Predicate: p, Object: o}
	if w.rng.IntN(3) == 0 {
		spec.ProjectPath = "/work/app"
	}
	return spec
}

// liveBeliefs lists a machine's beliefs that local code could still act on.
func (w *world) liveBeliefs(m *machine) []store.Belief {
	bs, err := m.db.Beliefs(context.Background(), store.Filter{Statuses: []belief.Status{belief.Active,
		belief.Archived, belief.Merged, belief.Superseded}})
	if err != nil {
		w.t.Fatal(err)
	}
	return bs
}

func (w *world) episodeIDs(m *machine) []string {
	rows, err := m.db.SQL().Query(`SELECT id FROM episodes WHERE forgotten_at IS NULL`)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		out = append(out, id)
	}
	return out
}

// step runs one random action on one random machine.
func (w *world) step(i int) {
	m := pick(w.rng, w.machines)
	m.clock.advance(time.Duration(w.rng.IntN(5000)) * time.Millisecond)
	ctx := context.Background()
	switch r := w.rng.IntN(100); {
	case r < 15:
		e := &store.Episode{Content: fmt.Sprintf("%s step %d: %s", m.name, i, pick(w.rng, statements)),
			ProjectPath: pick(w.rng, []string{"", "/work/app"})}
		if _, err := m.db.AddEpisode(ctx, e); err != nil {
			w.t.Fatal(err)
		}
		w.episodes[e.ID] = true
	case r < 35:
		eps := w.episodeIDs(m)
		n := w.rng.IntN(3)
		m.write(w.t, func(ctx context.Context, tx *store.Tx) error {
			id, err := tx.CreateBelief(ctx, w.randomSpec())
			if err != nil {
				return err
			}
			w.beliefs[id] = true
			for j := 0; j < n; j++ {
				ev := store.Evidence{BeliefID: id, Source: "episode", Label: pick(w.rng, labels),
					Note: fmt.Sprintf("note %d from %s", i, m.name)}
				if len(eps) > 0 {
					ev.EpisodeID = pick(w.rng, eps)
				}
				if _, err := tx.AddEvidence(ctx, ev); err != nil {
					return err
				}
			}
			return nil
		})
	case r < 55:
		bs := w.liveBeliefs(m)
		if len(bs) == 0 {
			return
		}
		b := pick(w.rng, bs)
		m.write(w.t, func(ctx context.Context, tx *store.Tx) error {
			_, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: b.ID, Source: "episode", Label: pick(w.rng, labels),
				Support: w.rng.Float64()*2 - 1, Reliability: 0.5 + w.rng.Float64()/2, Note: fmt.Sprintf("step %d", i)})
			return err
		})
	case r < 68:
		w.lifecycle(m)
	case r < 72:
		w.forget(m)
	case r < 75 && w.wire != nil:
		// Outages between rounds: the network goes, and comes back.
		w.wire.outage(w.rng.IntN(3) == 0)
	default:
		before := w.wire.injected()
		w.rounds++
		if _, err := m.sync.Round(ctx); err != nil {
			expected := errors.Is(err, errInjected) || errors.Is(err, errDropped) || isClosedError(err) ||
				w.wire.injected() > before || w.wire.isDown()
			if !expected {
				w.t.Fatalf("%s: Round()=%v with no fault injected", m.name, err)
			}
			w.failed++
		}
	}
}

// lifecycle applies what consolidation does: supersede, merge, archive,
// reactivate, pin, revise, split.
func (w *world) lifecycle(m *machine) {
	bs := w.liveBeliefs(m)
	if len(bs) < 2 {
		return
	}
	a, b := pick(w.rng, bs), pick(w.rng, bs)
	if a.ID == b.ID {
		return
	}
	m.write(w.t, func(ctx context.Context, tx *store.Tx) error {
		var err error
		switch w.rng.IntN(7) {
		case 5:
			next := w.randomSpec()
			var id string
			if id, err = tx.Revise(ctx, a.ID, next); err == nil {
				w.beliefs[id] = true
			}
		case 6:
			kids := []belief.Spec{a.Spec, a.Spec}
			kids[0].Context, kids[1].Context = "at work", "at home"
			var out []string
			if out, err = tx.Split(ctx, a.ID, kids, []float64{0.5, 0.5}); err == nil {
				for _, id := range out {
					w.beliefs[id] = true
				}
			}
		case 0:
			_, err = tx.Supersede(ctx, a.ID, b.ID)
		case 1:
			_, err = tx.Merge(ctx, a.ID, b.ID)
		case 2:
			_, err = tx.Mark(ctx, a.ID, belief.Archive)
		case 3:
			_, err = tx.Mark(ctx, a.ID, belief.Reactivate)
		default:
			_, err = tx.Mark(ctx, a.ID, belief.Pin)
		}
		return err
	})
}

func (w *world) forget(m *machine) {
	ctx := context.Background()
	if w.rng.IntN(2) == 0 {
		if bs := w.liveBeliefs(m); len(bs) > 0 {
			if err := m.db.ForgetBelief(ctx, pick(w.rng, bs).ID); err != nil {
				w.t.Fatal(err)
			}
		}
		return
	}
	if eps := w.episodeIDs(m); len(eps) > 0 {
		id := pick(w.rng, eps)
		e, err := m.db.Episode(ctx, id)
		if err != nil {
			w.t.Fatal(err)
		}
		if err := m.db.ForgetEpisode(ctx, id); err != nil {
			w.t.Fatal(err)
		}
		w.gone[id] = e.Content
	}
}

// settle turns faults off and syncs every machine until a whole pass moves
// nothing.
func (w *world) settle() {
	w.faults.setRate(0)
	w.wire.off()
	for pass := 0; pass < 8; pass++ {
		moved := false
		for _, m := range w.machines {
			rep := m.round(w.t)
			moved = moved || rep.Moved()
		}
		if !moved && pass > 0 {
			return
		}
	}
	w.t.Fatal("sync did not settle in 8 passes")
}

func isClosedError(err error) bool {
	return err != nil && (containsAny(err.Error(), "database is closed", "connection is already closed", "bad connection"))
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

var allTables = []string{"episodes", "evidence", "events", "tombstones", "beliefs"}

// check asserts the machines converged: identical replicated rows and
// beliefs, the remote holding the same log, nothing written anywhere
// missing, one active belief per canonical key, and the beliefs equal to a
// fold from scratch.
func (w *world) check() {
	t := w.t
	ctx := context.Background()
	first := w.machines[0]
	base := first.snapshot(t)
	for _, m := range w.machines[1:] {
		if d := diff(base, m.snapshot(t), allTables...); d != "" {
			t.Fatalf("%s and %s differ:\n%s", first.name, m.name, d)
		}
	}
	remote := openFileRemote(t, "file:"+w.path)
	remoteSnap := takeSnapshot(t, remote, remoteQueries)
	if d := diff(takeSnapshot(t, first.db.SQL(), remoteQueries), remoteSnap,
		"episodes", "evidence", "events", "tombstones"); d != "" {
		t.Fatalf("%s and the remote differ:\n%s", first.name, d)
	}
	w.checkForgotten(remote, remoteSnap)
	for _, m := range w.machines {
		for id := range w.episodes {
			if _, err := m.db.Episode(ctx, id); err != nil {
				t.Errorf("%s: episode %s written somewhere is missing: %v", m.name, id, err)
			}
		}
		for id := range w.beliefs {
			if _, err := m.db.Belief(ctx, id); err != nil {
				t.Errorf("%s: belief %s created somewhere is missing: %v", m.name, id, err)
			}
		}
	}
	active, err := first.db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, b := range active {
		k := store.CanonicalKey(b.Spec)
		if other, dup := keys[k]; dup {
			t.Errorf("two active beliefs say the same thing: %s and %s (%q)", other, b.ID, b.Statement)
		}
		keys[k] = b.ID
	}
	if _, err := first.db.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if d := diff(base, first.snapshot(t), "beliefs"); d != "" {
		t.Fatalf("beliefs differ from a fold from scratch:\n%s", d)
	}
}

// checkForgotten asserts every forget reached every copy: the text of a
// forgotten episode is in no row of any machine or of the remote, and
// every belief a tombstone names keeps only its blanked create event.
func (w *world) checkForgotten(remote *sql.DB, remoteSnap snapshot) {
	t := w.t
	snaps := map[string]snapshot{"remote": remoteSnap}
	for _, m := range w.machines {
		snaps[m.name] = m.snapshot(t)
	}
	for id, text := range w.gone {
		for name, snap := range snaps {
			for table, lines := range snap {
				for _, l := range lines {
					if strings.Contains(l, text) {
						t.Errorf("%s %s still holds the text of forgotten episode %s: %s", name, table, id, l)
					}
				}
			}
		}
	}
	dbs := map[string]*sql.DB{"remote": remote}
	for _, m := range w.machines {
		dbs[m.name] = m.db.SQL()
	}
	for name, db := range dbs {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM belief_events e JOIN tombstones t ON t.target_id = e.belief_id
			WHERE t.kind = 'belief' AND e.kind = 'create' AND e.payload NOT LIKE '%[forgotten]%'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		var notes int
		err = db.QueryRow(`SELECT count(*) FROM evidence v JOIN tombstones t ON t.target_id = v.belief_id
			WHERE t.kind = 'belief' AND v.note != ''`).Scan(&notes)
		if err != nil {
			t.Fatal(err)
		}
		if n+notes > 0 {
			t.Errorf("%s: %d create events and %d evidence notes of forgotten beliefs keep their text", name, n, notes)
		}
	}
}

func TestPropertyThreeMachinesConverge(t *testing.T) {
	for seed := uint64(1); seed <= seeds(8); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			w := newWorld(t, seed, 0)
			for i := 0; i < 120; i++ {
				w.step(i)
			}
			w.settle()
			w.check()
		})
	}
}

func TestFaultsThreeMachinesConverge(t *testing.T) {
	for seed := uint64(101); seed <= 100+seeds(8); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			w := newWorld(t, seed, 0.12)
			for i := 0; i < 150; i++ {
				w.step(i)
			}
			if w.failed == 0 {
				t.Fatalf("no round failed; faults were not injected: %v", w.faults.seen)
			}
			w.settle()
			w.check()
			t.Logf("faults injected: %v", w.faults.seen)
		})
	}
}

// TestWireThreeMachinesConverge runs the three machines over HTTP, through
// go-libsql's remote client, against the Hrana server misbehaving inside
// requests (dropped before and after commits, HTTP errors, truncated and
// slow answers, expired streams, bodies refused as too large) and between
// rounds (outages), with the client-side faults on top.
func TestWireThreeMachinesConverge(t *testing.T) {
	for seed := uint64(201); seed <= 200+seeds(6); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			w := newWireWorld(t, seed, 0.03, 0.02)
			for i := 0; i < 150; i++ {
				w.step(i)
			}
			if w.failed == 0 || w.wire.injected() == 0 {
				t.Fatalf("%d rounds failed, %d faults on the wire; faults were not injected", w.failed, w.wire.injected())
			}
			w.settle()
			w.check()
			t.Logf("%d of %d rounds failed; client faults %v; server faults %v", w.failed, w.rounds, w.faults.seen,
				w.wire.srv.Stats().Faults)
		})
	}
}

// seeds returns how many random worlds to run: fewer with -short.
func seeds(n uint64) uint64 {
	if testing.Short() {
		return 2
	}
	return n
}
