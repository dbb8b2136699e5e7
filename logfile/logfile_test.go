package logfile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credence-mem/credence/config"
)

func testConfig(t *testing.T, logDir, level string) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.LogLevel = level
	cfg.Paths.LogDir = logDir
	cfg.Hook.LogMaxBytes = 1 << 20
	return &cfg
}

func lastLine(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return m
}

// TestOpenHookLazily: the hook's log is opened on the first record at its
// level, with the attributes added before, and not at all when nothing is
// logged.
func TestOpenHookLazily(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	log, closeLog := OpenHook(testConfig(t, dir, "info"), true)
	log = log.With("event", "Stop").WithGroup("g").With("k", 1)
	log.Debug("below the level")
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("log directory after a debug record at info: %v; want none", err)
	}
	log.Warn("hook failed", "err", "boom")
	closeLog()
	m := lastLine(t, filepath.Join(dir, "hook.log"))
	g, _ := m["g"].(map[string]any)
	if m["msg"] != "hook failed" || m["component"] != "hook" || m["event"] != "Stop" || g["k"] != 1.0 || g["err"] != "boom" {
		t.Errorf("line %v", m)
	}
	log.Warn("after close") // dropped, not a panic
}

// TestOpenHookFallback: a log directory that cannot be made sends the hook's
// lines to the fallback log, marked, at info and above.
func TestOpenHookFallback(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	blocker := filepath.Join(tmp, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	log, closeLog := OpenHook(testConfig(t, filepath.Join(blocker, "logs"), "debug"), true)
	log.Debug("dropped: the fallback log is at info")
	log.Info("kept", "event", "UserPromptSubmit")
	closeLog()
	data, _ := os.ReadFile(HookFallbackPath())
	if strings.Contains(string(data), "dropped") {
		t.Errorf("fallback log has a debug line:\n%s", data)
	}
	if m := lastLine(t, HookFallbackPath()); m["msg"] != "kept" || m["fallback_log"] != true {
		t.Errorf("line %v", m)
	}
}
