package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// world is a temporary HOME with credence installed and two projects.
type world struct {
	t    *testing.T
	home string
	env  []string
	// hooks maps each event to the command settings.json runs for it.
	hooks       map[string]string
	transcripts []string
	clock       time.Time
	// agent is the running `credence agent`, when a test started one.
}

// newWorld makes a HOME, installs credence into it with the real binaries
// and reads back the hook commands the install registered.
func newWorld(t *testing.T) *world {
	t.Helper()
	home := t.TempDir()
	w := &world{t: t, home: home, clock: time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)}
	w.env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		w.env = append(w.env, "TMPDIR="+tmp)
	}
	out := w.credence("install", "--no-service")
	if !strings.Contains(out, "credence is installed") {
		t.Fatalf("credence install:\n%s", out)
	}
	w.hooks = readHooks(t, filepath.Join(home, ".claude", "settings.json"))
	return w
}

// readHooks returns the command registered for each event, as Claude Code
// would find it in settings.json.
func readHooks(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatalf("settings.json: %v", err)
	}
	out := map[string]string{}
	for event, groups := range settings.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type == "command" && strings.Contains(h.Command, "credence-hook") {
					out[event] = h.Command
				}
			}
		}
	}
	for _, e := range []string{"UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact"} {
		if out[e] == "" {
			t.Fatalf("settings.json registers no credence-hook for %s: %s", e, data)
		}
	}
	return out
}

// credence runs the credence binary and returns its stdout; a non-zero exit
// fails the test.
func (w *world) credence(args ...string) string {
	w.t.Helper()
	code, out, errs := w.credenceCode(args...)
	if code != 0 {
		w.t.Fatalf("credence %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

func (w *world) credenceCode(args ...string) (int, string, string) {
	w.t.Helper()
	cmd := exec.Command(credenceBin, args...)
	cmd.Env = w.env
	cmd.Dir = w.home
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			w.t.Fatalf("run credence %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return code, stdout.String(), stderr.String()
}

// project creates a git project under HOME and returns its root.
func (w *world) project(name string) string {
	w.t.Helper()
	root := filepath.Join(w.home, "code", name)
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return root
}

// session is one Claude Code session in progress.
type session struct {
	w          *world
	id, cwd    string
	transcript string
	parent     string
	n          int
}

// start begins a session in project and fires SessionStart.
func (w *world) start(project string) *session {
	w.t.Helper()
	w.clock = w.clock.Add(24 * time.Hour)
	id := fmt.Sprintf("%08x-e2e0-4000-8000-%012d", len(w.transcripts)+1, len(w.transcripts)+1)
	key := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, project)
	s := &session{w: w, id: id, cwd: project, transcript: filepath.Join(w.home, ".claude", "projects", key, id+".jsonl")}
	w.transcripts = append(w.transcripts, s.transcript)
	s.hook("SessionStart", map[string]any{"source": "startup"})
	return s
}

// turn sends prompt the way Claude Code does (transcript line, then
// UserPromptSubmit), returns what Claude is told, then writes the reply and
// fires Stop.
func (s *session) turn(prompt, reply string) string {
	s.w.t.Helper()
	s.line("user", map[string]any{"role": "user", "content": prompt})
	told := s.hook("UserPromptSubmit", map[string]any{"prompt": prompt, "permission_mode": "default"})
	s.line("assistant", map[string]any{"id": fmt.Sprintf("msg_e2e_%d", s.n), "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5", "content": []map[string]any{{"type": "text", "text": reply}}, "stop_reason": "end_turn",
		"usage": map[string]any{"input_tokens": 12, "output_tokens": 30}})
	s.hook("Stop", map[string]any{"last_assistant_message": reply, "stop_hook_active": false})
	return told
}

// end fires SessionEnd.
func (s *session) end() {
	s.hook("SessionEnd", map[string]any{"reason": "prompt_input_exit"})
}

// hook runs the command settings.json registered for event through sh, in
// the project directory, with Claude Code's JSON on stdin, and returns the
// additionalContext it printed.
func (s *session) hook(event string, fields map[string]any) string {
	s.w.t.Helper()
	in := map[string]any{"session_id": s.id, "transcript_path": s.transcript, "cwd": s.cwd, "hook_event_name": event}
	for k, v := range fields {
		in[k] = v
	}
	data, err := json.Marshal(in)
	if err != nil {
		s.w.t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", s.w.hooks[event])
	cmd.Env = append(append([]string{}, s.w.env...), "CLAUDE_PROJECT_DIR="+s.cwd)
	cmd.Dir = s.cwd
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.w.t.Fatalf("hook %s: %v\n%s", event, err, stderr.String())
	}
	if stderr.Len() > 0 {
		s.w.t.Errorf("hook %s wrote to stderr (Claude Code would show it): %s", event, stderr.String())
	}
	if stdout.Len() == 0 {
		return ""
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		s.w.t.Fatalf("hook %s printed something Claude Code cannot read: %q", event, stdout.String())
	}
	if out.HookSpecificOutput.HookEventName != event {
		s.w.t.Errorf("hook %s answered as %q", event, out.HookSpecificOutput.HookEventName)
	}
	return out.HookSpecificOutput.AdditionalContext
}

// line appends one transcript line in Claude Code's format.
func (s *session) line(kind string, message map[string]any) {
	s.w.t.Helper()
	s.n++
	s.w.clock = s.w.clock.Add(30 * time.Second)
	uuid := fmt.Sprintf("%s-%04d", s.id[:8], s.n)
	var parent any
	if s.parent != "" {
		parent = s.parent
	}
	data, err := json.Marshal(map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external",
		"cwd": s.cwd, "sessionId": s.id, "version": "2.0.14", "gitBranch": "main", "type": kind,
		"message": message, "uuid": uuid, "timestamp": s.w.clock.Format(time.RFC3339Nano)})
	if err != nil {
		s.w.t.Fatal(err)
	}
	s.parent = uuid
	if err := os.MkdirAll(filepath.Dir(s.transcript), 0o700); err != nil {
		s.w.t.Fatal(err)
	}
	f, err := os.OpenFile(s.transcript, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		s.w.t.Fatal(err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		s.w.t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		s.w.t.Fatal(err)
	}
}
