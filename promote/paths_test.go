package promote

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/markdown"
)

// symlink makes link point at target, creating link's directory.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// plant writes a file outside every memory root that a hostile link aims
// at, and returns its path.
func plant(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// longNotes is a MEMORY.md body over the default 200-line budget.
func longNotes() string {
	var b strings.Builder
	for d := 1; d <= 9; d++ {
		b.WriteString("## 2026-01-0" + itoa(d) + " — notes\n\n")
		for i := range 30 {
			b.WriteString("- note " + itoa(i) + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestPromoteNeverWritesThroughLinksOut plants, for each kind of target, a
// symbolic link that leads out of its memory root (issue 16: a repository
// shipping .claude/memory/MEMORY.md as a link to ~/.bashrc got credence's
// section written into ~/.bashrc). The file outside must stay as it was,
// the log must say why the target was skipped, and the other targets must
// still be written.
func TestPromoteNeverWritesThroughLinksOut(t *testing.T) {
	const bashrc = "export PATH=$HOME/bin:$PATH\n"
	tests := []struct {
		name  string
		tweak func(*config.Config)
		// hostile plants the link and returns the file outside it aims at
		// and the memory file that must still be written.
		hostile func(e *env, root string) (victim, written string)
	}{
		{"claude auto memory file", nil, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, ".bashrc"), bashrc)
			symlink(t, victim, e.projectFile(root))
			return victim, e.cfg.Paths.GlobalMemory
		}},
		{"claude auto memory through autoMemoryDirectory", func(c *config.Config) {
			c.Memory.AutoMemoryDirectory = filepath.Join(c.Paths.Home, "shared-memory")
		}, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, ".bashrc"), bashrc)
			symlink(t, "../.bashrc", e.projectFile(root))
			return victim, e.cfg.Paths.GlobalMemory
		}},
		{"global file", nil, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, ".bashrc"), bashrc)
			symlink(t, victim, e.cfg.Paths.GlobalMemory)
			return victim, e.projectFile(root)
		}},
		{"repository file", func(c *config.Config) { c.Memory.ProjectTarget = "repo" }, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, ".bashrc"), bashrc)
			symlink(t, victim, markdown.RepoMemoryPath(root))
			return victim, e.cfg.Paths.GlobalMemory
		}},
		{"repository .claude directory", func(c *config.Config) { c.Memory.ProjectTarget = "repo" }, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, "dotfiles", "memory", "MEMORY.md"), "# my notes\n")
			symlink(t, filepath.Join(e.home, "dotfiles"), filepath.Join(root, ".claude"))
			return victim, e.cfg.Paths.GlobalMemory
		}},
		{"repository archive", func(c *config.Config) { c.Memory.ProjectTarget = "repo" }, func(e *env, root string) (string, string) {
			victim := plant(t, filepath.Join(e.home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n")
			plant(t, markdown.RepoMemoryPath(root), longNotes())
			symlink(t, victim, markdown.ArchivePath(markdown.RepoMemoryPath(root)))
			return victim, e.cfg.Paths.GlobalMemory
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.tweak)
			root := e.project("app")
			e.belief(belief.Spec{Statement: "App deploys with Fly", Scope: belief.ScopeProject, ProjectPath: root}, 4, 0)
			e.global("User prefers Bun over Node.js", 4, 0)
			victim, written := tt.hostile(e, root)
			before := e.read(victim)

			st := e.promote()
			if got := e.read(victim); got != before {
				t.Fatalf("%s was written through the link:\n%s", victim, got)
			}
			if st.Skipped == 0 {
				t.Errorf("Stats.Skipped = 0, want the hostile target counted as skipped")
			}
			if !strings.Contains(e.logs.String(), "symbolic link leads out of its memory root") {
				t.Errorf("the log does not say why the target was skipped:\n%s", e.logs.String())
			}
			if !strings.Contains(e.read(written), markdown.BeginMarker) {
				t.Errorf("%s was not written; a refused target must not stop the others", written)
			}
			// The watcher's path and a second cycle refuse it too.
			if _, _, err := e.p.SyncFile(e.ctx, e.projectFileFor(root)); err != nil {
				t.Errorf("SyncFile: %v", err)
			}
			e.promote()
			if got := e.read(victim); got != before {
				t.Fatalf("%s was written through the link on a later cycle", victim)
			}
		})
	}
}

// projectFileFor is the file the project's beliefs go to under e's
// configuration, the repository target included.
func (e *env) projectFileFor(root string) string {
	if e.cfg.Memory.ProjectTarget == "repo" {
		return markdown.RepoMemoryPath(root)
	}
	return e.projectFile(root)
}

// TestWatcherDoesNotFollowLinksOut: a repository whose .claude is a link to
// another directory must not have that directory watched (inotify follows
// the link), while the other targets are.
func TestWatcherDoesNotFollowLinksOut(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Memory.ProjectTarget = "repo" })
	root := e.project("app")
	e.belief(belief.Spec{Statement: "App deploys with Fly", Scope: belief.ScopeProject, ProjectPath: root}, 4, 0)
	outside := filepath.Join(e.home, "dotfiles")
	plant(t, filepath.Join(outside, "memory", "MEMORY.md"), "# my notes\n")
	symlink(t, outside, filepath.Join(root, ".claude"))

	w, _ := e.watch()
	waitWatching(t, w, filepath.Dir(e.cfg.Paths.GlobalMemory))
	list := w.fsw.WatchList()
	for _, dir := range []string{filepath.Join(root, ".claude", "memory"), filepath.Join(root, ".claude"), outside, filepath.Join(outside, "memory")} {
		if slices.Contains(list, dir) {
			t.Errorf("%s is watched through the link; watching %v", dir, list)
		}
	}
	if !strings.Contains(e.logs.String(), "memory directory not watched") {
		t.Errorf("the log does not say why the directory is not watched:\n%s", e.logs.String())
	}
}
