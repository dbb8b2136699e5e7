package syncer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

func TestStatus(t *testing.T) {
	ctx := context.Background()
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	cfg := &config.Config{Sync: config.SyncConfig{URL: url}}

	off, err := Status(ctx, a.db, &config.Config{})
	if err != nil || off.Enabled {
		t.Fatalf("Status() with sync off = %+v, %v; want disabled", off, err)
	}

	a.create(t, belief.Spec{Statement: "Use tabs."}, 2) // create + 2 evidence + 2 events = 5 rows
	before, err := Status(ctx, a.db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !before.Reachable || before.PendingPush != 5 || !before.LastPush.IsZero() || before.PendingPull != 0 {
		t.Errorf("before any sync: %+v; want reachable, 5 to push, 0 to pull, never pushed", before)
	}
	a.round(t)
	after, err := Status(ctx, a.db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if after.PendingPush != 0 || after.LastPush.IsZero() || after.LastPull.IsZero() || after.LastError != "" {
		t.Errorf("after a round: %+v; want nothing to push and push/pull times set", after)
	}
	other, err := Status(ctx, b.db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if other.PendingPull != 5 {
		t.Errorf("b before its first round: PendingPull=%d, want 5", other.PendingPull)
	}

	// The meta keys status reads without importing syncer.
	meta, err := a.db.MetaPrefix(ctx, "sync_")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{MetaLastPush, MetaLastPull, MetaLastRound, MetaRemote, MetaPendingPush} {
		if meta[k] == "" {
			t.Errorf("meta %s not written", k)
		}
	}

	gone := &config.Config{Sync: config.SyncConfig{URL: "http://127.0.0.1:1", Token: "t0ken-value"}}
	down, err := Status(ctx, a.db, gone)
	if err != nil {
		t.Fatal(err)
	}
	if down.Reachable || down.RemoteError == "" || down.PendingPull != -1 {
		t.Errorf("unreachable remote: %+v; want not reachable with a reason", down)
	}
}

func TestStatusDoesNotWriteToRemote(t *testing.T) {
	ctx := context.Background()
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	st, err := Status(ctx, a.db, &config.Config{Sync: config.SyncConfig{URL: url}})
	if err != nil || !st.Reachable {
		t.Fatalf("Status()=%+v, %v", st, err)
	}
	var n int
	if err := openFileRemote(t, url).QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("status created %d tables on the remote", n)
	}
}

func TestOfflineThenCatchUp(t *testing.T) {
	url := remoteURL(t)
	down := true
	dial := func(ctx context.Context) (Remote, error) {
		if down {
			return nil, errInjected
		}
		return Dial(url, "")(ctx)
	}
	a := newMachine(t, "a", 0, dial)
	b := newMachine(t, "b", time.Second, Dial(url, ""))
	ctx := context.Background()
	var ids []string
	for i := 0; i < 4; i++ {
		ids = append(ids, a.create(t, belief.Spec{Statement: "offline fact " + string(rune('A'+i))}, 1))
		if _, err := a.sync.Round(ctx); err == nil {
			t.Fatal("Round() succeeded while the remote is down")
		}
	}
	meta, _ := a.db.MetaPrefix(ctx, "sync_")
	if !strings.Contains(meta[MetaLastError], "injected") || meta[MetaLastPush] != "" {
		t.Errorf("after offline rounds: last error %q, last push %q", meta[MetaLastError], meta[MetaLastPush])
	}
	down = false
	a.round(t)
	b.round(t)
	for _, id := range ids {
		if _, err := b.db.Belief(ctx, id); err != nil {
			t.Errorf("b: Belief(%s)=%v after a caught up", id, err)
		}
	}
}

func TestReplacedRemoteGetsEverything(t *testing.T) {
	first, second := remoteURL(t), remoteURL(t)
	url := first
	dial := func(ctx context.Context) (Remote, error) { return Dial(url, "")(ctx) }
	a := newMachine(t, "a", 0, dial)
	b := newMachine(t, "b", time.Second, dial)
	fromB := b.create(t, belief.Spec{Statement: "written on b"}, 1)
	b.round(t)
	a.round(t)

	// The remote is lost and replaced by an empty one; b is gone for good.
	url = second
	rep := a.round(t)
	if !rep.Reset {
		t.Errorf("Round() on a new remote: Reset=false")
	}
	c := newMachine(t, "c", 2*time.Second, dial)
	c.round(t)
	if _, err := c.db.Belief(context.Background(), fromB); err != nil {
		t.Errorf("c: Belief(%s) written on b = %v; a should have pushed it to the new remote", fromB, err)
	}
}

func TestRefusesLocalDatabaseAsRemote(t *testing.T) {
	local := filepath.Join(t.TempDir(), "credence.db")
	db, err := store.Open(context.Background(), local, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	a := newMachine(t, "a", 0, Dial("file:"+local, ""))
	_, err = a.sync.Round(context.Background())
	if err == nil || !strings.Contains(err.Error(), "empty database") {
		t.Fatalf("Round() against a credence.db = %v; want a refusal", err)
	}
}

func TestFileRemoteIsPrivate(t *testing.T) {
	url := remoteURL(t)
	a := newMachine(t, "a", 0, Dial(url, ""))
	a.round(t)
	fi, err := os.Stat(strings.TrimPrefix(url, "file:"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file remote mode=%v, want 0600", fi.Mode().Perm())
	}
}
