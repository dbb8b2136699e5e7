package markdown

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree is a temp directory tree for the symbolic link tests: base/home
// holds the files a hostile link aims at.
type tree struct {
	t    *testing.T
	base string
}

func newLayout(t *testing.T) *tree {
	l := &tree{t: t, base: t.TempDir()}
	l.file("home/.bashrc", "export PATH=$HOME/bin:$PATH\n")
	l.file("home/.ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\n")
	return l
}

func (l *tree) path(rel string) string { return filepath.Join(l.base, filepath.FromSlash(rel)) }

func (l *tree) dir(rel string) string {
	l.t.Helper()
	if err := os.MkdirAll(l.path(rel), 0o700); err != nil {
		l.t.Fatal(err)
	}
	return l.path(rel)
}

func (l *tree) file(rel, content string) string {
	l.t.Helper()
	l.dir(filepath.Dir(rel))
	writeFile(l.t, l.path(rel), content, 0o600)
	return l.path(rel)
}

// link makes rel a symbolic link to target (relative targets are kept as
// written, absolute ones are under base).
func (l *tree) link(rel, target string) {
	l.t.Helper()
	l.dir(filepath.Dir(rel))
	if !strings.HasPrefix(target, ".") {
		target = l.path(target)
	}
	if err := os.Symlink(target, l.path(rel)); err != nil {
		l.t.Fatal(err)
	}
}

// snapshot lists every file under base/home with its content.
func (l *tree) snapshot() map[string]string {
	l.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(l.path("home"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = "-> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = string(b)
		default:
			out[p] = "dir"
		}
		return nil
	})
	if err != nil {
		l.t.Fatal(err)
	}
	return out
}

// overBudget is a memory file longer than a 20-line budget, with dated
// sections to archive.
var overBudget = secA + "\n" + dated("2026-01-01", 30) + dated("2026-01-02", 30)

// TestLinksOutOfTheRootAreRefused builds memory files reached through
// symbolic links that lead out of the memory root and checks that neither
// WriteSection nor EnforceBudget reads, creates or changes anything outside
// (issue 16: a repository shipping .claude/memory/MEMORY.md as a link to
// ~/.bashrc got credence's section written into ~/.bashrc).
func TestLinksOutOfTheRootAreRefused(t *testing.T) {
	type setup func(l *tree) (path string, root Root)
	plain := func(rel string) setup {
		return func(l *tree) (string, Root) { return l.path(rel), Root{} }
	}
	repo := func(l *tree) (string, Root) {
		r := l.path("src/app")
		return RepoMemoryPath(r), Root{Dir: filepath.Dir(RepoMemoryPath(r)), Trusted: r}
	}
	tests := []struct {
		name  string
		build func(l *tree)
		at    setup
	}{
		{"memory file links to ~/.bashrc", func(l *tree) {
			l.link("home/.claude/projects/-src-app/memory/MEMORY.md", "home/.bashrc")
		}, plain("home/.claude/projects/-src-app/memory/MEMORY.md")},
		{"relative link climbs out", func(l *tree) {
			l.link("home/.claude-memory/MEMORY.md", "../.bashrc")
		}, plain("home/.claude-memory/MEMORY.md")},
		{"dangling link would create a file outside", func(l *tree) {
			l.link("home/.claude-memory/MEMORY.md", "home/.profile")
		}, plain("home/.claude-memory/MEMORY.md")},
		{"link inside the root links out again", func(l *tree) {
			l.link("home/.claude-memory/notes.md", "../.bashrc")
			l.link("home/.claude-memory/MEMORY.md", "./notes.md")
		}, plain("home/.claude-memory/MEMORY.md")},
		{"lock file links out", func(l *tree) {
			l.file("home/.claude-memory/MEMORY.md", "# Notes\n")
			l.link("home/.claude-memory/MEMORY.md.lock", "home/.profile")
		}, plain("home/.claude-memory/MEMORY.md")},
		{"archive links to a private key", func(l *tree) {
			l.file("home/.claude-memory/MEMORY.md", overBudget)
			l.link("home/.claude-memory/MEMORY.archive.md", "home/.ssh/id_ed25519")
		}, plain("home/.claude-memory/MEMORY.md")},
		{"repository memory file links out", func(l *tree) {
			l.dir("src/app/.git")
			l.link("src/app/.claude/memory/MEMORY.md", "home/.bashrc")
		}, repo},
		{"repository .claude directory links out", func(l *tree) {
			l.dir("src/app/.git")
			l.file("home/memory/MEMORY.md", overBudget)
			l.link("src/app/.claude", "home")
		}, repo},
		{"repository memory directory links out, not there yet", func(l *tree) {
			l.dir("src/app/.git")
			l.link("src/app/.claude/memory", "home/notes")
		}, repo},
	}
	ops := []struct {
		name string
		run  func(path string, root Root) error
	}{
		{"WriteSection", func(path string, root Root) error {
			_, err := WriteSection(context.Background(), path, constant(secB), WriteOptions{CreateDir: true, Root: root})
			return err
		}},
		{"EnforceBudget", func(path string, root Root) error {
			_, err := EnforceBudget(context.Background(), path, 20, 0, root)
			return err
		}},
		{"CheckInRoot", func(path string, root Root) error { return CheckInRoot(path, root) }},
	}
	for _, tt := range tests {
		for _, op := range ops {
			t.Run(tt.name+"/"+op.name, func(t *testing.T) {
				l := newLayout(t)
				tt.build(l)
				path, root := tt.at(l)
				before := l.snapshot()
				err := op.run(path, root)
				var esc *EscapeError
				if !errors.Is(err, ErrOutsideRoot) || !errors.As(err, &esc) {
					t.Fatalf("%s: %v, want ErrOutsideRoot", op.name, err)
				}
				if !strings.Contains(err.Error(), "outside the memory root") {
					t.Errorf("error %q does not say why", err)
				}
				after := l.snapshot()
				for p, was := range before {
					if after[p] != was {
						t.Errorf("%s changed:\n%q\nbecame\n%q", p, was, after[p])
					}
				}
				for p := range after {
					if _, ok := before[p]; !ok {
						t.Errorf("%s was created outside the memory root", p)
					}
				}
			})
		}
	}
}

// TestLinksInsideTheRootAreFollowed checks what stays allowed: a link whose
// target is inside the memory root, and links in the trusted part of the
// path (the user's own layout: a memory directory kept in a dotfiles
// repository, a checkout reached through a link).
func TestLinksInsideTheRootAreFollowed(t *testing.T) {
	tests := []struct {
		name   string
		build  func(l *tree) (path string, root Root)
		target string // where the section must land
	}{
		{"memory file links to a file beside it", func(l *tree) (string, Root) {
			l.file("home/.claude-memory/notes/MEMORY.md", "# Notes\n")
			l.link("home/.claude-memory/MEMORY.md", "./notes/MEMORY.md")
			return l.path("home/.claude-memory/MEMORY.md"), Root{}
		}, "home/.claude-memory/notes/MEMORY.md"},
		{"memory directory is the user's link to dotfiles", func(l *tree) (string, Root) {
			l.file("dotfiles/claude-memory/MEMORY.md", "# Notes\n")
			l.link("home/.claude-memory", "dotfiles/claude-memory")
			return l.path("home/.claude-memory/MEMORY.md"), Root{}
		}, "dotfiles/claude-memory/MEMORY.md"},
		{"repository reached through a link", func(l *tree) (string, Root) {
			l.dir("mnt/src/app/.git")
			l.link("home/src", "mnt/src")
			r := l.path("home/src/app")
			return RepoMemoryPath(r), Root{Dir: filepath.Dir(RepoMemoryPath(r)), Trusted: r}
		}, "mnt/src/app/.claude/memory/MEMORY.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLayout(t)
			path, root := tt.build(l)
			if _, err := WriteSection(context.Background(), path, constant(secA), WriteOptions{CreateDir: true, Root: root}); err != nil {
				t.Fatalf("WriteSection: %v", err)
			}
			if got := readFile(t, l.path(tt.target)); !strings.HasPrefix(got, secA) {
				t.Errorf("%s = %q, want the section at its top", tt.target, got)
			}
			if _, err := EnforceBudget(context.Background(), path, 20, 0, root); err != nil {
				t.Errorf("EnforceBudget: %v", err)
			}
		})
	}
}

// TestSweepTempsStaysInsideTheRoot: a repository whose .claude links to
// another directory must not make the start-up sweep delete files (or
// create locks) there.
func TestSweepTempsStaysInsideTheRoot(t *testing.T) {
	l := newLayout(t)
	l.dir("src/app/.git")
	l.file("home/memory/MEMORY.md", "# Notes\n")
	l.file("home/memory/MEMORY.md1234567", "someone's file\n")
	l.link("src/app/.claude", "home")
	r := l.path("src/app")
	dir := filepath.Dir(RepoMemoryPath(r))
	before := l.snapshot()
	n, err := SweepTemps(dir, Root{Dir: dir, Trusted: r})
	if n != 0 || !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("SweepTemps = %d, %v; want 0 and ErrOutsideRoot", n, err)
	}
	if after := l.snapshot(); !mapsEqual(before, after) {
		t.Errorf("the sweep changed files outside the root:\n%v\n%v", before, after)
	}
}

func TestCheckWatchDir(t *testing.T) {
	l := newLayout(t)
	l.dir("src/app/.git")
	l.link("src/app/.claude", "home")
	r := l.path("src/app")
	root := Root{Dir: filepath.Dir(RepoMemoryPath(r)), Trusted: r}
	for _, tt := range []struct {
		dir     string
		refused bool
	}{
		{"src/app/.claude/memory", true},
		{"src/app/.claude", true},
		{"src/app", false},
		{"src", false},
	} {
		err := CheckWatchDir(l.path(tt.dir), root)
		if got := errors.Is(err, ErrOutsideRoot); got != tt.refused {
			t.Errorf("CheckWatchDir(%s) = %v, want refused %v", tt.dir, err, tt.refused)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	return !slices.ContainsFunc(keys, func(k string) bool { v, ok := b[k]; return !ok || v != a[k] })
}
