package hookrelay

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/credence-mem/credence/config/defaults"
	"github.com/credence-mem/credence/internal/testkit"
)

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "line\nfeed\r\ttab", "\x00\x01\x1f\x7f",
		"\xff\xfe invalid", "half \xe2\x82 rune", "é ü 漢字 🙂", "<html> & \u2028"} {
		b := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("%q: %s is not a JSON string: %v", s, b, err)
			continue
		}
		want, _ := json.Marshal(s)
		var wantS string
		json.Unmarshal(want, &wantS)
		if got != wantS {
			t.Errorf("%q: decodes to %q, encoding/json's to %q", s, got, wantS)
		}
	}
}

func TestFrontLog(t *testing.T) {
	t.Run("in the log directory, opened on the first line", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "logs")
		l := newFrontLog(dir, "Stop")
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("log directory before any line: %v; want none", err)
		}
		l.warn("hook failed", errors.New(`read "stdin": broken`))
		l.close()
		m := testkit.LastJSONLine(t, filepath.Join(dir, "hook.log"))
		if m["level"] != "WARN" || m["msg"] != "hook failed" || m["component"] != "hook" || m["event"] != "Stop" ||
			m["err"] != `read "stdin": broken` || m["fallback_log"] != nil {
			t.Errorf("line %v", m)
		}
		if _, err := time.Parse(time.RFC3339Nano, m["time"].(string)); err != nil {
			t.Errorf("time: %v", err)
		}
	})
	t.Run("in the fallback log when the directory cannot be made", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		blocker := filepath.Join(tmp, "file")
		os.WriteFile(blocker, nil, 0o600)
		l := newFrontLog(filepath.Join(blocker, "logs"), "UserPromptSubmit")
		l.warn("unknown event", nil)
		l.close()
		m := testkit.LastJSONLine(t, filepath.Join(tmp, filepath.Base(defaults.HookFallbackLog())))
		if m["msg"] != "unknown event" || m["fallback_log"] != true || m["err"] != nil {
			t.Errorf("line %v", m)
		}
	})
}
