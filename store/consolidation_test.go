package store

import (
	"context"
	"testing"

	"github.com/credence-mem/credence/belief"
)

func TestConsolidationRecords(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var eps []Episode
	for i, p := range []string{"/a", "/a", "/b", ""} {
		ep := Episode{Content: "2026-01-02", ProjectPath: p, SessionID: ""}
		if i == 3 {
			ep.Origin = "mc_elsewhere"
		}
		if _, err := db.AddEpisode(ctx, &ep); err != nil {
			t.Fatal(err)
		}
		eps = append(eps, ep)
	}
	local, err := db.LocalEpisodesAfter(ctx, db.MachineID(), 0, 10)
	if err != nil || len(local) != 3 || local[0].Content != "2026-01-02" || local[0].Summary != "" {
		t.Fatalf("LocalEpisodesAfter=%d episodes (%v); want this machine's 3, text as written", len(local), err)
	}
	copy(eps, local) // with their sequence numbers
	err = db.Write(ctx, func(tx *Tx) error {
		fresh, err := tx.MarkConsolidated(ctx, Consolidated{EpisodeID: eps[0].ID, Seq: eps[0].Seq, State: ConsolidationPooled,
			Mode: "offline", Facts: `[{"s":"user"}]`, CycleID: "cy_1"})
		if err != nil || !fresh {
			t.Errorf("first MarkConsolidated=%v, %v; want fresh", fresh, err)
		}
		again, err := tx.MarkConsolidated(ctx, Consolidated{EpisodeID: eps[0].ID, Seq: eps[0].Seq, State: ConsolidationPooled, Mode: "offline", CycleID: "cy_2"})
		if err != nil || again {
			t.Errorf("second MarkConsolidated=%v, %v; want not fresh", again, err)
		}
		n, err := tx.MarkConsolidatedMany(ctx, []Consolidated{
			{EpisodeID: eps[0].ID, Seq: eps[0].Seq, State: ConsolidationRetired, Mode: "offline", CycleID: "cy_2"},
			{EpisodeID: eps[1].ID, Seq: eps[1].Seq, State: ConsolidationPooled, Mode: "offline", CycleID: "cy_2"},
			{EpisodeID: eps[2].ID, Seq: eps[2].Seq, State: ConsolidationPooled, Mode: "offline", CycleID: "cy_2"},
		})
		if err != nil || n != 2 {
			t.Errorf("MarkConsolidatedMany=%d, %v; want 2 new", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountLocalEpisodesAfter(ctx, db.MachineID(), 0); err != nil || n != 0 {
		t.Errorf("CountLocalEpisodesAfter=%d, %v; want 0 left", n, err)
	}
	pool, err := db.Pool(ctx, 10, "/a")
	if err != nil || len(pool) != 2 || pool[0].Facts != `[{"s":"user"}]` || pool[1].Facts != "[]" {
		t.Fatalf("Pool(/a)=%+v, %v; want both /a episodes with their facts", pool, err)
	}
	facts, err := db.ConsolidatedFacts(ctx, []string{eps[0].ID, eps[3].ID})
	if err != nil || len(facts) != 1 || facts[eps[0].ID] != `[{"s":"user"}]` {
		t.Errorf("ConsolidatedFacts=%v, %v", facts, err)
	}
	err = db.Write(ctx, func(tx *Tx) error {
		n, err := tx.RetirePool(ctx, 1)
		if err != nil || n != 2 {
			t.Errorf("RetirePool(keep 1)=%d, %v; want 2 retired", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pool, _ := db.Pool(ctx, 10); len(pool) != 1 || pool[0].EpisodeID != eps[2].ID {
		t.Errorf("pool after retiring=%+v, want only the newest", pool)
	}
}

func TestSlotBeliefsAndRawReads(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var ids []string
	err := db.Write(ctx, func(tx *Tx) error {
		for _, s := range []belief.Spec{
			{Statement: "2026-01-02", Subject: "user", Predicate: "uses_editor", Object: "vim", Scope: belief.ScopeProject, ProjectPath: "/p"},
			{Statement: "Project uses Emacs", Subject: "project", Predicate: "uses_editor", Object: "emacs", Scope: belief.ScopeProject, ProjectPath: "/p"},
			{Statement: "Elsewhere", Subject: "project", Predicate: "uses_editor", Object: "nano", Scope: belief.ScopeProject, ProjectPath: "/q"},
			{Statement: "No editor", Subject: "project", Predicate: "not_uses_editor", Object: "ed", Scope: belief.ScopeProject, ProjectPath: "/p"},
		} {
			id, err := tx.CreateBelief(ctx, s)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		got, err := tx.SlotBeliefs(ctx, SlotFilter{Scope: belief.ScopeProject, Project: "/p", Subjects: []string{"user", "project"},
			Predicates: []string{"uses_editor", "not_uses_editor"}, Statuses: []belief.Status{belief.Active}})
		if err != nil || len(got) != 3 {
			t.Errorf("tx.SlotBeliefs=%d, %v; want the 3 of /p", len(got), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := db.Beliefs(ctx, Filter{Project: "/p", Scope: belief.ScopeProject})
	if err != nil || len(bs) != 3 || bs[0].Statement != "2026-01-02" || bs[0].Context != "" || bs[0].ID != ids[0] {
		t.Fatalf("ScanBeliefs=%+v, %v; want three rows, text as written", bs, err)
	}
	eps, err := db.EpisodesByID(ctx, []string{"ep_none"})
	if err != nil || len(eps) != 0 {
		t.Errorf("EpisodesByID(unknown)=%v, %v", eps, err)
	}
}

func TestCycleRecords(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for i, c := range []Cycle{
		{ID: "cy_1", Trigger: "start", Mode: "offline", Status: CycleDone, StartedAt: 1000, FinishedAt: 2000, PromptTokens: 5},
		{ID: "cy_2", Trigger: "cli", Mode: "llm", Status: CycleRunning, StartedAt: 3000},
	} {
		if err := db.SaveCycle(ctx, c); err != nil {
			t.Fatalf("SaveCycle %d: %v", i, err)
		}
	}
	if n, err := db.AbandonCycles(ctx, "died"); err != nil || n != 1 {
		t.Errorf("AbandonCycles=%d, %v; want the running one", n, err)
	}
	cs, err := db.Cycles(ctx, 10)
	if err != nil || len(cs) != 2 || cs[0].ID != "cy_2" || cs[0].Status != CycleFailed || cs[0].Error != "died" || cs[1].PromptTokens != 5 {
		t.Fatalf("Cycles=%+v, %v", cs, err)
	}
	if err := db.SetMeta(ctx, "sync_cursor", "7"); err != nil {
		t.Fatal(err)
	}
	m, err := db.MetaPrefix(ctx, "sync_")
	if err != nil || len(m) != 1 || m["sync_cursor"] != "7" {
		t.Errorf("MetaPrefix=%v, %v", m, err)
	}
}
