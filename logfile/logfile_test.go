package logfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/internal/testkit"
)

func testConfig(t *testing.T, logDir, level string) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.LogLevel = level
	cfg.Paths.LogDir = logDir
	cfg.Hook.LogMaxBytes = 1 << 20
	return &cfg
}

// TestOpenHook: the hook's log holds its records at its level, with the
// attributes added before.
func TestOpenHook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	log, closeLog := OpenHook(testConfig(t, dir, "info"), true)
	log = log.With("event", "Stop").WithGroup("g").With("k", 1)
	log.Debug("below the level")
	log.Warn("hook failed", "err", "boom")
	closeLog()
	if data, _ := os.ReadFile(filepath.Join(dir, "hook.log")); strings.Contains(string(data), "below the level") {
		t.Errorf("a debug record at info:\n%s", data)
	}
	m := testkit.LastJSONLine(t, filepath.Join(dir, "hook.log"))
	g, _ := m["g"].(map[string]any)
	if m["msg"] != "hook failed" || m["component"] != "hook" || m["event"] != "Stop" || g["k"] != 1.0 || g["err"] != "boom" {
		t.Errorf("line %v", m)
	}
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
	if m := testkit.LastJSONLine(t, HookFallbackPath()); m["msg"] != "kept" || m["fallback_log"] != true {
		t.Errorf("line %v", m)
	}
}

// TestComponentOnce: a logger derived with its own component names it once
// on each line, keeping what was added before; a "component" inside a
// group is an ordinary attribute.
func TestComponentOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	log, closer, err := Open(testConfig(t, dir, "info"), "agent", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	log = log.With("pid", 7)
	log.Info("agent line")
	log.With("component", "consolidate").With("cycle", "cy_1").Info("consolidate line")
	log.WithGroup("g").With("component", "inner").Info("grouped line")
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "agent.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []struct {
		component string
		keys      []string // every top-level key, in order
	}{
		{"agent", []string{"time", "level", "msg", "component", "pid"}},
		{"consolidate", []string{"time", "level", "msg", "component", "pid", "cycle"}},
		{"agent", []string{"time", "level", "msg", "component", "pid", "g"}},
	}
	if len(lines) != len(want) {
		t.Fatalf("agent.log has %d lines, want %d:\n%s", len(lines), len(want), data)
	}
	for i, w := range want {
		if keys := testkit.JSONKeys(t, lines[i]); !slices.Equal(keys, w.keys) {
			t.Errorf("line %d keys %q, want %q:\n%s", i+1, keys, w.keys, lines[i])
		}
		if !strings.Contains(lines[i], `"component":"`+w.component+`"`) {
			t.Errorf("line %d is not from %s:\n%s", i+1, w.component, lines[i])
		}
	}
	if !strings.Contains(lines[2], `"g":{"component":"inner"}`) {
		t.Errorf("the grouped component moved: %s", lines[2])
	}
}
