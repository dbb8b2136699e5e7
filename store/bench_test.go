package store

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
)

// seedBeliefs creates n beliefs with a few pieces of evidence each.
func seedBeliefs(b *testing.B, db *DB, n int) []string {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	var out []string
	for start := 0; start < n; start += 500 {
		err := db.Write(ctx, func(tx *Tx) error {
			for i := start; i < start+500 && i < n; i++ {
				id, err := tx.CreateBelief(ctx, belief.Spec{Statement: fmt.Sprintf("belief number %d about topic %d", i, rng.Intn(100)),
					Subject: "user", Predicate: "likes", Object: fmt.Sprint("thing", i)})
				if err != nil {
					return err
				}
				for k := 0; k < 3; k++ {
					if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Label: belief.Supports}); err != nil {
						return err
					}
				}
				out = append(out, id)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return out
}

func benchDB(b *testing.B) *DB {
	b.Helper()
	db, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

var (
	seeded10k     sync.Once
	seeded10kDB   []byte
	seeded10kIDs  []string
	seeded10kErrs error
)

// benchDB10k returns a fresh copy of a database holding 10,000 beliefs with
// three pieces of evidence each. Seeding takes a minute through the store's
// transactions, so it happens once per process and each benchmark run gets
// a byte copy.
func benchDB10k(b *testing.B) (*DB, []string) {
	b.Helper()
	seeded10k.Do(func() {
		dir, err := os.MkdirTemp("", "credence-bench-")
		if err != nil {
			seeded10kErrs = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "seed.db")
		db, err := Open(context.Background(), path, Options{})
		if err != nil {
			seeded10kErrs = err
			return
		}
		seeded10kIDs = seedBeliefs(b, db, 10_000)
		if err := db.Checkpoint(context.Background()); err != nil {
			seeded10kErrs = err
		}
		db.Close()
		seeded10kDB, err = os.ReadFile(path)
		if err != nil {
			seeded10kErrs = err
		}
	})
	if seeded10kErrs != nil {
		b.Fatal(seeded10kErrs)
	}
	path := filepath.Join(b.TempDir(), "bench.db")
	if err := os.WriteFile(path, seeded10kDB, 0o600); err != nil {
		b.Fatal(err)
	}
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db, seeded10kIDs
}

// BenchmarkAddEvidence measures one piece of evidence: evidence row, belief
// event and folded belief row in one transaction, on a database of 10,000
// beliefs.
func BenchmarkAddEvidence(b *testing.B) {
	ctx := context.Background()
	db, ids := benchDB10k(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := db.Write(ctx, func(tx *Tx) error {
			_, err := tx.AddEvidence(ctx, Evidence{BeliefID: ids[i%len(ids)], Label: belief.Supports})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecayedConfidence10k reads the counts of 10,000 active beliefs
// and computes each one's decayed confidence now.
func BenchmarkDecayedConfidence10k(b *testing.B) {
	ctx := context.Background()
	db, _ := benchDB10k(b)
	p := db.Params()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cs, err := db.BeliefCounts(ctx, belief.Active)
		if err != nil {
			b.Fatal(err)
		}
		now := belief.MomentAt(time.Now().Add(30*24*time.Hour), 0)
		var sum float64
		for _, c := range cs {
			sum += c.Confidence(p, now)
		}
		if len(cs) != 10_000 || sum == 0 {
			b.Fatalf("read %d beliefs", len(cs))
		}
	}
}

// BenchmarkDecayedConfidence10kFullRows does the same through whole belief
// rows, to show what the narrow read saves.
func BenchmarkDecayedConfidence10kFullRows(b *testing.B) {
	ctx := context.Background()
	db, _ := benchDB10k(b)
	p := db.Params()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bs, err := db.Beliefs(ctx, Filter{Statuses: []belief.Status{belief.Active}})
		if err != nil {
			b.Fatal(err)
		}
		now := belief.MomentAt(time.Now().Add(30*24*time.Hour), 0)
		var sum float64
		for _, x := range bs {
			sum += p.ConfidenceAt(x.State, now)
		}
		if len(bs) != 10_000 || sum == 0 {
			b.Fatalf("read %d beliefs", len(bs))
		}
	}
}
