package cli

import (
	"os"
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	h := newCmdHarness(t)
	const key = "sk-test-abcdefghijklmnopqrstuvwxyz123456"
	h.vars["CREDENCE_LLM_API_KEY"] = key
	h.vars["CREDENCE_SYNC_TOKEN"] = "tok-secret-value"
	h.vars["CREDENCE_SYNC_URL"] = "file:" + h.home + "/remote.db"
	out := h.ok("config")
	if strings.Contains(out, key) || strings.Contains(out, "tok-secret-value") {
		t.Fatalf("config printed a secret:\n%s", out)
	}
	if !strings.Contains(out, `api_key = "********"  # env CREDENCE_LLM_API_KEY`) {
		t.Errorf("config does not show the masked key and its source:\n%s", out)
	}
	var js struct {
		ConfigFile string `json:"config_file"`
		Values     map[string]any
		Sources    map[string]string
	}
	h.json(&js, "config")
	llm, _ := js.Values["llm"].(map[string]any)
	if llm["api_key"] != "********" || js.Sources["llm.api_key"] != "env CREDENCE_LLM_API_KEY" {
		t.Errorf("json llm = %v, sources %v", js.Values["llm"], js.Sources)
	}
	if got := strings.TrimSpace(h.ok("config", "path")); got != js.ConfigFile || !strings.HasPrefix(got, h.home) {
		t.Errorf("config path = %q, want %q under HOME", got, js.ConfigFile)
	}
	if out := h.ok("config", "init"); !strings.Contains(out, "wrote") {
		t.Errorf("config init: %q", out)
	}
	fi, err := os.Stat(js.ConfigFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config file %v mode %v, want 0600", err, fi)
	}
	if out := h.ok("config", "init"); !strings.Contains(out, "already exists") {
		t.Errorf("second config init: %q", out)
	}
	if code, _, _ := h.run("config", "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}

func TestConfigInvalid(t *testing.T) {
	h := newCmdHarness(t)
	h.vars["CREDENCE_EMBEDDER_KIND"] = "nonsense"
	code, out, errs := h.run("config")
	if code != 1 || !strings.Contains(errs, "embedder.kind") || !strings.Contains(out, `kind = "nonsense"`) {
		t.Errorf("exit %d\nstdout %s\nstderr %s\nwant the config printed and the problem named", code, out, errs)
	}
}
