package syncer

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer/hranatest"
)

var errInjected = errors.New("injected fault")

// faults decides, from a seeded source, when a faultyRemote misbehaves.
// rate is the chance of each fault at each opportunity; 0 turns them off.
type faults struct {
	mu   sync.Mutex
	rng  *rand.Rand
	rate float64
	seen map[string]int // fault kind → times injected
}

func newFaults(seed uint64, rate float64) *faults {
	return &faults{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), rate: rate, seen: map[string]int{}}
}

func (f *faults) hit(kind string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rate == 0 || f.rng.Float64() >= f.rate {
		return false
	}
	f.seen[kind]++
	return true
}

func (f *faults) intn(n int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rng.IntN(n)
}

func (f *faults) shuffle(n int, swap func(i, j int)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rng.Shuffle(n, swap)
}

func (f *faults) setRate(r float64) {
	f.mu.Lock()
	f.rate = r
	f.mu.Unlock()
}

// faultyDialer opens the real go-libsql remote at url and puts a
// faultyRemote in front of it.
func faultyDialer(url, token string, f *faults) Dialer {
	return func(ctx context.Context) (Remote, error) {
		if f.hit("dial") {
			return nil, errInjected
		}
		r, err := openRemote(ctx, url, token, 2*time.Second)
		if err != nil {
			return nil, err
		}
		r.reuse = 300 * time.Millisecond // below the wire world's stream expiry
		steps := []string{"episodes", "evidence", "events", "tombstones", "blank", "commit"}
		r.fault = func(step string) error {
			if step != steps[f.intn(len(steps))] {
				return nil
			}
			switch {
			case f.hit("push error before commit"):
				return errInjected // rolled back
			case f.hit("push connection dropped"):
				return errDropped // never commits; the server rolls back
			}
			return nil
		}
		return &faultyRemote{Remote: r, sql: r, f: f}, nil
	}
}

// faultyRemote delivers rows twice and out of order, fails before and after
// committing (a lost acknowledgement), and loses its connection between
// requests.
type faultyRemote struct {
	Remote
	sql *sqlRemote
	f   *faults
}

func (r *faultyRemote) Push(ctx context.Context, b store.SyncBatch) (int, error) {
	if r.f.hit("push refused") {
		return 0, errInjected
	}
	if r.f.hit("push closed connection") {
		r.sql.db.Close()
		return r.Remote.Push(ctx, b)
	}
	if r.f.hit("push halves reversed") {
		first, second := halves(b)
		n, err := r.Remote.Push(ctx, second)
		if err != nil || r.f.hit("push lost between halves") {
			return 0, errors.Join(err, errInjected)
		}
		m, err := r.Remote.Push(ctx, first)
		return n + m, err
	}
	n, err := r.Remote.Push(ctx, b)
	if err != nil {
		return n, err
	}
	if r.f.hit("push delivered twice") {
		again := shuffled(b, r.f)
		if _, err := r.Remote.Push(ctx, again); err != nil {
			return 0, err
		}
	}
	if r.f.hit("push ack lost") {
		return 0, errInjected // committed, but the machine does not know
	}
	return n, nil
}

func (r *faultyRemote) Pull(ctx context.Context, after store.SyncCursor, skip string, limit int, want Tables) (store.SyncBatch, error) {
	if r.f.hit("pull refused") {
		return store.SyncBatch{}, errInjected
	}
	if r.f.hit("pull closed connection") {
		r.sql.db.Close()
	}
	b, err := r.Remote.Pull(ctx, after, skip, limit, want)
	if err != nil {
		return b, err
	}
	if r.f.hit("pull lost response") {
		return store.SyncBatch{}, errInjected
	}
	if r.f.hit("pull duplicated and shuffled") {
		b.Episodes = append(b.Episodes, b.Episodes...)
		b.Evidence = append(b.Evidence, b.Evidence...)
		b.Events = append(b.Events, b.Events...)
		b.Tombstones = append(b.Tombstones, b.Tombstones...)
		b = shuffled(b, r.f)
	}
	return b, nil
}

// halves splits a batch into its first and second half of each table.
func halves(b store.SyncBatch) (store.SyncBatch, store.SyncBatch) {
	return store.SyncBatch{
			Episodes: b.Episodes[:len(b.Episodes)/2], Evidence: b.Evidence[:len(b.Evidence)/2],
			Events: b.Events[:len(b.Events)/2], Tombstones: b.Tombstones[:len(b.Tombstones)/2],
		}, store.SyncBatch{
			Episodes: b.Episodes[len(b.Episodes)/2:], Evidence: b.Evidence[len(b.Evidence)/2:],
			Events: b.Events[len(b.Events)/2:], Tombstones: b.Tombstones[len(b.Tombstones)/2:],
		}
}

// shuffled returns a copy of b with each table in random order.
func shuffled(b store.SyncBatch, f *faults) store.SyncBatch {
	out := store.SyncBatch{
		Episodes:   append([]store.SyncEpisode(nil), b.Episodes...),
		Evidence:   append([]store.SyncEvidence(nil), b.Evidence...),
		Events:     append([]store.SyncEvent(nil), b.Events...),
		Tombstones: append([]store.SyncTombstone(nil), b.Tombstones...),
	}
	f.shuffle(len(out.Episodes), func(i, j int) { out.Episodes[i], out.Episodes[j] = out.Episodes[j], out.Episodes[i] })
	f.shuffle(len(out.Evidence), func(i, j int) { out.Evidence[i], out.Evidence[j] = out.Evidence[j], out.Evidence[i] })
	f.shuffle(len(out.Events), func(i, j int) { out.Events[i], out.Events[j] = out.Events[j], out.Events[i] })
	f.shuffle(len(out.Tombstones), func(i, j int) {
		out.Tombstones[i], out.Tombstones[j] = out.Tombstones[j], out.Tombstones[i]
	})
	return out
}

// wireFaults makes the Hrana server misbehave at random, from a seeded
// source: each request meets a fault with probability rate.
type wireFaults struct {
	srv  *hranatest.Server
	mu   sync.Mutex
	rng  *rand.Rand
	rate float64
	down bool
}

// wireMenu is what a request may meet. A slow answer past the request
// timeout (2 s in these tests) is a remote that stopped answering.
var wireMenu = []hranatest.Fault{
	{Kind: hranatest.DropBefore}, {Kind: hranatest.DropAfter}, {Kind: hranatest.Truncate},
	{Kind: hranatest.Status, Code: http.StatusUnauthorized}, {Kind: hranatest.Status, Code: http.StatusForbidden},
	{Kind: hranatest.Status, Code: http.StatusTooManyRequests, RetryAfter: time.Second},
	{Kind: hranatest.Status, Code: http.StatusInternalServerError},
	{Kind: hranatest.Status, Code: http.StatusBadGateway}, {Kind: hranatest.Status, Code: http.StatusServiceUnavailable},
	{Kind: hranatest.ExpireStream}, {Kind: hranatest.TooLarge},
	{Kind: hranatest.Slow, Delay: 30 * time.Millisecond}, {Kind: hranatest.Slow, Delay: 2500 * time.Millisecond},
}

func newWireFaults(srv *hranatest.Server, seed uint64, rate float64) *wireFaults {
	w := &wireFaults{srv: srv, rng: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)), rate: rate}
	srv.SetPolicy(func(hranatest.Request) hranatest.Fault {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.rate == 0 || w.rng.Float64() >= w.rate {
			return hranatest.Fault{}
		}
		f := wireMenu[w.rng.IntN(len(wireMenu))]
		if f.Kind == hranatest.Slow && f.Delay > time.Second && w.rng.IntN(4) != 0 {
			f.Delay = 30 * time.Millisecond // keep the long silences rare: each costs the timeout
		}
		return f
	})
	return w
}

// injected counts the faults the server applied (0 for a file remote).
func (w *wireFaults) injected() int {
	if w == nil {
		return 0
	}
	n := 0
	for _, v := range w.srv.Stats().Faults {
		n += v
	}
	return n
}

// outage takes the server off the network, or puts it back.
func (w *wireFaults) outage(down bool) {
	w.mu.Lock()
	w.down = down
	w.mu.Unlock()
	if err := w.srv.SetDown(down); err != nil {
		panic(err)
	}
}

func (w *wireFaults) isDown() bool {
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.down
}

// off ends every fault and outage, for the final clean rounds.
func (w *wireFaults) off() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.rate = 0
	w.mu.Unlock()
	w.outage(false)
}
