package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoParts(t *testing.T) {
	h, _, binDir := installHarness(t, false)
	// The fake credence-hook of the harness cannot replay anything; point
	// at a missing one to check the skip and the failure paths.
	missing := filepath.Join(binDir, "no-such-hook")
	out := h.ok("demo", "--toy")
	if !strings.Contains(out, "credence toy world") || strings.Contains(out, "session demo") {
		t.Errorf("demo --toy:\n%s", out)
	}
	code, _, errs := h.run("demo", "--session", "--hook-binary", missing)
	if code != 1 || !strings.Contains(errs, "no credence-hook") {
		t.Errorf("demo --session without a hook: exit %d, stderr %q", code, errs)
	}
	out = h.ok("demo", "--hook-binary", missing)
	if !strings.Contains(out, "credence toy world") || !strings.Contains(out, "the session part is skipped") {
		t.Errorf("plain demo without a hook:\n%s", out)
	}
	var both map[string]json.RawMessage
	h.json(&both, "demo", "--hook-binary", missing)
	if both["toy_world"] == nil || both["session_skipped"] == nil {
		t.Errorf("demo --json keys: %v", both)
	}
	if code, _, _ := h.run("demo", "--toy", "--session"); code != 2 {
		t.Errorf("--toy --session: exit %d, want 2", code)
	}
}
