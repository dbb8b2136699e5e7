package promote

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/credence-mem/credence/markdown"
)

// memoryDirName is the directory Claude Code keeps a project's memory
// files in, under ~/.claude/projects/<key>/.
const memoryDirName = "memory"

// ensureNoteWatches watches the memory directories whose memory files are
// read: the global one, autoMemoryDirectory when set, and every
// ~/.claude/projects/<key>/memory/ that exists. A project directory without
// one yet is watched until it appears (then only the memory directory is),
// and the projects directory itself for new projects. Directories reached
// through a link out of their root are not watched.
func (w *Watcher) ensureNoteWatches() {
	cfg := w.p.cfg
	if !cfg.Memory.IngestClaudeMemory {
		return
	}
	w.addNoteDir(filepath.Dir(cfg.Paths.GlobalMemory))
	if dir, ok := markdown.AutoMemoryDir(cfg.Paths.Home, cfg.Memory.AutoMemoryDirectory); ok {
		w.addNoteDir(dir)
	}
	projects := cfg.Paths.ClaudeProjects
	if projects == "" || cfg.Memory.ProjectTarget == "repo" {
		return
	}
	entries, err := os.ReadDir(projects)
	if err != nil {
		return
	}
	w.watch(projects)
	for _, e := range entries {
		if e.IsDir() {
			w.watchProjectDir(filepath.Join(projects, e.Name()))
		}
	}
}

// watchProjectDir watches a project's memory directory, or the project's
// directory while it has none. It reports whether a memory directory is
// newly watched.
func (w *Watcher) watchProjectDir(keyDir string) bool {
	mem := filepath.Join(keyDir, memoryDirName)
	if info, err := os.Stat(mem); err == nil && info.IsDir() {
		added := w.addNoteDir(mem)
		if w.watched[keyDir] {
			_ = w.fsw.Remove(keyDir)
			delete(w.watched, keyDir)
		}
		return added
	}
	w.watch(keyDir)
	return false
}

// addNoteDir watches dir as a memory directory; it reports whether it is
// new.
func (w *Watcher) addNoteDir(dir string) bool {
	dir = filepath.Clean(dir)
	if _, ok := w.noteDirs[dir]; ok {
		return false
	}
	root := markdown.Root{Dir: dir}
	if err := markdown.CheckWatchDir(dir, root); err != nil {
		if !w.refused[dir] {
			w.refused[dir] = true
			w.log.Warn("memory directory not watched: a symbolic link leads out of its memory root", "dir", dir, "err", err)
		}
		return false
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return false
	}
	if !w.watched[dir] && !w.watch(dir) {
		return false
	}
	w.noteDirs[dir] = root
	return true
}

// noteWatchAdded handles a directory created at path: a new project
// directory under the projects directory, or a project's new memory
// directory. It reports whether a memory directory became watched.
func (w *Watcher) noteWatchAdded(path string) bool {
	cfg := w.p.cfg
	if !cfg.Memory.IngestClaudeMemory || cfg.Paths.ClaudeProjects == "" || cfg.Memory.ProjectTarget == "repo" {
		return false
	}
	projects := filepath.Clean(cfg.Paths.ClaudeProjects)
	switch {
	case filepath.Dir(path) == projects:
		return w.watchProjectDir(path)
	case filepath.Base(path) == memoryDirName && filepath.Dir(filepath.Dir(path)) == projects:
		return w.watchProjectDir(filepath.Dir(path))
	}
	return false
}

// listNotes lists the memory files in dir, or in dir/memory for a project
// directory.
func listNotes(dir string) []string {
	if filepath.Base(dir) != memoryDirName {
		if info, err := os.Stat(filepath.Join(dir, memoryDirName)); err == nil && info.IsDir() {
			dir = filepath.Join(dir, memoryDirName)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && markdown.IsClaudeMemoryFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// notesToCheck lists the memory files to look at when the watcher starts:
// every one in a watched memory directory, and every one read before that
// is gone now (deleted while the agent was not running).
func (w *Watcher) notesToCheck(ctx context.Context) []string {
	seen := map[string]bool{}
	var out []string
	for dir := range w.noteDirs {
		for _, n := range listNotes(dir) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	recs, err := w.p.db.MemoryFiles(ctx)
	if err != nil {
		w.log.Warn("memory file records not read", "err", err)
	}
	for _, r := range recs {
		if _, ok := w.noteDirs[filepath.Dir(r.Path)]; !ok || r.DeletedAt != 0 || seen[r.Path] {
			continue
		}
		if _, err := os.Lstat(r.Path); errors.Is(err, fs.ErrNotExist) {
			seen[r.Path] = true
			out = append(out, r.Path)
		}
	}
	sort.Strings(out)
	return out
}

// explained reports whether the hook recorded a model edit that left path
// as it is now.
func (p *Promoter) explained(path string) bool {
	b, err := os.ReadFile(path)
	gone := errors.Is(err, fs.ErrNotExist)
	if err != nil && !gone {
		return false
	}
	return p.modelEdited(path, b, gone, false)
}

// NoteDirs lists the memory directories whose memory files credence reads
// (those that exist): the global one, autoMemoryDirectory when set, and
// every ~/.claude/projects/<key>/memory/.
func (p *Promoter) NoteDirs() []string {
	cfg := p.cfg
	var out []string
	add := func(dir string) {
		if info, err := os.Stat(dir); err == nil && info.IsDir() && markdown.CheckWatchDir(dir, markdown.Root{Dir: dir}) == nil {
			out = append(out, filepath.Clean(dir))
		}
	}
	add(filepath.Dir(cfg.Paths.GlobalMemory))
	if dir, ok := markdown.AutoMemoryDir(cfg.Paths.Home, cfg.Memory.AutoMemoryDirectory); ok {
		add(dir)
	}
	if cfg.Paths.ClaudeProjects != "" && cfg.Memory.ProjectTarget != "repo" {
		entries, _ := os.ReadDir(cfg.Paths.ClaudeProjects)
		for _, e := range entries {
			if e.IsDir() {
				add(filepath.Join(cfg.Paths.ClaudeProjects, e.Name(), memoryDirName))
			}
		}
	}
	sort.Strings(out)
	return out
}

// IngestAll reads every memory file in NoteDirs as IngestNote does, with
// author for every change (`credence import` backfills with AuthorModel:
// Claude Code writes these files). Files already read as they are change
// nothing. It returns the joined errors of the files that failed.
func (p *Promoter) IngestAll(ctx context.Context, author Author) (NoteStats, error) {
	var st NoteStats
	var errs []error
	for _, dir := range p.NoteDirs() {
		for _, n := range listNotes(dir) {
			s, err := p.IngestNote(ctx, n, author)
			st.add(s)
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return st, errors.Join(errs...)
}
