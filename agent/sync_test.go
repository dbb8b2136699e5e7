package agent

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer"
	"github.com/credence-mem/credence/syncer/hranatest"
)

// logWriter lets a logger write to a lockedBuffer.
type logWriter struct{ *lockedBuffer }

func (w logWriter) Write(p []byte) (int, error) {
	w.write(string(p))
	return len(p), nil
}

// syncHealth is the sync remote's health in the agent's last heartbeat.
func syncHealth(h *testHome) (store.EndpointHealth, bool) {
	for _, e := range hb2(h).Endpoints {
		if e.Name == syncer.EndpointSync {
			return e, true
		}
	}
	return store.EndpointHealth{}, false
}

// TestSyncOnAFlakyNetwork runs the agent while its sync remote is off the
// network, then silent, then back: consolidation cycles and hooks go on
// meanwhile, the heartbeat says what sync is waiting for, the rows reach
// the remote once it answers, and the token never reaches the log.
func TestSyncOnAFlakyNetwork(t *testing.T) {
	const token = "tok-agent-5e0c7d1a9b3f4e26"
	srv, err := hranatest.New(filepath.Join(t.TempDir(), "remote.db"), hranatest.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.SetDown(true); err != nil {
		t.Fatal(err)
	}
	h := newHome(t, map[string]string{"sync.url": srv.URL(), "sync.token": token, "sync.interval": "1h"})
	h.prompt("/p", "we deploy with fly.io")
	logs := &lockedBuffer{}
	a := h.start(Options{SyncRetry: 50 * time.Millisecond, SyncRequestTimeout: 300 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(logWriter{logs}, nil))})

	// Off the network: the loop retries, the heartbeat says why, and the
	// start cycle finishes regardless.
	eventually(t, "the heartbeat to report sync down", func() bool {
		e, ok := syncHealth(h)
		return ok && e.Down && e.Failures >= 2 && strings.Contains(e.Error, "cannot reach") && !e.NextTry.IsZero()
	})
	eventually(t, "the start cycle", func() bool {
		c := h.cycles()
		return len(c) >= 1 && c[len(c)-1].FinishedAt != 0
	})

	// Back on the network but silent: every request hangs until its
	// timeout. Hooks are answered and a cycle runs all the same.
	srv.SetPolicy(func(hranatest.Request) hranatest.Fault {
		return hranatest.Fault{Kind: hranatest.Slow, Delay: time.Hour}
	})
	if err := srv.SetDown(false); err != nil {
		t.Fatal(err)
	}
	sock := hookrelay.SocketPath(h.cfg.Paths.DataDir)
	in := `{"session_id":"s1","cwd":"/tmp/p","hook_event_name":"UserPromptSubmit","prompt":"we test with go test"}`
	var out strings.Builder
	if err := hookrelay.Relay(sock, h.cfg.Paths.Database, "UserPromptSubmit", []byte(in), time.Now().Add(5*time.Second), &out); err != nil {
		t.Fatalf("a hook while the remote hangs: %v", err)
	}
	a.Consolidate("cli")
	eventually(t, "a cycle while the remote hangs", func() bool { return h.cycles()[0].Trigger == "cli" && h.cycles()[0].FinishedAt != 0 })
	eventually(t, "a round to time out", func() bool {
		e, _ := syncHealth(h)
		return strings.Contains(e.Error, "timeout")
	})

	// The remote answers again: the loop catches up on its own.
	srv.SetPolicy(nil)
	local, err := h.db.CountEpisodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the episodes on the remote", func() bool { return remoteEpisodes(t, srv) == local })
	eventually(t, "the heartbeat to report sync up", func() bool {
		e, ok := syncHealth(h)
		return ok && !e.Down && !e.LastOK.IsZero()
	})
	st, err := syncer.Recorded(context.Background(), h.db)
	if err != nil || st.PendingPush != 0 || !st.Reachable || st.Token != syncer.TokenAccepted || st.RemoteSchema == "" {
		t.Errorf("Recorded()=%+v, %v; want a reachable remote that took the token and holds everything", st, err)
	}

	// Closing while the remote hangs does not wait for it.
	srv.SetPolicy(func(hranatest.Request) hranatest.Fault {
		return hranatest.Fault{Kind: hranatest.Slow, Delay: time.Hour}
	})
	a.sync.Kick()
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Errorf("Close() while the remote hangs: %v", err)
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("the agent log holds the sync token")
	}
	if !strings.Contains(logs.String(), "sync round failed") {
		t.Errorf("the agent log does not say sync failed:\n%s", logs.String())
	}
}

// remoteEpisodes counts the episodes in the remote's file, -1 before
// sync created its tables.
func remoteEpisodes(t *testing.T, srv *hranatest.Server) int {
	t.Helper()
	db, err := sql.Open("libsql", "file:"+srv.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM episodes`).Scan(&n); err != nil {
		return -1
	}
	return n
}
