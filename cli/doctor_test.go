package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/store"
)

// checkStatus returns the status of the named check in a doctor report.
func checkStatus(rep stepReport, name string) step {
	for _, s := range rep.Steps {
		if s.Name == name {
			return s
		}
	}
	return step{}
}

func TestDoctorBeforeInstall(t *testing.T) {
	h, _, _ := installHarness(t, false)
	code, out, _ := h.run("doctor")
	if code != 1 {
		t.Fatalf("doctor before install: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"✗ hooks", "fix: run credence install", "✗ MCP server", "✗ database"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorAfterInstall(t *testing.T) {
	h, r, binDir := installHarness(t, false)
	h.ok("install")
	var rep stepReport
	code, out, _ := h.run("doctor", "--json")
	decodeJSON(t, out, &rep)
	for _, name := range []string{"config", "binaries", "hooks", "global memory import", "database", "agent", "hook hand-over"} {
		if s := checkStatus(rep, name); s.Status != checkOK {
			t.Errorf("check %q = %+v, want ok", name, s)
		}
	}
	if s := checkStatus(rep, "MCP server"); s.Status != checkOK {
		t.Errorf("MCP check = %+v, want ok", s)
	}
	if s := checkStatus(rep, "LLM endpoint"); s.Status != checkSkipped {
		t.Errorf("LLM check = %+v, want skipped in offline mode", s)
	}
	if code != 0 {
		t.Errorf("doctor after install: exit %d\n%s", code, out)
	}

	// The agent dies: doctor says so and exits 1.
	for pid := range r.alive {
		delete(r.alive, pid)
	}
	code, out, _ = h.run("doctor")
	if code != 1 || !strings.Contains(out, "✗ agent: not running") || !strings.Contains(out, "✗ hook hand-over: handled in-process") {
		t.Errorf("dead agent: exit %d\n%s", code, out)
	}
	// Which in-process handler runs: credence, and doctor says the lean
	// one is missing, until credence-hook-local is installed beside it.
	if !strings.Contains(out, "by "+filepath.Join(binDir, "credence")+" ") || !strings.Contains(out, hookrelay.LeanHandler+" is missing") {
		t.Errorf("dead agent without %s: doctor does not say credence handles the events and the lean handler is missing:\n%s", hookrelay.LeanHandler, out)
	}
	if err := os.WriteFile(filepath.Join(binDir, hookrelay.LeanHandler), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, out, _ = h.run("doctor"); !strings.Contains(out, "by "+filepath.Join(binDir, hookrelay.LeanHandler)+" ") || strings.Contains(out, "is missing") {
		t.Errorf("dead agent with %s: doctor does not name it as the handler:\n%s", hookrelay.LeanHandler, out)
	}

	// A fresh heartbeat counts as alive whatever the service manager says;
	// a stale one does not.
	db := h.db()
	for _, tc := range []struct {
		age  time.Duration
		want string
	}{{time.Minute, checkOK}, {time.Hour, checkProblem}} {
		beat, _ := json.Marshal(agent.Heartbeat{PID: 1, State: agent.StateIdle, BeatAt: time.Now().Add(-tc.age), Every: time.Minute})
		if err := db.SetMeta(t.Context(), store.MetaAgentHeartbeat, string(beat)); err != nil {
			t.Fatal(err)
		}
		_, out, _ := h.run("doctor", "--json")
		rep = stepReport{}
		decodeJSON(t, out, &rep)
		if s := checkStatus(rep, "agent"); s.Status != tc.want {
			t.Errorf("heartbeat %s old: agent check %+v, want %s", tc.age, s, tc.want)
		}
	}
}

func TestDoctorEndpoints(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   string
		detail string
	}{
		{"answers", http.StatusOK, checkOK, "answers"},
		{"rejects the key", http.StatusUnauthorized, checkProblem, "rejected the API key"},
		{"server error", http.StatusBadGateway, checkProblem, "HTTP 502"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotAuth, gotPath string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				gotAuth, gotPath = r.Header.Get("Authorization"), r.URL.Path
				w.WriteHeader(tt.status)
				w.Write([]byte(`{"data": []}`))
			}))
			defer srv.Close()
			h, _, _ := installHarness(t, false)
			h.vars["CREDENCE_LLM_BASE_URL"] = srv.URL + "/v1"
			h.vars["CREDENCE_LLM_API_KEY"] = "sk-doctor-test-key"
			h.ok("install")
			var rep stepReport
			_, out, _ := h.run("doctor", "--json")
			decodeJSON(t, out, &rep)
			s := checkStatus(rep, "LLM endpoint")
			if s.Status != tt.want || !strings.Contains(s.Detail, tt.detail) {
				t.Errorf("LLM check = %+v, want %s with %q", s, tt.want, tt.detail)
			}
			if gotPath != "/v1/models" || gotAuth != "Bearer sk-doctor-test-key" {
				t.Errorf("request %s with %q", gotPath, gotAuth)
			}
			if strings.Contains(out, "sk-doctor-test-key") {
				t.Error("doctor printed the API key")
			}
		})
	}
}

func TestDoctorUnreachableEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	h, _, _ := installHarness(t, false)
	h.vars["CREDENCE_LLM_BASE_URL"] = url
	h.ok("install")
	code, out, _ := h.run("doctor")
	if code != 1 || !strings.Contains(out, "✗ LLM endpoint") || !strings.Contains(out, "ollama serve") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestDoctorSync(t *testing.T) {
	h, _, _ := installHarness(t, false)
	h.vars["CREDENCE_SYNC_URL"] = "file:" + h.home + "/no/such/dir/remote.db"
	h.ok("install")
	var rep stepReport
	_, out, _ := h.run("doctor", "--json")
	decodeJSON(t, out, &rep)
	if s := checkStatus(rep, "sync"); s.Status == checkSkipped || s.Status == "" {
		t.Errorf("sync check = %+v, want it checked", s)
	}
}

// TestDoctorAfterUninstall checks that doctor does not pass a config file
// that uninstall removed.
func TestDoctorAfterUninstall(t *testing.T) {
	h, _, _ := installHarness(t, false)
	h.ok("install")
	var rep stepReport
	_, out, _ := h.run("doctor", "--json")
	decodeJSON(t, out, &rep)
	if s := checkStatus(rep, "config"); s.Status != checkOK {
		t.Fatalf("config check after install = %+v, want ok", s)
	}
	cfg := h.config()
	h.ok("uninstall")
	if _, err := os.Stat(cfg.Paths.ConfigFile); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("uninstall left the default config file: %v", err)
	}
	code, out, _ := h.run("doctor")
	if code != 1 || !strings.Contains(out, "✗ config: no config file at "+cfg.Paths.ConfigFile) || strings.Contains(out, "✓ config") {
		t.Errorf("doctor after uninstall: exit %d\n%s\nwant the config reported missing", code, out)
	}
}
