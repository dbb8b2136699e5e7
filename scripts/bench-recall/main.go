// Command bench-recall times each stage of a recall against the database
// scripts/bench-hooks.sh seeds, the way the agent serves a prompt (one
// long-lived process: caches, beliefs and episodes searched side by side,
// the file mapped) and the way a hook run in-process does (a fresh
// recaller on one connection each time). docs/BENCHMARKS.md reports it
// beside the whole-process times of bench-hooks.
//
//	bench-recall stages -home DIR [-runs 200] [-mode served|inprocess] [-cpuprofile FILE] [-touch] [-mmap BYTES] [-cachekib N]
//	bench-recall conversations -data FILE [-k 5,10,20,50]
//
// conversations measures episode recall@k on a long-conversation
// benchmark in the LoCoMo layout (conversations.go), as `credence recall
// --json` ranks: BM25 alone, the earlier hybrid and the current one.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
)

func main() {
	var run func([]string) error
	switch {
	case len(os.Args) >= 2 && os.Args[1] == "stages":
		run = stages
	case len(os.Args) >= 2 && os.Args[1] == "conversations":
		run = conversations
	default:
		fmt.Fprintln(os.Stderr, "usage: bench-recall stages -home DIR [-runs N] [-mode served|inprocess] [-cpuprofile FILE]\n       bench-recall conversations -data FILE [-k 5,10,20,50]")
		os.Exit(2)
	}
	if err := run(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench-recall:", err)
		os.Exit(1)
	}
}

func stages(args []string) error {
	fs := flag.NewFlagSet("stages", flag.ExitOnError)
	home := fs.String("home", "", "HOME seeded by bench-hooks seed")
	runs := fs.Int("runs", 200, "recalls to time (after 10 warm-up ones)")
	mode := fs.String("mode", "served", "served (as the agent) or inprocess (as a hook process)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the timed recalls")
	mmap := fs.Int64("mmap", 0, "bytes of the file to map (0: none, as the agent and the hooks; the agent mapped 1073741824 before session 6)")
	cacheKiB := fs.Int("cachekib", 0, "each connection's page cache in KiB (0: SQLite's default)")
	touch := fs.Bool("touch", false, "commit a small write from another connection before each recall, as a served prompt's own write does (the database is changed)")
	fs.Parse(args)
	if *home == "" {
		return fmt.Errorf("stages: -home is required")
	}
	served := *mode == "served"
	if !served && *mode != "inprocess" {
		return fmt.Errorf("stages: -mode %q: want served or inprocess", *mode)
	}
	var queries []synth.Query
	raw, err := os.ReadFile(filepath.Join(*home, "queries.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &queries); err != nil {
		return err
	}
	ctx := context.Background()
	opts := store.Options{ReadOnly: true, CacheKiB: *cacheKiB}
	if *mmap >= 0 {
		opts.MmapBytes = *mmap
	}
	path := filepath.Join(*home, ".local", "share", "credence", "credence.db")
	// open opens the database as the agent does (once, mapped) or as a
	// hook process does (for each prompt, one connection, a cold page
	// cache).
	open := func() (*store.DB, error) {
		db, err := store.Open(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		if !served {
			db.SQL().SetMaxOpenConns(1)
		}
		return db, nil
	}
	db, err := open()
	if err != nil {
		return err
	}
	defer func() { db.Close() }()
	emb, err := embed.NewStatic()
	if err != nil {
		return err
	}
	var writer *store.DB
	if *touch {
		if writer, err = store.Open(ctx, path, store.Options{ReadOnly: true}); err != nil {
			return err
		}
		defer writer.Close()
	}
	cache := recall.NewCache()
	times := map[string][]time.Duration{}
	var mu sync.Mutex // the stages of a served recall run side by side
	trace := func(stage string, d time.Duration) {
		mu.Lock()
		times[stage] = append(times[stage], d)
		mu.Unlock()
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for i := 0; i < *runs+10; i++ {
		q := queries[i%len(queries)]
		start := time.Now()
		if !served && i > 0 {
			db.Close()
			if db, err = open(); err != nil {
				return err
			}
		}
		if writer != nil {
			if err := writer.SetMeta(ctx, "bench_recall_touch", fmt.Sprint(i)); err != nil {
				return err
			}
		}
		r := &recall.Recaller{DB: db, Embedder: emb, Opts: recall.DefaultOptions()}
		if served {
			r.Cache, r.SideBySide = cache, true
		} else {
			r.OneShot = true
		}
		if i >= 10 {
			r.Trace = trace
		}
		if i >= 10 && !served {
			trace("open database", time.Since(start))
		}
		start = time.Now()
		if _, err := r.Recall(ctx, recall.Query{Text: q.Text, Project: q.Project}); err != nil {
			return err
		}
		if i >= 10 {
			trace("whole recall", time.Since(start))
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%s recall, %d queries; load average %s", *mode, *runs, load)
	fmt.Printf("%-16s %8s %8s\n", "stage", "p50 ms", "p95 ms")
	var extra []string
	for st := range times {
		if !slices.Contains(recall.Stages, st) && st != "open database" && st != "whole recall" {
			extra = append(extra, st)
		}
	}
	sort.Strings(extra)
	for _, st := range append(append(append([]string{"open database"}, recall.Stages...), extra...), "whole recall") {
		ds := times[st]
		if len(ds) == 0 {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("%-16s %8.2f %8.2f\n", st, ms(ds[len(ds)/2]), ms(ds[min(len(ds)-1, len(ds)*95/100)]))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
