package promote

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// memoryDir makes a project and its Claude Code memory directory.
func (e *env) memoryDir(name string) (root, dir string) {
	e.t.Helper()
	root = e.project(name)
	dir = filepath.Dir(e.projectFile(root))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		e.t.Fatal(err)
	}
	return root, dir
}

// modelWrites writes a file as Claude Code's Write tool does and records
// it the way the PostToolUse hook does, from the hook's own JSON input.
func (e *env) modelWrites(path, content string) {
	e.t.Helper()
	e.write(path, content)
	e.hookRecord(`{"tool_name":"Write","cwd":"/","tool_input":{"file_path":"` + path + `","content":"…"}}`)
}

func (e *env) hookRecord(input string) {
	e.t.Helper()
	if err := hookrelay.RecordEdit(e.cfg.Paths.DataDir, []byte(input), time.Now()); err != nil {
		e.t.Fatal(err)
	}
}

// evidenceBySource returns a belief's evidence from one source.
func (e *env) evidenceBySource(id, source string) []store.Evidence {
	e.t.Helper()
	evs, err := e.db.Evidence(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []store.Evidence
	for _, ev := range evs {
		if ev.Source == source {
			out = append(out, ev)
		}
	}
	return out
}

func (e *env) beliefByStatement(statement string) store.Belief {
	e.t.Helper()
	bs, err := e.db.Beliefs(e.ctx, store.Filter{})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, b := range bs {
		if strings.EqualFold(b.Statement, statement) {
			return b
		}
	}
	e.t.Fatalf("no belief %q among %d", statement, len(bs))
	return store.Belief{}
}

const pnpmNote = `---
name: Package manager
description: The project deploys to Fly.io
metadata:
  type: project
---

Never mock the database in integration tests.
`

// TestWatcherReadsMemoryFiles: Claude Code's memory files, seen through
// real fsnotify events, become memory episodes and evidence; a person's
// file is user evidence, the model's (recorded by the hook) assistant
// evidence with its own weight; a claim the model drops and a file it
// deletes weigh weakly against their beliefs.
func TestWatcherReadsMemoryFiles(t *testing.T) {
	e := newEnv(t, nil)
	root, dir := e.memoryDir("app")
	e.write(filepath.Join(dir, "MEMORY.md"), "- [Package manager](deploy.md) — where it runs\n")
	e.db.AddEpisode(e.ctx, &store.Episode{ProjectPath: root, Content: "hello", Kind: store.EpisodeNote})
	w, events := e.watch()
	waitWatching(t, w, dir)

	// A person writes a memory file (no hook record).
	note := filepath.Join(dir, "deploy.md")
	e.write(note, pnpmNote)
	ev := waitEvent(t, events, note, "a person's memory file", func(ev SyncEvent) bool { return ev.Note && ev.NoteStats.Files == 1 })
	if ev.NoteStats.Person != 1 || ev.NoteStats.Claims != 2 {
		t.Fatalf("note stats = %+v, want a person's file with 2 claims", ev.NoteStats)
	}
	fly := e.beliefByStatement("Project deploys to Fly.io")
	mock := e.beliefByStatement("Never mock the database in integration tests")
	if fly.Scope != belief.ScopeProject || fly.ProjectPath != root || mock.Kind != belief.KindGuideline {
		t.Fatalf("beliefs %+v / %+v, want project-scoped in %s", fly, mock, root)
	}
	if evs := e.evidenceBySource(fly.ID, SourcePersonMemory); len(evs) != 1 || evs[0].Reliability != e.cfg.Memory.PersonReliability || evs[0].Support != 1 {
		t.Fatalf("person evidence = %+v", evs)
	}
	rec, err := e.db.MemoryFile(e.ctx, note)
	if err != nil || rec.Type != "project" || rec.Author != "person" {
		t.Fatalf("memory file record = %+v, %v", rec, err)
	}
	ep, err := e.db.Episode(e.ctx, rec.EpisodeID)
	if err != nil || ep.Kind != store.EpisodeMemory || !strings.Contains(ep.Summary, "(project)") || !strings.Contains(ep.Content, "Never mock") {
		t.Fatalf("episode = %+v, %v", ep, err)
	}

	// The model rewrites it: one claim kept (no new evidence), one dropped
	// (weak evidence against), one added (assistant evidence).
	e.modelWrites(note, strings.Replace(pnpmNote, "Never mock the database in integration tests.", "Always run go vet before committing.", 1))
	ev = waitEvent(t, events, note, "the model's edit", func(ev SyncEvent) bool { return ev.Note && ev.NoteStats.Files == 1 })
	if ev.NoteStats.Model != 1 || ev.NoteStats.Claims != 1 || ev.NoteStats.Weakened != 1 {
		t.Fatalf("note stats = %+v, want the model's edit: 1 new claim, 1 weakened", ev.NoteStats)
	}
	if evs := e.evidenceBySource(fly.ID, SourceClaudeMemory); len(evs) != 0 {
		t.Fatalf("unchanged claim got evidence again: %+v", evs)
	}
	against := e.evidenceBySource(mock.ID, SourceClaudeMemory)
	if len(against) != 1 || against[0].Support != -1 || against[0].Reliability != e.cfg.Memory.DeletedReliability {
		t.Fatalf("evidence against the dropped claim = %+v", against)
	}
	vet := e.beliefByStatement("Always run go vet before committing")
	if evs := e.evidenceBySource(vet.ID, SourceClaudeMemory); len(evs) != 1 || evs[0].Reliability != e.cfg.Memory.ModelReliability {
		t.Fatalf("assistant evidence = %+v", evs)
	}

	// The model deletes it with rm: weak evidence against what it claimed.
	if err := os.Remove(note); err != nil {
		t.Fatal(err)
	}
	e.hookRecord(`{"tool_name":"Bash","cwd":"` + dir + `","tool_input":{"command":"rm deploy.md"}}`)
	ev = waitEvent(t, events, note, "the model's deletion", func(ev SyncEvent) bool { return ev.Note && ev.NoteStats.Deleted == 1 })
	if ev.NoteStats.Model != 1 || ev.NoteStats.Weakened != 2 {
		t.Fatalf("note stats = %+v, want the model's deletion weakening 2 beliefs", ev.NoteStats)
	}
	if got := e.get(fly.ID); got.Status != belief.Active {
		t.Fatalf("a weak deletion ended the belief: %s", got.Status)
	}
	// credence wrote nothing into the directory.
	if b, err := os.ReadFile(filepath.Join(dir, "MEMORY.md")); err != nil || string(b) != "- [Package manager](deploy.md) — where it runs\n" {
		t.Fatalf("MEMORY.md changed: %q, %v", b, err)
	}
}

// TestModelEditOfSectionIsRepaired: the model deleting credence's bullet
// (recorded by the hook) is not a person's rejection: the belief stays,
// the bullet comes back, and no USER_EDIT evidence is recorded. A person
// making the very same change afterwards (the same bytes: the used-up
// record must not explain it) rejects the belief. A bullet the model adds
// is an assistant claim, not a pinned belief.
func TestModelEditOfSectionIsRepaired(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User wants emoji in commit messages", 4, 0)
	e.global("User writes Go", 4, 0)
	e.promote()
	_, events := e.watch()
	withoutEmoji := func() string {
		var kept []string
		for _, l := range strings.SplitAfter(e.read(path), "\n") {
			if !strings.Contains(l, "emoji") {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "")
	}
	modelVersion := withoutEmoji()
	e.modelWrites(path, modelVersion)
	ev := waitEvent(t, events, path, "the model's edit", func(ev SyncEvent) bool { return ev.Stats.ModelRepaired == 1 })
	if ev.Stats.UserDeleted != 0 || ev.Stats.ModelAdded != 0 {
		t.Fatalf("stats = %+v", ev.Stats)
	}
	if b := e.get(id); b.Status != belief.Active || len(e.userEdits(id)) != 0 {
		t.Fatalf("belief %s with %d user edits after the model's edit", b.Status, len(e.userEdits(id)))
	}
	if !e.under(path, markdown.HeadingBeliefs, "User wants emoji in commit messages") {
		t.Fatalf("bullet not repaired:\n%s", e.read(path))
	}
	// The same deletion by a person is a rejection.
	if withoutEmoji() != modelVersion {
		t.Fatalf("the person's version differs from the model's; the test needs the same bytes")
	}
	e.write(path, modelVersion)
	waitEvent(t, events, path, "the person's deletion", func(ev SyncEvent) bool { return ev.Stats.UserDeleted == 1 })
	if b := e.get(id); b.Status != belief.Rejected {
		t.Fatalf("status %s after a person's deletion, want rejected", b.Status)
	}
	// The model adds a bullet under ## Beliefs: an assistant claim.
	doc := e.read(path)
	at := strings.Index(doc, markdown.HeadingBeliefs+"\n\n") + len(markdown.HeadingBeliefs) + 2
	e.modelWrites(path, doc[:at]+"- User lives in Lisbon\n"+doc[at:])
	ev = waitEvent(t, events, path, "the model's addition", func(ev SyncEvent) bool { return ev.Stats.ModelAdded == 1 })
	if ev.Stats.UserAdded != 0 {
		t.Fatalf("stats = %+v", ev.Stats)
	}
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Predicate: "lives_in"})
	if err != nil || len(bs) != 1 || bs[0].Pinned || bs[0].Source != SourceClaudeMemory {
		t.Fatalf("beliefs after the model's addition: %+v, %v", bs, err)
	}
	if evs := e.evidenceBySource(bs[0].ID, SourceClaudeMemory); len(evs) != 1 || evs[0].Reliability != e.cfg.Memory.ModelReliability {
		t.Fatalf("evidence = %+v", evs)
	}
}

// TestIndexLinksAndDetailFiles: in a memory directory where Claude Code
// keeps its own memory files, the section is index lines and every
// promoted belief has a detail file, removed when the belief leaves.
func TestIndexLinksAndDetailFiles(t *testing.T) {
	e := newEnv(t, nil)
	root, dir := e.memoryDir("web")
	claude := filepath.Join(dir, "user_role.md")
	e.write(claude, "---\nname: role\ndescription: User is a data scientist\nmetadata:\n  type: user\n---\nbody\n")
	id := e.belief(belief.Spec{Statement: "Project uses pnpm", Subject: "project", Scope: belief.ScopeProject, ProjectPath: root}, 4, 0)
	if st := e.promote(); st.DetailsWritten != 1 {
		t.Fatalf("stats = %+v, want 1 detail file", st)
	}
	path := e.projectFile(root)
	file := markdown.DetailName(id, "Project uses pnpm")
	line := e.bulletLine(path, "Project uses pnpm")
	if line != "- [Project uses pnpm]("+file+") — confidence: 0.83, evidence: 4" {
		t.Fatalf("index line = %q:\n%s", line, e.read(path))
	}
	detail := markdown.ParseMemoryNote([]byte(e.read(filepath.Join(dir, file))))
	if detail.Type != markdown.TypeProject || !strings.Contains(detail.Body, "Confidence: 0.83 from 4 pieces of evidence") {
		t.Fatalf("detail = %+v", detail)
	}
	// The belief leaves the section: its file goes, Claude's stays.
	e.mark(id, belief.Reject)
	if st := e.promote(); st.DetailsRemoved != 1 {
		t.Fatalf("stats = %+v, want the detail file removed", st)
	}
	if _, err := os.Stat(filepath.Join(dir, file)); !os.IsNotExist(err) {
		t.Fatalf("detail file left: %v", err)
	}
	if _, err := os.Stat(claude); err != nil {
		t.Fatal(err)
	}

	// Without Claude Code's own memory files (older Claude Code): plain bullets.
	other, odir := e.memoryDir("old")
	e.belief(belief.Spec{Statement: "Project uses npm", Subject: "project", Scope: belief.ScopeProject, ProjectPath: other}, 4, 0)
	e.promote()
	if line := e.bulletLine(e.projectFile(other), "Project uses npm"); line != "- Project uses npm (confidence: 0.83, evidence: 4)" {
		t.Fatalf("plain line = %q", line)
	}
	if m, _ := filepath.Glob(filepath.Join(odir, "credence-*.md")); len(m) != 0 {
		t.Fatalf("detail files in a plain directory: %v", m)
	}
}

// TestWatcherFollowsNewMemoryDirectory: a project directory without a
// memory directory is watched until Claude Code creates one; the files in
// it are read. A hook record that lands after the agent saw the change
// still makes it the model's.
func TestWatcherFollowsNewMemoryDirectory(t *testing.T) {
	e := newEnv(t, nil)
	root := e.project("late")
	dir := filepath.Dir(e.projectFile(root))
	keyDir := filepath.Dir(dir)
	if err := os.MkdirAll(keyDir, 0o700); err != nil {
		t.Fatal(err)
	}
	e.db.AddEpisode(e.ctx, &store.Episode{ProjectPath: root, Content: "hello", Kind: store.EpisodeNote})
	// The hook has run before (the log exists), so a change waits for it.
	e.hookRecord(`{"tool_name":"Write","cwd":"/","tool_input":{"file_path":"/elsewhere/x.md"}}`)
	w, events := e.watch()
	waitWatching(t, w, keyDir)

	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(dir, "project_ci.md")
	e.write(note, "---\nname: CI\ndescription: The project deploys to Fly.io\nmetadata:\n  type: project\n---\n")
	time.Sleep(300 * time.Millisecond) // the hook is late: the agent sees the file first
	e.hookRecord(`{"tool_name":"Write","cwd":"/","tool_input":{"file_path":"` + note + `"}}`)
	ev := waitEvent(t, events, note, "the new directory's file", func(ev SyncEvent) bool { return ev.Note && ev.NoteStats.Files == 1 })
	if ev.NoteStats.Model != 1 || ev.NoteStats.Claims != 1 {
		t.Fatalf("note stats = %+v, want the model's file with one claim", ev.NoteStats)
	}
	if !slices.Contains(w.fsw.WatchList(), dir) {
		t.Fatalf("memory directory not watched: %v", w.fsw.WatchList())
	}

	// A person deletes it (no record): user evidence against, not weak.
	fly := e.beliefByStatement("Project deploys to Fly.io")
	if err := os.Remove(note); err != nil {
		t.Fatal(err)
	}
	ev = waitEvent(t, events, note, "the person's deletion", func(ev SyncEvent) bool { return ev.Note && ev.NoteStats.Deleted == 1 })
	if ev.NoteStats.Person != 1 {
		t.Fatalf("note stats = %+v, want a person's deletion", ev.NoteStats)
	}
	against := e.evidenceBySource(fly.ID, SourcePersonMemory)
	if len(against) != 1 || against[0].Support != -1 || against[0].Reliability != e.cfg.Memory.PersonReliability {
		t.Fatalf("evidence against = %+v", against)
	}
}

// TestWatcherReadsFilesChangedWhileStopped: files written while no agent
// ran are read when the watcher starts, as the model's; a file read before
// and deleted meanwhile weighs against its claims.
func TestWatcherReadsFilesChangedWhileStopped(t *testing.T) {
	e := newEnv(t, nil)
	root, dir := e.memoryDir("offline")
	e.db.AddEpisode(e.ctx, &store.Episode{ProjectPath: root, Content: "hello", Kind: store.EpisodeNote})
	gone := filepath.Join(dir, "old.md")
	e.write(gone, "---\nname: old\ndescription: The project deploys to Heroku\nmetadata:\n  type: project\n---\n")
	if _, err := e.p.IngestNote(e.ctx, gone, AuthorPerson); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.md")
	e.write(fresh, "---\nname: new\ndescription: The project deploys to Fly.io\nmetadata:\n  type: project\n---\n")
	_, events := e.watch()
	ev := waitEvent(t, events, fresh, "the file written meanwhile", func(ev SyncEvent) bool { return ev.Note })
	if ev.NoteStats.Files != 1 || ev.NoteStats.Model != 1 {
		t.Fatalf("note stats = %+v, want the model's file", ev.NoteStats)
	}
	ev = waitEvent(t, events, gone, "the file deleted meanwhile", func(ev SyncEvent) bool { return ev.Note })
	if ev.NoteStats.Deleted != 1 || ev.NoteStats.Weakened != 1 {
		t.Fatalf("note stats = %+v, want the deletion weakening one belief", ev.NoteStats)
	}
}
