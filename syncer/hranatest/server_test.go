package hranatest

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	srv, err := New(filepath.Join(t.TempDir(), "remote.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// post sends one pipeline body and decodes the answer.
func post(t *testing.T, srv *Server, token, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if path == "/v3/cursor" && resp.StatusCode == http.StatusOK {
		lines := bytes.Split(bytes.TrimSpace(raw), []byte("\n"))
		out = map[string]any{}
		var entries []any
		for i, l := range lines {
			var v map[string]any
			if err := json.Unmarshal(l, &v); err != nil {
				t.Fatalf("cursor line %d %q: %v", i, l, err)
			}
			if i == 0 {
				out = v
				continue
			}
			entries = append(entries, v)
		}
		out["entries"] = entries
		return resp.StatusCode, out
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer %q: %v", raw, err)
	}
	return resp.StatusCode, out
}

// jsonPath walks decoded JSON by keys and indexes: "results.0.response.type".
func jsonPath(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func TestPipelineProtocol(t *testing.T) {
	srv := start(t, Options{})
	code, out := post(t, srv, "", "/v3/pipeline", `{"baton":null,"requests":[
		{"type":"execute","stmt":{"sql":"CREATE TABLE t (a, b)"}},
		{"type":"execute","stmt":{"sql":"INSERT INTO t VALUES (?, ?), (:x, @y)","args":[
			{"type":"integer","value":"-9223372036854775808"},{"type":"text","value":"2026-01-02"}],
			"named_args":[{"name":":x","value":{"type":"float","value":0.1}},{"name":"y","value":{"type":"blob","base64":""}}]}},
		{"type":"execute","stmt":{"sql":"SELECT a, typeof(a), b, typeof(b) FROM t ORDER BY rowid"}},
		{"type":"get_autocommit"}]}`)
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	for path, want := range map[string]any{
		"results.0.type": "ok",
		"results.1.response.result.affected_row_count": 2.0,
		"results.2.response.result.cols.2.name":        "b",
		"results.2.response.result.rows.0.0.value":     "-9223372036854775808",
		"results.2.response.result.rows.0.2.type":      "text",
		"results.2.response.result.rows.0.2.value":     "2026-01-02",
		"results.2.response.result.rows.1.0.value":     0.1,
		"results.2.response.result.rows.1.1.value":     "real",
		"results.2.response.result.rows.1.2.type":      "blob",
		"results.2.response.result.rows.1.2.base64":    "",
		"results.2.response.result.rows.1.3.value":     "blob",
		"results.3.response.is_autocommit":             true,
	} {
		if got := jsonPath(out, path); got != want {
			t.Errorf("%s=%v (%T), want %v", path, got, got, want)
		}
	}
	baton, _ := out["baton"].(string)
	if baton == "" {
		t.Fatal("no baton for an open stream")
	}

	// The same stream: a transaction, a failing batch step, conditions.
	_, out = post(t, srv, "", "/v3/pipeline", `{"baton":"`+baton+`","requests":[
		{"type":"batch","batch":{"steps":[
			{"stmt":{"sql":"BEGIN"}},
			{"condition":{"type":"ok","step":0},"stmt":{"sql":"INSERT INTO nowhere VALUES (1)"}},
			{"condition":{"type":"error","step":1},"stmt":{"sql":"ROLLBACK"}},
			{"condition":{"type":"not","cond":{"type":"is_autocommit"}},"stmt":{"sql":"SELECT 'never'"}}]}},
		{"type":"store_sql","sql_id":7,"sql":"SELECT count(*) FROM t"},
		{"type":"execute","stmt":{"sql_id":7}},
		{"type":"describe","sql":"SELECT a AS first FROM t WHERE a > ? AND b = :name"},
		{"type":"sequence","sql":"INSERT INTO t VALUES (1, 'x'); INSERT INTO t VALUES (2, 'y');"},
		{"type":"close_sql","sql_id":7},
		{"type":"execute","stmt":{"sql_id":7}},
		{"type":"close"}]}`)
	for path, want := range map[string]any{
		"results.0.response.result.step_results.0.affected_row_count": 0.0,
		"results.0.response.result.step_errors.1.code":                "SQLITE_ERROR",
		"results.0.response.result.step_results.2.affected_row_count": 0.0,
		"results.0.response.result.step_results.3":                    nil,
		"results.2.response.result.rows.0.0.value":                    "2",
		"results.3.response.result.params.0.name":                     nil,
		"results.3.response.result.params.1.name":                     ":name",
		"results.3.response.result.cols.0.name":                       "first",
		"results.3.response.result.is_readonly":                       true,
		"results.4.type":                                              "ok",
		"results.6.type":                                              "error",
		"results.7.type":                                              "ok",
	} {
		if got := jsonPath(out, path); got != want {
			t.Errorf("%s=%v (%T), want %v", path, got, got, want)
		}
	}
	if out["baton"] != nil {
		t.Errorf("baton %v after close, want null", out["baton"])
	}
	code, out = post(t, srv, "", "/v3/pipeline", `{"baton":"`+baton+`","requests":[{"type":"get_autocommit"}]}`)
	if code != http.StatusBadRequest || jsonPath(out, "code") != "STREAM_EXPIRED" {
		t.Errorf("reused baton: %d %v, want 400 STREAM_EXPIRED", code, out)
	}
}

func TestCursorProtocol(t *testing.T) {
	srv := start(t, Options{})
	post(t, srv, "", "/v3/pipeline", `{"baton":null,"requests":[{"type":"sequence","sql":
		"CREATE TABLE t (a); INSERT INTO t VALUES ('one'), ('two')"},{"type":"close"}]}`)
	code, out := post(t, srv, "", "/v3/cursor", `{"baton":null,"batch":{"steps":[
		{"stmt":{"sql":"SELECT a FROM t ORDER BY a DESC"}},
		{"stmt":{"sql":"SELECT nothing FROM t"}}]}}`)
	if code != http.StatusOK {
		t.Fatalf("status %d: %v", code, out)
	}
	for path, want := range map[string]any{
		"entries.0.type":        "step_begin",
		"entries.0.cols.0.name": "a",
		"entries.1.row.0.value": "two",
		"entries.2.row.0.value": "one",
		"entries.3.type":        "step_end",
		"entries.4.type":        "step_error",
		"entries.4.step":        1.0,
	} {
		if got := jsonPath(out, path); got != want {
			t.Errorf("%s=%v, want %v", path, got, want)
		}
	}
	if b, _ := out["baton"].(string); b == "" {
		t.Error("cursor answer has no baton")
	}
}

func TestRefusals(t *testing.T) {
	srv := start(t, Options{Token: "s3cret", MaxRequestBytes: 1024})
	tests := []struct {
		name, token, body string
		want              int
	}{
		{"no token", "", `{"baton":null,"requests":[]}`, http.StatusUnauthorized},
		{"wrong token", "guess", `{"baton":null,"requests":[]}`, http.StatusUnauthorized},
		{"right token", "s3cret", `{"baton":null,"requests":[{"type":"close"}]}`, http.StatusOK},
		{"too large", "s3cret", `{"baton":null,"requests":[{"type":"execute","stmt":{"sql":"SELECT '` +
			strings.Repeat("x", 2000) + `'"}}]}`, http.StatusRequestEntityTooLarge},
		{"unknown baton", "s3cret", `{"baton":"made-up","requests":[]}`, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, out := post(t, srv, tt.token, "/v3/pipeline", tt.body); code != tt.want {
				t.Errorf("status %d (%v), want %d", code, out, tt.want)
			}
		})
	}
	if st := srv.Stats(); st.Refused != 2 {
		t.Errorf("Stats().Refused=%d, want 2", st.Refused)
	}
}

// TestDriverFaults runs go-libsql against each fault and checks what the
// server committed: a fault before the COMMIT runs leaves nothing, one
// after it (a lost acknowledgement) leaves the rows.
func TestDriverFaults(t *testing.T) {
	tests := []struct {
		fault     Fault
		committed bool
	}{
		{Fault{Kind: DropBefore, Match: "COMMIT"}, false},
		{Fault{Kind: DropAfter, Match: "COMMIT"}, true},
		{Fault{Kind: Truncate, Match: "COMMIT"}, true},
		{Fault{Kind: Status, Code: http.StatusServiceUnavailable, Match: "COMMIT"}, false},
		{Fault{Kind: Status, Code: http.StatusTooManyRequests, Match: "INSERT", RetryAfter: time.Second}, false},
		{Fault{Kind: TooLarge, Match: "INSERT"}, false},
		{Fault{Kind: ExpireStream, Match: "COMMIT"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.fault.String(), func(t *testing.T) {
			srv := start(t, Options{StreamTimeout: 200 * time.Millisecond})
			db, err := sql.Open("libsql", srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("CREATE TABLE t (a)"); err != nil {
				t.Fatal(err)
			}
			srv.Inject(tt.fault)
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			_, err = tx.Exec("INSERT INTO t VALUES (?)", 1)
			if err == nil {
				err = tx.Commit()
			} else {
				tx.Rollback()
			}
			if err == nil {
				t.Fatalf("the transaction succeeded through %v", tt.fault)
			}
			if srv.Pending() != 0 {
				t.Fatalf("fault %v was not applied", tt.fault)
			}
			// A stream left open by a lost connection expires and lets go
			// of its lock; then the file shows what committed.
			deadline := time.Now().Add(5 * time.Second)
			for srv.OpenStreams() > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			local, err := sql.Open("libsql", "file:"+srv.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			var n int
			if err := local.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if got := n == 1; got != tt.committed {
				t.Errorf("committed=%v after %v, want %v (error seen: %v)", got, tt.fault, tt.committed, err)
			}
		})
	}
}

func TestSlowAndDown(t *testing.T) {
	srv := start(t, Options{})
	db, err := sql.Open("libsql", srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv.Inject(Fault{Kind: Slow, Delay: 300 * time.Millisecond})
	began := time.Now()
	if _, err := db.Exec("CREATE TABLE t (a)"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < 300*time.Millisecond {
		t.Errorf("a slow answer came after %v", d)
	}
	if err := srv.SetDown(true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (1)"); err == nil {
		t.Error("a write reached a server that is down")
	}
	if err := srv.SetDown(false); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (1)"); err != nil {
		t.Errorf("after coming back: %v", err)
	}
}

func TestSplitSQL(t *testing.T) {
	tests := []struct {
		in      string
		n       int
		keyword string
		params  int
	}{
		{"SELECT 1", 1, "SELECT", 0},
		{"  -- a comment; still a comment\n select ?; ", 1, "SELECT", 1},
		{"INSERT INTO t VALUES ('a;b', \"c?\", ?, :x, :x, ?)", 1, "INSERT", 3},
		{"BEGIN; COMMIT;", 2, "BEGIN", 0},
		{"/* ; */ UPDATE t SET a = $v RETURNING a", 1, "UPDATE", 1},
	}
	for _, tt := range tests {
		ps := splitSQL(tt.in)
		if len(ps) != tt.n || ps[0].keyword != tt.keyword || len(ps[0].params) != tt.params {
			t.Errorf("splitSQL(%q)=%+v, want %d statements, keyword %s, %d params", tt.in, ps, tt.n, tt.keyword, tt.params)
		}
	}
}
