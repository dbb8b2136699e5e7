package promote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/credence-mem/credence/markdown"
)

// WatcherOptions tune a Watcher. The zero value is ready to use.
type WatcherOptions struct {
	// Debounce is the quiet time after the last event for a file before it
	// is read; zero takes cfg.Memory.WatchDebounce, and a configured zero
	// means 1 ms. Editors save in bursts (truncate, write, rename, chmod).
	Debounce time.Duration
	// Logger receives watch errors; nil uses the Promoter's logger.
	Logger *slog.Logger
	// OnSync, when set, is called from the watcher's goroutine after each
	// file it handled (for the agent's status and for tests).
	OnSync func(SyncEvent)
}

// SyncEvent reports one file the watcher handled: a MEMORY.md target, or
// one of Claude Code's memory files (Note set).
type SyncEvent struct {
	Path  string
	Own   bool  // the file held exactly what credence last wrote: our own write
	Stats Stats // what syncing the file did (zero when Own)
	// Note is set for a memory file; NoteStats says what reading it did.
	Note      bool
	NoteStats NoteStats
	Err       error
}

// maxAncestorClimb bounds how far above a missing target directory the
// watcher looks for an existing directory to watch for its creation
// (memory/ → <key>/ → projects/ → .claude/).
const maxAncestorClimb = 3

// maxDebounces bounds how long a burst of events delays a sync: at most this
// many debounce periods after its first event.
const maxDebounces = 3

// Watcher keeps MEMORY.md two-way: it watches the directories of all target
// files (fsnotify watches directories, not files, so atomic renames by
// Claude Code and editors are seen) and, after a quiet period, hands each
// changed target to Promoter.SyncFile, which reads a person's deletions and
// additions back into the beliefs. Events caused by credence's own writes
// are recognised by content hash and ignored. Directories that do not exist
// yet (a project's memory/ before Claude Code or credence creates it) are
// watched through their nearest existing ancestor until they appear; the
// global file's directory is created. The target list follows each
// promotion cycle.
type Watcher struct {
	p    *Promoter
	opts WatcherOptions
	log  *slog.Logger

	fsw    *fsnotify.Watcher
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex               // guards latest
	latest     map[string]markdown.Root // targets from the last cycle, not yet applied
	refreshSig chan struct{}

	// Owned by the loop goroutine after Open.
	targets map[string]markdown.Root // target file paths and their memory roots
	watched map[string]bool          // directories added to fsw
	refused map[string]bool          // directories not watched: a link leads out of the root
	// noteDirs are the memory directories whose memory files are read
	// (Claude Code's per-project ones and the global one), with their roots.
	noteDirs map[string]markdown.Root
	// changed is when each pending path last changed: a change no hook
	// record explains yet waits up to memory.edit_attribution for one.
	changed map[string]time.Time
	// startup holds the memory files found at Open: changed while the
	// agent was not running, by nobody the hook saw. They are taken for
	// the model's (Claude Code writes these files), the weaker evidence,
	// unless a record says so anyway.
	startup map[string]bool
}

// NewWatcher returns a Watcher for p's target files; Open starts it.
func NewWatcher(p *Promoter, opts WatcherOptions) *Watcher {
	if opts.Debounce <= 0 {
		opts.Debounce = p.cfg.Memory.WatchDebounce
		if opts.Debounce <= 0 {
			opts.Debounce = time.Millisecond
		}
	}
	w := &Watcher{p: p, opts: opts, log: opts.Logger, refreshSig: make(chan struct{}, 1),
		targets: map[string]markdown.Root{}, watched: map[string]bool{}, refused: map[string]bool{},
		noteDirs: map[string]markdown.Root{}, changed: map[string]time.Time{}, startup: map[string]bool{}}
	if w.log == nil {
		w.log = p.log
	}
	return w
}

// Open creates the global file's directory, removes temp files a killed
// writer left in the target directories, starts watching them and returns;
// the watching runs until Close.
func (w *Watcher) Open(ctx context.Context) error {
	if w.fsw != nil {
		return errors.New("memory watcher: already open")
	}
	if err := os.MkdirAll(filepath.Dir(w.p.cfg.Paths.GlobalMemory), 0o700); err != nil {
		return fmt.Errorf("memory watcher: create global memory directory: %w", err)
	}
	targets, err := w.p.Targets(ctx)
	if err != nil {
		return fmt.Errorf("memory watcher: %w", err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("memory watcher: %w", err)
	}
	w.fsw = fsw
	for path, root := range targets {
		if _, err := markdown.SweepTemps(filepath.Dir(path), root); err != nil {
			w.log.Warn("stale temp files not removed", "dir", filepath.Dir(path), "err", err)
		}
	}
	w.setTargets(targets)
	w.p.setTargetListener(w.targetsChanged)
	// Memory files changed or deleted while the agent was not running.
	initial := w.notesToCheck(ctx)
	loopCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w.cancel = cancel
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.loop(loopCtx, initial)
	}()
	return nil
}

// Close stops watching: it cancels the loop, waits for a sync in progress
// to finish (or ctx to end) and releases the fsnotify watcher.
func (w *Watcher) Close(ctx context.Context) error {
	if w.fsw == nil {
		return nil
	}
	w.p.setTargetListener(nil)
	w.cancel()
	done := make(chan struct{})
	go func() {
		w.wg.Wait()
		close(done)
	}()
	var waitErr error
	select {
	case <-done:
	case <-ctx.Done():
		waitErr = fmt.Errorf("memory watcher: close: %w", context.Cause(ctx))
	}
	closeErr := w.fsw.Close()
	if closeErr != nil {
		closeErr = fmt.Errorf("memory watcher: close: %w", closeErr)
	}
	return errors.Join(waitErr, closeErr)
}

// targetsChanged is the Promoter's listener. It runs under the Promoter's
// lock while the loop may be waiting for that lock, so it must not block:
// it leaves the list for the loop and signals it.
func (w *Watcher) targetsChanged(targets map[string]markdown.Root) {
	w.mu.Lock()
	w.latest = targets
	w.mu.Unlock()
	select {
	case w.refreshSig <- struct{}{}:
	default:
	}
}

// loop is the one goroutine that reads events and owns the debounce timer.
func (w *Watcher) loop(ctx context.Context, initial []string) {
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var first time.Time // first event of the pending burst
	if len(initial) > 0 {
		for _, p := range initial {
			pending[p] = true
			w.startup[p] = true
		}
		first = time.Now()
		timer.Reset(0)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			wasIdle := len(pending) == 0
			if !w.handle(ev, pending) {
				continue
			}
			// Wait for a quiet period, but not forever: a file written
			// every few milliseconds is still read within three debounces.
			if wasIdle {
				first = time.Now()
			}
			if wait := min(w.opts.Debounce, time.Until(first.Add(maxDebounces*w.opts.Debounce))); wasIdle || wait > 0 {
				timer.Reset(max(wait, 0))
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.log.Warn("memory watcher error", "err", err)
		case <-w.refreshSig:
			w.mu.Lock()
			targets := w.latest
			w.mu.Unlock()
			w.setTargets(targets)
		case <-timer.C:
			if wait := w.flush(ctx, pending); len(pending) > 0 {
				// Changes waiting for the hook's record of a model edit.
				first = time.Now()
				timer.Reset(max(wait, w.opts.Debounce))
			}
		}
	}
}

// handle notes an event and reports whether a target became pending.
func (w *Watcher) handle(ev fsnotify.Event, pending map[string]bool) bool {
	path := filepath.Clean(ev.Name)
	if ev.Has(fsnotify.Remove|fsnotify.Rename) && w.watched[path] {
		delete(w.watched, path) // inotify dropped it; re-add when it comes back
	}
	if _, ok := w.targets[path]; ok && ev.Has(fsnotify.Write|fsnotify.Create) {
		pending[path] = true
		w.changed[path] = time.Now()
		return true
	}
	if _, ok := w.noteDirs[filepath.Dir(path)]; ok && filepath.Base(path) == "MEMORY.md" && ev.Has(fsnotify.Write|fsnotify.Create) {
		// The index of a memory directory that was no target when the
		// list was last made (another process, `credence consolidate`,
		// promoted into it since): SyncFile looks the targets up again.
		pending[path] = true
		w.changed[path] = time.Now()
		return true
	}
	if _, ok := w.noteDirs[filepath.Dir(path)]; ok && markdown.IsClaudeMemoryFile(filepath.Base(path)) &&
		ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Remove|fsnotify.Rename) {
		pending[path] = true
		w.changed[path] = time.Now()
		delete(w.startup, path) // changed now: the hook may have seen it
		return true
	}
	if !ev.Has(fsnotify.Create) {
		return false
	}
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		return false
	}
	if w.noteWatchAdded(path) {
		// A memory directory appeared (or a project directory that will
		// hold one): its files are read.
		for _, n := range listNotes(path) {
			pending[n] = true
			w.changed[n] = time.Now()
		}
		if _, ok := w.noteDirs[path]; ok {
			return true
		}
	}
	// A directory appeared: it may be (or lead to) a target's directory, and
	// a target file may already be in it.
	w.ensureAllWatches()
	scheduled := false
	for t := range w.targets {
		if within(t, path) {
			if _, err := os.Stat(t); err == nil {
				pending[t] = true
				scheduled = true
			}
		}
	}
	return scheduled
}

// flush syncs every pending file, in path order. A change that no hook
// record explains yet, recent enough that the record may still come, stays
// pending; flush returns how long until the first of those may be decided.
func (w *Watcher) flush(ctx context.Context, pending map[string]bool) time.Duration {
	paths := make([]string, 0, len(pending))
	for p := range pending {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var wait time.Duration
	for _, path := range paths {
		if ctx.Err() != nil {
			return 0
		}
		if changed, ok := w.changed[path]; ok && w.p.awaitingRecord(changed) && !w.p.explained(path) {
			left := w.p.cfg.Memory.EditAttribution - time.Since(changed)
			if wait == 0 || left < wait {
				wait = left
			}
			continue
		}
		delete(pending, path)
		delete(w.changed, path)
		if _, target := w.targets[path]; !target && filepath.Base(path) != "MEMORY.md" {
			var author Author
			if w.startup[path] {
				author = AuthorModel
				delete(w.startup, path)
			}
			st, err := w.p.IngestNote(ctx, path, author)
			if err != nil {
				w.log.Error("memory file not read", "path", path, "err", err)
			}
			if w.opts.OnSync != nil {
				w.opts.OnSync(SyncEvent{Path: path, Note: true, NoteStats: st, Err: err})
			}
			continue
		}
		st, own, err := w.p.SyncFile(ctx, path)
		if err != nil {
			w.log.Error("memory file edit not applied", "path", path, "err", err)
		}
		if w.opts.OnSync != nil {
			w.opts.OnSync(SyncEvent{Path: path, Own: own, Stats: st, Err: err})
		}
	}
	return wait
}

// setTargets replaces the target list and watches what it needs.
func (w *Watcher) setTargets(targets map[string]markdown.Root) {
	w.targets = make(map[string]markdown.Root, len(targets))
	for p, root := range targets {
		w.targets[filepath.Clean(p)] = root
	}
	w.ensureAllWatches()
	w.ensureNoteWatches()
}

// ensureAllWatches repeats ensureWatches until it adds nothing: a deeper
// directory created while an ancestor was being added is then watched too.
func (w *Watcher) ensureAllWatches() {
	for range maxAncestorClimb + 1 {
		if !w.ensureWatches() {
			return
		}
	}
}

// ensureWatches watches each target's directory, or while it does not exist
// its nearest existing ancestor (at most maxAncestorClimb levels up, never
// the home directory or the root), to see it being created. A directory
// reached through a symbolic link that leads out of the target's memory
// root is not watched (a watch would follow the link): the log says so once.
func (w *Watcher) ensureWatches() bool {
	home := filepath.Clean(w.p.cfg.Paths.Home)
	added := false
	for t, root := range w.targets {
		dir := filepath.Dir(t)
		for range maxAncestorClimb + 1 {
			if dir == home || dir == filepath.Dir(dir) {
				break
			}
			if err := markdown.CheckWatchDir(dir, root); err != nil {
				if !w.refused[dir] {
					w.refused[dir] = true
					w.log.Warn("memory directory not watched: a symbolic link leads out of its memory root",
						"dir", dir, "root", root.Dir, "err", err)
				}
				break
			}
			if info, err := os.Stat(dir); err == nil && info.IsDir() {
				added = w.watch(dir) || added
				break
			}
			dir = filepath.Dir(dir)
		}
	}
	return added
}

// watch adds dir to the fsnotify watcher and reports whether it is new.
func (w *Watcher) watch(dir string) bool {
	if w.watched[dir] {
		return false
	}
	if err := w.fsw.Add(dir); err != nil {
		w.log.Warn("cannot watch memory directory", "dir", dir, "err", err)
		return false
	}
	w.watched[dir] = true
	return true
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}
