package syncer

import (
	"context"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// TestDateLikeTextSyncsExactly syncs text that looks like a date. go-libsql
// returns such TEXT as a time.Time, which database/sql turns back into a
// string in another layout, so a push or a pull that scans text directly
// rewrote "2026-01-02" as "2026-01-02T00:00:00Z" on the remote and on
// every other machine.
func TestDateLikeTextSyncsExactly(t *testing.T) {
	for _, rt := range remoteKinds(t) {
		t.Run(rt.name, func(t *testing.T) {
			a := newMachine(t, "a", 0, rt.dial(t))
			b := newMachine(t, "b", time.Second, rt.dial(t))
			ctx := context.Background()
			texts := []string{"2026-01-02", "2026-01-02 10:30", "2026-01-02T10:30:00.5+02:00", " 2026-01-02 ",
				"O'Brien's \"quoted\" ✓ 0.1 -- not a comment; DROP TABLE episodes"}
			var eps []*store.Episode
			for _, text := range texts {
				e := &store.Episode{Content: text, SessionID: text, ProjectPath: "/p/" + text}
				if _, err := a.db.AddEpisode(ctx, e); err != nil {
					t.Fatal(err)
				}
				eps = append(eps, e)
			}
			id := a.create(t, belief.Spec{Statement: "2026-01-02", Subject: "2026-01-02", Predicate: "is", Object: "a date"}, 0)
			a.write(t, func(ctx context.Context, tx *store.Tx) error {
				_, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "2026-01-02", Label: belief.Supports,
					Note: "2026-01-02T10:30:00Z"})
				return err
			})
			a.round(t)
			b.round(t)
			for _, e := range eps {
				got, err := b.db.Episode(ctx, e.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Content != e.Content || got.SessionID != e.SessionID || got.ProjectPath != e.ProjectPath {
					t.Errorf("b: episode %q/%q/%q, want %q/%q/%q", got.Content, got.SessionID, got.ProjectPath,
						e.Content, e.SessionID, e.ProjectPath)
				}
			}
			bl, err := b.db.Belief(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if bl.Statement != "2026-01-02" || bl.Subject != "2026-01-02" {
				t.Errorf("b: belief %q (%q), want 2026-01-02", bl.Statement, bl.Subject)
			}
			if d := diff(a.snapshot(t), b.snapshot(t), allTables...); d != "" {
				t.Errorf("a and b differ:\n%s", d)
			}
			if d := diff(takeSnapshot(t, a.db.SQL(), remoteQueries), takeSnapshot(t, rt.inspect(t), remoteQueries),
				"episodes", "evidence", "events"); d != "" {
				t.Errorf("a and the remote differ:\n%s", d)
			}
		})
	}
}
