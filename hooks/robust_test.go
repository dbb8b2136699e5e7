package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/store"
)

// TestHookFailsOpen feeds the built hook broken, hostile and unlucky input.
// Every case must exit 0 with no output or valid output, write nothing
// partial, and leave a line in the log.
func TestHookFailsOpen(t *testing.T) {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	tests := []struct {
		name  string
		event string
		setup func(e *hookEnv)
		stdin func(e *hookEnv) []byte
		// stored is how many prompt episodes must exist afterwards.
		stored  int
		log     string
		logPath func(e *hookEnv) string
	}{
		{name: "truncated JSON", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte { return e.input(EventUserPromptSubmit, map[string]any{"prompt": "hello"})[:30] },
			log:   "parse hook input"},
		{name: "malformed JSON", event: EventStop,
			stdin: func(*hookEnv) []byte { return []byte(`{"session_id": s1, }`) }, log: "parse hook input"},
		{name: "not an object", event: EventUserPromptSubmit,
			stdin: func(*hookEnv) []byte { return []byte(`["prompt", "hello"]`) }, log: "not a JSON object"},
		{name: "empty stdin", event: EventSessionStart,
			stdin: func(*hookEnv) []byte { return nil }, log: "empty input"},
		{name: "wrong JSON types", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return []byte(`{"session_id": 42, "cwd": {"a": 1}, "prompt": ["we use pnpm"], "transcript_path": true}`)
			},
			log: "unexpected type"},
		{name: "deeply nested JSON", event: EventUserPromptSubmit,
			stdin: func(*hookEnv) []byte { return []byte(`{"session_id":"s1","prompt":"hi","x":` + deep + `}`) },
			log:   "exceeded max depth"},
		{name: "invalid UTF-8", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return bytes.Replace(e.input(EventUserPromptSubmit, map[string]any{"prompt": "caf@ with bytes"}), []byte("@"), []byte{0xff, 0xfe}, 1)
			},
			stored: 1, log: "invalid UTF-8"},
		{name: "raw NUL bytes", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return bytes.Replace(e.input(EventUserPromptSubmit, map[string]any{"prompt": "a@b"}), []byte("@"), []byte{0}, 1)
			},
			log: "parse hook input"},
		{name: "escaped NUL characters", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return e.input(EventUserPromptSubmit, map[string]any{"prompt": "a\x00b keeps going"})
			},
			stored: 1, log: "NUL characters"},
		{name: "10 MB prompt over the stdin cap", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return e.input(EventUserPromptSubmit, map[string]any{"prompt": strings.Repeat("word ", 2<<20)})
			},
			log: "larger than hook.stdin_max_bytes"},
		{name: "10 MB prompt under a raised cap is stored cut", event: EventUserPromptSubmit,
			// A generous budget: this case is about what is stored, and a
			// loaded machine may take over a second to decode 10 MB.
			setup: func(e *hookEnv) {
				e.env = append(e.env, "CREDENCE_HOOK_STDIN_MAX_BYTES=16777216", "CREDENCE_HOOK_BUDGET=20s")
			},
			stdin: func(e *hookEnv) []byte {
				return e.input(EventUserPromptSubmit, map[string]any{"prompt": strings.Repeat("word ", 2<<20)})
			},
			stored: 1, log: ""},
		{name: "cwd that does not exist", event: EventUserPromptSubmit,
			stdin: func(e *hookEnv) []byte {
				return e.input(EventUserPromptSubmit, map[string]any{"prompt": "hello there", "cwd": "/nonexistent/dir/x"})
			},
			stored: 1, log: "cwd is not a readable directory"},
		{name: "missing transcript at SessionEnd", event: EventSessionEnd,
			stdin: func(e *hookEnv) []byte { return e.input(EventSessionEnd, map[string]any{"reason": "exit"}) },
			log:   "open transcript"},
		{name: "missing transcript at Stop", event: EventStop,
			stdin: func(e *hookEnv) []byte {
				return e.input(EventStop, map[string]any{"last_assistant_message": "done"})
			},
			log: "transcript unreadable"},
		{name: "unknown event", event: "Bogus",
			stdin: func(e *hookEnv) []byte { return e.input("Bogus", nil) }, log: "unknown event"},
		{name: "unwritable data directory", event: EventUserPromptSubmit,
			setup: func(e *hookEnv) {
				// A regular file where a directory should be: even root
				// cannot create the database below it.
				blocker := filepath.Join(e.home, "blocker")
				if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
				e.env = append(e.env, "CREDENCE_DATA_DIR="+filepath.Join(blocker, "credence"))
			},
			stdin:   func(e *hookEnv) []byte { return e.input(EventUserPromptSubmit, map[string]any{"prompt": "hello"}) },
			stored:  -1,
			log:     "open database",
			logPath: func(e *hookEnv) string { return filepath.Join(e.tmp, filepath.Base(logfile.HookFallbackPath())) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newHookEnv(t)
			if tc.setup != nil {
				tc.setup(e)
			}
			r := e.run(tc.event, tc.stdin(e))
			checkOutput(t, tc.event, r)
			logPath := e.logPath()
			if tc.logPath != nil {
				logPath = tc.logPath(e)
			}
			b, _ := os.ReadFile(logPath)
			if tc.log != "" {
				wantLog(t, string(b), tc.log)
			}
			if tc.stored < 0 {
				return
			}
			if _, err := os.Stat(e.dbPath()); err != nil {
				if tc.stored > 0 {
					t.Fatalf("no database: %v", err)
				}
				return
			}
			prompts := e.episodes(store.EpisodePrompt)
			if len(prompts) != tc.stored {
				t.Fatalf("%d prompt episodes stored, want %d", len(prompts), tc.stored)
			}
			for _, p := range prompts {
				if len(p) > maxStoredBytes || strings.ContainsRune(p, 0) {
					t.Errorf("stored prompt of %d bytes (NUL: %v), want at most %d and no NUL", len(p), strings.ContainsRune(p, 0), maxStoredBytes)
				}
			}
		})
	}
}

// TestHookLockedDatabase holds the write lock in another connection while
// a prompt arrives: the hook gives up on the database within its busy
// timeout, still exits 0, stores nothing half way and says why in the log
// (the prompt waits in the spool: TestLockedPromptIsSpooled).
func TestHookLockedDatabase(t *testing.T) {
	e := newHookEnv(t)
	db := e.db() // creates the database at the current schema
	ctx := context.Background()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "we deploy with fly.io"}))
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	checkOutput(t, EventUserPromptSubmit, r)
	wantLog(t, e.log(), "database is locked")
	if n, err := db.CountEpisodes(ctx); err != nil || n != 0 {
		t.Errorf("CountEpisodes()=%d, %v; want 0 (nothing half stored)", n, err)
	}
}

// TestHookStdinNeverCloses gives the hook a stdin that stays open: it must
// stop waiting, exit 0 and close its stdout, leaving nothing running that
// holds it (the test would hang reading stdout otherwise).
func TestHookStdinNeverCloses(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		log  string
	}{
		{"stdin timeout", []string{"CREDENCE_HOOK_STDIN_TIMEOUT=200ms"}, "stdin not closed"},
		// The stdin wait is capped at the budget, so either line may win.
		{"budget before stdin timeout", []string{"CREDENCE_HOOK_STDIN_TIMEOUT=10s", "CREDENCE_HOOK_BUDGET=300ms"}, "time budget exhausted|stdin not closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newHookEnv(t)
			e.env = tc.env
			// An *os.File is handed to the child as is, so only the hook
			// decides when it stops reading.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			defer pw.Close()
			if _, err := pw.Write([]byte(`{"session_id":"s1","prompt":"hel`)); err != nil {
				t.Fatal(err)
			}
			r := e.runReader(EventUserPromptSubmit, pr)
			checkOutput(t, EventUserPromptSubmit, r)
			log := e.log()
			if !regexp.MustCompile(tc.log).MatchString(log) {
				t.Errorf("hook.log lacks %q:\n%s", tc.log, log)
			}
		})
	}
}
