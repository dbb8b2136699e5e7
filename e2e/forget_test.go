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

// TestForgottenIsNotRecalled remembers a fact, forgets its belief with the
// real binary's default flags, and recall must then find nothing: not the
// belief and not the note it was learned from (it used to come back
// through that episode). --keep-episodes keeps the note and says so.
func TestForgottenIsNotRecalled(t *testing.T) {
	type recalled struct {
		Beliefs  []struct{ ID string }
		Episodes []struct{ ID, Text string }
	}
	for _, tc := range []struct {
		name       string
		flags      []string
		wantRecall bool
	}{
		{"default", nil, false},
		{"keep episodes", []string{"--keep-episodes"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := bareWorld(t)
			var r struct {
				EpisodeID string `json:"episode_id"`
				Beliefs   []struct{ ID string }
			}
			if err := json.Unmarshal([]byte(w.credence("remember", "--json", "we deploy with qqbelzz")), &r); err != nil || len(r.Beliefs) != 1 {
				t.Fatalf("remember --json: %+v, %v", r, err)
			}
			var before recalled
			if err := json.Unmarshal([]byte(w.credence("recall", "--json", "how do we deploy? qqbelzz")), &before); err != nil ||
				len(before.Beliefs) == 0 || len(before.Episodes) == 0 {
				t.Fatalf("recall before forget found %+v, %v; want the belief and the note, or the test proves nothing", before, err)
			}

			var rep struct {
				Beliefs      []string `json:"beliefs"`
				Episodes     []string `json:"episodes"`
				EpisodesKept []string `json:"episodes_kept"`
			}
			args := append(append([]string{"forget", "--json"}, tc.flags...), r.Beliefs[0].ID)
			if err := json.Unmarshal([]byte(w.credence(args...)), &rep); err != nil {
				t.Fatal(err)
			}
			wantGone, wantKept := []string{r.EpisodeID}, []string{}
			if tc.wantRecall {
				wantGone, wantKept = []string{}, []string{r.EpisodeID}
			}
			if strings.Join(rep.Beliefs, " ") != r.Beliefs[0].ID || strings.Join(rep.Episodes, " ") != strings.Join(wantGone, " ") ||
				strings.Join(rep.EpisodesKept, " ") != strings.Join(wantKept, " ") {
				t.Errorf("forget --json = %+v; want belief %s, episodes %v, kept %v", rep, r.Beliefs[0].ID, wantGone, wantKept)
			}

			out := w.credence("recall", "--json", "how do we deploy? qqbelzz")
			var after recalled
			if err := json.Unmarshal([]byte(out), &after); err != nil {
				t.Fatal(err)
			}
			if found := len(after.Beliefs)+len(after.Episodes) > 0; found != tc.wantRecall || len(after.Beliefs) > 0 {
				t.Errorf("recall after forget found %+v; want the note only with --keep-episodes, and never the belief", after)
			}
			if line := databaseCheck(w); !strings.Contains(line, "integrity_check passed") {
				t.Errorf("after forget: %s", line)
			}
		})
	}
}
