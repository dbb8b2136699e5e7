package promote

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// waitTimeout bounds every wait for a watcher event. The design asks for
// edits to be picked up within a second (see BenchmarkWatcherLatency); the
// tests allow far more so a loaded machine does not fail them.
const waitTimeout = 15 * time.Second

// watch opens a Watcher on e's promoter and returns its events.
func (e *env) watch() (*Watcher, <-chan SyncEvent) {
	e.t.Helper()
	events := make(chan SyncEvent, 256)
	w := NewWatcher(e.p, WatcherOptions{Debounce: 20 * time.Millisecond, OnSync: func(ev SyncEvent) { events <- ev }})
	if err := w.Open(e.ctx); err != nil {
		e.t.Fatalf("Open: %v", err)
	}
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		defer cancel()
		if err := w.Close(ctx); err != nil {
			e.t.Errorf("Close: %v", err)
		}
	})
	return w, events
}

// waitEvent returns the first event for path that satisfies ok.
func waitEvent(t *testing.T, events <-chan SyncEvent, path string, what string, ok func(SyncEvent) bool) SyncEvent {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		select {
		case ev := <-events:
			if ev.Err != nil {
				t.Fatalf("sync of %s failed: %v", ev.Path, ev.Err)
			}
			if ev.Path == path && ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no watcher event for %s (%s) within %v", path, what, waitTimeout)
		}
	}
}

// waitWatching waits until the watcher watches dir.
func waitWatching(t *testing.T, w *Watcher, dir string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !slices.Contains(w.fsw.WatchList(), dir) {
		if time.Now().After(deadline) {
			t.Fatalf("%s not watched within %v; watching %v", dir, waitTimeout, w.fsw.WatchList())
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not asserting time
	}
}

func TestWatcherDeletedBullet(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User wants emoji in commit messages", 4, 0)
	e.global("User writes Go", 4, 0)
	e.promote()
	_, events := e.watch()

	e.removeLine(path, "emoji in commit messages")
	waitEvent(t, events, path, "deletion", func(ev SyncEvent) bool { return ev.Stats.UserDeleted == 1 })
	b := e.get(id)
	if b.Status != belief.Rejected || len(e.userEdits(id)) != 1 {
		t.Fatalf("status=%s with %d memory.md evidence, want rejected with one USER_EDIT", b.Status, len(e.userEdits(id)))
	}
	if strings.Contains(e.read(path), "emoji") || !e.under(path, markdown.HeadingBeliefs, "User writes Go") {
		t.Fatalf("file after the deletion:\n%s", e.read(path))
	}
	// A later cycle does not bring it back.
	e.promote()
	if strings.Contains(e.read(path), "emoji") {
		t.Fatalf("re-promoted:\n%s", e.read(path))
	}
}

func TestWatcherAddedBulletAndOwnWrite(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	e.promote() // the global file exists with an empty ## Beliefs
	_, events := e.watch()

	e.addUnder(path, markdown.HeadingBeliefs, "- User lives in Lisbon")
	waitEvent(t, events, path, "addition", func(ev SyncEvent) bool { return ev.Stats.UserAdded == 1 })
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Predicate: "lives_in"})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || !bs[0].Pinned || bs[0].Source != userSource || bs[0].Object != "lisbon" {
		t.Fatalf("beliefs after the addition: %+v", bs)
	}
	want := "- User lives in Lisbon (confidence: 0.67, evidence: 1)"
	if line := e.bulletLine(path, "Lisbon"); line != want {
		t.Fatalf("bullet %q, want %q", line, want)
	}
	// Rewriting the bullet in credence's format was our own write: the
	// watcher sees it and ignores it.
	waitEvent(t, events, path, "own write", func(ev SyncEvent) bool { return ev.Own })
	if all, _ := e.db.Beliefs(e.ctx, store.Filter{Predicate: "lives_in"}); len(all) != 1 {
		t.Fatalf("%d lives_in beliefs, want 1", len(all))
	}
}

func TestWatcherIgnoresOwnCycle(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	_, events := e.watch()
	id := e.global("User reviews PRs in the morning", 4, 0)
	e.promote()
	waitEvent(t, events, path, "own write", func(ev SyncEvent) bool { return ev.Own })
	if n := len(e.userEdits(id)); n != 0 || e.get(id).Status != belief.Active {
		t.Fatalf("own write taken for an edit: %d memory.md evidence, status %s", n, e.get(id).Status)
	}
}

func TestWatcherEditOutsideSection(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User prefers dark themes", 4, 0)
	e.promote()
	_, events := e.watch()
	before := e.read(path)
	e.write(path, before+"\n## 2026-03-01 notes\n\n- written by Claude Code\n")
	ev := waitEvent(t, events, path, "edit outside the section", func(ev SyncEvent) bool { return !ev.Own })
	if ev.Stats.UserDeleted != 0 || ev.Stats.UserAdded != 0 || ev.Stats.Written != 0 {
		t.Fatalf("Stats=%+v, want no changes for an edit outside the section", ev.Stats)
	}
	if got := e.read(path); got != before+"\n## 2026-03-01 notes\n\n- written by Claude Code\n" {
		t.Fatalf("file changed after an edit outside the section:\n%s", got)
	}
	if e.get(id).Status != belief.Active {
		t.Fatalf("belief touched by an unrelated edit")
	}
	// The next event for the same content is recognised as already seen.
	if own, err := e.syncOwn(path); err != nil || !own {
		t.Fatalf("SyncFile of an already synced file: own=%v err=%v", own, err)
	}
}

// A project whose memory directory does not exist when the watcher starts
// is followed once the promotion cycle creates it.
func TestWatcherFollowsNewProjectDirectory(t *testing.T) {
	e := newEnv(t, nil)
	root := e.project("newapp")
	id := e.belief(belief.Spec{Statement: "Newapp uses SQLite", Scope: belief.ScopeProject, ProjectPath: root}, 4, 0)
	w, events := e.watch()
	path := e.projectFile(root)
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Fatalf("memory directory exists before the cycle (err %v)", err)
	}
	e.promote()
	waitWatching(t, w, filepath.Dir(path))
	e.removeLine(path, "Newapp uses SQLite")
	waitEvent(t, events, path, "deletion in the new project", func(ev SyncEvent) bool { return ev.Stats.UserDeleted == 1 })
	if b := e.get(id); b.Status != belief.Rejected || b.Scope != belief.ScopeProject {
		t.Fatalf("status=%s scope=%s, want the project belief rejected", b.Status, b.Scope)
	}
}

// A person's bullet in a project file becomes a belief of that project.
func TestWatcherProjectAddition(t *testing.T) {
	e := newEnv(t, nil)
	root := e.project("shop")
	e.belief(belief.Spec{Statement: "Shop deploys with Fly", Scope: belief.ScopeProject, ProjectPath: root}, 4, 0)
	e.promote()
	path := e.projectFile(root)
	_, events := e.watch()
	e.addUnder(path, markdown.HeadingBeliefs, "- We use pnpm")
	waitEvent(t, events, path, "addition", func(ev SyncEvent) bool { return ev.Stats.UserAdded == 1 })
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Scope: belief.ScopeProject, Project: root, Predicate: "uses_package_manager"})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Statement != "We use pnpm" || bs[0].Object != "pnpm" {
		t.Fatalf("project beliefs after the addition: %+v", bs)
	}
	if strings.Contains(e.read(e.cfg.Paths.GlobalMemory), "pnpm") {
		t.Fatalf("a project bullet reached the global file")
	}
}
