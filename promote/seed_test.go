package promote

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/markdown"
)

// The tests in this file are seed 002's manual verification list, one test
// per item, against real files in a temporary HOME.

// Run consolidation with beliefs above threshold — verify they appear.
func TestSeedPromotionAppears(t *testing.T) {
	tests := []struct {
		name                     string
		supports, contradictions int
		want                     bool
	}{
		{"confident and well evidenced", 4, 0, true},         // 5/6 = 0.83, evidence 4
		{"just below the confidence threshold", 3, 1, false}, // 4/6 = 0.67 < 0.7
		{"confident but thin evidence", 2, 0, false},         // 0.75, evidence 2 < 3
		{"three supports is enough", 3, 0, true},             // 4/5 = 0.80, evidence 3
		{"well evidenced but doubtful", 5, 3, false},         // 6/10 = 0.60
		{"strong despite a contradiction", 8, 1, true},       // 9/11 = 0.82
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			id := e.global("User prefers tabs over spaces", tc.supports, tc.contradictions)
			st := e.promote()
			path := e.cfg.Paths.GlobalMemory
			got := e.under(path, markdown.HeadingBeliefs, "User prefers tabs over spaces")
			if got != tc.want {
				t.Fatalf("promoted=%v, want %v; file:\n%s", got, tc.want, e.read(path))
			}
			b := e.get(id)
			if (b.PromotedAt != 0) != tc.want || (st.Promoted == 1) != tc.want {
				t.Fatalf("promoted_at=%d Stats.Promoted=%d, want promoted=%v", b.PromotedAt, st.Promoted, tc.want)
			}
			if tc.want {
				line := e.bulletLine(path, "User prefers tabs")
				conf := float64(tc.supports+1) / float64(tc.supports+tc.contradictions+2)
				wantLine := "- User prefers tabs over spaces (confidence: " + format2(conf) + ", evidence: " + itoa(tc.supports+tc.contradictions) + ")"
				if line != wantLine {
					t.Fatalf("bullet %q, want %q", line, wantLine)
				}
				if b.PromotedAt != e.clock.Now().UnixMilli() || b.DemotedAt != 0 {
					t.Fatalf("marks promoted_at=%d demoted_at=%d, want %d and 0", b.PromotedAt, b.DemotedAt, e.clock.Now().UnixMilli())
				}
			}
		})
	}
}

// Lower a belief's confidence below 0.7 — verify it moves to Former Beliefs
// with the [NO LONGER TRUE] prefix.
func TestSeedDemotionToFormer(t *testing.T) {
	e := newEnv(t, nil)
	id := e.global("User deploys on Fridays", 4, 0) // 0.83
	e.promote()
	e.clock.Advance(24 * time.Hour)
	e.evidence(id, 0, 2) // 5/8 = 0.625
	st := e.promote()
	path := e.cfg.Paths.GlobalMemory
	if e.under(path, markdown.HeadingBeliefs, "User deploys on Fridays") {
		t.Fatalf("still under ## Beliefs:\n%s", e.read(path))
	}
	line := e.bulletLine(path, "User deploys on Fridays")
	want := "- [NO LONGER TRUE] User deploys on Fridays (was: 0.83, now: 0.62, demoted: 2026-03-02)"
	if line != want {
		t.Fatalf("former bullet %q, want %q", line, want)
	}
	if !e.under(path, markdown.HeadingFormer, "User deploys on Fridays") {
		t.Fatalf("not under ## Former Beliefs:\n%s", e.read(path))
	}
	b := e.get(id)
	if b.DemotedAt != e.clock.Now().UnixMilli() || b.PromotedAt == 0 || st.Demoted != 1 {
		t.Fatalf("promoted_at=%d demoted_at=%d Stats.Demoted=%d, want both set and 1", b.PromotedAt, b.DemotedAt, st.Demoted)
	}
	// A second cycle keeps it there with the same demotion date.
	e.clock.Advance(time.Hour)
	if st := e.promote(); st.Demoted != 0 || st.Removed != 0 {
		t.Fatalf("second cycle Stats=%+v, want nothing demoted or removed", st)
	}
	if got := e.bulletLine(path, "User deploys on Fridays"); got != want {
		t.Fatalf("former bullet after a second cycle %q, want %q", got, want)
	}
}

// Lower further below 0.5 — verify it is removed entirely and logged.
func TestSeedRemovalBelowHalf(t *testing.T) {
	tests := []struct {
		name   string
		steps  [][2]int // evidence added before each later cycle
		former bool     // passes through Former first
	}{
		{"via former", [][2]int{{0, 2}, {0, 3}}, true}, // 0.625, then 5/11 = 0.45
		{"straight from beliefs", [][2]int{{0, 6}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			id := e.global("Project uses MySQL", 4, 0)
			e.promote()
			var st Stats
			for _, s := range tc.steps {
				e.clock.Advance(time.Hour)
				e.evidence(id, s[0], s[1])
				st = e.promote()
			}
			path := e.cfg.Paths.GlobalMemory
			if strings.Contains(e.read(path), "Project uses MySQL") {
				t.Fatalf("still in the file:\n%s", e.read(path))
			}
			if b := e.get(id); b.PromotedAt != 0 || b.DemotedAt != 0 {
				t.Fatalf("marks promoted_at=%d demoted_at=%d, want cleared", b.PromotedAt, b.DemotedAt)
			}
			if st.Removed != 1 {
				t.Fatalf("Stats.Removed=%d, want 1", st.Removed)
			}
			logs := e.logs.String()
			if !strings.Contains(logs, "belief removed from MEMORY.md") || !strings.Contains(logs, id) {
				t.Fatalf("removal not logged with the belief ID; log:\n%s", logs)
			}
		})
	}
}

// Verify user content outside the markers is preserved.
func TestSeedUserContentPreserved(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	user := "# My memory\n\nI keep notes here.  Trailing spaces stay.  \n\n## 2026-01-05 Release\n\n- shipped v1\r\n- *emphasis* and `code`\n\n<!-- a comment of my own -->\n\nLast line without newline"
	e.write(path, user)
	a := e.global("User prefers Bun over Node.js", 6, 0)
	e.promote()
	e.evidence(a, 0, 4) // → Former
	e.promote()
	e.global("User works in Berlin", 5, 0)
	e.promote()
	got := e.read(path)
	if !strings.HasPrefix(got, markdown.BeginMarker+"\n") {
		t.Fatalf("section not at the top:\n%s", got)
	}
	end := strings.Index(got, markdown.EndMarker+"\n")
	if end < 0 {
		t.Fatalf("no END marker:\n%s", got)
	}
	rest := got[end+len(markdown.EndMarker)+1:]
	if strings.TrimPrefix(rest, "\n") != user {
		t.Fatalf("text outside the markers changed:\n got %q\nwant %q", rest, user)
	}
}

// Verify project-scoped beliefs go to the right project file and global
// beliefs to the global file, for both project targets.
func TestSeedRouting(t *testing.T) {
	tests := []struct {
		name   string
		target string
		file   func(e *env, root string) string
	}{
		{"claude auto memory", "claude", func(e *env, root string) string { return e.projectFile(root) }},
		{"in the repository", "repo", func(e *env, root string) string {
			return filepath.Join(root, ".claude", "memory", "MEMORY.md")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(c *config.Config) { c.Memory.ProjectTarget = tc.target })
			alpha, beta := e.project("alpha"), e.project("beta.v2 with space")
			e.belief(belief.Spec{Statement: "Alpha uses pnpm", Scope: belief.ScopeProject, ProjectPath: alpha}, 4, 0)
			e.belief(belief.Spec{Statement: "Beta deploys with Fly", Scope: belief.ScopeProject, ProjectPath: beta}, 4, 0)
			e.global("User writes Go", 4, 0)
			st := e.promote()
			if st.Promoted != 3 {
				t.Fatalf("Stats.Promoted=%d, want 3", st.Promoted)
			}
			files := map[string]string{
				tc.file(e, alpha):        "Alpha uses pnpm",
				tc.file(e, beta):         "Beta deploys with Fly",
				e.cfg.Paths.GlobalMemory: "User writes Go",
			}
			for path, want := range files {
				got := e.statements(path, markdown.HeadingBeliefs)
				if len(got) != 1 || got[0] != want {
					t.Fatalf("%s holds %q, want only %q", path, got, want)
				}
			}
			if tc.target == "claude" {
				want := filepath.Join(e.home, ".claude", "projects", markdown.ProjectKey(beta), "memory", "MEMORY.md")
				if tc.file(e, beta) != want || !strings.Contains(want, "-src-beta-v2-with-space") {
					t.Fatalf("project file %s, want %s keyed by the project root", tc.file(e, beta), want)
				}
			}
		})
	}
}

// Verify the line budget is respected: at most 30 lines for the section,
// ten beliefs and five former beliefs.
func TestSeedSectionLineBudget(t *testing.T) {
	e := newEnv(t, nil)
	var fading []string
	for i := range 20 {
		id := e.global("Fact number "+itoa(i)+" holds", 4+i, 0)
		if i < 7 {
			fading = append(fading, id)
		}
	}
	for i := range 12 {
		e.belief(belief.Spec{Statement: "Assistant should follow rule " + itoa(i), Kind: belief.KindGuideline,
			Scope: belief.ScopeGlobal}, 4, 0)
	}
	e.promote()
	for i, id := range fading {
		// About 0.6: below the promotion threshold, above the removal one.
		e.evidence(id, 0, int(math.Ceil(float64(5+i)/0.6))-(6+i))
	}
	e.promote()
	path := e.cfg.Paths.GlobalMemory
	doc := e.read(path)
	end := strings.Index(doc, markdown.EndMarker)
	lines := strings.Count(doc[:end], "\n") + 1
	if lines > 30 {
		t.Fatalf("section has %d lines, want ≤ 30:\n%s", lines, doc[:end])
	}
	if n := len(e.statements(path, markdown.HeadingBeliefs)); n != 10 {
		t.Fatalf("%d beliefs, want 10", n)
	}
	if n := len(e.statements(path, markdown.HeadingFormer)); n > 5 {
		t.Fatalf("%d former beliefs, want ≤ 5", n)
	}
	// Every bullet shown is marked, and nothing marked is missing.
	marked, err := e.db.PromotionCandidates(e.ctx, storeAll())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range marked {
		shown := strings.Contains(doc, b.Statement+" (")
		if (b.PromotedAt != 0) != shown {
			t.Fatalf("%q shown=%v but promoted_at=%d", b.Statement, shown, b.PromotedAt)
		}
	}
}

// Verify concurrent writes do not corrupt: a lock-free writer (as Claude
// Code writes) appends and edits lines outside the markers while cycles
// rewrite the section; every line it wrote is there afterwards.
func TestSeedConcurrentWrites(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User prefers short answers", 4, 0)
	e.promote()
	stop := make(chan struct{})
	done := make(chan []string, 1)
	go func() { done <- claudeLikeWriter(t, path, stop) }()
	stopped := false
	t.Cleanup(func() { // a failing cycle must not leave the writer running in a removed HOME
		if !stopped {
			close(stop)
			<-done
		}
	})
	for i := range 20 {
		if i%2 == 0 {
			e.evidence(id, 0, 2)
		} else {
			e.evidence(id, 3, 0)
		}
		e.global("Concurrent fact "+itoa(i), 3, 0)
		// On a loaded machine a rewrite can collide with the other writer on
		// every attempt; it then gives up without writing and the next cycle
		// tries again. Anything else is a failure.
		if _, err := e.p.Promote(e.ctx); err != nil && !errors.Is(err, markdown.ErrContention) {
			t.Fatalf("Promote: %v", err)
		}
	}
	close(stop)
	stopped = true
	want := <-done
	e.promote()
	doc := e.read(path)
	for _, line := range want {
		if !strings.Contains(doc, line+"\n") {
			t.Fatalf("line %q written by the other writer is lost:\n%s", line, doc)
		}
	}
	if s, ok := markdown.ParseSection([]byte(doc)); !ok || s.Damaged {
		t.Fatalf("section missing or damaged after concurrent writes:\n%s", doc)
	}
	if strings.Count(doc, markdown.BeginMarker) != 1 {
		t.Fatalf("want exactly one section:\n%s", doc)
	}
}

// Verify the section survives the line-budget archiver: it stays at the top
// and is never archived, while the oldest dated sections move out.
func TestSeedSurvivesArchiver(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# Notes\n\n")
	for day := 1; day <= 30; day++ {
		b.WriteString("## 2026-01-" + pad2(day) + " session\n\n")
		for i := range 8 {
			b.WriteString("- note " + itoa(i) + " of day " + itoa(day) + "\n")
		}
		b.WriteString("\n")
	}
	e.write(path, b.String())
	for i := range 10 {
		e.global("Archiver fact "+itoa(i), 5, 0)
	}
	st := e.promote()
	doc := e.read(path)
	if n := strings.Count(doc, "\n"); n > e.cfg.Memory.MaxLines {
		t.Fatalf("file has %d lines, want ≤ %d", n, e.cfg.Memory.MaxLines)
	}
	if st.Archived == 0 {
		t.Fatalf("Stats.Archived=0, want dated sections archived")
	}
	if !strings.HasPrefix(doc, markdown.BeginMarker) || len(e.statements(path, markdown.HeadingBeliefs)) != 10 {
		t.Fatalf("section not intact at the top:\n%s", doc)
	}
	archive := e.read(markdown.ArchivePath(path))
	if strings.Contains(archive, "CREDENCE") || strings.Contains(archive, "Archiver fact") {
		t.Fatalf("the archive holds part of the section:\n%s", archive)
	}
	if !strings.Contains(archive, "## 2026-01-01 session") || strings.Contains(doc, "## 2026-01-01 session") {
		t.Fatalf("the oldest dated section was not the one archived")
	}
	if !strings.Contains(doc, "## 2026-01-30 session") {
		t.Fatalf("the newest dated section was archived")
	}
	// The watcher must not take the archiver's rewrite for a person's edit.
	if own, err := e.syncOwn(path); err != nil || !own {
		t.Fatalf("SyncFile after archiving: own=%v err=%v, want own", own, err)
	}
}

// Verify orphaned project beliefs (project scope, no project path) and
// beliefs of project directories that no longer exist are skipped.
func TestSeedSkipped(t *testing.T) {
	tests := []struct {
		name string
		spec func(e *env) belief.Spec
		want func(st Stats) bool
	}{
		{"orphaned", func(e *env) belief.Spec {
			return belief.Spec{Statement: "Orphan fact", Scope: belief.ScopeProject}
		}, func(st Stats) bool { return st.Orphaned == 1 }},
		{"missing project directory", func(e *env) belief.Spec {
			return belief.Spec{Statement: "Gone project fact", Scope: belief.ScopeProject,
				ProjectPath: filepath.Join(e.home, "src", "deleted")}
		}, func(st Stats) bool { return st.MissingProject == 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			spec := tc.spec(e)
			id := e.belief(spec, 5, 0)
			st := e.promote()
			if !tc.want(st) || st.Promoted != 0 {
				t.Fatalf("Stats=%+v", st)
			}
			if b := e.get(id); b.PromotedAt != 0 {
				t.Fatalf("skipped belief marked promoted")
			}
			if _, err := os.Stat(e.cfg.Paths.ClaudeProjects); !os.IsNotExist(err) {
				t.Fatalf("a project directory was created under %s (err %v)", e.cfg.Paths.ClaudeProjects, err)
			}
			if strings.Contains(e.read(e.cfg.Paths.GlobalMemory), spec.Statement) {
				t.Fatalf("skipped belief written to the global file")
			}
		})
	}
}

// Verify re-promotion works when confidence recovers after demotion.
func TestSeedRepromotion(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User runs tests before committing", 4, 0)
	e.promote()
	first := e.get(id).PromotedAt
	e.clock.Advance(time.Hour)
	e.evidence(id, 0, 2)
	e.promote()
	if !e.under(path, markdown.HeadingFormer, "User runs tests before committing") {
		t.Fatalf("not demoted:\n%s", e.read(path))
	}
	e.clock.Advance(time.Hour)
	e.evidence(id, 4, 0) // 9/12 = 0.75
	st := e.promote()
	if !e.under(path, markdown.HeadingBeliefs, "User runs tests before committing") ||
		e.under(path, markdown.HeadingFormer, "User runs tests before committing") {
		t.Fatalf("not back under ## Beliefs alone:\n%s", e.read(path))
	}
	b := e.get(id)
	if st.Repromoted != 1 || b.DemotedAt != 0 || b.PromotedAt != first {
		t.Fatalf("Stats.Repromoted=%d demoted_at=%d promoted_at=%d (first %d)", st.Repromoted, b.DemotedAt, b.PromotedAt, first)
	}
}
