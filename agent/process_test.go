package agent

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/store"
)

// stopDeadline is how soon after SIGTERM the agent must be gone: 2 s, plus
// slack for a loaded machine and -race.
const stopDeadline = 3 * time.Second

var (
	buildOnce   sync.Once
	credenceBin string
	buildErr    error
)

// binary builds cmd/credence once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "credence-agent-bin-")
		if err != nil {
			buildErr = err
			return
		}
		credenceBin = filepath.Join(dir, "credence")
		out, err := exec.Command("go", "build", "-o", credenceBin, "github.com/credence-mem/credence/cmd/credence").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return credenceBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if credenceBin != "" {
		os.RemoveAll(filepath.Dir(credenceBin))
	}
	os.Exit(code)
}

// procHome is a temporary HOME for running the built binary.
type procHome struct {
	t    *testing.T
	home string
	vars map[string]string
}

func newProcHome(t *testing.T, vars map[string]string) *procHome {
	t.Helper()
	p := &procHome{t: t, home: t.TempDir(), vars: map[string]string{}}
	for k, v := range vars {
		p.vars[k] = v
	}
	return p
}

func (p *procHome) environ() []string {
	env := []string{"HOME=" + p.home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}
	for k, v := range p.vars {
		env = append(env, k+"="+v)
	}
	return env
}

// config loads the configuration the binary sees.
func (p *procHome) config() *config.Config {
	p.t.Helper()
	env := map[string]string{"HOME": p.home}
	for k, v := range p.vars {
		env[k] = v
	}
	cfg, err := app.LoadConfig(app.Options{Home: p.home, Env: config.EnvMap(env)})
	if err != nil {
		p.t.Fatal(err)
	}
	return cfg
}

// db opens the database the binary uses; it is closed when the test ends.
func (p *procHome) db() *store.DB {
	p.t.Helper()
	db, err := app.OpenStore(context.Background(), p.config(), 5*time.Second)
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { db.Close() })
	return db
}

// prompts stores n prompt episodes, as the hooks would.
func (p *procHome) prompts(n int) {
	p.t.Helper()
	db := p.db()
	tools := []string{"pnpm", "bun", "yarn", "npm", "deno"}
	for i := range n {
		ep := store.Episode{Kind: store.EpisodePrompt, SessionID: "s1", ProjectPath: "/p",
			Content: fmt.Sprintf("I prefer %s for project %d and we deploy with fly.io", tools[i%len(tools)], i)}
		if _, err := db.AddEpisode(context.Background(), &ep); err != nil {
			p.t.Fatal(err)
		}
	}
}

// run runs a credence command to its end, within a generous bound.
func (p *procHome) run(args ...string) (code int, stdout, stderr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(p.t), args...)
	cmd.Env = p.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		p.t.Fatalf("credence %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

// agentProc is a running `credence agent`.
type agentProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	done   chan struct{}
	stderr *lockedBuffer
}

// startAgent starts `credence agent` and waits until it says it runs.
func (p *procHome) startAgent() *agentProc {
	p.t.Helper()
	cmd := exec.Command(binary(p.t), "agent")
	cmd.Env = p.environ()
	a := &agentProc{t: p.t, cmd: cmd, done: make(chan struct{}), stderr: &lockedBuffer{}}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		pw.Close()
		close(a.done)
	}()
	p.t.Cleanup(func() {
		cmd.Process.Kill()
		<-a.done
	})
	running := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		said := false
		for sc.Scan() {
			a.stderr.write(sc.Text() + "\n")
			if !said && strings.Contains(sc.Text(), "running (pid") {
				said = true
				close(running)
			}
		}
	}()
	select {
	case <-running:
	case <-a.done:
		p.t.Fatalf("credence agent exited at start: %v\n%s", cmd.ProcessState, a.stderr.String())
	case <-time.After(time.Minute):
		p.t.Fatalf("credence agent did not start:\n%s", a.stderr.String())
	}
	return a
}

// stop sends SIGTERM and fails the test unless the agent has exited,
// with code 0, within stopDeadline.
func (a *agentProc) stop() {
	a.t.Helper()
	sent := time.Now()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		a.t.Fatal(err)
	}
	select {
	case <-a.done:
	case <-time.After(stopDeadline):
		a.t.Fatalf("credence agent still running %v after SIGTERM\n%s", stopDeadline, a.stderr.String())
	}
	if code := a.cmd.ProcessState.ExitCode(); code != 0 {
		a.t.Errorf("credence agent exited %d %v after SIGTERM, want 0\n%s", code, time.Since(sent).Round(time.Millisecond), a.stderr.String())
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) write(s string) { l.mu.Lock(); l.b.WriteString(s); l.mu.Unlock() }
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// silentServer accepts connections and reads requests but never answers,
// as an endpoint does that hangs. Requested is closed when the first
// request arrives.
type silentServer struct {
	ln        net.Listener
	Requested chan struct{}
	once      sync.Once
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{ln: ln, Requested: make(chan struct{})}
	var conns sync.WaitGroup
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conns.Done()
				defer c.Close()
				buf := make([]byte, 4096)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						s.once.Do(func() { close(s.Requested) })
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return s
}

// URL is the server's OpenAI-style base URL.
func (s *silentServer) URL() string { return "http://" + s.ln.Addr().String() + "/v1" }

// refusedURL returns a base URL on which nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

func waitChan(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// TestAgentStopsWithinDeadline runs the built `credence agent` and sends it
// SIGTERM in each state it can be busy in: it must be gone, exit 0, within
// stopDeadline.
func TestAgentStopsWithinDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the credence binary")
	}
	t.Run("idle", func(t *testing.T) {
		newProcHome(t, nil).startAgent().stop()
	})
	t.Run("serving endless and huge transcripts", func(t *testing.T) {
		p := newProcHome(t, nil)
		a := p.startAgent()
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo.jsonl")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		huge := filepath.Join(dir, "huge.jsonl")
		if f, err := os.Create(huge); err != nil {
			t.Fatal(err)
		} else if err := f.Truncate(8 << 30); err != nil { // sparse: 8 GiB of zeros, no line break
			t.Fatal(err)
		} else {
			f.Close()
		}
		cfg := p.config()
		sock := hookrelay.SocketPath(cfg.Paths.DataDir)
		for _, path := range []string{"/dev/zero", fifo, huge} {
			for _, event := range []string{"SessionEnd", "PreCompact", "Stop"} {
				in := fmt.Sprintf(`{"session_id":"s-%s","cwd":%q,"hook_event_name":%q,"transcript_path":%q,"last_assistant_message":"done"}`,
					filepath.Base(path), p.home, event, path)
				var out bytes.Buffer
				if err := hookrelay.Relay(sock, cfg.Paths.Database, event, []byte(in), time.Now().Add(5*time.Second), &out); err != nil {
					t.Fatalf("%s with %s: %v", event, path, err)
				}
			}
		}
		a.stop()
	})
	t.Run("blocked on a silent embedding endpoint", func(t *testing.T) {
		srv := newSilentServer(t)
		// A model whose dimension is unknown is asked at once, before any
		// episode needs it.
		p := newProcHome(t, map[string]string{"CREDENCE_EMBEDDER_KIND": "openai",
			"CREDENCE_EMBEDDER_BASE_URL": srv.URL(), "CREDENCE_EMBEDDER_MODEL": "nomic-embed-text"})
		a := p.startAgent()
		waitChan(t, "the agent to call the embedding endpoint", srv.Requested)
		a.stop()
	})
	t.Run("blocked on a silent LLM endpoint", func(t *testing.T) {
		srv := newSilentServer(t)
		p := newProcHome(t, map[string]string{"CREDENCE_LLM_BASE_URL": srv.URL(), "CREDENCE_LLM_API_KEY": "sk-test"})
		p.prompts(3)
		a := p.startAgent()
		waitChan(t, "the agent to call the LLM endpoint", srv.Requested)
		a.stop()
	})
	t.Run("consolidating", func(t *testing.T) {
		p := newProcHome(t, nil)
		p.prompts(1500)
		db := p.db()
		a := p.startAgent()
		eventually(t, "the start cycle to be under way", func() bool {
			cs, err := db.Cycles(context.Background(), 1)
			return err == nil && len(cs) == 1 && cs[0].Status == store.CycleRunning
		})
		a.stop()
		cs, err := db.Cycles(context.Background(), 1)
		if err != nil || len(cs) != 1 || cs[0].Status != store.CycleCheckpointed {
			t.Errorf("cycles after the stop: %+v, %v; want the start cycle checkpointed", cs, err)
		}
	})
}

// TestEndpointsFailSoft points the embedder, then the LLM, at an address
// that refuses connections and at a server that never answers. Neither
// `credence consolidate` nor `credence agent` may fail or hang: they fall
// back to the offline embedder or extractor, `credence status` and
// `credence doctor` say so, and the agent still stops on SIGTERM.
func TestEndpointsFailSoft(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the credence binary")
	}
	endpoints := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"refused", refusedURL},
		{"silent", func(t *testing.T) string { return newSilentServer(t).URL() }},
	}
	kinds := []struct {
		name, which string
		vars        func(url string) map[string]string
		stands      string // what status says stands in
	}{
		{"embedder", "embedder", func(url string) map[string]string {
			return map[string]string{"CREDENCE_EMBEDDER_KIND": "openai", "CREDENCE_EMBEDDER_BASE_URL": url}
		}, "using the offline embedder"},
		{"llm", "llm", func(url string) map[string]string {
			return map[string]string{"CREDENCE_LLM_BASE_URL": url, "CREDENCE_LLM_API_KEY": "sk-test"}
		}, "consolidating offline"},
	}
	for _, k := range kinds {
		for _, ep := range endpoints {
			t.Run(k.name+" "+ep.name, func(t *testing.T) {
				url := ep.url(t)
				vars := k.vars(url)
				vars["CREDENCE_CONSOLIDATION_LLM_CALL_TIMEOUT"] = "2s"
				p := newProcHome(t, vars)
				p.prompts(6)
				code, out, errs := p.run("consolidate", "--json", "--no-promote")
				if code != 0 {
					t.Fatalf("credence consolidate: exit %d\n%s%s", code, out, errs)
				}
				if !strings.Contains(out, `"status": "done"`) || !strings.Contains(out, `"episodes": 6`) || !strings.Contains(out, `"name": "`+k.which+`"`) {
					t.Errorf("credence consolidate --json: want a done cycle of 6 episodes naming the %s down:\n%s", k.which, out)
				}
				if k.which == "embedder" && !strings.Contains(out, `"embedder_fallback": true`) {
					t.Errorf("credence consolidate --json: want the embedder fallback recorded:\n%s", out)
				}

				p.prompts(3)
				db := p.db()
				a := p.startAgent()
				eventually(t, "the agent's start cycle", func() bool {
					cs, err := db.Cycles(context.Background(), 1)
					return err == nil && len(cs) == 1 && cs[0].Trigger == "start" && cs[0].Status == store.CycleDone
				})
				eventually(t, "the heartbeat to report the endpoint", func() bool {
					hb, err := db.ReadAgentHeartbeat(context.Background())
					if err != nil {
						return false
					}
					for _, e := range hb.Endpoints {
						if e.Name == k.which && e.Down {
							return true
						}
					}
					return false
				})
				code, out, errs = p.run("status")
				line := lineStarting(out, k.which)
				if code != 0 || !strings.Contains(line, "unreachable since") || !strings.Contains(line, k.stands) ||
					!strings.Contains(line, "next try in") || !strings.Contains(line, url) {
					t.Errorf("credence status: exit %d, %s line %q; want it unreachable, %s, with the next try\n%s%s",
						code, k.which, line, k.stands, out, errs)
				}
				code, out, _ = p.run("doctor")
				if code != 1 || !strings.Contains(out, "the agent: ") || !strings.Contains(out, k.stands) {
					t.Errorf("credence doctor: exit %d; want the endpoint a problem with the agent's fallback\n%s", code, out)
				}
				a.stop()
			})
		}
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
