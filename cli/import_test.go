package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/internal/testkit"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// writeTranscript writes a Claude Code transcript of prompt/reply pairs in
// the JSONL shape Claude Code uses.
func writeTranscript(t *testing.T, path, session, cwd string, turns [][2]string) {
	t.Helper()
	var b strings.Builder
	at := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	parent := any(nil)
	for i, turn := range turns {
		userID, asstID := fmt.Sprintf("u-%s-%d", session, i), fmt.Sprintf("a-%s-%d", session, i)
		lines := []map[string]any{
			{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": session,
				"version": "2.0.14", "type": "user", "message": map[string]any{"role": "user", "content": turn[0]},
				"uuid": userID, "timestamp": at.Format(time.RFC3339Nano)},
			{"parentUuid": userID, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": session,
				"version": "2.0.14", "type": "assistant", "message": map[string]any{"id": "msg_" + asstID, "type": "message",
					"role": "assistant", "model": "claude-sonnet-4-5", "content": []map[string]any{{"type": "text", "text": turn[1]}},
					"stop_reason": "end_turn"}, "uuid": asstID, "timestamp": at.Add(time.Second).Format(time.RFC3339Nano)},
		}
		for _, l := range lines {
			data, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		parent = asstID
		at = at.Add(time.Minute)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestImport(t *testing.T) {
	h := newCmdHarness(t)
	projects := filepath.Join(h.home, ".claude", "projects")
	secret := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)
	writeTranscript(t, filepath.Join(projects, "-work-app", "s1.jsonl"), "s1", "/work/app", [][2]string{
		{"we use pnpm as the package manager", "Got it, pnpm it is."},
		{"my token is " + secret + " keep it safe", "I will not store tokens."},
	})
	writeTranscript(t, filepath.Join(projects, "-work-api", "s2.jsonl"), "s2", "/work/api", [][2]string{
		{"always run go vet before committing", "Will do."},
	})
	// A subagent sidechain directory is not a session of its own.
	writeTranscript(t, filepath.Join(projects, "-work-api", "s2", "subagents", "x.jsonl"), "s2x", "/work/api", [][2]string{
		{"subagent prompt", "subagent reply"},
	})
	// The hook already stored the first exchange of s2.
	if _, err := h.db().AddEpisode(t.Context(), &store.Episode{SessionID: "s2", Kind: store.EpisodeExchange,
		Content:  "User: always run go vet before committing\n\nAssistant: Will do.",
		DedupKey: transcript.KeyFor("s2", "always run go vet before committing")}); err != nil {
		t.Fatal(err)
	}

	var rep importReport
	h.json(&rep, "import")
	want := importReport{Transcripts: 2, Exchanges: 3, Imported: 2, Known: 1, Redacted: 1}
	if fmt.Sprint(rep) != fmt.Sprint(want) {
		t.Errorf("first import = %+v, want %+v", rep, want)
	}
	h.json(&rep, "import")
	want = importReport{Transcripts: 2, Exchanges: 3, Imported: 0, Known: 3}
	if fmt.Sprint(rep) != fmt.Sprint(want) {
		t.Errorf("second import = %+v, want %+v (nothing stored twice)", rep, want)
	}
	eps, err := h.db().EpisodesAfter(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var imported []store.Episode
	for _, e := range eps {
		if e.Kind == store.EpisodeImport {
			imported = append(imported, e)
		}
	}
	if len(imported) != 2 || imported[0].ProjectPath != "/work/app" || imported[0].CreatedAt.Year() != 2025 {
		t.Fatalf("imported = %+v, want two /work/app episodes dated from the transcript", imported)
	}
	h.db().Checkpoint(t.Context())
	dataDir := h.config().Paths.DataDir
	if hits := testkit.FilesContaining(t, dataDir, secret); len(hits) > 0 {
		t.Errorf("the pasted token reached the data directory: %v", hits)
	}
}

func TestImportNoTranscripts(t *testing.T) {
	h := newCmdHarness(t)
	out := h.ok("import")
	if !strings.Contains(out, "read 0 transcripts") {
		t.Errorf("import without ~/.claude/projects: %q", out)
	}
}

// TestImportOneOfEach: a single transcript with a single exchange is
// counted in the singular.
func TestImportOneOfEach(t *testing.T) {
	h := newCmdHarness(t)
	writeTranscript(t, filepath.Join(h.home, ".claude", "projects", "-work-app", "s1.jsonl"), "s1", "/work/app",
		[][2]string{{"we use pnpm as the package manager", "Got it, pnpm it is."}})
	out := h.ok("import")
	if !strings.Contains(out, "read 1 transcript under ") || !strings.Contains(out, ": 1 exchange, 1 imported") {
		t.Errorf("import of one exchange printed %q; want \"1 transcript\" and \"1 exchange\"", out)
	}
}

// TestImportReadsMemoryFiles: import backfills Claude Code's memory files
// of a project its transcripts name, as the model's (assistant) evidence,
// and a second import reads nothing again.
func TestImportReadsMemoryFiles(t *testing.T) {
	h := newCmdHarness(t)
	root := filepath.Join(h.home, "work", "app")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	keyDir := filepath.Join(h.home, ".claude", "projects", strings.ReplaceAll(root, "/", "-"))
	writeTranscript(t, filepath.Join(keyDir, "s1.jsonl"), "s1", root, [][2]string{{"hello", "hi"}})
	mem := filepath.Join(keyDir, "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		t.Fatal(err)
	}
	note := "---\nname: Deploys\ndescription: The project deploys to Fly.io\nmetadata:\n  type: project\n---\nbody\n"
	if err := os.WriteFile(filepath.Join(mem, "project_deploy.md"), []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.run("import", "--json")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	var rep importReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.MemoryFiles != 1 || rep.MemoryClaims != 1 {
		t.Fatalf("report = %+v, want 1 memory file with 1 claim", rep)
	}
	db := h.db()
	ctx := context.Background()
	rec, err := db.MemoryFile(ctx, filepath.Join(mem, "project_deploy.md"))
	if err != nil || rec.Author != "model" || rec.Type != "project" {
		t.Fatalf("record = %+v, %v", rec, err)
	}
	for _, id := range rec.Claims {
		b, err := db.Belief(ctx, id)
		if err != nil || b.ProjectPath != root || b.Statement != "Project deploys to Fly.io" {
			t.Fatalf("belief = %+v, %v", b, err)
		}
	}
	db.Close()
	if code, out, _ = h.run("import", "--json"); code != 0 || !strings.Contains(out, `"memory_files": 0`) || !strings.Contains(out, `"memory_files_known": 1`) {
		t.Fatalf("second import: exit %d\n%s", code, out)
	}
}
