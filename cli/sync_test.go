package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

func TestSyncCommand(t *testing.T) {
	remote := "file:" + filepath.Join(t.TempDir(), "remote.db")
	laptop, desktop := newCmdHarness(t), newCmdHarness(t)
	for _, h := range []*cmdHarness{laptop, desktop} {
		h.vars["CREDENCE_SYNC_URL"] = remote
	}
	ctx := context.Background()
	var id string
	err := laptop.db().Write(ctx, func(tx *store.Tx) error {
		var err error
		id, err = tx.CreateBelief(ctx, belief.Spec{Statement: "Deploys go through fly.io."})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	var res struct {
		OK     bool `json:"ok"`
		Report struct {
			PushedNew int `json:"pushed_new"`
		} `json:"report"`
	}
	laptop.json(&res, "sync")
	if !res.OK || res.Report.PushedNew != 1 {
		t.Fatalf("laptop sync --json = %+v; want ok with 1 row pushed", res)
	}
	out := desktop.ok("sync")
	if !strings.Contains(out, "pulled 1 row (1 new)") {
		t.Errorf("desktop sync printed:\n%s", out)
	}
	if _, err := desktop.db().Belief(ctx, id); err != nil {
		t.Errorf("desktop: Belief()=%v after sync", err)
	}

	var st struct {
		Reachable   bool `json:"reachable"`
		PendingPush int  `json:"pending_push"`
	}
	desktop.json(&st, "sync", "--status")
	if !st.Reachable || st.PendingPush != 0 {
		t.Errorf("sync --status --json = %+v; want reachable, nothing to push", st)
	}
}

func TestSyncCommandFailures(t *testing.T) {
	tests := []struct {
		name, url, want string
	}{
		{"sync off", "", "sync.url"},
		{"unreachable remote", "http://127.0.0.1:1", "127.0.0.1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newCmdHarness(t)
			h.vars["CREDENCE_SYNC_URL"] = tt.url
			h.vars["CREDENCE_SYNC_TOKEN"] = ""
			if tt.url != "" {
				h.vars["CREDENCE_SYNC_TOKEN"] = "cli-secret-token-42"
			}
			code, out, errs := h.run("sync")
			if code == 0 || !strings.Contains(errs, tt.want) {
				t.Errorf("sync: exit %d, stderr %q; want failure naming %q", code, errs, tt.want)
			}
			if strings.Contains(out+errs, "cli-secret-token-42") {
				t.Errorf("the token was printed:\n%s%s", out, errs)
			}
		})
	}
}

// TestSyncStatusWhenOff: sync being off is a state, reported with how to
// turn it on and exit 0, without creating a database.
func TestSyncStatusWhenOff(t *testing.T) {
	h := newCmdHarness(t)
	h.vars["CREDENCE_SYNC_URL"] = ""
	code, out, errs := h.run("sync", "--status")
	if code != 0 || !strings.Contains(out, "sync is off") || !strings.Contains(out, "CREDENCE_SYNC_URL") ||
		!strings.Contains(out, h.config().Paths.ConfigFile) {
		t.Errorf("sync --status with sync off: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 0 saying it is off and how to turn it on", code, out, errs)
	}
	var st struct {
		Enabled *bool `json:"enabled"`
	}
	h.json(&st, "sync", "--status")
	if st.Enabled == nil || *st.Enabled {
		t.Errorf("sync --status --json: enabled = %v, want false", st.Enabled)
	}
	if fileExists(h.config().Paths.Database) {
		t.Error("sync --status created a database")
	}
}
