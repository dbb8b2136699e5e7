package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const testHook = "/home/u/.local/bin/credence-hook"

// readJSON decodes a file into generic values.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s is not valid JSON after the edit: %v\n%s", path, err, data)
	}
	return v
}

// commandsFor lists every hook command registered for event, in order.
func commandsFor(t *testing.T, settings map[string]any, event string) []string {
	t.Helper()
	hooks, _ := settings["hooks"].(map[string]any)
	groups, _ := hooks[event].([]any)
	var out []string
	for _, g := range groups {
		entries, _ := g.(map[string]any)["hooks"].([]any)
		for _, e := range entries {
			out = append(out, e.(map[string]any)["command"].(string))
		}
	}
	return out
}

func copyFixture(t *testing.T, name, dst string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

func fixedClock(t *testing.T) {
	t.Helper()
	old := now
	now = func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }
	t.Cleanup(func() { now = old })
}

func TestMergeHooksKeepsExistingSettings(t *testing.T) {
	fixedClock(t)
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	original := copyFixture(t, "settings-with-other-hooks.json", path)

	changed, backup, err := MergeHooks(path, testHook)
	if err != nil || !changed {
		t.Fatalf("MergeHooks = %v, %q, %v; want changed", changed, backup, err)
	}
	wantBackup := path + ".credence-backup-20250304T050607Z"
	if backup != wantBackup {
		t.Errorf("backup = %q, want %q", backup, wantBackup)
	}
	if data, _ := os.ReadFile(backup); string(data) != string(original) {
		t.Errorf("backup differs from the original settings")
	}
	if info, err := os.Stat(backup); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("backup mode = %v (%v), want 0600", info.Mode().Perm(), err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("settings mode = %o, want the original 644 kept", info.Mode().Perm())
	}

	settings := readJSON(t, path)
	if settings["model"] != "opus" || settings["cleanupPeriodDays"] != 30.5 {
		t.Errorf("other settings changed: %v", settings)
	}
	tests := []struct {
		event string
		want  []string
	}{
		{"UserPromptSubmit", []string{"~/bin/prompt-logger --tag a&b", testHook + " UserPromptSubmit"}},
		{"Stop", []string{testHook + " Stop"}},
		{"SessionStart", []string{"echo été <3", testHook + " SessionStart"}},
		{"SessionEnd", []string{testHook + " SessionEnd"}},
		{"PreCompact", []string{testHook + " PreCompact"}},
		{"PreToolUse", []string{`/usr/local/bin/guard "$CLAUDE_PROJECT_DIR"`}},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			if got := commandsFor(t, settings, tt.event); !slices.Equal(got, tt.want) {
				t.Errorf("commands = %q, want %q", got, tt.want)
			}
		})
	}

	text, _ := os.ReadFile(path)
	order := []string{`"model"`, `"permissions"`, `"hooks"`, `"UserPromptSubmit"`, `"PreToolUse"`, `"SessionStart"`, `"Stop"`, `"statusLine"`, `"cleanupPeriodDays"`}
	last := -1
	for _, key := range order {
		i := strings.Index(string(text), key)
		if i < last {
			t.Errorf("key %s moved: key order not kept\n%s", key, text)
		}
		last = i
	}
	for _, kept := range []string{`"cleanupPeriodDays": 30.50`, `\u00e9t\u00e9 <3`, `a&b`} {
		if !strings.Contains(string(text), kept) {
			t.Errorf("settings lost the original spelling %s\n%s", kept, text)
		}
	}
}

func TestMergeHooksIsIdempotent(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	copyFixture(t, "settings-with-other-hooks.json", path)
	if _, _, err := MergeHooks(path, testHook); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	before, _ := filepath.Glob(path + backupSuffix + "*")

	changed, backup, err := MergeHooks(path, testHook)
	if err != nil || changed || backup != "" {
		t.Fatalf("second MergeHooks = %v, %q, %v; want no change and no backup", changed, backup, err)
	}
	second, _ := os.ReadFile(path)
	if string(first) != string(second) {
		t.Errorf("second run rewrote settings.json")
	}
	after, _ := filepath.Glob(path + backupSuffix + "*")
	if len(after) != len(before) {
		t.Errorf("second run wrote a backup: %v", after)
	}
}

func TestMergeHooksMissingFile(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "settings.json")
	changed, backup, err := MergeHooks(path, testHook)
	if err != nil || !changed || backup != "" {
		t.Fatalf("MergeHooks = %v, %q, %v; want changed without a backup", changed, backup, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %o, want 600", info.Mode().Perm())
	}
	settings := readJSON(t, path)
	for _, event := range HookEvents {
		if got := commandsFor(t, settings, event); !slices.Equal(got, []string{testHook + " " + event}) {
			t.Errorf("%s commands = %q", event, got)
		}
	}
	group := settings["hooks"].(map[string]any)["UserPromptSubmit"].([]any)[0].(map[string]any)
	if _, has := group["matcher"]; has {
		t.Errorf("UserPromptSubmit entry has a matcher; it takes none: %v", group)
	}
	entry := group["hooks"].([]any)[0].(map[string]any)
	if entry["type"] != "command" || entry["timeout"] != 5.0 {
		t.Errorf("entry = %v, want type command and timeout 5", entry)
	}
}

func TestMergeHooksLeavesBadFilesUntouched(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string
	}{
		{"malformed JSON", `{"model": "opus",`, "not valid JSON"},
		{"trailing garbage", `{"model": "opus"} x`, "not valid JSON"},
		{"array at the top", `["model"]`, "not valid JSON"},
		{"hooks not an object", `{"hooks": []}`, `"hooks"`},
		{"event not a list", `{"hooks": {"Stop": {"command": "x"}}}`, "hooks.Stop"},
		{"group not an object", `{"hooks": {"Stop": [3]}}`, "hooks.Stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			changed, backup, err := MergeHooks(path, testHook)
			if err == nil || changed || backup != "" {
				t.Fatalf("MergeHooks = %v, %q, %v; want an error", changed, backup, err)
			}
			for _, w := range []string{path, tt.want, "untouched"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if data, _ := os.ReadFile(path); string(data) != tt.content {
				t.Errorf("file changed to %q", data)
			}
			if backups, _ := filepath.Glob(path + backupSuffix + "*"); len(backups) > 0 {
				t.Errorf("backups written for a file left alone: %v", backups)
			}
		})
	}
}

func TestMergeHooksReplacesAnOlderInstall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if _, _, err := MergeHooks(path, "/opt/old/credence-hook"); err != nil {
		t.Fatal(err)
	}
	changed, _, err := MergeHooks(path, testHook)
	if err != nil || !changed {
		t.Fatalf("MergeHooks = %v, %v; want changed", changed, err)
	}
	settings := readJSON(t, path)
	for _, event := range HookEvents {
		if got := commandsFor(t, settings, event); !slices.Equal(got, []string{testHook + " " + event}) {
			t.Errorf("%s commands = %q, want only the new binary", event, got)
		}
	}
}

func TestMergeHooksQuotesPaths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	bin := "/Users/Jane Doe/bin/credence-hook"
	if _, _, err := MergeHooks(path, bin); err != nil {
		t.Fatal(err)
	}
	got := commandsFor(t, readJSON(t, path), "Stop")
	want := []string{"'/Users/Jane Doe/bin/credence-hook' Stop"}
	if !slices.Equal(got, want) {
		t.Errorf("commands = %q, want %q", got, want)
	}
	if changed, _, err := MergeHooks(path, bin); err != nil || changed {
		t.Errorf("second MergeHooks with a quoted path = %v, %v; want no change", changed, err)
	}
}

func TestMergeHooksFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	copyFixture(t, "settings-with-other-hooks.json", real)
	link := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := MergeHooks(link, testHook); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("settings.json is no longer a symlink")
	}
	if got := commandsFor(t, readJSON(t, real), "Stop"); len(got) != 1 {
		t.Errorf("the linked file was not updated: %q", got)
	}
}

func TestRemoveHooksRestoresOriginal(t *testing.T) {
	tests := []struct {
		name    string
		fixture string // "" starts from no file
		content string
	}{
		{name: "settings with other hooks", fixture: "settings-with-other-hooks.json"},
		{name: "settings without hooks", content: "{\n  \"model\": \"sonnet\"\n}\n"},
		{name: "empty object", content: "{}"},
		{name: "four-space indent", content: fourSpace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			original := []byte(tt.content)
			if tt.fixture != "" {
				original = copyFixture(t, tt.fixture, path)
			} else if err := os.WriteFile(path, original, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, err := MergeHooks(path, testHook); err != nil {
				t.Fatal(err)
			}
			changed, backup, err := RemoveHooks(path, testHook)
			if err != nil || !changed || backup == "" {
				t.Fatalf("RemoveHooks = %v, %q, %v; want changed with a backup", changed, backup, err)
			}
			got, _ := os.ReadFile(path)
			if !sameJSON(got, original) {
				t.Errorf("after uninstall:\n%s\nwant the original:\n%s", got, original)
			}
			if (tt.fixture != "" || tt.content == fourSpace) && string(got) != string(original) {
				t.Errorf("uninstall did not restore the bytes:\n%s\nwant\n%s", got, original)
			}
			if changed, _, err := RemoveHooks(path, testHook); err != nil || changed {
				t.Errorf("second RemoveHooks = %v, %v; want no change", changed, err)
			}
		})
	}
}

// fourSpace is a settings file indented with four spaces and no final
// newline: uninstall must give back these exact bytes.
const fourSpace = `{
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "say done"
                    }
                ]
            }
        ]
    },
    "a": 1
}`

func TestRemoveHooksKeepsOthersInSharedGroup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	content := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other-tool"}, {"type": "command", "command": "/x/credence-hook Stop"}]}]}}`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if changed, _, err := RemoveHooks(path, testHook); err != nil || !changed {
		t.Fatalf("RemoveHooks = %v, %v; want changed", changed, err)
	}
	if got := commandsFor(t, readJSON(t, path), "Stop"); !slices.Equal(got, []string{"other-tool"}) {
		t.Errorf("Stop commands = %q, want only other-tool", got)
	}
}

func TestRemoveHooksMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if changed, _, err := RemoveHooks(path, testHook); err != nil || changed {
		t.Errorf("RemoveHooks on a missing file = %v, %v; want nothing", changed, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("RemoveHooks created %s", path)
	}
}

func TestShellWordsReadsShellQuote(t *testing.T) {
	tests := []string{"/usr/bin/credence-hook", "/Users/Jane Doe/credence-hook", "/tmp/it's/credence-hook", `/a"b/c`}
	for _, path := range tests {
		t.Run(path, func(t *testing.T) {
			words := shellWords(HookCommand(path, "Stop"))
			if !slices.Equal(words, []string{path, "Stop"}) {
				t.Errorf("shellWords(HookCommand(%q)) = %q", path, words)
			}
		})
	}
}

func TestMissingHooks(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content *string
		want    []string
		wantErr bool
	}{
		{name: "no file", want: HookEvents},
		{name: "no hooks", content: new(`{"model": "opus"}`), want: HookEvents},
		{name: "some", content: new(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + testHook + ` Stop"}]}],
			"PreCompact": [{"matcher": "auto", "hooks": [{"type": "command", "command": "other"}]}]}}`),
			want: []string{"UserPromptSubmit", "SessionStart", "SessionEnd", "PreCompact", "PostToolUse"}},
		// A PostToolUse entry without credence's matcher would not see the
		// model's edits: doctor calls it missing.
		{name: "matcherless PostToolUse", content: new(`{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "` + testHook + ` PostToolUse"}]}]}}`),
			want: []string{"UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact", "PostToolUse"}},
		{name: "PostToolUse", content: new(`{"hooks": {"PostToolUse": [{"matcher": "` + EditMatcher + `", "hooks": [{"type": "command", "command": "` + testHook + ` PostToolUse"}]}]}}`),
			want: []string{"UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact"}},
		{name: "malformed", content: new(`{`), wantErr: true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("settings-%d.json", i))
			if tt.content != nil {
				if err := os.WriteFile(path, []byte(*tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := MissingHooks(path, testHook)
			if (err != nil) != tt.wantErr {
				t.Fatalf("MissingHooks error = %v, want error %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("MissingHooks = %q, want %q", got, tt.want)
			}
		})
	}
	path := filepath.Join(dir, "installed.json")
	if _, _, err := MergeHooks(path, testHook); err != nil {
		t.Fatal(err)
	}
	if got, err := MissingHooks(path, testHook); err != nil || len(got) != 0 {
		t.Errorf("MissingHooks after MergeHooks = %q, %v; want none", got, err)
	}
}

func TestBinaryPathsMustBeAbsolute(t *testing.T) {
	dir := t.TempDir()
	for _, bin := range []string{"credence-hook", "~/.local/bin/credence-hook", "./bin/credence-hook"} {
		t.Run(bin, func(t *testing.T) {
			settings := filepath.Join(dir, "settings.json")
			if _, _, err := MergeHooks(settings, bin); err == nil || !strings.Contains(err.Error(), "absolute") {
				t.Errorf("MergeHooks(%q) error = %v, want an absolute-path error", bin, err)
			}
			claudeJSON := filepath.Join(dir, ".claude.json")
			if _, _, err := RegisterMCP(claudeJSON, bin); err == nil || !strings.Contains(err.Error(), "absolute") {
				t.Errorf("RegisterMCP(%q) error = %v, want an absolute-path error", bin, err)
			}
			for _, p := range []string{settings, claudeJSON} {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s was created for a rejected binary", p)
				}
			}
		})
	}
}
