package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// bareWorld is a temporary HOME where credence is used from the command
// line only: nothing installed, no agent.
func bareWorld(t *testing.T) *world {
	t.Helper()
	home := t.TempDir()
	w := &world{t: t, home: home}
	w.env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		w.env = append(w.env, "TMPDIR="+tmp)
	}
	return w
}

// databaseCheck returns the database line of `credence doctor --full`.
func databaseCheck(w *world) string {
	w.t.Helper()
	_, out, errs := w.credenceCode("doctor", "--full")
	line := regexp.MustCompile(`(?m)^.*database: .*$`).FindString(out + errs)
	if line == "" {
		w.t.Fatalf("credence doctor --full printed no database line:\n%s%s", out, errs)
	}
	return line
}

// TestForgetLeavesDatabaseSound is the report's reproduction, run with the
// real binary: remember a fact, forget its belief, and doctor's full check
// must still pass (it said "malformed inverted index for FTS5 table
// main.beliefs_fts").
func TestForgetLeavesDatabaseSound(t *testing.T) {
	w := bareWorld(t)
	var r struct{ Beliefs []struct{ ID string } }
	if err := json.Unmarshal([]byte(w.credence("remember", "--json", "we deploy with qqbelzz")), &r); err != nil || len(r.Beliefs) != 1 {
		t.Fatalf("remember --json: %+v, %v", r, err)
	}
	if line := databaseCheck(w); !strings.Contains(line, "integrity_check passed") {
		t.Fatalf("before forget: %s", line)
	}
	w.credence("forget", r.Beliefs[0].ID)
	if line := databaseCheck(w); !strings.Contains(line, "integrity_check passed") {
		t.Errorf("after forget: %s", line)
	}
}
