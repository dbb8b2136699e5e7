package markdown

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectKeyMatchesClaudeCode checks ProjectKey against the JavaScript of
// the shipped Claude Code bundle, run by node (testdata/project_keys.js).
func TestProjectKeyMatchesClaudeCode(t *testing.T) {
	raw, err := os.ReadFile("testdata/project_keys.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]string
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("testdata/project_keys.json has %d cases, want at least 10", len(cases))
	}
	for _, c := range cases {
		name := c[0]
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		t.Run(name, func(t *testing.T) {
			if got := ProjectKey(c[0]); got != c[1] {
				t.Errorf("ProjectKey(%q)\n got %q\nwant %q", c[0], got, c[1])
			}
		})
	}
}

func TestProjectKey(t *testing.T) {
	long := "/home/user/" + strings.Repeat("deep/", 50)
	tests := []struct {
		name, path, want string
	}{
		{"spaces", "/Users/Ann Lee/My Project", "-Users-Ann-Lee-My-Project"},
		{"dots", "/home/u/.config/app.v2", "-home-u--config-app-v2"},
		{"underscores", "/srv/my_repo_x", "-srv-my-repo-x"},
		{"hyphens stay hyphens", "/srv/a-b", "-srv-a-b"},
		{"accented letters are one dash each", "/home/jürgen/Größe", "-home-j-rgen-Gr--e"},
		{"CJK letters are one dash each", "/home/文档", "-home---"},
		{"astral characters are two dashes", "/tmp/😀", "-tmp---"},
		{"windows path", `C:\Users\a b`, "C--Users-a-b"},
		{"exactly 200 is not shortened", "/" + strings.Repeat("b", 199), "-" + strings.Repeat("b", 199)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProjectKey(tt.path); got != tt.want {
				t.Errorf("ProjectKey(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
	t.Run("over 200 is cut and hashed", func(t *testing.T) {
		got := ProjectKey(long)
		prefix := strings.ReplaceAll(long, "/", "-")[:200]
		if !strings.HasPrefix(got, prefix+"-") {
			t.Fatalf("ProjectKey(long) = %q, want prefix %q", got, prefix+"-")
		}
		if suffix := got[201:]; suffix == "" || strings.Trim(suffix, "0123456789abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("hash suffix %q is not base 36", suffix)
		}
		if other := ProjectKey(long + "x"); other[:200] != got[:200] || other == got {
			t.Errorf("paths sharing a 200-character prefix got keys %q and %q; want the same prefix, different hashes", got, other)
		}
	})
}

func TestAbs36(t *testing.T) {
	tests := []struct {
		name string
		h    int32
		want string
	}{
		{"zero", 0, "0"},
		{"positive", 35, "z"},
		{"negative", -36, "10"},
		// Math.abs(-2147483648) is 2147483648 in JavaScript; int32 negation
		// would overflow.
		{"min int32", math.MinInt32, "zik0zk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := abs36(tt.h); got != tt.want {
				t.Errorf("abs36(%d) = %q, want %q", tt.h, got, tt.want)
			}
		})
	}
}

func TestProjectMemoryPath(t *testing.T) {
	home := "/home/ann"
	def := filepath.Join(home, ".claude/projects/-work-app/memory/MEMORY.md")
	tests := []struct {
		name, auto, want string
	}{
		{"default", "", def},
		{"absolute autoMemoryDirectory", "/srv/mem", "/srv/mem/MEMORY.md"},
		{"trailing slash", "/srv/mem/", "/srv/mem/MEMORY.md"},
		{"tilde", "~/sync/mem", filepath.Join(home, "sync/mem/MEMORY.md")},
		{"relative is ignored", "mem", def},
		{"dot relative is ignored", "./mem", def},
		{"root is ignored", "/", def},
		{"near-root is ignored", "/a", def},
		{"bare home is ignored", "~/", def},
		{"home's parent is ignored", "~/..", def},
		{"NUL is ignored", "/srv/m\x00em", def},
		{"doubled slash collapses as in node", "//server/share", "/server/share/MEMORY.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProjectMemoryPath(home, "/work/app", tt.auto); got != tt.want {
				t.Errorf("ProjectMemoryPath(%q, /work/app, %q) = %q, want %q", home, tt.auto, got, tt.want)
			}
		})
	}
}

func TestTargetPaths(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"global", GlobalMemoryPath("/home/ann"), "/home/ann/.claude-memory/MEMORY.md"},
		{"repo", RepoMemoryPath("/work/app"), "/work/app/.claude/memory/MEMORY.md"},
		{"claude config dir", ClaudeProjectMemoryPath("/cfg/projects", "/home/ann", "/w", ""), "/cfg/projects/-w/memory/MEMORY.md"},
		{"archive", ArchivePath("/m/MEMORY.md"), "/m/MEMORY.archive.md"},
		{"lock", LockPath("/m/MEMORY.md"), "/m/MEMORY.md.lock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
