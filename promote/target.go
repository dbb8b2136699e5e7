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

// targetPath returns the file a belief belongs in, or why it has none.
func (r *resolver) targetPath(b store.Belief) (path, skip string) {
	if b.Scope == belief.ScopeGlobal {
		return r.globalPath, ""
	}
	root := b.ProjectPath
	if root == "" {
		return "", skipOrphaned
	}
	if !r.projectExists(root) {
		return "", skipMissingProject
	}
	if r.repoTarget {
		return markdown.RepoMemoryPath(root), ""
	}
	return markdown.ClaudeProjectMemoryPath(r.claudeProjects, r.home, root, r.autoMemoryDir), ""
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
	byPath := map[string]*target{r.globalPath: {path: r.globalPath, global: true, createDir: true, loaded: true}}
	skipped := map[string]int{}
	for _, b := range beliefs {
		path, skip := r.targetPath(b)
		if skip != "" {
			skipped[skip]++
			continue
		}
		t, ok := byPath[path]
		if !ok {
			t = &target{path: path, createDir: true, loaded: true}
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
