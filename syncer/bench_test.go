package syncer

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer/hranatest"
)

// writeRows writes 10,000 replicated rows on m: 2,500 episodes and 1,500
// beliefs, each with a create event and two pieces of evidence (an evidence
// row and an event each).
func writeRows(b *testing.B, m *machine) {
	b.Helper()
	m.write(b, func(ctx context.Context, tx *store.Tx) error {
		for i := 0; i < 2500; i++ {
			e := &store.Episode{Content: fmt.Sprintf("%s exchange %d: we deploy with fly and test with go test ./...", m.name, i),
				ProjectPath: "/work/app"}
			if _, err := tx.AddEpisode(ctx, e); err != nil {
				return err
			}
		}
		for i := 0; i < 1500; i++ {
			id, err := tx.CreateBelief(ctx, belief.Spec{Statement: fmt.Sprintf("%s fact number %d holds.", m.name, i),
				Subject: m.name, Predicate: "fact", Object: fmt.Sprint(i), ProjectPath: "/work/app"})
			if err != nil {
				return err
			}
			for j := 0; j < 2; j++ {
				if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "episode", Label: belief.Supports,
					Note: "seen in a session"}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

var benchBatch = DefaultBatch

// benchRemotes are the remotes the round benchmarks run against: a file
// (go-libsql's local engine: the cost of credence's side of sync) and the
// Hrana server over loopback HTTP (go-libsql's remote client, the relay and
// a server in the same process, sharing the machine's cores).
func benchRemotes(b *testing.B) []struct {
	name string
	dial func() Dialer
} {
	return []struct {
		name string
		dial func() Dialer
	}{
		{"file", func() Dialer { return Dial(remoteURL(b), "") }},
		{"http", func() Dialer {
			srv := startServer(b, hranatest.Options{Token: testToken})
			return Dial(srv.URL(), testToken)
		}},
	}
}

// BenchmarkRound10k times one round of a machine that pushes its 10,000 new
// rows and pulls another machine's 10,000.
func BenchmarkRound10k(b *testing.B) {
	for _, r := range benchRemotes(b) {
		b.Run(r.name, func(b *testing.B) {
			var pull, merge, push time.Duration
			requests := 0
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dial := r.dial()
				a := newMachine(b, "a", 0, dial)
				c := newMachine(b, "c", time.Second, dial)
				a.sync.batch, c.sync.batch = benchBatch, benchBatch
				writeRows(b, a)
				a.round(b)
				writeRows(b, c)
				b.StartTimer()
				rep := c.round(b)
				b.StopTimer()
				if rep.Pulled != 10000 || rep.PushedNew != 10000 {
					b.Fatalf("round pulled %d and pushed %d new rows, want 10000 each", rep.Pulled, rep.PushedNew)
				}
				pull, merge, push = pull+rep.PullTook, merge+rep.MergeTook, push+rep.PushTook
				requests += rep.Requests
			}
			b.ReportMetric(20000, "rows/op")
			b.ReportMetric(pull.Seconds()/float64(b.N), "pull-s/op")
			b.ReportMetric(merge.Seconds()/float64(b.N), "merge-s/op")
			b.ReportMetric(push.Seconds()/float64(b.N), "push-s/op")
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		})
	}
}

// BenchmarkIdleRound times a round with nothing to pull or push, what the
// agent's loop pays every interval. "http-fresh-stream" starts every round
// on a new stream, as the agent's rounds five minutes apart do (the last
// one's is past the reuse window); "http" reuses it, as back-to-back rounds
// do.
func BenchmarkIdleRound(b *testing.B) {
	remotes := append(benchRemotes(b), struct {
		name string
		dial func() Dialer
	}{"http-fresh-stream", func() Dialer {
		srv := startServer(b, hranatest.Options{Token: testToken})
		dial := Dial(srv.URL(), testToken)
		return func(ctx context.Context) (Remote, error) {
			r, err := dial(ctx)
			if s, ok := r.(*sqlRemote); ok {
				s.reuse = 0
			}
			return r, err
		}
	}})
	for _, r := range remotes {
		b.Run(r.name, func(b *testing.B) {
			dial := r.dial()
			a := newMachine(b, "a", 0, dial)
			c := newMachine(b, "c", 0, dial)
			a.create(b, belief.Spec{Statement: "something to start with"}, 1)
			c.create(b, belief.Spec{Statement: "something else"}, 1)
			a.round(b)
			c.round(b)
			a.round(b)
			requests := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep := a.round(b)
				if rep.Moved() {
					b.Fatalf("idle round moved rows: %+v", rep)
				}
				requests += rep.Requests
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		})
	}
}
