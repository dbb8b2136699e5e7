package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/store"
)

// Turn is one prompt of a scripted Claude Code session and the reply the
// assistant gives.
type Turn struct {
	Prompt string `json:"prompt"`
	Reply  string `json:"reply"`
}

// SessionScript is the scripted usage the session demo replays: sessions
// in one project, consolidated after each.
func SessionScript() [][]Turn {
	return [][]Turn{
		{
			{"We use pnpm as the package manager in this repo, not npm.", "Understood: I'll use pnpm for installs and scripts here."},
			{"Always run make lint before you commit.", "Will do: make lint first, then the commit."},
			{"I prefer tabs over spaces.", "Noted, tabs it is."},
		},
		{
			{"Reminder: we use pnpm as the package manager here.", "Yes, pnpm. I'll keep npm out of it."},
			{"Always run make lint before you commit, it catches the import cycles.", "Right, make lint before every commit."},
		},
		{
			{"We use pnpm as the package manager, so add dayjs with it.", "Added dayjs with pnpm add dayjs."},
			{"Always run make lint before you commit.", "Ran make lint: clean. Committing."},
			{"Should I use npm or pnpm to add papaparse for the CSV import?", "pnpm: this repo uses pnpm, so pnpm add papaparse."},
		},
	}
}

// SessionOptions say how to run the session demo.
type SessionOptions struct {
	// HookBinary is the credence-hook executable Claude Code would run.
	HookBinary string
	// Home is an empty directory used as HOME for the hooks, the database
	// and the MEMORY.md files, so nothing touches the real ones.
	Home string
	// Script is the sessions to replay; nil means SessionScript().
	Script [][]Turn
}

// SessionStep is one prompt and what Claude would be told with it.
type SessionStep struct {
	Session int    `json:"session"`
	Prompt  string `json:"prompt"`
	Context string `json:"context"`
}

// SessionCycle is what consolidating after a session did.
type SessionCycle struct {
	AfterSession int `json:"after_session"`
	Episodes     int `json:"episodes"`
	Created      int `json:"beliefs_created"`
	Reinforced   int `json:"reinforced"`
	Promoted     int `json:"promoted"`
}

// SessionBelief is a belief at the end of the demo.
type SessionBelief struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Kind       string  `json:"kind"`
	Scope      string  `json:"scope"`
	Confidence float64 `json:"confidence"`
	Evidence   int     `json:"evidence"`
	Promoted   bool    `json:"promoted"`
}

// SessionResult is what the session demo shows.
type SessionResult struct {
	Project       string          `json:"project"`
	Steps         []SessionStep   `json:"steps"`
	Cycles        []SessionCycle  `json:"cycles"`
	Beliefs       []SessionBelief `json:"beliefs"`
	ProjectMemory string          `json:"project_memory_section"`
	ProjectPath   string          `json:"project_memory_path"`
	GlobalMemory  string          `json:"global_memory_section"`
	GlobalPath    string          `json:"global_memory_path"`
}

// RunSession replays the script through the real hook binary, as Claude
// Code runs it (one process per event, its JSON on stdin, a transcript file
// growing beside), consolidates offline after each session and promotes
// the strongest beliefs into MEMORY.md, all under opts.Home.
func RunSession(ctx context.Context, opts SessionOptions) (SessionResult, error) {
	if opts.Script == nil {
		opts.Script = SessionScript()
	}
	project := filepath.Join(opts.Home, "code", "shop")
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o700); err != nil {
		return SessionResult{}, fmt.Errorf("session demo: %w", err)
	}
	cfg, err := app.LoadConfig(app.Options{Home: opts.Home, Env: config.EnvMap(map[string]string{"HOME": opts.Home})})
	if err != nil {
		return SessionResult{}, fmt.Errorf("session demo: %w", err)
	}
	r := &sessionRun{opts: opts, cfg: cfg, project: project, res: SessionResult{Project: project}}
	for i, session := range opts.Script {
		if err := r.replay(ctx, i+1, session); err != nil {
			return r.res, err
		}
		if err := r.consolidate(ctx, i+1); err != nil {
			return r.res, err
		}
	}
	return r.res, r.finish(ctx)
}

// sessionRun is one replay in progress.
type sessionRun struct {
	opts    SessionOptions
	cfg     *config.Config
	project string
	res     SessionResult
	clock   time.Time
}

// replay runs one session: SessionStart, then per turn UserPromptSubmit
// (whose output is what Claude is told) and Stop after the reply reaches
// the transcript, then SessionEnd.
func (r *sessionRun) replay(ctx context.Context, n int, turns []Turn) error {
	id := fmt.Sprintf("demo-session-%d", n)
	tr := &transcriptWriter{path: filepath.Join(r.cfg.Paths.ClaudeProjects, markdown.ProjectKey(r.project), id+".jsonl"),
		session: id, cwd: r.project, at: time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(n) * 24 * time.Hour)}
	base := map[string]any{"session_id": id, "transcript_path": tr.path, "cwd": r.project}
	if _, err := r.hook(ctx, "SessionStart", base, map[string]any{"source": "startup"}); err != nil {
		return err
	}
	for _, t := range turns {
		if err := tr.user(t.Prompt); err != nil {
			return err
		}
		out, err := r.hook(ctx, "UserPromptSubmit", base, map[string]any{"prompt": t.Prompt, "permission_mode": "default"})
		if err != nil {
			return err
		}
		r.res.Steps = append(r.res.Steps, SessionStep{Session: n, Prompt: t.Prompt, Context: out})
		if err := tr.assistant(t.Reply); err != nil {
			return err
		}
		if _, err := r.hook(ctx, "Stop", base, map[string]any{"last_assistant_message": t.Reply, "stop_hook_active": false}); err != nil {
			return err
		}
	}
	_, err := r.hook(ctx, "SessionEnd", base, map[string]any{"reason": "prompt_input_exit"})
	return err
}

// hook runs credence-hook for event with Claude Code's stdin shape and
// returns the additionalContext it printed, if any.
func (r *sessionRun) hook(ctx context.Context, event string, base, fields map[string]any) (string, error) {
	in := map[string]any{"hook_event_name": event}
	for k, v := range base {
		in[k] = v
	}
	for k, v := range fields {
		in[k] = v
	}
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, r.opts.HookBinary, event)
	cmd.Dir = r.project
	cmd.Env = isolatedEnv(r.opts.Home)
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("credence-hook %s: %w: %s", event, err, strings.TrimSpace(stderr.String()))
	}
	if stdout.Len() == 0 {
		return "", nil
	}
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return "", fmt.Errorf("credence-hook %s printed %q: %w", event, stdout.String(), err)
	}
	return out.HookSpecificOutput.AdditionalContext, nil
}

// isolatedEnv is the environment of a hook in the demo: the demo's HOME and
// nothing that could point credence at the real configuration or an API.
func isolatedEnv(home string) []string {
	env := []string{"HOME=" + home}
	for _, k := range []string{"PATH", "TMPDIR", "LANG", "LC_ALL"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// consolidate runs one offline consolidation cycle and a promotion pass,
// as the agent does after a session.
func (r *sessionRun) consolidate(ctx context.Context, n int) error {
	db, err := app.OpenStore(ctx, r.cfg, 10*time.Second)
	if err != nil {
		return fmt.Errorf("session demo: %w", err)
	}
	defer db.Close()
	emb, err := app.NewEmbedder(r.cfg)
	if err != nil {
		return err
	}
	c, err := consolidate.New(consolidate.Options{DB: db, Embedder: emb, Thresholds: app.Thresholds(r.cfg, emb.ID())})
	if err != nil {
		return err
	}
	st, err := c.Run(ctx, "demo")
	if err != nil {
		return fmt.Errorf("consolidate after session %d: %w", n, err)
	}
	pst, err := promote.New(db, r.cfg, promote.Options{}).Promote(ctx)
	if err != nil {
		return fmt.Errorf("promote after session %d: %w", n, err)
	}
	r.res.Cycles = append(r.res.Cycles, SessionCycle{AfterSession: n, Episodes: st.Episodes, Created: st.BeliefsCreated,
		Reinforced: st.Reinforced, Promoted: pst.Promoted})
	return nil
}

// finish reads the beliefs and the MEMORY.md sections the demo produced.
func (r *sessionRun) finish(ctx context.Context) error {
	db, err := app.OpenStore(ctx, r.cfg, 10*time.Second)
	if err != nil {
		return err
	}
	defer db.Close()
	bs, err := db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}})
	if err != nil {
		return err
	}
	turn, err := db.CurrentTurn(ctx)
	if err != nil {
		return err
	}
	for _, b := range bs {
		r.res.Beliefs = append(r.res.Beliefs, SessionBelief{ID: b.ID, Statement: b.Statement, Kind: b.Kind, Scope: b.Scope,
			Confidence: b.Confidence(db.Params(), db.Now(), turn), Evidence: b.EvidenceCount, Promoted: b.PromotedAt != 0})
	}
	r.res.ProjectPath = markdown.ClaudeProjectMemoryPath(r.cfg.Paths.ClaudeProjects, r.cfg.Paths.Home, r.project, r.cfg.Memory.AutoMemoryDirectory)
	r.res.GlobalPath = r.cfg.Paths.GlobalMemory
	if r.res.ProjectMemory, err = memorySection(r.res.ProjectPath); err != nil {
		return err
	}
	r.res.GlobalMemory, err = memorySection(r.res.GlobalPath)
	return err
}

// memorySection returns credence's marker section of a MEMORY.md, or ""
// when the file or the section does not exist.
func memorySection(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	text := string(data)
	start := strings.Index(text, markdown.BeginMarker)
	end := strings.Index(text, markdown.EndMarker)
	if start < 0 || end < start {
		return "", nil
	}
	return text[start : end+len(markdown.EndMarker)], nil
}

// transcriptWriter appends lines in Claude Code's transcript format.
type transcriptWriter struct {
	path, session, cwd string
	at                 time.Time
	parent             string
	n                  int
}

func (w *transcriptWriter) user(text string) error {
	return w.line("user", map[string]any{"role": "user", "content": text})
}

func (w *transcriptWriter) assistant(text string) error {
	return w.line("assistant", map[string]any{"id": fmt.Sprintf("msg_demo_%s_%d", w.session, w.n), "type": "message",
		"role": "assistant", "model": "claude-sonnet-4-5", "content": []map[string]any{{"type": "text", "text": text}},
		"stop_reason": "end_turn"})
}

func (w *transcriptWriter) line(kind string, message map[string]any) error {
	w.n++
	w.at = w.at.Add(20 * time.Second)
	uuid := fmt.Sprintf("%s-%04d", w.session, w.n)
	var parent any
	if w.parent != "" {
		parent = w.parent
	}
	data, err := json.Marshal(map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external",
		"cwd": w.cwd, "sessionId": w.session, "version": "2.0.14", "gitBranch": "main", "type": kind,
		"message": message, "uuid": uuid, "timestamp": w.at.Format(time.RFC3339Nano)})
	if err != nil {
		return err
	}
	w.parent = uuid
	if err := os.MkdirAll(filepath.Dir(w.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(data, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
