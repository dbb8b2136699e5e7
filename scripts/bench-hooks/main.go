// Command bench-hooks seeds a credence database with a large synthetic
// history and times credence-hook as a whole process, the way Claude Code
// runs it. scripts/bench-hooks.sh drives it; docs/BENCHMARKS.md has the
// results.
//
//	bench-hooks seed -home DIR [-episodes 100000] [-beliefs 10000]
//	bench-hooks run  -home DIR -bin PATH [-runs 50]
//	bench-hooks hold -home DIR   (keeps the database open, as the agent does)
//	bench-hooks time -home DIR [-runs 30] [-stdin FILE] -- COMMAND ARGS...
//	bench-hooks breakdown -log HOOK_LOG   (where a served prompt's time goes)
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench-hooks seed|run [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "seed":
		err = seed(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	case "hold":
		err = hold(os.Args[2:])
	case "time":
		err = timeCmd(os.Args[2:])
	case "breakdown":
		err = breakdown(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-hooks:", err)
		os.Exit(1)
	}
}

// benchConfig sizes the history so that it holds about the requested
// number of episodes (two per turn) across 12 projects.
func benchConfig(episodes, beliefs int) synth.Config {
	const projects, turns = 12, 30
	sessions := max(1, (episodes+2*turns*projects-1)/(2*turns*projects))
	return synth.Config{Seed: 42, Projects: projects, SessionsPerProject: sessions, TurnsPerSession: turns,
		ChatterShare: 0.3, QueriesPerSlot: 3, OffTopicQueries: 20, ExtraBeliefs: max(0, beliefs-150)}
}

func dbPath(home string) string {
	return filepath.Join(home, ".local", "share", "credence", "credence.db")
}

func seed(args []string) error {
	fs := flag.NewFlagSet("seed", flag.ExitOnError)
	home := fs.String("home", "", "HOME the hooks will run with")
	episodes := fs.Int("episodes", 100000, "episodes to generate")
	beliefs := fs.Int("beliefs", 10000, "beliefs to generate")
	fs.Parse(args)
	if *home == "" {
		return fmt.Errorf("seed: -home is required")
	}
	ctx := context.Background()
	h := synth.Generate(benchConfig(*episodes, *beliefs))
	fmt.Println("history:", h.Describe())
	db, err := store.Open(ctx, dbPath(*home), store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	last := time.Now()
	progress := func(done, total int) {
		if time.Since(last) > 5*time.Second || done == total {
			fmt.Printf("  %d/%d (%v)\n", done, total, time.Since(start).Round(time.Second))
			last = time.Now()
		}
	}
	// The default embedder, so the vectors are in the space the hooks and
	// the agent search.
	emb, err := embed.NewStatic()
	if err != nil {
		return err
	}
	if _, err := synth.Load(ctx, db, h, synth.LoadOptions{Embedder: emb, NoVectorIndex: true, Progress: progress}); err != nil {
		return err
	}
	sp, err := db.EnsureSpace(ctx, emb.ID(), emb.Dim())
	if err != nil {
		return err
	}
	n, err := recall.SyncSketches(ctx, db, sp, 0)
	if err != nil {
		return err
	}
	if err := db.Checkpoint(ctx); err != nil {
		return err
	}
	fmt.Printf("seeded in %v; %d vectors sketched\n", time.Since(start).Round(time.Second), n)
	// The queries and a transcript for the run step.
	if err := writeJSON(filepath.Join(*home, "queries.json"), h.Queries); err != nil {
		return err
	}
	return writeTranscript(*home, h)
}

// writeTranscript writes a realistic session transcript (about 1 MB: 120
// turns, a third running a command with output) for the Stop runs.
func writeTranscript(home string, h synth.History) error {
	r := rand.New(rand.NewPCG(1, 1))
	var turns []synth.Turn
	for i := 0; i < 120; i++ {
		e := h.Episodes[r.IntN(len(h.Episodes)/2)*2+1] // an exchange
		prompt, reply, _ := strings.Cut(strings.TrimPrefix(e.Text, "User: "), "\n\nAssistant: ")
		t := synth.Turn{Prompt: prompt, Reply: reply}
		if i%3 == 0 {
			t.Command, t.Output = "go test ./...", strings.Repeat("ok  \tgithub.com/acme/app/pkg\t0.123s\n", 200)
		}
		turns = append(turns, t)
	}
	f, err := os.Create(filepath.Join(home, "transcript.jsonl"))
	if err != nil {
		return err
	}
	if err := synth.WriteTranscript(f, "bench-session", h.Projects[0], time.Now(), turns); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// sample is one timed process.
type sample struct {
	wall, cpu time.Duration
	rssKB     int64
	outBytes  int
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	home := fs.String("home", "", "HOME seeded by seed")
	bin := fs.String("bin", "", "credence-hook binary")
	runs := fs.Int("runs", 50, "runs per event")
	other := fs.String("vs", "", "another credence-hook binary (another build) whose runs alternate with -bin's, for a comparison under the same load")
	only := fs.String("only", "", "time only this event (and /bin/true)")
	fs.Parse(args)
	if *home == "" || *bin == "" {
		return fmt.Errorf("run: -home and -bin are required")
	}
	var queries []synth.Query
	b, err := os.ReadFile(filepath.Join(*home, "queries.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &queries); err != nil {
		return err
	}
	transcript := filepath.Join(*home, "transcript.jsonl")
	env := []string{"HOME=" + *home, "PATH=" + os.Getenv("PATH")}
	input := func(event string, fields map[string]any) []byte {
		m := map[string]any{"session_id": "bench-session", "transcript_path": transcript, "permission_mode": "default",
			"hook_event_name": event}
		for k, v := range fields {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	type bench struct {
		name  string
		cmd   []string
		stdin func(i int) []byte
	}
	benches := []bench{
		{"process spawn (/bin/true)", []string{"/bin/true"}, func(int) []byte { return nil }},
		{"UserPromptSubmit", []string{*bin, "UserPromptSubmit"}, func(i int) []byte {
			q := queries[i%len(queries)]
			return input("UserPromptSubmit", map[string]any{"cwd": q.Project, "prompt": q.Text})
		}},
		// The front alone: it starts, reads its settings, finds the event
		// unknown, logs that and exits, reaching no socket and no database.
		{"front start (unknown event)", []string{*bin, "BenchNoSuchEvent"}, func(int) []byte { return nil }},
		{"Stop", []string{*bin, "Stop"}, func(i int) []byte {
			return input("Stop", map[string]any{"cwd": queries[0].Project, "stop_hook_active": false,
				"last_assistant_message": fmt.Sprintf("Done (%d). I updated the handler, ran the tests and all 212 passed; the lockfile is unchanged.", i)})
		}},
		{"SessionStart", []string{*bin, "SessionStart"}, func(i int) []byte {
			return input("SessionStart", map[string]any{"cwd": queries[i%len(queries)].Project, "source": "startup",
				"session_id": fmt.Sprintf("bench-start-%d", i)})
		}},
	}
	// Each run of a hook is paired with a run of /bin/true just before it,
	// so the two see the same load: on a shared machine the ratio of the
	// two is what carries from one run to the next (the targets are
	// ratios: docs/BENCHMARKS.md).
	fmt.Printf("%-28s %6s %8s %8s %8s %8s %10s\n", "hook", "runs", "p50 ms", "p95 ms", "max ms", "cpu p50", "max RSS")
	spawn, hooks := benches[0], benches[1:]
	var spawns []sample
	type result struct {
		name     string
		ss, true []sample
	}
	var results []result
	for _, bn := range hooks {
		if *only != "" && !strings.HasPrefix(bn.name, *only) {
			continue
		}
		cmds := [][]string{bn.cmd}
		if *other != "" && bn.cmd[0] == *bin {
			cmds = append(cmds, append([]string{*other}, bn.cmd[1:]...))
		}
		ss := make([][]sample, len(cmds))
		var ts []sample
		for i := 0; i < *runs+3; i++ {
			t, err := timeProcess(spawn.cmd, env, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", spawn.name, err)
			}
			for c, cmd := range cmds {
				s, err := timeProcess(cmd, env, bn.stdin(i))
				if err != nil {
					return fmt.Errorf("%s: %w", bn.name, err)
				}
				if i >= 3 { // warm-up runs fill the page cache
					ss[c] = append(ss[c], s)
				}
			}
			if i >= 3 {
				ts = append(ts, t)
			}
		}
		spawns = append(spawns, ts...)
		for c := range cmds {
			name := bn.name
			if len(cmds) > 1 {
				name += [...]string{" (-bin)", " (-vs)"}[c]
			}
			results = append(results, result{name, ss[c], ts})
		}
	}
	report(spawn.name, spawns)
	for _, r := range results {
		report(r.name, r.ss)
	}
	fmt.Printf("\n%-28s %10s %10s   (each against the /bin/true runs paired with it)\n", "ratio to /bin/true", "p50", "p95")
	for _, r := range results {
		p50, p95 := ratio(r.ss, r.true, 50), ratio(r.ss, r.true, 95)
		fmt.Printf("%-28s %9.1f× %9.1f×\n", r.name, p50, p95)
	}
	return nil
}

// ratio is the p-th percentile wall time of ss over that of base.
func ratio(ss, base []sample, p int) float64 {
	walls := func(xs []sample) []time.Duration {
		out := make([]time.Duration, len(xs))
		for i, x := range xs {
			out[i] = x.wall
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	}
	return float64(pct(walls(ss), p)) / float64(max(pct(walls(base), p), 1))
}

func timeProcess(argv, env []string, stdin []byte) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, err
	}
	wall := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s := sample{wall: wall, outBytes: out.Len()}
	if ru != nil {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rssKB = ru.Maxrss
	}
	return s, nil
}

func report(name string, ss []sample) {
	walls := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	var rss int64
	printed := 0
	for i, s := range ss {
		walls[i], cpus[i] = s.wall, s.cpu
		rss = max(rss, s.rssKB)
		if s.outBytes > 0 {
			printed++
		}
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	fmt.Printf("%-28s %6d %8s %8s %8s %8s %7.1f MiB  (printed context %d/%d)\n", name, len(ss), ms(pct(walls, 50)),
		ms(pct(walls, 95)), ms(walls[len(walls)-1]), ms(pct(cpus, 50)), float64(rss)/1024, printed, len(ss))
}

// pct returns the p-th percentile of sorted durations (nearest rank).
func pct(sorted []time.Duration, p int) time.Duration {
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// hold keeps a connection to the database open until killed, as the
// running agent does. SQLite checkpoints and removes the WAL when its last
// connection closes; with the agent up, a hook is never that connection.
func hold(args []string) error {
	fs := flag.NewFlagSet("hold", flag.ExitOnError)
	home := fs.String("home", "", "HOME seeded by seed")
	fs.Parse(args)
	db, err := store.Open(context.Background(), dbPath(*home), store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.CountEpisodes(context.Background()); err != nil {
		return err
	}
	fmt.Println("holding", dbPath(*home))
	select {}
}

// timeCmd times any command as run above, for comparing variants.
func timeCmd(args []string) error {
	fs := flag.NewFlagSet("time", flag.ExitOnError)
	home := fs.String("home", "", "HOME for the command")
	runs := fs.Int("runs", 30, "runs")
	stdin := fs.String("stdin", "", "file fed to stdin")
	fs.Parse(args)
	if fs.NArg() == 0 {
		return fmt.Errorf("time: no command")
	}
	var in []byte
	if *stdin != "" {
		var err error
		if in, err = os.ReadFile(*stdin); err != nil {
			return err
		}
	}
	env := []string{"HOME=" + *home, "PATH=" + os.Getenv("PATH")}
	var ss []sample
	for i := 0; i < *runs+3; i++ {
		s, err := timeProcess(fs.Args(), env, in)
		if err != nil {
			return err
		}
		if i >= 3 {
			ss = append(ss, s)
		}
	}
	report(strings.Join(fs.Args(), " "), ss)
	return nil
}

// breakdown reads the hooks' log, the agent's lines written at debug level while the
// served prompts ran, and prints where a served UserPromptSubmit's time
// went inside the agent: from accepting the connection to the reply, and
// each recall stage (recall.Stages).
func breakdown(args []string) error {
	fs := flag.NewFlagSet("breakdown", flag.ExitOnError)
	logPath := fs.String("log", "", "the hooks' log (logs/hook.log), the agent's part written with CREDENCE_LOG_LEVEL=debug")
	fs.Parse(args)
	raw, err := os.ReadFile(*logPath)
	if err != nil {
		return err
	}
	fields := map[string][]time.Duration{}
	var order []string
	add := func(name string, us float64) {
		if _, ok := fields[name]; !ok {
			order = append(order, name)
		}
		fields[name] = append(fields[name], time.Duration(us*1000))
	}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(line, &m) != nil || m["event"] != "UserPromptSubmit" || m["via"] != "agent" {
			continue
		}
		switch m["msg"] {
		case "served":
			if us, ok := m["reply_us"].(float64); ok {
				add("agent: accept to reply", us)
			}
		case "recall stages":
			keys := make([]string, 0, len(m))
			for k := range m {
				if strings.HasSuffix(k, "_us") {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				if us, ok := m[k].(float64); ok {
					add("recall: "+strings.ReplaceAll(strings.TrimSuffix(k, "_us"), "_", " "), us)
				}
			}
		}
	}
	if len(order) == 0 {
		return fmt.Errorf("breakdown: no served UserPromptSubmit in %s (was the agent run with CREDENCE_LOG_LEVEL=debug?)", *logPath)
	}
	fmt.Printf("%-34s %6s %8s %8s\n", "inside the agent", "n", "p50 ms", "p95 ms")
	for _, name := range order {
		ds := fields[name]
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("%-34s %6d %8.2f %8.2f\n", name, len(ds), float64(pct(ds, 50).Microseconds())/1000, float64(pct(ds, 95).Microseconds())/1000)
	}
	return nil
}
