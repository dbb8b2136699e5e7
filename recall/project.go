package recall

import (
	"os"
	"path/filepath"
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
