package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/credence-mem/credence/config"
)

func TestDriverDSN(t *testing.T) {
	tests := []struct {
		name, url, token, want string
		wantErr                bool
	}{
		{name: "turso with token", url: "libsql://mem-me.turso.io", token: "tok", want: "libsql://mem-me.turso.io?authToken=tok"},
		{name: "sqld https", url: "https://sqld.home:8080", token: "a b", want: "https://sqld.home:8080?authToken=a+b"},
		{name: "sqld http without token", url: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{name: "wss becomes https", url: "wss://mem-me.turso.io", token: "t", want: "https://mem-me.turso.io?authToken=t"},
		{name: "ws becomes http", url: "ws://localhost:8080", want: "http://localhost:8080"},
		{name: "file untouched", url: "file:/tmp/x.db", token: "ignored", want: "file:/tmp/x.db"},
		{name: "unknown scheme", url: "postgres://h/db", wantErr: true},
		{name: "no host", url: "https:///path", wantErr: true},
		{name: "invalid url", url: "https://h:port/%zz", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := driverDSN(tt.url, tt.token)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("driverDSN()=%q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"query token", "libsql://db.turso.io?authToken=secret", "libsql://db.turso.io"},
		{"userinfo", "https://me:secret@sqld.home:8080/x", "https://sqld.home:8080/x"},
		{"file path", "file:/home/me/remote.db", "file:/home/me/remote.db"},
		{"invalid", "https://me:secret@h:port/%zz", "https:[invalid url]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactURL(tt.url); got != tt.want {
				t.Errorf("RedactURL(%q)=%q, want %q", tt.url, got, tt.want)
			}
		})
	}
}

// TestTokenNeverShown drives failing rounds and status checks at remotes
// that cannot work and looks for the token in every error and log line.
func TestTokenNeverShown(t *testing.T) {
	const token = "sk-sync-Zm9vYmFyYmF6cXV4"
	tests := []struct{ name, url string }{
		{"refused http", "http://127.0.0.1:1"},
		{"token in userinfo", "http://me:" + token + "@127.0.0.1:1"},
		{"token in query", "https://127.0.0.1:1/?authToken=" + token},
		{"invalid url", "https://me:" + token + "@127.0.0.1:port/%zz"},
		{"bad scheme", "gopher://me:" + token + "@host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t, "a", 0, nil)
			var logs bytes.Buffer
			cfg := config.SyncConfig{URL: tt.url, Token: token}
			s, err := New(m.db, cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			// A driver that echoes the URL it was given, token and all, in
			// its errors (go-libsql's url.Parse errors do).
			echo := func(ctx context.Context) (Remote, error) {
				dsn, _ := driverDSN(tt.url, token)
				return nil, fmt.Errorf("failed to open remote database %s (token %s)", dsn+" "+tt.url, token)
			}
			var shown []string
			if err != nil {
				shown = append(shown, err.Error())
			} else {
				s.dial = echo
				_, err := s.Round(context.Background())
				if err == nil {
					t.Fatal("Round() succeeded against a remote that cannot answer")
				}
				shown = append(shown, err.Error())
			}
			st, err := statusWith(context.Background(), m.db, RedactURL(tt.url), echo, newScrubber(tt.url, token), true)
			if err != nil {
				t.Fatal(err)
			}
			if st.Reachable {
				t.Error("Status() says an unreachable remote is reachable")
			}
			meta, _ := m.db.MetaPrefix(context.Background(), "sync_")
			shown = append(shown, logs.String(), st.RemoteError, st.LastError, st.Remote, meta[MetaLastError], meta[MetaRemote])
			for _, s := range shown {
				if strings.Contains(s, token) || strings.Contains(s, "Zm9vYmFy") {
					t.Errorf("token shown: %s", s)
				}
			}
		})
	}
}

func TestScrubber(t *testing.T) {
	const token = "tok/with+odd=chars"
	s := newScrubber("https://me:pw-secret@h.example/?authToken=q-secret", token)
	tests := []struct{ name, in string }{
		{"raw token", "auth " + token + " failed"},
		{"query escaped", "GET /?authToken=" + url.QueryEscape(token)},
		{"path escaped", "GET /" + url.PathEscape(token)},
		{"userinfo password", "dial https://me:pw-secret@h.example"},
		{"token in the configured url", "GET /?authToken=q-secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.err(errors.New(tt.in)).Error()
			for _, secret := range []string{token, url.QueryEscape(token), "pw-secret", "q-secret"} {
				if strings.Contains(got, secret) {
					t.Errorf("scrubbed %q still holds %q", got, secret)
				}
			}
			if !strings.Contains(got, "[redacted]") {
				t.Errorf("scrubbed %q has no [redacted] mark", got)
			}
		})
	}
	wrapped := s.err(fmt.Errorf("round: %w", context.Canceled))
	if !errors.Is(wrapped, context.Canceled) {
		t.Errorf("errors.Is(scrubbed, context.Canceled)=false")
	}
	if errors.Unwrap(wrapped) != nil {
		t.Errorf("a scrubbed error unwraps to the unscrubbed one")
	}
}
