package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer/hranatest"
)

// configured gives m a Syncer built from configuration, as the agent and
// `credence sync` build theirs, logging to logs.
func (m *machine) configured(t testing.TB, url, token string, timeout time.Duration, logs *bytes.Buffer) {
	t.Helper()
	s, err := New(m.db, config.SyncConfig{URL: url, Token: token}, Options{Batch: 50, RequestTimeout: timeout,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	m.sync = s
}

// TestWrongToken checks that a refused token is an error that names the
// setting to fix, and that the token reaches no error, log line or
// status.
func TestWrongToken(t *testing.T) {
	srv := startServer(t, hranatest.Options{Token: testToken})
	const wrong = "tok-wrong-8d1f0be2c6a94e73"
	for _, token := range []string{wrong, ""} {
		name := "wrong"
		if token == "" {
			name = "missing"
		}
		t.Run(name, func(t *testing.T) {
			m := newMachine(t, "a", 0, nil)
			var logs bytes.Buffer
			m.configured(t, srv.URL(), token, 0, &logs)
			m.create(t, belief.Spec{Statement: "Waits for the right token."}, 1)
			_, roundErr := m.sync.Round(context.Background())
			if !errors.Is(roundErr, ErrTokenRefused) {
				t.Fatalf("Round()=%v, want ErrTokenRefused", roundErr)
			}
			for _, want := range []string{"sync.token", "CREDENCE_SYNC_TOKEN", "HTTP 401"} {
				if !strings.Contains(roundErr.Error(), want) {
					t.Errorf("error %q does not say %q", roundErr, want)
				}
			}
			st, err := Status(context.Background(), m.db, &config.Config{Sync: config.SyncConfig{URL: srv.URL(), Token: token}})
			if err != nil {
				t.Fatal(err)
			}
			if !st.Reachable || st.Token != TokenRefused || !strings.Contains(st.RemoteError, "sync.token") {
				t.Errorf("Status()=%+v, want a reachable remote that refused the token", st)
			}
			meta, _ := m.db.MetaPrefix(context.Background(), "sync_")
			for _, shown := range []string{roundErr.Error(), logs.String(), st.RemoteError, st.LastError, meta[MetaLastError]} {
				if token != "" && strings.Contains(shown, token) {
					t.Errorf("token shown: %s", shown)
				}
			}
		})
	}
}

// TestRequestDeadline puts a remote that never answers in front of a
// round: the request timeout ends it, instead of go-libsql waiting for
// ever on a connection that died while the laptop slept.
func TestRequestDeadline(t *testing.T) {
	srv := startServer(t, hranatest.Options{Token: testToken})
	m := newMachine(t, "a", 0, nil)
	var logs bytes.Buffer
	m.configured(t, srv.URL(), testToken, 300*time.Millisecond, &logs)
	srv.Inject(hranatest.Fault{Kind: hranatest.Slow, Delay: time.Hour})
	began := time.Now()
	_, err := m.sync.Round(context.Background())
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Round()=%v, want ErrUnreachable", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("the round took %v against a silent remote", d)
	}
	if !strings.Contains(err.Error(), "timeout") {
		t.Errorf("error %q does not say it timed out", err)
	}
	// The remote answers again: the next round goes through.
	if _, err := m.sync.Round(context.Background()); err != nil {
		t.Errorf("next Round()=%v", err)
	}
}

// TestCancelEndsRound cancels a round stuck on a silent remote.
func TestCancelEndsRound(t *testing.T) {
	srv := startServer(t, hranatest.Options{Token: testToken})
	m := newMachine(t, "a", 0, nil)
	var logs bytes.Buffer
	m.configured(t, srv.URL(), testToken, time.Hour, &logs)
	srv.Inject(hranatest.Fault{Kind: hranatest.Slow, Delay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	began := time.Now()
	if _, err := m.sync.Round(ctx); err == nil {
		t.Fatal("Round() succeeded")
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("a cancelled round took %v to end", d)
	}
}

func TestWireFailuresAreNamed(t *testing.T) {
	tests := []struct {
		name  string
		fault hranatest.Fault
		want  error
		after time.Duration
	}{
		{"rate limited", hranatest.Fault{Kind: hranatest.Status, Code: http.StatusTooManyRequests, RetryAfter: 90 * time.Second},
			ErrRateLimited, 90 * time.Second},
		{"unavailable", hranatest.Fault{Kind: hranatest.Status, Code: http.StatusServiceUnavailable}, ErrRemoteFailed, 0},
		{"forbidden", hranatest.Fault{Kind: hranatest.Status, Code: http.StatusForbidden}, ErrTokenRefused, 0},
		{"too large", hranatest.Fault{Kind: hranatest.TooLarge}, ErrTooLarge, 0},
		{"dropped", hranatest.Fault{Kind: hranatest.DropBefore}, ErrUnreachable, 0},
		{"truncated", hranatest.Fault{Kind: hranatest.Truncate}, ErrUnreachable, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, hranatest.Options{Token: testToken})
			m := newMachine(t, "a", 0, nil)
			var logs bytes.Buffer
			m.configured(t, srv.URL(), testToken, 0, &logs)
			srv.Inject(tt.fault)
			_, err := m.sync.Round(context.Background())
			if !errors.Is(err, tt.want) {
				t.Fatalf("Round()=%v, want %v", err, tt.want)
			}
			if got := RetryAfter(err); got != tt.after {
				t.Errorf("RetryAfter()=%v, want %v", got, tt.after)
			}
		})
	}
}

// TestRemoteDownThenBack loses the network between rounds and half way
// through one; nothing is lost, and the round after the return catches up.
func TestRemoteDownThenBack(t *testing.T) {
	srv := startServer(t, hranatest.Options{Token: testToken, StreamTimeout: 200 * time.Millisecond})
	a := newMachine(t, "a", 0, nil)
	b := newMachine(t, "b", time.Second, nil)
	var logs bytes.Buffer
	a.configured(t, srv.URL(), testToken, 2*time.Second, &logs)
	b.configured(t, srv.URL(), testToken, 2*time.Second, &logs)
	ids := []string{a.create(t, belief.Spec{Statement: "Written before the train."}, 2)}
	a.round(t)
	if err := srv.SetDown(true); err != nil {
		t.Fatal(err)
	}
	ids = append(ids, a.create(t, belief.Spec{Statement: "Written on the train."}, 3))
	if _, err := a.sync.Round(context.Background()); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Round() while down=%v, want ErrUnreachable", err)
	}
	st, err := Recorded(context.Background(), a.db)
	if err != nil {
		t.Fatal(err)
	}
	if st.PendingPush == 0 || st.LastError == "" {
		t.Errorf("Recorded()=%+v, want rows waiting to push and the error", st)
	}
	if err := srv.SetDown(false); err != nil {
		t.Fatal(err)
	}
	// The connection drops again inside the push.
	srv.Inject(hranatest.Fault{Kind: hranatest.DropAfter, Match: "INSERT INTO evidence"})
	if _, err := a.sync.Round(context.Background()); err == nil {
		t.Fatal("Round() through a dropped push succeeded")
	}
	a.round(t)
	b.round(t)
	for _, id := range ids {
		if _, err := b.db.Belief(context.Background(), id); err != nil {
			t.Errorf("b: Belief(%s)=%v", id, err)
		}
	}
	if d := diff(a.snapshot(t), b.snapshot(t), allTables...); d != "" {
		t.Errorf("a and b differ:\n%s", d)
	}
	if st, _ := Recorded(context.Background(), a.db); st.PendingPush != 0 || st.LastError != "" {
		t.Errorf("Recorded() after catching up=%+v", st)
	}
}

// TestRelayWantsItsSecret checks that the loopback relay serves only
// requests that know its random path.
func TestRelayWantsItsSecret(t *testing.T) {
	srv := startServer(t, hranatest.Options{})
	base, err := remoteBase(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	rl, err := startRelay(base, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer rl.close()
	guess := strings.TrimSuffix(rl.URL(), rl.prefix) + "/v3/pipeline"
	resp, err := http.Post(guess, "application/json", strings.NewReader(`{"baton":null,"requests":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST without the secret: %d, want 404", resp.StatusCode)
	}
	resp, err = http.Post(rl.URL()+"/v3/pipeline", "application/json", strings.NewReader(`{"baton":null,"requests":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST with the secret: %d, want 200", resp.StatusCode)
	}
	if srv.Stats().Pipelines != 1 {
		t.Errorf("the server saw %d pipelines, want 1", srv.Stats().Pipelines)
	}
}

// TestStreamsDoNotOutliveAnOperation leaves a pause longer than the
// remote's stream expiry between two operations on one connection, as a
// pull does while it applies a batch locally: go-libsql keeps the stream of
// a query open and reused it, so the next request failed with an expired
// stream. Within the reuse window (set here below the server's expiry, as
// streamReuse is below real servers') the connection is used again.
func TestStreamsDoNotOutliveAnOperation(t *testing.T) {
	srv := startServer(t, hranatest.Options{Token: testToken, StreamTimeout: 100 * time.Millisecond})
	ctx := context.Background()
	r, err := openRemote(ctx, srv.URL(), testToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.reuse = 50 * time.Millisecond
	if _, err := r.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Survey(ctx, store.SyncCursor{}, "me"); err != nil {
		t.Fatal(err)
	}
	before := srv.Stats().Streams
	if _, err := r.Survey(ctx, store.SyncCursor{}, "me"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Stats().Streams - before; n != 0 {
		t.Errorf("a survey right after another opened %d streams, want it to reuse the open one", n)
	}
	if _, err := r.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := r.Survey(ctx, store.SyncCursor{}, "me"); err != nil {
			t.Fatalf("Survey() %d: %v", i, err)
		}
		time.Sleep(200 * time.Millisecond)
		if _, err := r.Pull(ctx, store.SyncCursor{}, "me", 10, AllTables); err != nil {
			t.Fatalf("Pull() %d after a pause: %v", i, err)
		}
		time.Sleep(200 * time.Millisecond)
		if _, err := r.Push(ctx, store.SyncBatch{}); err != nil {
			t.Fatalf("Push() %d after a pause: %v", i, err)
		}
	}
	if n := srv.OpenStreams(); n > 1 {
		t.Errorf("%d streams left open on the server", n)
	}

}

// TestOversizedRequestsAreSplit pushes to a remote that refuses bodies
// over 64 KiB: the push is sent again in smaller statements, and an
// exchange longer than any statement may be goes in pieces; the pull stops
// each batch at pullBytes of text. Nothing is lost or cut.
func TestOversizedRequestsAreSplit(t *testing.T) {
	defer func(n int) { pullBytes = n }(pullBytes)
	pullBytes = 32 << 10
	srv := startServer(t, hranatest.Options{Token: testToken, MaxRequestBytes: 64 << 10})
	a := newMachine(t, "a", 0, Dial(srv.URL(), testToken))
	b := newMachine(t, "b", time.Second, Dial(srv.URL(), testToken))
	a.sync.batch, b.sync.batch = 100, 100
	ctx := context.Background()
	var eps []*store.Episode
	for i := 0; i < 40; i++ {
		eps = append(eps, &store.Episode{Content: fmt.Sprintf("exchange %d: %s", i, strings.Repeat("we deploy with fly ", 400))})
	}
	long := strings.Repeat("a long answer with 'quotes' and ünïcødé\n", 8000) // 330 KB
	eps = append(eps, &store.Episode{Content: long, Summary: strings.Repeat("summary ", 20000)})
	for _, e := range eps {
		if _, err := a.db.AddEpisode(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	a.round(t)
	if rep := b.round(t); rep.Pulled != len(eps) {
		t.Errorf("b pulled %d episodes, want %d", rep.Pulled, len(eps))
	}
	for _, e := range eps {
		got, err := b.db.Episode(ctx, e.ID)
		if err != nil || got.Content != e.Content || got.Summary != e.Summary {
			t.Fatalf("b: episode %s: %d/%d bytes, %v; want %d/%d", e.ID, len(got.Content), len(got.Summary), err,
				len(e.Content), len(e.Summary))
		}
	}
	if st := srv.Stats(); st.MaxBody > 64<<10 || st.Paths["POST /v3/pipeline"] == 0 {
		t.Errorf("server stats %+v", st)
	}
	if d := diff(takeSnapshot(t, a.db.SQL(), remoteQueries), takeSnapshot(t, openFileRemote(t, "file:"+srv.Path()), remoteQueries),
		"episodes"); d != "" {
		t.Errorf("a and the remote differ:\n%s", d)
	}
	// Pushed again (a lost acknowledgement), the pieces are not appended
	// to the whole row a second time.
	r, err := openRemote(ctx, srv.URL(), testToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.budget = minStatementBytes
	if _, err := r.Push(ctx, store.SyncBatch{Episodes: []store.SyncEpisode{{ID: eps[40].ID, Scope: "global",
		Kind: "note", Content: long, Origin: "x"}}}); err != nil {
		t.Fatal(err)
	}
	b.round(t)
	if got, _ := b.db.Episode(ctx, eps[40].ID); got.Content != long {
		t.Errorf("after a second push the long episode has %d bytes, want %d", len(got.Content), len(long))
	}
	var n int
	if err := openFileRemote(t, "file:"+srv.Path()).QueryRow(`SELECT length(content) FROM episodes WHERE id = ?`,
		eps[40].ID).Scan(&n); err != nil || n != len([]rune(long)) {
		t.Errorf("remote content length %d, %v; want %d characters", n, err, len([]rune(long)))
	}
}

// TestRelayFollowsBaseURL: a remote that names another URL for a stream
// (Hrana's base_url) gets that stream's requests there, while go-libsql
// keeps talking to the relay.
func TestRelayFollowsBaseURL(t *testing.T) {
	base, _ := remoteBase("https://db.example")
	rl, err := startRelay(base, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer rl.close()
	answer := rl.rewriteBase([]byte(`{"baton":"b1","base_url":"https://replica.example/","results":[]}`))
	if !strings.Contains(string(answer), `"base_url":"`+rl.URL()+`"`) || !strings.Contains(string(answer), `"baton":"b1"`) {
		t.Errorf("rewritten answer %s", answer)
	}
	cursor := rl.rewriteBase([]byte("{\"baton\":\"b2\",\"base_url\":\"https://replica.example\"}\n{\"type\":\"step_begin\"}\n"))
	if !strings.HasSuffix(string(cursor), "\n{\"type\":\"step_begin\"}\n") {
		t.Errorf("rewritten cursor answer %q", cursor)
	}
	if got := rl.target([]byte(`{"baton":"b2","requests":[]}`)); got != "https://replica.example" {
		t.Errorf("a request on the stream goes to %s", got)
	}
	if got := rl.target([]byte(`{"baton":null,"requests":[]}`)); got != "https://db.example" {
		t.Errorf("a new stream goes to %s", got)
	}
	rl.rewriteBase([]byte(`{"baton":null,"base_url":null,"results":[]}`))
	if got := rl.target([]byte(`{"baton":"b3","requests":[]}`)); got != "https://db.example" {
		t.Errorf("after the stream closed, requests go to %s", got)
	}
}
