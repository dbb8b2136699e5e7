package store

import (
	"context"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// TestRestate checks that a restated belief keeps its triple, counts and
// status, that rebuilding from the log gives the same statement, and that
// forgetting the belief purges the restated text too.
func TestRestate(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var id string
	err := db.Write(ctx, func(tx *Tx) error {
		var err error
		id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "User moved to Lisbon", Subject: "user",
			Predicate: "lives_in", Object: "lisbon"})
		if err != nil {
			return err
		}
		if _, err := tx.AddEvidence(ctx, Evidence{BeliefID: id, Label: belief.Supports}); err != nil {
			return err
		}
		_, err = tx.Restate(ctx, id, "User lives in Lisbon")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Belief(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if b.Statement != "User lives in Lisbon" || b.Object != "lisbon" || b.Status != belief.Active || b.EvidenceCount != 1 {
		t.Fatalf("after restate: %q %q %s evidence=%d, want the new statement, same triple, active, 1", b.Statement, b.Object, b.Status, b.EvidenceCount)
	}
	if hits, err := db.SQL().QueryContext(ctx, `SELECT rowid FROM beliefs_fts WHERE beliefs_fts MATCH 'lives'`); err != nil {
		t.Fatal(err)
	} else {
		found := hits.Next()
		hits.Close()
		if !found {
			t.Errorf("full-text index does not hold the restated statement")
		}
	}
	if _, err := db.SQL().ExecContext(ctx, `UPDATE beliefs SET statement = 'garbage'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ = db.Belief(ctx, id); b.Statement != "User lives in Lisbon" {
		t.Fatalf("after rebuild: statement %q, want the restated one", b.Statement)
	}
	if err := db.Write(ctx, func(tx *Tx) error {
		_, err := tx.Restate(ctx, id, "  ")
		return err
	}); err == nil {
		t.Errorf("Restate with an empty statement succeeded, want an error")
	}
	if _, err := db.Forget(ctx, []string{id}, KeepEpisodes); err != nil {
		t.Fatal(err)
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT payload FROM belief_events WHERE belief_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "Lisbon") {
			t.Errorf("after forget an event still holds the text: %s", p)
		}
	}
	assertSound(t, db, "forget")
}

// TestSessionEpisodesBefore lists a session's earlier episodes, newest
// first, and nothing of other sessions.
func TestSessionEpisodesBefore(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var eps []Episode
	for i, text := range []string{"My name is Jon.", "other session", "fix the test", "Actually it's John"} {
		sid := "s1"
		if i == 1 {
			sid = "s2"
		}
		e := Episode{SessionID: sid, Kind: EpisodePrompt, Content: text, Scope: belief.ScopeGlobal}
		if _, err := db.AddEpisode(ctx, &e); err != nil {
			t.Fatal(err)
		}
		eps = append(eps, e)
	}
	last, err := db.Episode(ctx, eps[3].ID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.SessionEpisodesBefore(ctx, "s1", last.Seq, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Content != "fix the test" || got[1].Content != "My name is Jon." {
		var texts []string
		for _, e := range got {
			texts = append(texts, e.Content)
		}
		t.Fatalf("SessionEpisodesBefore=%q, want the two earlier prompts of s1, newest first", texts)
	}
}
