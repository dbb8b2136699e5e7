package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCLIEdges runs the built credence through the rough edges a new user
// meets first: a typo, the version, sync while it is off, listing beliefs,
// and uninstall.
func TestCLIEdges(t *testing.T) {
	w := newWorld(t)

	t.Run("typo", func(t *testing.T) {
		code, out, errs := w.credenceCode("recal", "deploy")
		want := "credence: unknown command \"recal\"; did you mean \"recall\"?\nRun 'credence help' for the list of commands.\n"
		if code != 2 || out != "" || errs != want {
			t.Errorf("credence recal: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, want)
		}
	})

	t.Run("version", func(t *testing.T) {
		out := w.credence("version")
		if alias := w.credence("--version"); alias != out {
			t.Errorf("--version printed %q, version %q", alias, out)
		}
		var v struct {
			Commit string `json:"commit"`
			Go     string `json:"go"`
			Schema int    `json:"schema_version"`
		}
		if err := json.Unmarshal([]byte(w.credence("version", "--json")), &v); err != nil {
			t.Fatal(err)
		}
		// The commit is what Go stamped into the binary, or nothing when the
		// build had no version control information (-buildvcs=false).
		info, err := exec.Command("go", "version", "-m", credenceBin).Output()
		if err != nil {
			t.Fatal(err)
		}
		stamped := ""
		if m := regexp.MustCompile(`(?m)^\s+build\s+vcs\.revision=(\S+)$`).FindSubmatch(info); m != nil {
			stamped = string(m[1])
		}
		if v.Commit != stamped || !strings.HasPrefix(v.Go, "go1.") || v.Schema < 1 {
			t.Errorf("version --json = %+v; want commit %q as stamped, a Go version and a schema", v, stamped)
		}
		if !strings.HasPrefix(out, "credence ") || !strings.Contains(out, "\ngo      "+v.Go) {
			t.Errorf("version printed:\n%s", out)
		}
	})

	t.Run("sync status while off", func(t *testing.T) {
		out := w.credence("sync", "--status")
		if !strings.Contains(out, "sync is off") || !strings.Contains(out, "CREDENCE_SYNC_URL") {
			t.Errorf("sync --status:\n%s", out)
		}
	})

	for range 3 { // enough of one's own word to promote it into MEMORY.md
		w.credence("remember", "I prefer tabs over spaces")
	}
	w.credence("consolidate")

	t.Run("beliefs", func(t *testing.T) {
		out := w.credence("beliefs")
		if !regexp.MustCompile(`(?m)^0\.\d\d\s+active\s+bl_\S+\s+3\s+User prefers tabs over spaces$`).MatchString(out) {
			t.Errorf("credence beliefs:\n%s", out)
		}
	})

	t.Run("uninstall", func(t *testing.T) {
		memory := filepath.Join(w.home, ".claude-memory", "MEMORY.md")
		if _, err := os.Stat(memory + ".lock"); err != nil {
			t.Fatalf("no lock beside %s after promotion (%v); the check below would prove nothing", memory, err)
		}
		out := w.credence("uninstall")
		for _, m := range regexp.MustCompile(`backup at (\S+)`).FindAllStringSubmatch(out, -1) {
			if _, err := os.Stat(m[1]); err != nil {
				t.Errorf("uninstall names the backup %s: %v\n%s", m[1], err, out)
			}
		}
		locks, err := filepath.Glob(filepath.Join(w.home, "*", "*.lock"))
		if err != nil {
			t.Fatal(err)
		}
		deeper, _ := filepath.Glob(filepath.Join(w.home, ".claude", "projects", "*", "memory", "*.lock"))
		if locks = append(locks, deeper...); len(locks) > 0 {
			t.Errorf("uninstall left %v\n%s", locks, out)
		}
		if _, err := os.Stat(memory); err != nil {
			t.Errorf("uninstall without --purge removed the memory: %v", err)
		}
	})
}
