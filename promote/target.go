package promote

import (
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// target is one MEMORY.md file and the beliefs that belong in it.
type target struct {
	path string
	// root is the directory the file must stay in (docs/MEMORY_MD.md,
	// "Memory roots"): nothing is read or written through a symbolic link
	// that leads out of it.
	root markdown.Root
	// global reports that global beliefs go here; projects lists the project
	// roots whose beliefs go here (several when autoMemoryDirectory makes all
	// projects share one file).
	global   bool
	projects []string
	// createDir: the file's directory may be created. Always true for the
	// targets we resolve: a project whose root is missing is skipped before.
	createDir bool
	// beliefs are the candidates of this file when loaded is set; a sync
	// of one file reloads them.
	beliefs []store.Belief
	loaded  bool
}

// scopeForAdded is where a bullet a person adds to this file belongs: global
// in the global file, otherwise the first project the file serves.
func (t *target) scopeForAdded() (scope, project string) {
	if t.global || len(t.projects) == 0 {
		return belief.ScopeGlobal, ""
	}
	return belief.ScopeProject, t.projects[0]
}

// Why a belief has no target.
const (
	skipOrphaned       = "orphaned"        // project scope without a project path
	skipMissingProject = "missing project" // its project root is not a directory on disk
)

// resolver maps beliefs to target files for one configuration, remembering
// which project roots exist for the length of one cycle.
type resolver struct {
	home, claudeProjects, autoMemoryDir, globalPath string
	repoTarget                                      bool
	exists                                          map[string]bool
}

// targetPath returns the file a belief belongs in and its memory root, or
// why it has none. The memory root is the file's own directory, trusted as
// the user laid it out (the global ~/.claude-memory, a Claude Code memory
// directory or autoMemoryDirectory: no repository can place links there),
// except for a repository target: there the repository is trusted and
// .claude/memory inside it is the root, so a repository cannot lead the
// write elsewhere by shipping .claude, memory or MEMORY.md as a link.
func (r *resolver) targetPath(b store.Belief) (path string, root markdown.Root, skip string) {
	if b.Scope == belief.ScopeGlobal {
		return r.globalPath, markdown.Root{Dir: filepath.Dir(r.globalPath)}, ""
	}
	project := b.ProjectPath
	if project == "" {
		return "", markdown.Root{}, skipOrphaned
	}
	if !r.projectExists(project) {
		return "", markdown.Root{}, skipMissingProject
	}
	if r.repoTarget {
		path = markdown.RepoMemoryPath(project)
		return path, markdown.Root{Dir: filepath.Dir(path), Trusted: project}, ""
	}
	path = markdown.ClaudeProjectMemoryPath(r.claudeProjects, r.home, project, r.autoMemoryDir)
	return path, markdown.Root{Dir: filepath.Dir(path)}, ""
}

// projectExists reports whether a project root is a directory; a project
// that was deleted or lives on an unmounted disk is skipped, not written to.
func (r *resolver) projectExists(root string) bool {
	ok, seen := r.exists[root]
	if !seen {
		info, err := os.Stat(root)
		ok = err == nil && info.IsDir() && filepath.IsAbs(root)
		r.exists[root] = ok
	}
	return ok
}

// groupTargets sorts beliefs into target files. The global file is always a
// target, so a person always has a ## Beliefs to add to. It returns the
// targets by path and how many beliefs were skipped for each reason.
func (r *resolver) groupTargets(beliefs []store.Belief) ([]*target, map[string]int) {
	byPath := map[string]*target{r.globalPath: {path: r.globalPath, root: markdown.Root{Dir: filepath.Dir(r.globalPath)},
		global: true, createDir: true, loaded: true}}
	skipped := map[string]int{}
	for _, b := range beliefs {
		path, root, skip := r.targetPath(b)
		if skip != "" {
			skipped[skip]++
			continue
		}
		t, ok := byPath[path]
		if !ok {
			t = &target{path: path, root: root, createDir: true, loaded: true}
			byPath[path] = t
		}
		if b.Scope == belief.ScopeGlobal {
			t.global = true
		} else if !slices.Contains(t.projects, b.ProjectPath) {
			t.projects = append(t.projects, b.ProjectPath)
		}
		t.beliefs = append(t.beliefs, b)
	}
	out := make([]*target, 0, len(byPath))
	for _, t := range byPath {
		sort.Strings(t.projects)
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, skipped
}
