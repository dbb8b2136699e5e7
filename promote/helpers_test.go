package promote

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// clock is a settable clock shared by the store and the promoter.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// logBuffer collects log output from several goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// env is a temporary HOME with a config, a database and a promoter.
type env struct {
	t     testing.TB
	ctx   context.Context
	home  string
	cfg   *config.Config
	db    *store.DB
	clock *clock
	logs  *logBuffer
	p     *Promoter
}

// newEnv builds an env; tweak may change the config before the promoter is
// made.
func newEnv(t testing.TB, tweak func(*config.Config)) *env {
	t.Helper()
	home := t.TempDir()
	cfg, err := app.LoadConfig(app.Options{Home: home, Env: config.EnvMap(map[string]string{"HOME": home})})
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if tweak != nil {
		tweak(cfg)
	}
	ctx := context.Background()
	clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	db, err := store.Open(ctx, cfg.Paths.Database, store.Options{Now: clk.Now})
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &logBuffer{}
	e := &env{t: t, ctx: ctx, home: home, cfg: cfg, db: db, clock: clk, logs: logs}
	e.p = New(db, cfg, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	return e
}

// project makes a project root directory (with .git) under HOME.
func (e *env) project(name string) string {
	e.t.Helper()
	root := filepath.Join(e.home, "src", name)
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	return root
}

// projectFile is the MEMORY.md the project's beliefs go to by default.
func (e *env) projectFile(root string) string {
	return markdown.ClaudeProjectMemoryPath(e.cfg.Paths.ClaudeProjects, e.home, root, e.cfg.Memory.AutoMemoryDirectory)
}

// belief creates a belief and gives it supports and contradictions.
func (e *env) belief(spec belief.Spec, supports, contradictions int) string {
	e.t.Helper()
	var id string
	err := e.db.Write(e.ctx, func(tx *store.Tx) error {
		var err error
		if id, err = tx.CreateBelief(e.ctx, spec); err != nil {
			return err
		}
		return addEvidence(e.ctx, tx, id, supports, contradictions)
	})
	if err != nil {
		e.t.Fatalf("create belief %q: %v", spec.Statement, err)
	}
	return id
}

// global creates a global fact with the given evidence.
func (e *env) global(statement string, supports, contradictions int) string {
	return e.belief(belief.Spec{Statement: statement, Scope: belief.ScopeGlobal}, supports, contradictions)
}

// evidence adds supports and contradictions to a belief.
func (e *env) evidence(id string, supports, contradictions int) {
	e.t.Helper()
	if err := e.db.Write(e.ctx, func(tx *store.Tx) error {
		return addEvidence(e.ctx, tx, id, supports, contradictions)
	}); err != nil {
		e.t.Fatalf("add evidence to %s: %v", id, err)
	}
}

func addEvidence(ctx context.Context, tx *store.Tx, id string, supports, contradictions int) error {
	for range supports {
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "test", Label: belief.Supports}); err != nil {
			return err
		}
	}
	for range contradictions {
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "test", Label: belief.Contradicts}); err != nil {
			return err
		}
	}
	return nil
}

// mark appends a status event to a belief.
func (e *env) mark(id string, kind belief.EventKind) {
	e.t.Helper()
	if err := e.db.Write(e.ctx, func(tx *store.Tx) error {
		_, err := tx.Mark(e.ctx, id, kind)
		return err
	}); err != nil {
		e.t.Fatalf("mark %s %s: %v", id, kind, err)
	}
}

// promote runs one cycle and fails the test on error.
func (e *env) promote() Stats {
	e.t.Helper()
	st, err := e.p.Promote(e.ctx)
	if err != nil {
		e.t.Fatalf("Promote: %v", err)
	}
	return st
}

// read returns a file's content ("" when missing).
func (e *env) read(path string) string {
	e.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	return string(b)
}

// write replaces a file's content the way an editor or Claude Code does:
// a temp file renamed over it.
func (e *env) write(path, content string) {
	e.t.Helper()
	tmp := path + ".tmp.test"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		e.t.Fatal(err)
	}
}

// get reads a belief.
func (e *env) get(id string) store.Belief {
	e.t.Helper()
	b, err := e.db.Belief(e.ctx, id)
	if err != nil {
		e.t.Fatalf("Belief(%s): %v", id, err)
	}
	return b
}

// section returns the groups of a file's credence section, failing when it
// has none.
func (e *env) section(path string) markdown.ParsedSection {
	e.t.Helper()
	s, ok := markdown.ParseSection([]byte(e.read(path)))
	if !ok {
		e.t.Fatalf("%s has no credence section:\n%s", path, e.read(path))
	}
	return s
}

// statements lists the statements under one heading of a file's section.
func (e *env) statements(path, heading string) []string {
	e.t.Helper()
	var out []string
	for _, b := range e.section(path).Bullets(heading) {
		out = append(out, b.Statement)
	}
	return out
}

// under reports whether statement is a bullet under heading in path.
func (e *env) under(path, heading, statement string) bool {
	e.t.Helper()
	for _, s := range e.statements(path, heading) {
		if s == statement {
			return true
		}
	}
	return false
}

// bulletLine returns the raw bullet of statement in path, or "".
func (e *env) bulletLine(path, statement string) string {
	e.t.Helper()
	for _, line := range strings.Split(e.read(path), "\n") {
		if strings.HasPrefix(line, "- ") && strings.Contains(line, statement) {
			return line
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

func pad2(n int) string { return fmt.Sprintf("%02d", n) }

func format2(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func storeAll() store.PromotionSelect { return store.PromotionSelect{} }

// syncOwn runs SyncFile and reports whether it found its own write.
func (e *env) syncOwn(path string) (bool, error) {
	_, own, err := e.p.SyncFile(e.ctx, path)
	return own, err
}

// claudeLikeWriter edits path as Claude Code does, without credence's lock:
// read, change, write a temp file, rename it over. It appends a note each
// round and every third round bumps the version of an earlier note, until
// stop is closed; it returns the lines the file must hold.
func claudeLikeWriter(t *testing.T, path string, stop <-chan struct{}) []string {
	version := map[int]int{}
	note := func(n int) string { return fmt.Sprintf("- claude note %03d v%d", n, version[n]) }
	next := 0
	for round := 0; ; round++ {
		select {
		case <-stop:
			if round > 3 {
				var lines []string
				for n := range next {
					lines = append(lines, note(n))
				}
				return lines
			}
		default:
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("claude-like writer: %v", err)
			return nil
		}
		text := string(data)
		if round%3 == 2 && next > 0 {
			n := round % next
			old := note(n) + "\n"
			if !strings.Contains(text, old) {
				t.Errorf("claude-like writer: its line %q is gone", old)
				return nil
			}
			version[n]++
			text = strings.Replace(text, old, note(n)+"\n", 1)
		} else {
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			version[next] = 1
			text += note(next) + "\n"
			next++
		}
		tmp := fmt.Sprintf("%s.tmp.%d.%d", path, os.Getpid(), round)
		if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
			t.Errorf("claude-like writer: %v", err)
			return nil
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Errorf("claude-like writer: %v", err)
			return nil
		}
		// Claude Code edits between model turns, seconds apart; tens of
		// milliseconds is far busier.
		time.Sleep(time.Duration(10+rand.IntN(30)) * time.Millisecond)
	}
}
