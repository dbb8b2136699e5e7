package store

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// TestEmptyTextUnderGC reads rows full of empty text while the garbage
// collector runs continuously. go-libsql returns an empty BLOB with the
// dangling pointer 0x1, and the GC aborts the whole process when it finds
// that on a stack ("invalid pointer found on stack"); every text read must
// go through rawCols or nullif so no empty BLOB ever comes back.
func TestEmptyTextUnderGC(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	id := mustCreate(t, db, belief.Spec{Statement: "x"}) // empty subject, object, context, project, source…
	addEv(t, db, id, belief.Supports, 0)
	e := &Episode{Kind: EpisodeNote, Content: "y"} // empty session, project, summary
	if _, err := db.AddEpisode(ctx, e); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			runtime.GC()
		}
	}()
	defer func() { stop.Store(true); <-done }()
	for i := 0; i < 300; i++ {
		if _, err := db.Belief(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Episode(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.RecallBeliefs(ctx, []string{id}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.RecallEpisodes(ctx, []string{e.ID}, "", 100); err != nil {
			t.Fatal(err)
		}
		if _, err := db.AsOf(ctx, id, db.Now()); err != nil {
			t.Fatal(err)
		}
	}
}
