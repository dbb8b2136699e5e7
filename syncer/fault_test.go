package syncer

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/credence-mem/credence/store"
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
func faultyDialer(url string, f *faults) Dialer {
	return func(ctx context.Context) (Remote, error) {
		if f.hit("dial") {
			return nil, errInjected
		}
		r, err := openRemote(ctx, url, "", 0)
		if err != nil {
			return nil, err
		}
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
