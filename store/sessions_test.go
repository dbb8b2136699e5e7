package store

import (
	"context"
	"errors"
	"testing"

	"github.com/credence-mem/credence/belief"
)

func TestSessionLifecycle(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.Session(ctx, "s1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Session(missing) err=%v, want ErrNotFound", err)
	}
	err := db.Write(ctx, func(tx *Tx) error {
		if err := tx.SaveSession(ctx, Session{ID: "s1", ProjectPath: "/p", TranscriptPath: "/t.jsonl"}); err != nil {
			return err
		}
		// Later saves with empty fields keep what is stored.
		if err := tx.SaveSession(ctx, Session{ID: "s1", LastPromptID: "ep_x"}); err != nil {
			return err
		}
		return tx.SetTranscriptOffset(ctx, "s1", 1234)
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.Session(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{ID: "s1", ProjectPath: "/p", TranscriptPath: "/t.jsonl", TranscriptOffset: 1234, LastPromptID: "ep_x",
		StartedAt: s.StartedAt, LastSeenAt: s.LastSeenAt}
	if s != want || s.StartedAt == 0 {
		t.Errorf("Session()=%+v, want %+v", s, want)
	}
	if err := db.Write(ctx, func(tx *Tx) error { return tx.SaveSession(ctx, Session{ID: "s1", EndedAt: 99}) }); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.Session(ctx, "s1"); s.EndedAt != 99 || s.TranscriptOffset != 1234 {
		t.Errorf("after end: %+v, want EndedAt 99 and offset kept", s)
	}
}

func TestPreviousSession(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for _, id := range []string{"a", "b"} {
		if err := db.Write(ctx, func(tx *Tx) error { return tx.SaveSession(ctx, Session{ID: id, ProjectPath: "/p"}) }); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, project, exclude, want string
	}{
		{"other session of the project", "/p", "b", "a"},
		{"no other project session", "/q", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := db.PreviousSession(ctx, tc.project, tc.exclude)
			if tc.want == "" {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("PreviousSession err=%v, want ErrNotFound", err)
				}
				return
			}
			if err != nil || s.ID != tc.want {
				t.Fatalf("PreviousSession()=%q, %v; want %q", s.ID, err, tc.want)
			}
		})
	}
}

func TestCountSessionPromptsAndTurn(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	err := db.Write(ctx, func(tx *Tx) error {
		for _, c := range []string{"run tests", "run tests", "other"} {
			if _, err := tx.NextTurn(ctx); err != nil {
				return err
			}
			if _, err := tx.AddEpisode(ctx, &Episode{SessionID: "s", Kind: EpisodePrompt, Content: c}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountSessionPrompts(ctx, "s", "run tests"); err != nil || n != 2 {
		t.Errorf("CountSessionPrompts()=%d, %v; want 2", n, err)
	}
	if n, err := db.CurrentTurn(ctx); err != nil || n != 3 {
		t.Errorf("CurrentTurn()=%d, %v; want 3", n, err)
	}
}

func TestLatestSchemaVersionMatchesOpen(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	have, err := db.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := LatestSchemaVersion()
	if err != nil || latest != have || latest < 4 {
		t.Errorf("LatestSchemaVersion()=%d, %v; database at %d", latest, err, have)
	}
}

func TestExclusiveBeliefsAndChanges(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	specs := []belief.Spec{
		{Statement: "The project uses pnpm", Subject: "project", Predicate: "uses_package_manager", Object: "pnpm", Scope: belief.ScopeProject, ProjectPath: "/p"},
		{Statement: "The user prefers tabs", Subject: "user", Predicate: "prefers", Object: "tabs", Scope: belief.ScopeGlobal},
		{Statement: "Other project uses npm", Subject: "project", Predicate: "uses_package_manager", Object: "npm", Scope: belief.ScopeProject, ProjectPath: "/q"},
	}
	err := db.Write(ctx, func(tx *Tx) error {
		for _, s := range specs {
			if _, err := tx.CreateBelief(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := db.ExclusiveBeliefs(ctx, "/p")
	if err != nil || len(ex) != 1 || ex[0].Statement != "The project uses pnpm" {
		t.Errorf("ExclusiveBeliefs(/p)=%v, %v; want the pnpm belief only", ex, err)
	}
	changed, err := db.BeliefsChangedSince(ctx, 0, "/p", 10)
	if err != nil || len(changed) != 2 {
		t.Errorf("BeliefsChangedSince(/p)=%d beliefs, %v; want 2 (own and global)", len(changed), err)
	}
	if changed, _ := db.BeliefsChangedSince(ctx, db.Now().UnixMilli(), "/p", 10); len(changed) != 0 {
		t.Errorf("BeliefsChangedSince(now)=%d beliefs, want 0", len(changed))
	}
}
