package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
)

// seedBelief creates a belief with the given number of supporting pieces of
// evidence and returns its ID.
func seedBelief(t *testing.T, db *store.DB, spec belief.Spec, supports int) string {
	t.Helper()
	ctx := context.Background()
	var id string
	err := db.Write(ctx, func(tx *store.Tx) error {
		var err error
		if id, err = tx.CreateBelief(ctx, spec); err != nil {
			return err
		}
		for i := 0; i < supports; i++ {
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: "test", Label: belief.Supports, Support: 1, Reliability: 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPromptRecallFlow(t *testing.T) { bothModes(t, testPromptRecallFlow) }

func testPromptRecallFlow(t *testing.T, e *hookEnv) {
	db := e.db()
	pnpm := seedBelief(t, db, belief.Spec{Statement: "The project uses pnpm as its package manager", Subject: "project",
		Predicate: "uses_package_manager", Object: "pnpm", Kind: belief.KindFact, Scope: belief.ScopeProject, ProjectPath: e.project}, 6)
	seedBelief(t, db, belief.Spec{Statement: "Run the linter before committing any change", Subject: "assistant",
		Predicate: "should", Object: "run the linter", Kind: belief.KindGuideline, Scope: belief.ScopeGlobal}, 4)
	other := seedBelief(t, db, belief.Spec{Statement: "The project uses yarn as its package manager", Subject: "project",
		Predicate: "uses_package_manager", Object: "yarn", Kind: belief.KindFact, Scope: belief.ScopeProject, ProjectPath: "/elsewhere"}, 6)

	tests := []struct {
		name     string
		prompt   string
		want     []string
		dontWant []string
	}{
		{"a related prompt gets its beliefs", "which package manager should I use to install dependencies here?",
			[]string{recall.HeadingFacts, "[Belief 0.", "The project uses pnpm", "sources)"},
			[]string{"yarn", "should I use to install dependencies here? ("}},
		{"a guideline is its own section", "remind me what to run before committing, the linter?",
			[]string{recall.HeadingGuidelines, "Run the linter before committing"}, nil},
		{"an unrelated prompt gets nothing", "write a haiku about autumn leaves", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": tc.prompt}))
			ctx := checkOutput(t, EventUserPromptSubmit, r)
			if tc.want == nil && ctx != "" {
				t.Fatalf("context for an unrelated prompt:\n%s", ctx)
			}
			for _, w := range tc.want {
				if !strings.Contains(ctx, w) {
					t.Errorf("context lacks %q:\n%s", w, ctx)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(ctx, w) {
					t.Errorf("context has %q:\n%s", w, ctx)
				}
			}
			if len(ctx) > 2000 {
				t.Errorf("context of %d chars, want at most the 2000 budget", len(ctx))
			}
		})
	}
	ctx := context.Background()
	if b, err := db.Belief(ctx, pnpm); err != nil || b.LastAccessedAt == 0 {
		t.Errorf("surfaced belief LastAccessedAt=%d, %v; want set", b.LastAccessedAt, err)
	}
	if b, err := db.Belief(ctx, other); err != nil || b.LastAccessedAt != 0 {
		t.Errorf("other project's belief LastAccessedAt=%d, %v; want untouched", b.LastAccessedAt, err)
	}
	if turn, err := db.CurrentTurn(ctx); err != nil || turn != int64(len(tests)) {
		t.Errorf("CurrentTurn()=%d, %v; want %d", turn, err, len(tests))
	}
}

func TestPromptStoredRedacted(t *testing.T) { bothModes(t, testPromptStoredRedacted) }

func testPromptStoredRedacted(t *testing.T, e *hookEnv) {
	secret := "sk-proj-" + strings.Repeat("aB3dE5fG7h", 5)
	r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": "use this key " + secret + " for the api"}))
	checkOutput(t, EventUserPromptSubmit, r)
	prompts := e.episodes(store.EpisodePrompt)
	if len(prompts) != 1 || strings.Contains(prompts[0], secret) || !strings.Contains(prompts[0], "[REDACTED") {
		t.Errorf("stored prompts %q, want one with the key redacted", prompts)
	}
	if strings.Contains(e.log(), secret) {
		t.Error("the key reached hook.log")
	}
}

// TestExchangeStoredOnce runs a session's hooks in order and checks that
// Stop, SessionEnd and PreCompact together store each exchange exactly once,
// whichever sees it first, with the transcript offset moving forward.
func TestExchangeStoredOnce(t *testing.T) { bothModes(t, testExchangeStoredOnce) }

func testExchangeStoredOnce(t *testing.T, e *hookEnv) {
	secret := "ghp_" + strings.Repeat("x1Y2z3", 6)
	turns := []synth.Turn{
		{Prompt: "set up the ci workflow", Reply: "Added .github/workflows/ci.yml.", Command: "ls .github", Output: "workflows"},
		{Prompt: "push with token " + secret + " please", Reply: "Pushed the branch."},
		{Prompt: "set up the ci workflow", Reply: "It was already set up; nothing to do."},
	}
	transcriptPath := filepath.Join(e.home, "transcript.jsonl")
	write := func(n int) {
		f, err := os.Create(transcriptPath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := synth.WriteTranscript(f, "s1", e.project, time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC), turns[:n]); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name      string
		event     string
		turns     int // transcript length before the event
		fields    map[string]any
		exchanges int
	}{
		{"prompt 1", EventUserPromptSubmit, 0, map[string]any{"prompt": turns[0].Prompt}, 0},
		{"stop 1", EventStop, 1, map[string]any{"last_assistant_message": turns[0].Reply}, 1},
		{"prompt 2 with a secret", EventUserPromptSubmit, 1, map[string]any{"prompt": turns[1].Prompt}, 1},
		{"stop 2", EventStop, 2, map[string]any{"last_assistant_message": turns[1].Reply}, 2},
		{"pre-compact sees nothing new", EventPreCompact, 2, map[string]any{"trigger": "auto"}, 2},
		{"repeated prompt 3", EventUserPromptSubmit, 2, map[string]any{"prompt": turns[2].Prompt}, 2},
		{"session end before stop 3", EventSessionEnd, 3, map[string]any{"reason": "exit"}, 3},
		{"late stop 3 is a duplicate", EventStop, 3, map[string]any{"last_assistant_message": turns[2].Reply}, 3},
		{"session end again", EventSessionEnd, 3, map[string]any{"reason": "exit"}, 3},
	}
	for _, st := range steps {
		write(st.turns)
		r := e.run(st.event, e.input(st.event, st.fields))
		checkOutput(t, st.event, r)
		got := e.episodes(store.EpisodeExchange)
		if len(got) != st.exchanges {
			t.Fatalf("after %s: %d exchanges stored, want %d: %q\nlog:\n%s", st.name, len(got), st.exchanges, got, e.log())
		}
		for _, x := range got {
			if strings.Contains(x, secret) {
				t.Fatalf("after %s: the token was stored: %q", st.name, x)
			}
		}
	}
	sess, err := e.db().Session(context.Background(), "s1")
	fi, _ := os.Stat(transcriptPath)
	if err != nil || sess.TranscriptOffset != fi.Size() || sess.EndedAt == 0 {
		t.Errorf("session %+v, %v; want offset %d and ended", sess, err, fi.Size())
	}
}

// TestFlushKeepsTornTail flushes a transcript whose last line is being
// written: the complete exchanges are stored, the torn one is not, and the
// offset stops before it.
func TestFlushKeepsTornTail(t *testing.T) { bothModes(t, testFlushKeepsTornTail) }

func testFlushKeepsTornTail(t *testing.T, e *hookEnv) {
	path := filepath.Join(e.home, "transcript.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	turns := []synth.Turn{{Prompt: "first question", Reply: "first answer"}, {Prompt: "second question", Reply: "second answer"}}
	if err := synth.WriteTranscript(f, "s1", e.project, time.Now(), turns); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, _ := os.ReadFile(path)
	torn := b[:len(b)-40] // cut inside the last assistant line
	if err := os.WriteFile(path, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.run(EventPreCompact, e.input(EventPreCompact, map[string]any{"trigger": "manual"}))
	checkOutput(t, EventPreCompact, r)
	got := e.episodes(store.EpisodeExchange)
	if len(got) != 1 || !strings.Contains(got[0], "first answer") {
		t.Fatalf("stored %q, want only the first exchange", got)
	}
	wantLog(t, e.log(), "flushed transcript")
	sess, err := e.db().Session(context.Background(), "s1")
	if err != nil || sess.TranscriptOffset <= 0 || sess.TranscriptOffset >= int64(len(torn)) {
		t.Errorf("offset %d, %v; want inside the file, before the torn turn", sess.TranscriptOffset, err)
	}
}

func TestSessionStartDigest(t *testing.T) { bothModes(t, testSessionStartDigest) }

func testSessionStartDigest(t *testing.T, e *hookEnv) {
	start := func(session string) string {
		r := e.run(EventSessionStart, e.input(EventSessionStart, map[string]any{"session_id": session, "source": "startup"}))
		return checkOutput(t, EventSessionStart, r)
	}
	if got := start("s0"); got != "" {
		t.Fatalf("digest of an empty memory:\n%s", got)
	}
	db := e.db()
	time.Sleep(5 * time.Millisecond) // the beliefs below come after session s0
	spec := belief.Spec{Statement: "The project uses pnpm", Subject: "project", Predicate: "uses_package_manager", Object: "pnpm",
		Kind: belief.KindFact, Scope: belief.ScopeProject, ProjectPath: e.project}
	seedBelief(t, db, spec, 3)
	spec.Statement, spec.Object = "The project uses bun", "bun"
	seedBelief(t, db, spec, 3)
	seedBelief(t, db, belief.Spec{Statement: "The user writes Go", Subject: "user", Predicate: "uses_language", Object: "go",
		Kind: belief.KindFact, Scope: belief.ScopeGlobal}, 5)
	got := start("s1")
	for _, w := range []string{DigestHeading, "Contested", "The project uses pnpm", "The project uses bun", "New [Belief", "The user writes Go"} {
		if !strings.Contains(got, w) {
			t.Errorf("digest lacks %q:\n%s", w, got)
		}
	}
	// A new value its slot's stronger member outweighs is not announced
	// as new: recall gives the stronger one, and so does the digest.
	time.Sleep(5 * time.Millisecond)
	home := belief.Spec{Statement: "The user lives in Berlin", Subject: "user", Predicate: "lives_in", Object: "berlin",
		Kind: belief.KindFact, Scope: belief.ScopeGlobal}
	seedBelief(t, db, home, 12)
	home.Statement, home.Object = "The user lives in Lisbon", "lisbon"
	seedBelief(t, db, home, 1)
	got = start("s2")
	var berlin bool
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "- New") && strings.Contains(line, "Lisbon") {
			t.Errorf("the digest announces the outweighed value as new: %q\n%s", line, got)
		}
		berlin = berlin || strings.HasPrefix(line, "- New") && strings.Contains(line, "Berlin")
	}
	if !berlin {
		t.Errorf("the digest does not announce the slot's value:\n%s", got)
	}
}

// TestBashCommandsStoredRedacted checks that the commands Claude ran, which
// are stored in each exchange's tool summary, go through the same redaction
// as prompts: credentials given on a command line never reach the database,
// even when the summary cuts a long command short right inside one.
func TestBashCommandsStoredRedacted(t *testing.T) { bothModes(t, testBashCommandsStoredRedacted) }

func testBashCommandsStoredRedacted(t *testing.T, e *hookEnv) {
	long := "cd /srv/app && ./scripts/migrate.sh --env production --verbose && " +
		"mysql -h db.internal -uroot -pMyS9lRootPw app_production < schema.sql"
	// The summary keeps 120 bytes: the cut falls 15 bytes into the key,
	// too short for the key's pattern.
	key := "sk-proj-aZN0dnruqXa71P2tD8vkQXRYO1NiJ7brD03q2YBV"
	cut := "echo deploying the release to every region right now! && python3 tools/smoke_test.py --model gpt-4o-mini " + key
	if i := strings.Index(cut, key); i+15 != 120 {
		t.Fatalf("the key starts at %d, want 105", i)
	}
	turns := []synth.Turn{
		{Prompt: "check the ci api", Reply: "It answers.", Command: "curl -sS -u deploy:Curl5ecretPw https://ci.example.com/api/json", Output: "{}"},
		{Prompt: "copy the build", Reply: "Copied.", Command: "sshpass -p Ssh9assword \\\n  scp build.tar.gz deploy@10.0.0.5:/srv", Output: ""},
		{Prompt: "migrate", Reply: "Migrated.", Command: long, Output: "ok"},
		{Prompt: "deploy", Reply: "Deployed.", Command: cut, Output: "ok"},
	}
	secrets := []string{"Curl5ecretPw", "Ssh9assword", "MyS9lRootPw", key[:12]}
	transcriptPath := filepath.Join(e.home, "transcript.jsonl")
	f, err := os.Create(transcriptPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteTranscript(f, "s1", e.project, time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC), turns); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	checkOutput(t, EventSessionEnd, e.run(EventSessionEnd, e.input(EventSessionEnd, map[string]any{"reason": "exit"})))
	got := e.episodes(store.EpisodeExchange)
	if len(got) != len(turns) {
		t.Fatalf("%d exchanges stored, want %d\nlog:\n%s", len(got), len(turns), e.log())
	}
	all := strings.Join(got, "\n")
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("%q was stored:\n%s", s, all)
		}
	}
	for _, want := range []string{"Bash curl -sS -u deploy:[REDACTED", "Bash sshpass -p [REDACTED"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the stored exchanges:\n%s", want, all)
		}
	}
}
