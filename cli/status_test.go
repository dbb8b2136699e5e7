package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/store"
)

// TestStatusRendersSyncRecord checks what status shows after a one-off
// sync: the times as times with their age, not Unix milliseconds, and none
// of sync's internal bookkeeping (cursors, the remote's identity).
func TestStatusRendersSyncRecord(t *testing.T) {
	h := newCmdHarness(t)
	db := h.db()
	pulled := time.Now().Add(-3 * time.Hour).Truncate(time.Millisecond)
	for k, v := range map[string]string{
		"sync_last_pull_at":     fmt.Sprint(pulled.UnixMilli()),
		"sync_last_push_at":     fmt.Sprint(pulled.UnixMilli()),
		"sync_last_round_at":    fmt.Sprint(pulled.UnixMilli()),
		"sync_remote":           "file:///tmp/remote.db",
		"sync_remote_id":        "rm_01JINTERNAL",
		"sync_push_cursor":      `{"episodes":12}`,
		"sync_pull_cursor":      `{"episodes":34}`,
		"sync_push_all_through": "55",
		"sync_merged_through":   "7/8",
	} {
		if err := db.SetMeta(context.Background(), k, v); err != nil {
			t.Fatal(err)
		}
	}
	out := h.ok("status")
	line := lineStarting(out, "sync")
	want := "last pulled " + pulled.Format(time.DateTime) + " (3h0m ago)"
	if !strings.Contains(line, want) || !strings.Contains(line, "off") || !strings.Contains(line, "file:///tmp/remote.db") {
		t.Errorf("sync line %q; want it off, naming the remote and saying %q", line, want)
	}
	for _, internal := range []string{fmt.Sprint(pulled.UnixMilli()), "sync_", "cursor", "rm_01JINTERNAL", "7/8"} {
		if strings.Contains(out, internal) {
			t.Errorf("status shows internal %q:\n%s", internal, out)
		}
	}
	var rep StatusReport
	h.json(&rep, "status")
	if !rep.Sync.LastPull.Equal(pulled) || rep.Sync.Enabled {
		t.Errorf("status --json sync %+v; want last_pull %v and sync off", rep.Sync, pulled)
	}
	raw := h.ok("status", "--json")
	if strings.Contains(raw, "cursor") || strings.Contains(raw, "rm_01JINTERNAL") {
		t.Errorf("status --json shows sync internals:\n%s", raw)
	}
}

// TestStatusWaitingIsOneCount checks that status gives one number of
// episodes waiting for consolidation, counted now, not also the running
// agent's count from its last beat (which lags behind the hooks).
func TestStatusWaitingIsOneCount(t *testing.T) {
	h := newCmdHarness(t)
	db := h.db()
	h.say(db, "", "I live in Lisbon", "I like Rust", "I use pnpm")
	// A running agent that counted 7 waiting at its last beat, as an agent
	// wrote it before the count left its heartbeat.
	beat := fmt.Sprintf(`{"pid":1,"host":"h","state":"idle","mode":"offline","started_at":%q,"beat_at":%q,"every":30000000000,"pending":7}`,
		time.Now().Add(-time.Hour).Format(time.RFC3339Nano), time.Now().Format(time.RFC3339Nano))
	if err := db.SetMeta(context.Background(), store.MetaAgentHeartbeat, beat); err != nil {
		t.Fatal(err)
	}
	out := h.ok("status")
	if n := strings.Count(out, "waiting"); n != 1 || !strings.Contains(out, "3 waiting") {
		t.Errorf("status mentions waiting episodes %d times; want once, 3:\n%s", n, out)
	}
	if !strings.Contains(lineStarting(out, "agent"), "running") {
		t.Errorf("agent line %q; want running", lineStarting(out, "agent"))
	}
	var rep StatusReport
	h.json(&rep, "status")
	raw, _ := json.Marshal(rep)
	if rep.Episodes.Waiting != 3 || strings.Contains(string(raw), `"pending":7`) {
		t.Errorf("status --json: waiting %d, report %s; want 3 and no other count", rep.Episodes.Waiting, raw)
	}
}

// lineStarting returns the first line of out that starts with prefix.
func lineStarting(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestStatusCountsSpooledEvents: an event the hooks spooled while the
// database was busy shows in status, and a cycle run by hand stores it
// before it consolidates.
func TestStatusCountsSpooledEvents(t *testing.T) {
	h := newCmdHarness(t)
	db := h.db()
	cfg := h.config()
	dir := filepath.Join(filepath.Dir(cfg.Paths.Database), "spool")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// The spool's on-disk record, as a hook writes it (hooks/spool.go).
	rec := fmt.Sprintf(`{"v":1,"event":"UserPromptSubmit","received_at_ns":%d,"session_id":"s1","episode_id":"ep_01JZZZZZZZZZZZZZZZZZZZZZZZ","content":"we deploy with fly.io"}`, time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%020d-00000000-00000000.json", time.Now().UnixNano())), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	var rep StatusReport
	h.json(&rep, "status")
	if rep.Episodes.Spooled != 1 {
		t.Fatalf("status --json: spooled %d, want 1", rep.Episodes.Spooled)
	}
	if out := h.ok("status"); !strings.Contains(out, "1 event spooled") {
		t.Errorf("status does not say an event is spooled:\n%s", out)
	}
	h.ok("consolidate")
	h.json(&rep, "status")
	if rep.Episodes.Spooled != 0 {
		t.Errorf("after consolidate: spooled %d, want 0", rep.Episodes.Spooled)
	}
	if n, err := db.CountEpisodes(context.Background()); err != nil || n != 1 {
		t.Errorf("CountEpisodes()=%d, %v; want the spooled prompt stored", n, err)
	}
}
