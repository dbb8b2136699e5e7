package syncer

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
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

// BenchmarkRound10k times one round of a machine that pushes its 10,000 new
// rows and pulls another machine's 10,000, against a file remote (no
// network: this is the cost of credence's side of sync).
func BenchmarkRound10k(b *testing.B) {
	var pull, merge, push time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		url := remoteURL(b)
		a := newMachine(b, "a", 0, Dial(url, ""))
		c := newMachine(b, "c", time.Second, Dial(url, ""))
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
	}
	b.ReportMetric(20000, "rows/op")
	b.ReportMetric(pull.Seconds()/float64(b.N), "pull-s/op")
	b.ReportMetric(merge.Seconds()/float64(b.N), "merge-s/op")
	b.ReportMetric(push.Seconds()/float64(b.N), "push-s/op")
}

// BenchmarkIdleRound times a round with nothing to pull or push, what the
// agent's loop pays every interval.
func BenchmarkIdleRound(b *testing.B) {
	url := remoteURL(b)
	a := newMachine(b, "a", 0, Dial(url, ""))
	a.create(b, belief.Spec{Statement: "something to start with"}, 1)
	a.round(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := a.round(b); rep.Moved() {
			b.Fatalf("idle round moved rows: %+v", rep)
		}
	}
}
