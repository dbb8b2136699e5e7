package markdown

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gofrs/flock"
)

// TestSeed002Checklist runs the file-level items of seed 002's manual
// verification list against real files under a temporary HOME. The items
// about which beliefs qualify (thresholds, orphaned project beliefs, logging
// removals) belong to the promotion logic that calls this package.
func TestSeed002Checklist(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	projectA, projectB := "/work/app one", "/work/app_two"
	pathA := ProjectMemoryPath(home, projectA, "")
	pathB := ProjectMemoryPath(home, projectB, "")
	for _, p := range []string{pathA, pathB} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil { // Claude Code made them
			t.Fatal(err)
		}
	}
	const notes = "\n# Project notes\n\n- [Build](build.md) — `make all`, never `go build` alone\n"
	writeFile(t, pathA, notes[1:], 0o600)

	bun := Entry{ID: "bl_bun", Statement: "User prefers Bun over Node.js", Confidence: 0.85, Evidence: 7}
	tts := Entry{ID: "bl_tts", Statement: "The TTS project uses ElevenLabs", Confidence: 0.92, Evidence: 12}
	write := func(t *testing.T, path string, s Section) string {
		t.Helper()
		if _, err := WriteSection(ctx, path, constant(RenderSection(s)), WriteOptions{}); err != nil {
			t.Fatalf("WriteSection(%s): %v", path, err)
		}
		return readFile(t, path)
	}
	personText := func(t *testing.T, doc string) {
		t.Helper()
		if !strings.HasSuffix(doc, notes) || !strings.HasPrefix(doc, BeginMarker) {
			t.Errorf("the person's notes changed:\n%s", doc)
		}
	}

	t.Run("beliefs above threshold appear in MEMORY.md", func(t *testing.T) {
		doc := write(t, pathA, Section{Beliefs: []Entry{tts, bun}})
		for _, want := range []string{
			"- The TTS project uses ElevenLabs (confidence: 0.92, evidence: 12)\n",
			"- User prefers Bun over Node.js (confidence: 0.85, evidence: 7)\n",
		} {
			if !strings.Contains(doc, want) {
				t.Errorf("MEMORY.md lacks %q:\n%s", want, doc)
			}
		}
		personText(t, doc)
	})
	t.Run("a belief below 0.7 moves to Former Beliefs as NO LONGER TRUE", func(t *testing.T) {
		doc := write(t, pathA, Section{Beliefs: []Entry{tts}, Former: []FormerEntry{{ID: bun.ID, Statement: bun.Statement, Was: 0.85, Now: 0.62, Date: demoted, Reason: ReasonContradicted}}})
		p, _ := ParseSection([]byte(doc))
		if len(p.Bullets(HeadingBeliefs)) != 1 || !strings.Contains(doc, "## Former Beliefs\n\n- [NO LONGER TRUE] User prefers Bun over Node.js (was: 0.85, now: 0.62, demoted: 2026-02-20)\n") {
			t.Errorf("demotion not rendered:\n%s", doc)
		}
		personText(t, doc)
	})
	t.Run("a belief below 0.5 is removed entirely", func(t *testing.T) {
		doc := write(t, pathA, Section{Beliefs: []Entry{tts}})
		if strings.Contains(doc, "Bun") || strings.Contains(doc, HeadingFormer) {
			t.Errorf("removed belief still in the file:\n%s", doc)
		}
		personText(t, doc)
	})
	t.Run("re-promotion after recovery", func(t *testing.T) {
		write(t, pathA, Section{Beliefs: []Entry{tts}, Former: []FormerEntry{{ID: bun.ID, Statement: bun.Statement, Was: 0.85, Now: 0.6, Date: demoted}}})
		doc := write(t, pathA, Section{Beliefs: []Entry{tts, bun}})
		if strings.Count(doc, "Bun") != 1 || strings.Contains(doc, "NO LONGER TRUE") {
			t.Errorf("re-promoted belief should appear once, under ## Beliefs:\n%s", doc)
		}
		personText(t, doc)
	})
	t.Run("project beliefs go to their own project's MEMORY.md", func(t *testing.T) {
		write(t, pathB, Section{Beliefs: []Entry{{ID: "bl_pg", Statement: "app_two uses Postgres", Confidence: 0.8, Evidence: 3}}})
		a, b := readFile(t, pathA), readFile(t, pathB)
		if strings.Contains(a, "Postgres") || !strings.Contains(b, "Postgres") || strings.Contains(b, "ElevenLabs") {
			t.Errorf("beliefs crossed projects:\nA=%s\nB=%s", a, b)
		}
		if want := filepath.Join(home, ".claude/projects/-work-app-two/memory/MEMORY.md"); pathB != want {
			t.Errorf("project path = %s, want %s", pathB, want)
		}
	})
	t.Run("global beliefs go to the global MEMORY.md", func(t *testing.T) {
		global := GlobalMemoryPath(home) // its directory does not exist yet
		if _, err := WriteSection(ctx, global, constant(RenderSection(Section{Beliefs: []Entry{bun}})), WriteOptions{CreateDir: true}); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, filepath.Join(home, ".claude-memory", "MEMORY.md")); !strings.Contains(got, "Bun") {
			t.Errorf("global file = %q", got)
		}
	})
	t.Run("the section keeps to 30 lines", func(t *testing.T) {
		doc := write(t, pathA, Section{Beliefs: entries("b", 20), Guidelines: entries("g", 20), Former: formers(20)})
		start := strings.Index(doc, BeginMarker)
		end := strings.Index(doc, EndMarker) + len(EndMarker) + 1
		if n := countLines([]byte(doc[start:end])); n > 30 {
			t.Errorf("section is %d lines, want ≤ 30", n)
		}
		personText(t, doc)
	})
	t.Run("writes during promotion do not corrupt the file", func(t *testing.T) {
		// memory_save-style appends take the same lock; Claude Code's
		// lock-free writes are TestConcurrentClaudeWriterLosesNothing's.
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if _, err := WriteSection(ctx, pathA, constant(counterSection(i)), WriteOptions{}); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := range 30 {
				if err := appendUnderLock(pathA, fmt.Sprintf("- saved memory %d\n", i)); err != nil {
					errs <- err
				}
			}
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		doc := readFile(t, pathA)
		for i := range 30 {
			if !strings.Contains(doc, fmt.Sprintf("- saved memory %d\n", i)) {
				t.Errorf("saved memory %d lost", i)
			}
		}
		if p, ok := ParseSection([]byte(doc)); !ok || p.Damaged {
			t.Errorf("file damaged: ok=%v damaged=%v\n%s", ok, p.Damaged, doc)
		}
	})
	t.Run("the section survives the archiver", func(t *testing.T) {
		write(t, pathA, Section{Beliefs: []Entry{tts, bun}})
		var b strings.Builder
		for d := 1; d <= 20; d++ {
			b.WriteString(dated(fmt.Sprintf("2026-01-%02d", d), 12))
		}
		f, err := os.OpenFile(pathA, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(b.String()); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		moved, err := EnforceBudget(ctx, pathA, DefaultMaxLines, DefaultMaxBytes, Root{})
		if err != nil || moved == 0 {
			t.Fatalf("EnforceBudget() = %d, %v; want sections moved", moved, err)
		}
		doc := readFile(t, pathA)
		if !strings.HasPrefix(doc, RenderSection(Section{Beliefs: []Entry{tts, bun}})) || countLines([]byte(doc)) > DefaultMaxLines {
			t.Errorf("after archiving: section not first or file over budget (%d lines)", countLines([]byte(doc)))
		}
		if archive := readFile(t, ArchivePath(pathA)); strings.Contains(archive, "CREDENCE") || strings.Contains(archive, "ElevenLabs") {
			t.Errorf("the section reached the archive:\n%s", archive)
		}
	})
	t.Run("a missing project directory is skipped", func(t *testing.T) {
		gone := ProjectMemoryPath(home, "/work/deleted-project", "")
		_, err := WriteSection(ctx, gone, constant(secA), WriteOptions{})
		if !errors.Is(err, ErrNoDirectory) {
			t.Errorf("error = %v, want ErrNoDirectory", err)
		}
		if _, err := os.Stat(filepath.Dir(filepath.Dir(gone))); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("project directory created for a missing project")
		}
	})
}

// appendUnderLock appends a line the way a credence writer that shares the
// lock would.
func appendUnderLock(path, line string) error {
	lock := flock.New(LockPath(path))
	if err := lock.Lock(); err != nil {
		return err
	}
	defer lock.Unlock()
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return writeLikeClaudeCode(path, append(data, line...))
}
