package recall

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/credence-mem/credence/belief"
)

func TestProjectRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	worktree := filepath.Join(root, "wt")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "a", "b"), filepath.Join(worktree, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A worktree's .git is a file pointing at the main repository.
	if err := os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: ../repo/.git/worktrees/wt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cwd, want string
	}{
		{"repository root", repo, repo},
		{"nested directory", filepath.Join(repo, "a", "b"), repo},
		{"unclean path", filepath.Join(repo, "a", "..", "a", "b") + "/", repo},
		{"worktree with a .git file", filepath.Join(worktree, "src"), worktree},
		{"outside git", plain, plain},
		{"missing directory inside a repository", filepath.Join(repo, "gone", "deeper"), repo},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProjectRoot(tc.cwd); got != tc.want {
				t.Errorf("ProjectRoot(%q)=%q, want %q", tc.cwd, got, tc.want)
			}
		})
	}
	// What is said outside any repository holds everywhere; in a
	// repository, or where the directory is gone, the default stands.
	for _, tc := range []struct{ root, want string }{
		{repo, ""}, {worktree, ""}, {plain, belief.ScopeGlobal},
		{filepath.Join(root, "gone"), ""}, {"", ""},
	} {
		if got := PlaceScope(tc.root); got != tc.want {
			t.Errorf("PlaceScope(%q)=%q, want %q", tc.root, got, tc.want)
		}
	}
}

func TestCoverage(t *testing.T) {
	tests := []struct {
		name, query, text string
		want              float64
	}{
		{"all terms, other inflections", "deploying the services", "we deployed one service", 1},
		{"half", "postgres migration", "the migration failed", 0.5},
		{"none", "haiku autumn", "the migration failed", 0},
		{"stop words only", "what is the", "anything", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := coverage(queryTerms(tc.query), tc.text); got != tc.want {
				t.Errorf("coverage(%q, %q)=%v, want %v", tc.query, tc.text, got, tc.want)
			}
		})
	}
}
