package hooks

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/logfile"
	"github.com/credence-mem/credence/store"
)

// bothModes runs a flow test twice: with no agent, where credence-hook
// execs `credence hook`, and with a hook server answering on the agent's
// socket, as a running agent does; the latter must actually have served.
func bothModes(t *testing.T, fn func(*testing.T, *hookEnv)) {
	t.Run("in-process", func(t *testing.T) {
		fn(t, newHookEnv(t))
	})
	t.Run("agent", func(t *testing.T) {
		e := newHookEnv(t)
		srv := e.serve()
		fn(t, e)
		if srv.Served() == 0 {
			t.Error("no event reached the agent's hook server")
		}
	})
}

// config loads the config the hook sees.
func (e *hookEnv) config() *config.Config {
	e.t.Helper()
	env := map[string]string{"HOME": e.home}
	for _, kv := range e.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	cfg, err := app.LoadConfig(app.Options{Env: config.EnvMap(env)})
	if err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

// serve starts a hook server on the socket the hook will look for, logging
// to hook.log as the agent's does, until the test ends.
func (e *hookEnv) serve() *Server {
	e.t.Helper()
	cfg := e.config()
	log, closeLog := logfile.OpenHook(cfg, true)
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := NewServer(ctx, cfg, log.With("via", "agent"))
	if err != nil {
		e.t.Fatal(err)
	}
	ln, err := Listen(hookrelay.SocketPath(cfg.Paths.DataDir))
	if err != nil {
		e.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx, ln); err != nil {
			e.t.Error(err)
		}
	}()
	e.srv = srv
	e.t.Cleanup(func() {
		cancel()
		ln.Close()
		<-done
		if err := srv.Close(); err != nil {
			e.t.Error(err)
		}
		closeLog()
	})
	return srv
}

// fakeAgent listens on the hook socket and runs misbehave on each
// connection, until the test ends.
func (e *hookEnv) fakeAgent(misbehave func(conn net.Conn)) {
	e.t.Helper()
	ln, err := Listen(hookrelay.SocketPath(e.config().Paths.DataDir))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				misbehave(conn)
			}()
		}
	}()
}

// TestFrontHandOver checks when credence-hook hands an event to the agent
// and when it handles it itself: whatever the agent does, the prompt is
// stored exactly once, or, when the agent took it and went silent, not by
// the front.
func TestFrontHandOver(t *testing.T) {
	prompt := "which package manager does this project use?"
	tests := []struct {
		name  string
		setup func(e *hookEnv) *Server
		// stored is how many prompt episodes the front's own handling
		// leaves (the fake agents store nothing).
		stored int
		served bool
		log    string
	}{
		{name: "a serving agent", setup: func(e *hookEnv) *Server { return e.serve() }, stored: 1, served: true},
		{name: "no agent", setup: func(*hookEnv) *Server { return nil }, stored: 1},
		{name: "an agent for another database", stored: 1, log: "agent serves another database",
			setup: func(e *hookEnv) *Server {
				// The agent runs with another data directory whose socket
				// is where this hook looks: it must decline.
				other := *e.config()
				other.Paths.Database = filepath.Join(e.home, "other.db")
				log, closeLog := logfile.OpenHook(&other, true)
				t.Cleanup(closeLog)
				srv, err := NewServer(context.Background(), &other, log)
				if err != nil {
					t.Fatal(err)
				}
				ln, err := Listen(hookrelay.SocketPath(other.Paths.DataDir))
				if err != nil {
					t.Fatal(err)
				}
				go srv.Serve(context.Background(), ln)
				t.Cleanup(func() { ln.Close(); srv.Close() })
				return srv
			}},
		{name: "an agent that never answers", stored: 1,
			setup: func(e *hookEnv) *Server {
				e.fakeAgent(func(conn net.Conn) { time.Sleep(3 * hookrelay.ReadyWait) })
				return nil
			}},
		{name: "an agent that speaks another version", stored: 1,
			setup: func(e *hookEnv) *Server {
				e.fakeAgent(func(conn net.Conn) {
					bufio.NewReader(conn).ReadString('\n')
					conn.Write([]byte(`{"status":"what"}` + "\n"))
				})
				return nil
			}},
		{name: "an agent that takes the event and goes silent", stored: 0, log: "gave no answer in time",
			setup: func(e *hookEnv) *Server {
				e.fakeAgent(silentAgent)
				return nil
			}},
		// The agent stopped waiting for the go-ahead just as the front sent
		// it: it never read the go, says so, and the front stores the event.
		{name: "an agent that declines after ready", stored: 1,
			setup: func(e *hookEnv) *Server {
				e.fakeAgent(func(conn net.Conn) {
					r := bufio.NewReader(conn)
					if _, _, err := hookrelay.ReadRequest(r, 1<<20); err != nil {
						return
					}
					hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusReady}, nil)
					hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusDeclined, Reason: "no go-ahead in time"}, nil)
				})
				return nil
			}},
		// A setting the front does not read leaves the front to hand the
		// event over itself.
		{name: "a serving agent, with a config file that sets another key", stored: 1, served: true,
			setup: func(e *hookEnv) *Server {
				e.writeConfig("[recall]\nbudget_chars = 1500\n")
				return e.serve()
			}},
		// A configuration that may change what the front reads: the front
		// hands the event to `credence hook`, which reads it and tries the
		// agent first.
		{name: "a serving agent, with a config file that sets a hook key", stored: 1, served: true,
			setup: func(e *hookEnv) *Server {
				e.writeConfig("[hook]\nbudget = \"2s\"\n")
				return e.serve()
			}},
		{name: "a serving agent, with a CREDENCE_ variable", stored: 1, served: true,
			setup: func(e *hookEnv) *Server {
				e.env = append(e.env, "CREDENCE_LOG_LEVEL=debug")
				return e.serve()
			}},
		{name: "no agent, with a config file that sets a hook key", stored: 1,
			setup: func(e *hookEnv) *Server {
				e.writeConfig("[hook]\nbudget = \"2s\"\n")
				return nil
			}},
		{name: "an agent that speaks another version, with a CREDENCE_ variable", stored: 1,
			setup: func(e *hookEnv) *Server {
				e.env = append(e.env, "CREDENCE_LOG_LEVEL=debug")
				e.fakeAgent(func(conn net.Conn) {
					bufio.NewReader(conn).ReadString('\n')
					conn.Write([]byte(`{"status":"what"}` + "\n"))
				})
				return nil
			}},
		{name: "an agent that takes the event and goes silent, with a shorter budget", stored: 0, log: "gave no answer in time",
			setup: func(e *hookEnv) *Server {
				e.env = append(e.env, "CREDENCE_HOOK_BUDGET=400ms")
				e.fakeAgent(silentAgent)
				return nil
			}},
		{name: "a stale socket file", stored: 1,
			setup: func(e *hookEnv) *Server {
				ln, err := Listen(hookrelay.SocketPath(e.config().Paths.DataDir))
				if err != nil {
					t.Fatal(err)
				}
				ln.(*net.UnixListener).SetUnlinkOnClose(false)
				ln.Close() // the file stays, nobody listens: connection refused
				return nil
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newHookEnv(t)
			e.t = t
			e.db() // the database exists, as after install
			srv := tc.setup(e)
			r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": prompt}))
			checkOutput(t, EventUserPromptSubmit, r)
			if got := e.episodes(store.EpisodePrompt); len(got) != tc.stored {
				t.Errorf("%d prompts stored, want %d\nlog:\n%s", len(got), tc.stored, e.log())
			}
			if served := srv != nil && srv.Served() > 0; served != tc.served {
				t.Errorf("served by the agent: %v, want %v", served, tc.served)
			}
			if tc.log != "" {
				wantLog(t, e.log(), tc.log)
			}
		})
	}
}

// silentAgent takes the event and says nothing more.
func silentAgent(conn net.Conn) {
	r := bufio.NewReader(conn)
	if _, _, err := hookrelay.ReadRequest(r, 1<<20); err != nil {
		return
	}
	hookrelay.WriteReply(conn, hookrelay.Reply{Status: hookrelay.StatusReady}, nil)
	hookrelay.ReadGo(r)
	time.Sleep(2 * time.Second)
}

// writeConfig writes the user's config file.
func (e *hookEnv) writeConfig(toml string) {
	e.t.Helper()
	path := filepath.Join(e.home, ".config", "credence", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// TestServedFailsOpen sends the agent inputs it cannot use: like the
// in-process hook it prints nothing, stores nothing and logs why.
func TestServedFailsOpen(t *testing.T) {
	tests := []struct {
		name, event string
		stdin       []byte
		log         string
	}{
		{"malformed JSON", EventStop, []byte(`{"session_id": s1, }`), "parse hook input"},
		{"not an object", EventUserPromptSubmit, []byte(`["prompt", "hello"]`), "not a JSON object"},
		{"empty stdin", EventSessionStart, nil, "empty input"},
		{"deeply nested JSON", EventUserPromptSubmit,
			[]byte(`{"session_id":"s1","prompt":"hi","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), "exceeded max depth"},
		{"stop without a transcript or a prompt", EventStop, []byte(`{"session_id":"s9","last_assistant_message":"done"}`), "no prompt for this turn"},
	}
	e := newHookEnv(t)
	srv := e.serve()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(tc.event, tc.stdin)
			if checkOutput(t, tc.event, r) != "" {
				t.Errorf("printed context for bad input: %s", r.stdout)
			}
			if got := e.episodes(""); len(got) != 0 {
				t.Errorf("stored %q", got)
			}
			wantLog(t, e.log(), tc.log)
			if srv.Served() != int64(i+1) {
				t.Errorf("served %d events, want %d: the agent must handle bad input itself", srv.Served(), i+1)
			}
		})
	}
}

// TestListenRefusesSharedDirectory keeps the socket out of a directory
// other users could write: they could plant a socket of their own there
// and read every prompt.
func TestListenRefusesSharedDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if ln, err := Listen(filepath.Join(dir, "agent.sock")); err == nil {
		ln.Close()
		t.Fatal("Listen accepted a world-writable directory")
	}
}

// TestFrontWithoutCredence runs credence-hook alone, with no agent and no
// credence beside it or on PATH: it cannot handle the event anywhere, so it
// exits 0, prints nothing and says why in the log.
func TestFrontWithoutCredence(t *testing.T) {
	e := newHookEnv(t)
	lone := filepath.Join(t.TempDir(), "credence-hook")
	data, err := os.ReadFile(hookBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	saved := hookBin
	hookBin = lone
	defer func() { hookBin = saved }()
	e.env = append(e.env, "PATH="+t.TempDir())
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "hello there"}))
	if checkOutput(t, EventUserPromptSubmit, r) != "" {
		t.Errorf("printed %s", r.stdout)
	}
	wantLog(t, e.log(), "no credence binary next to credence-hook or on PATH")
}

// TestServedConfigReload edits config.toml while the agent serves the
// hooks: the next prompt follows the new [recall] settings, and a config
// that no longer loads leaves the one before in force.
func TestServedConfigReload(t *testing.T) {
	e := newHookEnv(t)
	srv := e.serve()
	srv.SetReload(func() (*config.Config, error) {
		return app.LoadConfig(app.Options{Env: config.EnvMap(map[string]string{"HOME": e.home})})
	})
	seedBelief(t, e.db(), belief.Spec{Statement: "The project uses pnpm as its package manager", Subject: "project",
		Predicate: "uses_package_manager", Object: "pnpm", Kind: belief.KindFact, Scope: belief.ScopeProject, ProjectPath: e.project}, 6)
	ask := func() string {
		t.Helper()
		r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "which package manager should I use here?"}))
		return checkOutput(t, EventUserPromptSubmit, r)
	}
	if got := ask(); !strings.Contains(got, "pnpm") {
		t.Fatalf("before the edit the context lacks the belief:\n%s", got)
	}
	path := e.config().Paths.ConfigFile
	write := func(text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[recall]\nmax_belief_bites = 0\n")
	if got := ask(); strings.Contains(got, "[Belief") {
		t.Errorf("after max_belief_bites = 0 the context still shows beliefs:\n%s", got)
	}
	// A broken file stops the front itself (it logs to the fallback log and
	// exits), so the server's side is checked directly.
	write("[recall]\nmax_belief_bites = \"many\"\n")
	srv.refresh()
	if got := srv.cfg.Load().Recall.MaxBeliefBites; got != 0 {
		t.Errorf("after a broken edit MaxBeliefBites=%d, want the last good 0", got)
	}
	wantLog(t, e.log(), "does not load")
}
