// Command load-hooks drives credence-hook the way several busy Claude Code
// sessions would and checks that nothing said was lost or mispaired.
// scripts/load-hooks.sh runs it in the four settings docs/BENCHMARKS.md
// reports (agent or not, quiet or loaded machine).
//
//	load-hooks run -bin DIR [-home DIR] [-streams 8] [-duration 60s] [-agent] [-burn N]
//
// Each stream is one session with its own transcript. A turn appends the
// prompt line to the transcript, runs `credence-hook UserPromptSubmit`,
// appends the assistant's reply line, and runs `credence-hook Stop` with
// last_assistant_message, as Claude Code does. Prompts mix plain requests
// with statements the consolidator extracts facts from, so an agent has
// real consolidation to do while the hooks write. With -burn N the run
// starts N processes that spin on the CPU and one that writes and fsyncs
// a file in a loop: a loaded machine.
//
// When the streams stop, the run waits for the agent to drain what it was
// handed (or, without one, runs one more hook, which drains the spool),
// stops the agent, and reads the database: every prompt must be stored
// exactly once as a prompt episode, and every turn exactly once as an
// exchange whose reply is that turn's own. It prints the counts and the
// p50/p99/max wall time of each hook, and exits 1 when anything was lost,
// duplicated or mispaired.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/credence-mem/credence/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: load-hooks run|burn|fsync [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = run(os.Args[2:])
	case "burn":
		burn()
	case "fsync":
		err = fsyncLoop(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load-hooks:", err)
		os.Exit(1)
	}
}

// options are one run's settings.
type options struct {
	bin      string
	home     string
	streams  int
	duration time.Duration
	agent    bool
	burn     int
}

func run(args []string) error {
	var o options
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	fs.StringVar(&o.bin, "bin", "", "directory holding credence and credence-hook")
	fs.StringVar(&o.home, "home", "", "HOME for the run (default: a new temporary directory)")
	fs.IntVar(&o.streams, "streams", 8, "concurrent sessions")
	fs.DurationVar(&o.duration, "duration", 60*time.Second, "how long the streams run")
	fs.BoolVar(&o.agent, "agent", false, "run `credence agent` during the load")
	fs.IntVar(&o.burn, "burn", 0, "CPU-spinning processes to start (plus one fsync loop) for a loaded machine")
	fs.Parse(args)
	if o.bin == "" {
		return errors.New("run: -bin is required")
	}
	if o.home == "" {
		dir, err := os.MkdirTemp("", "credence-load-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.home = dir
	}
	w := newWorld(o)
	stopBurn, err := w.startBurners(o.burn)
	if err != nil {
		return err
	}
	defer stopBurn()
	var agent *exec.Cmd
	if o.agent {
		if agent, err = w.startAgent(); err != nil {
			return err
		}
	}
	results := w.runStreams()
	if agent != nil {
		if err := w.stopAgent(agent); err != nil {
			return err
		}
	}
	// Whatever still waits in the spool is drained by the next hook or
	// agent start; one more hook stands for the person's next prompt.
	if _, err := w.hook("SessionStart", map[string]any{"session_id": "load-drain", "cwd": w.project(0), "source": "startup"}); err != nil {
		return err
	}
	rep, err := w.check(results)
	if err != nil {
		return err
	}
	rep.print(o)
	if !rep.clean() {
		os.Exit(1)
	}
	return nil
}

// world is one run's HOME and binaries.
type world struct {
	o   options
	env []string
}

func newWorld(o options) *world {
	env := []string{"HOME=" + o.home, "PATH=" + o.bin + ":" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	return &world{o: o, env: env}
}

func (w *world) dataDir() string { return filepath.Join(w.o.home, ".local", "share", "credence") }

func (w *world) project(i int) string {
	p := filepath.Join(w.o.home, "src", fmt.Sprintf("project-%d", i%3))
	os.MkdirAll(filepath.Join(p, ".git"), 0o755)
	return p
}

// startBurners starts n CPU spinners and one fsync loop.
func (w *world) startBurners(n int) (stop func(), err error) {
	if n <= 0 {
		return func() {}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var procs []*exec.Cmd
	stop = func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}
	for i := 0; i <= n; i++ {
		cmd := exec.Command(self, "burn")
		if i == n {
			cmd = exec.Command(self, "fsync", filepath.Join(w.o.home, "fsync-load"))
		}
		if err := cmd.Start(); err != nil {
			stop()
			return nil, err
		}
		procs = append(procs, cmd)
	}
	return stop, nil
}

// burn spins one CPU until killed.
func burn() {
	x := 0
	for {
		x++
	}
}

// fsyncLoop writes and fsyncs a file until killed, so the disk is busy too.
func fsyncLoop(args []string) error {
	if len(args) != 1 {
		return errors.New("fsync: want a file")
	}
	f, err := os.Create(args[0])
	if err != nil {
		return err
	}
	buf := bytes.Repeat([]byte("x"), 64<<10)
	for i := 0; ; i++ {
		if i%256 == 0 {
			f.Truncate(0)
			f.Seek(0, 0)
		}
		f.Write(buf)
		f.Sync()
	}
}

func (w *world) startAgent() (*exec.Cmd, error) {
	cmd := exec.Command(filepath.Join(w.o.bin, "credence"), "agent")
	cmd.Env = w.env
	logf, err := os.Create(filepath.Join(w.o.home, "agent.out"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sock := filepath.Join(w.dataDir(), "agent.sock")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			return cmd, nil
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, errors.New("the agent did not open its socket within 30 s")
}

// stopAgent waits until the agent has stored everything it was handed
// (its spool empty, a last event served after the streams), then stops it
// with SIGTERM.
func (w *world) stopAgent(cmd *exec.Cmd) error {
	time.Sleep(2 * time.Second) // served events store after their reply
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return nil
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		return errors.New("the agent did not stop within 30 s of SIGTERM")
	}
}

// turn is one prompt and its reply as a stream sent them.
type turn struct {
	session, prompt, reply string
}

// streamResult is what one stream sent and how long its hooks took.
type streamResult struct {
	turns  []turn
	prompt []time.Duration
	stop   []time.Duration
	errs   []string
}

func (w *world) runStreams() []streamResult {
	ctx, cancel := context.WithTimeout(context.Background(), w.o.duration)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	out := make([]streamResult, w.o.streams)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = w.stream(ctx, i)
		}()
	}
	wg.Wait()
	return out
}

// stream runs one session's turns until ctx is done.
func (w *world) stream(ctx context.Context, i int) streamResult {
	var res streamResult
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	session := fmt.Sprintf("load-%d-%d", i, time.Now().UnixNano())
	tpath := filepath.Join(w.o.home, "transcripts", session+".jsonl")
	os.MkdirAll(filepath.Dir(tpath), 0o700)
	cwd := w.project(i)
	for t := 0; ctx.Err() == nil; t++ {
		tn := turn{session: session, prompt: promptText(rng, i, t), reply: fmt.Sprintf("Reply %d.%d: done, as asked.", i, t)}
		appendLine(tpath, transcriptLine(session, cwd, "user", tn.prompt, t))
		d, err := w.hook("UserPromptSubmit", map[string]any{"session_id": session, "transcript_path": tpath, "cwd": cwd,
			"hook_event_name": "UserPromptSubmit", "prompt": tn.prompt})
		res.prompt = append(res.prompt, d)
		if err != nil {
			res.errs = append(res.errs, err.Error())
		}
		appendLine(tpath, transcriptLine(session, cwd, "assistant", tn.reply, t))
		d, err = w.hook("Stop", map[string]any{"session_id": session, "transcript_path": tpath, "cwd": cwd,
			"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": tn.reply})
		res.stop = append(res.stop, d)
		if err != nil {
			res.errs = append(res.errs, err.Error())
		}
		res.turns = append(res.turns, tn)
	}
	return res
}

// statements are what people tell Claude; the consolidator extracts facts
// and guidelines from them, so an agent consolidates while hooks write.
var statements = []string{
	"We use pnpm in this repo, never npm.",
	"Always run go test with -race before saying tests pass.",
	"I live in Lisbon these days.",
	"The staging deploy goes out from the release branch.",
	"My manager is Priya.",
	"Please keep commit messages under 72 characters.",
	"The API listens on port 8443.",
	"We switched the test runner from jest to vitest.",
}

var requests = []string{
	"fix the flaky test in the billing module",
	"explain what the retry middleware does",
	"add a health endpoint to the admin server",
	"why does the build take so long",
	"rename the config loader and update its callers",
}

// promptText makes a unique prompt: the stream and turn, then a statement
// or a request.
func promptText(rng *rand.Rand, stream, t int) string {
	body := requests[rng.IntN(len(requests))]
	if rng.IntN(3) == 0 {
		body = statements[rng.IntN(len(statements))]
	}
	return fmt.Sprintf("Turn %d.%d: %s", stream, t, body)
}

// transcriptLine is one line of a Claude Code transcript.
func transcriptLine(session, cwd, role, text string, t int) []byte {
	line := map[string]any{
		"type": role, "sessionId": session, "cwd": cwd, "isSidechain": false, "userType": "external",
		"uuid": fmt.Sprintf("%s-%s-%d", session, role, t), "timestamp": time.Now().UTC().Format(time.RFC3339Nano),
	}
	if role == "user" {
		line["message"] = map[string]any{"role": "user", "content": text}
	} else {
		line["message"] = map[string]any{"id": fmt.Sprintf("msg_%s_%d", session, t), "type": "message", "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn"}
	}
	b, _ := json.Marshal(line)
	return append(b, '\n')
}

func appendLine(path string, line []byte) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		panic(err)
	}
	f.Write(line)
	f.Close()
}

// hook runs credence-hook for one event and returns its wall time. A hook
// that exits non-zero or prints anything but JSON is an error.
func (w *world) hook(event string, input map[string]any) (time.Duration, error) {
	in, _ := json.Marshal(input)
	cmd := exec.Command(filepath.Join(w.o.bin, "credence-hook"), event)
	cmd.Env = w.env
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	switch {
	case err != nil:
		return d, fmt.Errorf("%s: %v: %s", event, err, stderr.String())
	case stdout.Len() > 0 && !json.Valid(stdout.Bytes()):
		return d, fmt.Errorf("%s printed invalid JSON: %q", event, stdout.String())
	}
	return d, nil
}

// report is what the database holds against what was sent.
type report struct {
	turns, prompts, exchanges              int
	lostPrompts, dupPrompts                int
	lostExchanges, dupExchanges, mispaired int
	spooled                                int
	hookErrors                             []string
	promptTimes, stopTimes                 []time.Duration
	examples                               []string
}

func (r *report) clean() bool {
	return r.lostPrompts+r.dupPrompts+r.lostExchanges+r.dupExchanges+r.mispaired == 0 && len(r.hookErrors) == 0
}

var replyTurn = regexp.MustCompile(`Assistant: Reply (\d+\.\d+):`)
var promptTurn = regexp.MustCompile(`^User: Turn (\d+\.\d+):`)

// check reads the database after the run.
func (w *world) check(results []streamResult) (*report, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(w.dataDir(), "credence.db"), store.Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rep := &report{}
	prompts := map[string]int{}        // session+text → count
	exchanges := map[string][]string{} // session+turn → reply turns
	rows, err := db.SQL().QueryContext(ctx, `SELECT session_id, kind, CAST(content AS BLOB) FROM episodes
		WHERE session_id LIKE 'load-%' AND kind IN ('prompt', 'exchange')`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var session, kind string
		var content []byte
		if err := rows.Scan(&session, &kind, &content); err != nil {
			rows.Close()
			return nil, err
		}
		text := string(content)
		if kind == store.EpisodePrompt {
			prompts[session+"\x00"+text]++
			rep.prompts++
			continue
		}
		rep.exchanges++
		p, r := promptTurn.FindStringSubmatch(text), replyTurn.FindStringSubmatch(text)
		if p == nil || r == nil {
			rep.mispaired++
			rep.example("unparsable exchange: %.120q", text)
			continue
		}
		exchanges[session+"\x00"+p[1]] = append(exchanges[session+"\x00"+p[1]], r[1])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, res := range results {
		rep.promptTimes = append(rep.promptTimes, res.prompt...)
		rep.stopTimes = append(rep.stopTimes, res.stop...)
		rep.hookErrors = append(rep.hookErrors, res.errs...)
		for _, tn := range res.turns {
			rep.turns++
			switch n := prompts[tn.session+"\x00"+tn.prompt]; {
			case n == 0:
				rep.lostPrompts++
				rep.example("lost prompt %q", tn.prompt)
			case n > 1:
				rep.dupPrompts++
				rep.example("prompt stored %d times: %q", n, tn.prompt)
			}
			id := strings.TrimSuffix(strings.Fields(tn.prompt)[1], ":")
			got := exchanges[tn.session+"\x00"+id]
			switch {
			case len(got) == 0:
				rep.lostExchanges++
				rep.example("lost exchange of turn %s", id)
			case len(got) > 1:
				rep.dupExchanges++
				rep.example("turn %s stored %d times", id, len(got))
			}
			for _, r := range got {
				if r != id {
					rep.mispaired++
					rep.example("turn %s paired with reply %s", id, r)
				}
			}
		}
	}
	if entries, err := os.ReadDir(filepath.Join(w.dataDir(), "spool")); err == nil {
		rep.spooled = len(entries)
	}
	return rep, nil
}

func (r *report) example(format string, args ...any) {
	if len(r.examples) < 10 {
		r.examples = append(r.examples, fmt.Sprintf(format, args...))
	}
}

func (r *report) print(o options) {
	mode := "no agent"
	if o.agent {
		mode = "agent"
	}
	load := "quiet"
	if o.burn > 0 {
		load = fmt.Sprintf("loaded (%d CPU spinners + fsync loop)", o.burn)
	}
	fmt.Printf("%s, %s machine, %d streams for %s: %d turns\n", mode, load, o.streams, o.duration, r.turns)
	fmt.Printf("  prompts:   %d stored, %d lost, %d duplicated\n", r.prompts, r.lostPrompts, r.dupPrompts)
	fmt.Printf("  exchanges: %d stored, %d lost, %d duplicated, %d mispaired\n", r.exchanges, r.lostExchanges, r.dupExchanges, r.mispaired)
	fmt.Printf("  spool files left: %d; hook errors: %d\n", r.spooled, len(r.hookErrors))
	fmt.Printf("  UserPromptSubmit: %s\n", latencies(r.promptTimes))
	fmt.Printf("  Stop:             %s\n", latencies(r.stopTimes))
	for _, e := range r.examples {
		fmt.Println("  e.g.", e)
	}
	for i, e := range r.hookErrors {
		if i == 5 {
			break
		}
		fmt.Println("  hook error:", e)
	}
}

func latencies(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	pct := func(p int) time.Duration { return s[min(len(s)-1, len(s)*p/100)] }
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("p50 %s, p99 %s, max %s (n=%d)", ms(pct(50)), ms(pct(99)), ms(s[len(s)-1]), len(s))
}
