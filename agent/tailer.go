package agent

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/credence-mem/credence/hooks"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// Limits of what the tailer stores, matching the hooks' so an exchange
// looks the same whichever path stored it.
const (
	maxStoredBytes = 64 << 10
	truncatedMark  = "\n[…truncated by credence]"
)

// tailReadTimeout bounds one read of a transcript; the agent stopping ends
// it sooner. A read cut short stores nothing and moves no offset.
const tailReadTimeout = 10 * time.Second

// tailer is the backstop for a SessionEnd hook that never fired: it
// watches ~/.claude/projects/<key>/<session>.jsonl and, once a transcript
// has been quiet for a while, stores the exchanges beyond the session's
// offset — the same offset the hooks keep in hook_sessions — with the
// exchange keys the hooks use, so nothing is stored twice whichever path
// sees an exchange first. It watches directories, never files, and owns
// its timer in one goroutine.
type tailer struct {
	a       *Agent
	root    string
	quiet   time.Duration
	recent  time.Duration
	fsw     *fsnotify.Watcher
	watched map[string]bool
	dirty   map[string]time.Time // transcript → time of its last write
}

func newTailer(a *Agent, root string, quiet, recent time.Duration) *tailer {
	return &tailer{a: a, root: root, quiet: quiet, recent: recent, watched: map[string]bool{}, dirty: map[string]time.Time{}}
}

// run watches until ctx ends. When the projects directory does not exist
// yet it looks again every retry, a stat and nothing more.
func (t *tailer) run(ctx context.Context, retry time.Duration) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		t.a.log.Error("transcript tailer not started", "err", err.Error())
		return
	}
	t.fsw = fsw
	defer fsw.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var look <-chan time.Time
	if !t.start() {
		look = time.After(retry)
	}
	t.arm(timer)
	for {
		select {
		case <-ctx.Done():
			return
		case <-look:
			look = nil
			if !t.start() {
				look = time.After(retry)
			}
			t.arm(timer)
		case ev, ok := <-fsw.Events:
			if !ok {
				return
			}
			t.event(ev)
			t.arm(timer)
		case err, ok := <-fsw.Errors:
			if !ok {
				return
			}
			t.a.log.Warn("transcript watch error", "err", err.Error())
		case <-timer.C:
			t.flushDue(ctx)
			t.arm(timer)
		}
	}
}

// start watches the projects directory and each project directory in it,
// and marks the transcripts written within t.recent as due. It reports
// false when the projects directory does not exist.
func (t *tailer) start() bool {
	if fi, err := os.Stat(t.root); err != nil || !fi.IsDir() {
		return false
	}
	if err := t.watch(t.root); err != nil {
		return false
	}
	entries, err := os.ReadDir(t.root)
	if err != nil {
		t.a.log.Warn("read transcript directory", "err", err.Error())
		return true
	}
	for _, e := range entries {
		if e.IsDir() {
			t.addProject(filepath.Join(t.root, e.Name()))
		}
	}
	return true
}

func (t *tailer) watch(dir string) error {
	if t.watched[dir] {
		return nil
	}
	if err := t.fsw.Add(dir); err != nil {
		t.a.log.Warn("watch transcript directory", "dir", dir, "err", err.Error())
		return err
	}
	t.watched[dir] = true
	t.a.setWatching(len(t.watched))
	return nil
}

// addProject watches a project directory and marks its recently written
// transcripts due (as of their modification time).
func (t *tailer) addProject(dir string) {
	if t.watch(dir) != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := t.a.now()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) > t.recent {
			continue // older sessions are `credence import`'s, not the backstop's
		}
		t.dirty[filepath.Join(dir, e.Name())] = info.ModTime()
	}
}

func (t *tailer) event(ev fsnotify.Event) {
	dir := filepath.Dir(ev.Name)
	switch {
	case dir == t.root && ev.Has(fsnotify.Create):
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			t.addProject(ev.Name)
		}
	case filepath.Dir(dir) == t.root && strings.HasSuffix(ev.Name, ".jsonl") &&
		(ev.Has(fsnotify.Write) || ev.Has(fsnotify.Create)):
		t.dirty[ev.Name] = t.a.now()
	}
}

// arm sets the timer for the transcript that falls quiet first.
func (t *tailer) arm(timer *time.Timer) {
	if len(t.dirty) == 0 {
		return
	}
	var first time.Time
	for _, at := range t.dirty {
		if first.IsZero() || at.Before(first) {
			first = at
		}
	}
	timer.Reset(max(first.Add(t.quiet).Sub(t.a.now()), time.Millisecond))
}

// flushDue stores what every transcript quiet for t.quiet holds.
func (t *tailer) flushDue(ctx context.Context) {
	now := t.a.now()
	var due []string
	for path, at := range t.dirty {
		if now.Sub(at) >= t.quiet {
			due = append(due, path)
		}
	}
	sort.Strings(due)
	for _, path := range due {
		if ctx.Err() != nil {
			return
		}
		delete(t.dirty, path)
		n, moved, err := t.flush(ctx, path)
		if err != nil {
			if ctx.Err() != nil {
				return // stopping: the transcript is read again next start
			}
			t.a.log.Warn("transcript not tailed", "path", path, "err", err.Error())
			if errors.Is(err, store.ErrLocked) {
				t.dirty[path] = now // try again after another quiet period
			}
			continue
		}
		if moved {
			// More may follow what one read may take (transcript.MaxReadBytes):
			// read on from the new offset at once; a read that moves nothing
			// ends it.
			t.dirty[path] = now.Add(-t.quiet)
		}
		if n > 0 {
			t.a.log.Info("tailed transcript", "path", path, "stored", n)
			t.a.tailed(n)
		}
	}
}

// flush stores the complete exchanges of one transcript beyond its
// session's offset and moves the offset, in one transaction, as the
// SessionEnd hook does. It returns how many exchanges were new and whether
// the offset moved. A path that is gone, or is not a regular file, holds
// nothing to store.
func (t *tailer) flush(ctx context.Context, path string) (stored int, moved bool, err error) {
	db := t.a.db
	sid := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	sess, err := db.Session(ctx, sid)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, false, err
	}
	from := sess.TranscriptOffset
	rctx, cancel := context.WithTimeout(ctx, tailReadTimeout)
	exs, next, reread, err := transcript.ReadFileResuming(rctx, path, from)
	cancel()
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, transcript.ErrNotRegular) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if reread {
		from = 0
	}
	if len(exs) == 0 && next == from {
		return 0, false, nil
	}
	n, err := hooks.StoreExchanges(ctx, db, store.Session{ID: sid, ProjectPath: sess.ProjectPath, TranscriptPath: path}, exs, next)
	return n, err == nil && next != from, err
}
