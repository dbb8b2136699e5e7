package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer"
	"github.com/credence-mem/credence/syncer/hranatest"
)

const wireToken = "tok-cli-a17c53e0f2b84d99"

// wireRemote serves a fresh remote over Hrana on 127.0.0.1.
func wireRemote(t *testing.T) *hranatest.Server {
	t.Helper()
	srv, err := hranatest.New(filepath.Join(t.TempDir(), "remote.db"), hranatest.Options{Token: wireToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestSyncOverHTTPReportsTheRemote syncs through the Hrana server and
// checks what sync --status, doctor and status say of it: reachable, the
// token accepted, the schema, the rows waiting each way; and, with a wrong
// token, the setting to fix, never the token.
func TestSyncOverHTTPReportsTheRemote(t *testing.T) {
	srv := wireRemote(t)
	h, _, _ := installHarness(t, false)
	h.vars["CREDENCE_SYNC_URL"] = srv.URL()
	h.vars["CREDENCE_SYNC_TOKEN"] = wireToken
	h.ok("install")
	ctx := context.Background()
	write := func(statement string) {
		err := h.db().Write(ctx, func(tx *store.Tx) error {
			_, err := tx.CreateBelief(ctx, belief.Spec{Statement: statement})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	write("Deploys go through fly.io.")

	out := h.ok("sync", "--status")
	for _, want := range []string{"reachable    yes (0 rows to pull)", "token        accepted", "schema       none yet", "to push      1 row"} {
		if !strings.Contains(out, want) {
			t.Errorf("sync --status lacks %q:\n%s", want, out)
		}
	}
	h.ok("sync")
	write("Tests run with go test ./....")
	var rep stepReport
	_, raw, _ := h.run("doctor", "--json")
	decodeJSON(t, raw, &rep)
	s := checkStatus(rep, "sync")
	for _, want := range []string{"reachable", "token accepted", "sync schema " + syncer.RemoteSchemaVersion, "1 rows to push, 0 to pull"} {
		if s.Status != checkOK || !strings.Contains(s.Detail, want) {
			t.Errorf("doctor sync = %+v; want ok saying %q", s, want)
		}
	}
	out = h.ok("status")
	for _, want := range []string{"1 row waiting to push", "remote answered at the last round", "token accepted",
		"sync schema " + syncer.RemoteSchemaVersion, "0 rows left to pull"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}

	// A wrong token: every command names the setting, none prints a token.
	h.vars["CREDENCE_SYNC_TOKEN"] = "tok-wrong-0b9d27c4e6f1a358"
	code, out, errs := h.run("sync")
	if code == 0 || !strings.Contains(errs, "sync.token") || !strings.Contains(errs, "CREDENCE_SYNC_TOKEN") {
		t.Errorf("sync with a wrong token: exit %d, stderr %q; want the setting named", code, errs)
	}
	code, raw, _ = h.run("doctor", "--json")
	decodeJSON(t, raw, &rep)
	if s := checkStatus(rep, "sync"); code == 0 || s.Status != checkProblem || !strings.Contains(s.Detail, "refused the token") ||
		!strings.Contains(s.Fix, "sync.token") {
		t.Errorf("doctor with a wrong token: exit %d, sync %+v", code, s)
	}
	statusOut := h.ok("status")
	if !strings.Contains(statusOut, "remote refused the token") {
		t.Errorf("status after a refused token:\n%s", statusOut)
	}
	for _, shown := range []string{out, errs, raw, statusOut} {
		if strings.Contains(shown, "tok-wrong-0b9d27c4e6f1a358") || strings.Contains(shown, wireToken) {
			t.Errorf("a token was printed:\n%s", shown)
		}
	}
}

// TestStatusShowsTheAgentsSyncLoop: while the agent's rounds fail, status
// says since when, how often, when the next try is and that rows wait here.
func TestStatusShowsTheAgentsSyncLoop(t *testing.T) {
	h := newCmdHarness(t)
	h.vars["CREDENCE_SYNC_URL"] = "http://127.0.0.1:1"
	db := h.db()
	now := time.Now()
	beat, _ := json.Marshal(agent.Heartbeat{PID: 1, Host: "h", State: agent.StateIdle, BeatAt: now, Every: time.Minute,
		StartedAt: now.Add(-time.Hour), Endpoints: []store.EndpointHealth{{Name: syncer.EndpointSync,
			Remote: "http://127.0.0.1:1", Down: true, Since: now.Add(-20 * time.Minute), NextTry: now.Add(90 * time.Second),
			Failures: 6, Error: "cannot reach 127.0.0.1:1: connection refused"}}})
	if err := db.SetMeta(context.Background(), store.MetaAgentHeartbeat, string(beat)); err != nil {
		t.Fatal(err)
	}
	out := h.ok("status")
	for _, want := range []string{"the agent: rounds failing since", "6 failures", "next try in 1m", "rows wait here"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "127.0.0.1:1") > 1 && strings.Contains(out, "\nsync       \n") {
		t.Errorf("status lists sync twice:\n%s", out)
	}
}
