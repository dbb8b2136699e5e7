package recall

import (
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/belief"
)

// ProjectRoot returns the project a working directory belongs to: the
// nearest directory at or above cwd that holds a .git entry (a directory, or
// the file a worktree or submodule has), else cwd itself, cleaned. It
// stats one path per level and never runs git, so it costs microseconds on
// the hook path; a cwd that does not exist resolves to itself. An empty cwd
// gives "".
func ProjectRoot(cwd string) string {
	if cwd == "" {
		return ""
	}
	if !filepath.IsAbs(cwd) {
		if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
	}
	cwd = filepath.Clean(cwd)
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}

// inRepository reports whether root, as ProjectRoot resolved it, is a
// repository's root (it holds a .git entry) rather than a directory
// outside any repository, which ProjectRoot returns as it is.
func inRepository(root string) bool {
	if root == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

// PlaceScope is the scope of an episode said in the project root p:
// global in a directory outside any repository, where there is no project
// for it to be of (a rule said in ~ holds wherever the person works), else
// "" (the store's default: the project's, or global without a project). A
// directory that is not there (an imported transcript of a deleted
// checkout) cannot tell and keeps the default.
func PlaceScope(p string) string {
	if p == "" {
		return ""
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() || inRepository(p) {
		return ""
	}
	return belief.ScopeGlobal
}
