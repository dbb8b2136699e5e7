package hooks

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

// spooled returns the records waiting in the HOME's spool.
func (e *hookEnv) spooled() []string {
	e.t.Helper()
	names, err := spooledNames(spoolDir(filepath.Dir(e.dbPath())))
	if err != nil {
		e.t.Fatal(err)
	}
	return names
}

// waitDrained waits for the agent's drain loop to empty the spool.
func (e *hookEnv) waitDrained() {
	e.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(e.spooled()) == 0 {
			return
		}
	}
	e.t.Fatalf("the spool still holds %q\nlog:\n%s", e.spooled(), e.log())
}

// writeTurns writes a transcript of session s1 holding turns.
func (e *hookEnv) writeTurns(turns []synth.Turn) string {
	e.t.Helper()
	path := filepath.Join(e.home, "transcript.jsonl")
	f, err := os.Create(path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	if err := synth.WriteTranscript(f, "s1", e.project, time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC), turns); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// TestLockedPromptIsSpooled holds the write lock in another connection
// while a prompt arrives and a Stop follows: neither can be stored then,
// both wait in the spool, and once the lock is released they are stored,
// once each, the exchange with its own prompt.
func TestLockedPromptIsSpooled(t *testing.T) { bothModes(t, testLockedPromptIsSpooled) }

func testLockedPromptIsSpooled(t *testing.T, e *hookEnv) {
	db := e.db()
	ctx := context.Background()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	turns := []synth.Turn{{Prompt: "we deploy with fly.io", Reply: "Noted: fly.io."}}
	checkOutput(t, EventUserPromptSubmit, e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": turns[0].Prompt})))
	e.writeTurns(turns)
	checkOutput(t, EventStop, e.run(EventStop, e.input(EventStop, map[string]any{"last_assistant_message": turns[0].Reply})))
	if n, err := db.CountEpisodes(ctx); err != nil || n != 0 {
		t.Errorf("CountEpisodes() under the lock = %d, %v; want 0 (nothing half stored)", n, err)
	}
	if got := e.spooled(); len(got) != 2 {
		t.Fatalf("spool holds %q, want the prompt and the Stop\nlog:\n%s", got, e.log())
	}
	wantLog(t, e.log(), "database is locked")
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if e.srv != nil {
		e.waitDrained()
	} else {
		// The next hook run stores what waits, before its own event.
		checkOutput(t, EventSessionStart, e.run(EventSessionStart, e.input(EventSessionStart, map[string]any{"source": "resume"})))
	}
	if got := e.spooled(); len(got) != 0 {
		t.Errorf("spool still holds %q", got)
	}
	if got := e.episodes(store.EpisodePrompt); len(got) != 1 || got[0] != turns[0].Prompt {
		t.Errorf("prompts stored %q, want the one prompt once", got)
	}
	want := "User: " + turns[0].Prompt + "\n\nAssistant: " + turns[0].Reply
	if got := e.episodes(store.EpisodeExchange); len(got) != 1 || got[0] != want {
		t.Errorf("exchanges stored %q, want %q once", got, want)
	}
}

// TestStopFollowsTheTranscript: the newest prompt never reached the
// database (its hook failed), so the stored last prompt is the turn
// before. The Stop's reply belongs to the prompt the transcript shows,
// and the older turn's exchange keeps its own key.
func TestStopFollowsTheTranscript(t *testing.T) { bothModes(t, testStopFollowsTheTranscript) }

func testStopFollowsTheTranscript(t *testing.T, e *hookEnv) {
	turns := []synth.Turn{
		{Prompt: "which port does the api use", Reply: "Port 8443."},
		{Prompt: "and the admin panel", Reply: "Port 9000."},
	}
	checkOutput(t, EventUserPromptSubmit, e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{"prompt": turns[0].Prompt})))
	e.writeTurns(turns[:1])
	checkOutput(t, EventStop, e.run(EventStop, e.input(EventStop, map[string]any{"last_assistant_message": turns[0].Reply})))
	// Turn 2's UserPromptSubmit never stored anything.
	e.writeTurns(turns)
	checkOutput(t, EventStop, e.run(EventStop, e.input(EventStop, map[string]any{"last_assistant_message": turns[1].Reply})))
	got := e.episodes(store.EpisodeExchange)
	want := []string{
		"User: " + turns[0].Prompt + "\n\nAssistant: " + turns[0].Reply,
		"User: " + turns[1].Prompt + "\n\nAssistant: " + turns[1].Reply,
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("exchanges %q, want %q\nlog:\n%s", got, want, e.log())
	}
}

// TestSlowStdinPromptIsStored pipes a prompt in two parts 700 ms apart,
// past the old 500 ms stdin wait but within the budget: it is stored.
func TestSlowStdinPromptIsStored(t *testing.T) { bothModes(t, testSlowStdinPromptIsStored) }

func testSlowStdinPromptIsStored(t *testing.T, e *hookEnv) {
	in := e.input(EventUserPromptSubmit, map[string]any{"prompt": "the staging database is called ledger-stg"})
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		defer pw.Close()
		pw.Write(in[:10])
		time.Sleep(700 * time.Millisecond)
		pw.Write(in[10:])
	}()
	checkOutput(t, EventUserPromptSubmit, e.runReader(EventUserPromptSubmit, pr))
	if e.srv != nil {
		e.waitDrained()
	}
	if got := e.episodes(store.EpisodePrompt); len(got) != 1 {
		t.Errorf("prompts stored %q, want 1\nlog:\n%s", got, e.log())
	}
}

// TestFirstHooksOnNewDatabase starts eight sessions' first prompts at once
// on a HOME with no database yet: one process migrates, the others wait
// for it, and every prompt is stored (at worst after a wait in the spool).
func TestFirstHooksOnNewDatabase(t *testing.T) {
	e := newHookEnv(t)
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit, map[string]any{
				"session_id": fmt.Sprintf("s%d", i), "prompt": fmt.Sprintf("first prompt of session %d", i)}))
			checkOutput(t, EventUserPromptSubmit, r)
		}()
	}
	wg.Wait()
	if strings.Contains(e.log(), "apply migration") {
		t.Errorf("a first hook failed to migrate:\n%s", e.log())
	}
	// Whatever went to the spool is stored by the next hook.
	checkOutput(t, EventSessionStart, e.run(EventSessionStart, e.input(EventSessionStart, map[string]any{"session_id": "s-next"})))
	if got := e.episodes(store.EpisodePrompt); len(got) != n {
		t.Errorf("%d prompts stored, want %d: %q\nlog:\n%s", len(got), n, got, e.log())
	}
}

// unitHandler is a handler for one event on the database of a HOME, as
// `credence hook` builds it, for tests of the write path itself.
func unitHandler(t *testing.T, e *hookEnv, event string) *handler {
	t.Helper()
	return &handler{cfg: e.config(), log: slog.New(slog.NewTextHandler(io.Discard, nil)), out: &gate{w: io.Discard},
		now: time.Now, event: event, deadline: time.Now().Add(time.Minute)}
}

// TestLateStopReadsItsOwnTurn: a Stop handled after the next prompt was
// written to the transcript (the agent stores after it replies) still
// pairs its reply with its own turn's prompt.
func TestLateStopReadsItsOwnTurn(t *testing.T) {
	e := newHookEnv(t)
	db := e.db()
	ctx := context.Background()
	turns := []synth.Turn{{Prompt: "add a health endpoint", Reply: "Added /healthz."}, {Prompt: "now document it", Reply: "Documented."}}
	path := e.writeTurns(turns[:1])
	h := unitHandler(t, e, EventStop)
	rec := h.receive(Input{SessionID: "s1", Cwd: e.project, TranscriptPath: path, LastAssistantMessage: turns[0].Reply})
	e.writeTurns(turns) // the next turn lands before the Stop is stored
	if err := h.store(ctx, db, rec); err != nil {
		t.Fatal(err)
	}
	want := "User: " + turns[0].Prompt + "\n\nAssistant: " + turns[0].Reply
	if got := e.episodes(store.EpisodeExchange); len(got) != 1 || got[0] != want {
		t.Errorf("exchanges %q, want %q", got, want)
	}
}

// TestSpooledRecordsAreIdempotent applies a prompt record twice, as a
// hook's own write and its spooled copy both landing would: one episode,
// one turn.
func TestSpooledRecordsAreIdempotent(t *testing.T) {
	e := newHookEnv(t)
	db := e.db()
	ctx := context.Background()
	h := unitHandler(t, e, EventUserPromptSubmit)
	rec := h.receive(Input{SessionID: "s1", Cwd: e.project, Prompt: "we use pnpm"})
	turn0, err := db.CurrentTurn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := h.apply(ctx, db, rec); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.episodes(store.EpisodePrompt); len(got) != 1 {
		t.Errorf("prompts %q, want 1", got)
	}
	if turn, err := db.CurrentTurn(ctx); err != nil || turn != turn0+1 {
		t.Errorf("CurrentTurn()=%d, %v; want %d", turn, err, turn0+1)
	}
}

// TestSpoolKeepsSessionOrder: with a prompt waiting in the spool, the
// database still busy and no transcript to read, the session's Stop does
// not overtake the prompt (it would pair with the prompt before): it
// waits behind it, and once the lock is free both are stored in order
// and the reply pairs with its own prompt.
func TestSpoolKeepsSessionOrder(t *testing.T) {
	e := newHookEnv(t)
	db := e.db()
	ctx := context.Background()
	stored := unitHandler(t, e, EventUserPromptSubmit)
	if err := stored.store(ctx, db, stored.receive(Input{SessionID: "s1", Cwd: e.project, Prompt: "first question"})); err != nil {
		t.Fatal(err)
	}
	waiting := unitHandler(t, e, EventUserPromptSubmit)
	waiting.receive(Input{SessionID: "s1", Cwd: e.project, Prompt: "second question"})
	waiting.salvage(fmt.Errorf("test: the database was busy"))
	if got := e.spooled(); len(got) != 1 {
		t.Fatalf("spool %q, want the second prompt", got)
	}

	busy, err := store.Open(ctx, e.dbPath(), store.Options{BusyTimeout: 50 * time.Millisecond, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	stop := unitHandler(t, e, EventStop)
	if err := stop.store(ctx, busy, stop.receive(Input{SessionID: "s1", Cwd: e.project, LastAssistantMessage: "the second answer"})); err != nil {
		t.Fatal(err)
	}
	if got := e.spooled(); len(got) != 2 {
		t.Fatalf("spool %q, want the prompt and the Stop behind it", got)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	drain := unitHandler(t, e, EventSessionStart)
	if n := drain.drainSpool(ctx, db, 0); n != 2 {
		t.Fatalf("drained %d records, want 2", n)
	}
	want := "User: second question\n\nAssistant: the second answer"
	if got := e.episodes(store.EpisodeExchange); len(got) != 1 || got[0] != want {
		t.Errorf("exchanges %q, want %q", got, want)
	}
	key := transcript.KeyForOccurrence("s1", "second question", 1)
	if ok, err := db.HasDedupKey(ctx, key); err != nil || !ok {
		t.Errorf("HasDedupKey(second question's key)=%v, %v; want true", ok, err)
	}
}

// TestFreshFactRecalledAtOnce: what one session's prompt said is recalled
// by the next prompt of another session, with or without the agent, before
// any consolidation or vector exists (issue 13: the agent's cache hid it
// for 30 s).
func TestFreshFactRecalledAtOnce(t *testing.T) { bothModes(t, testFreshFactRecalledAtOnce) }

func testFreshFactRecalledAtOnce(t *testing.T, e *hookEnv) {
	// A first prompt that searches for the word warms the agent's cache
	// with "no episode holds it".
	checkOutput(t, EventUserPromptSubmit, e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit,
		map[string]any{"session_id": "s0", "prompt": "is there a zanzibarledger database?"})))
	checkOutput(t, EventUserPromptSubmit, e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit,
		map[string]any{"session_id": "s1", "prompt": "FYI the staging database is called zanzibarledger"})))
	ctx := checkOutput(t, EventUserPromptSubmit, e.run(EventUserPromptSubmit, e.input(EventUserPromptSubmit,
		map[string]any{"session_id": "s2", "prompt": "connect to zanzibarledger for me"})))
	if !strings.Contains(ctx, "staging database is called zanzibarledger") {
		t.Errorf("the next session was told %q; want the fact told a moment ago", ctx)
	}
}
