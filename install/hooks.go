package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// HookEvents are the Claude Code events credence-hook handles, in the order
// they are added to settings.json.
var HookEvents = []string{"UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact", "PostToolUse"}

// EditMatcher is the matcher of credence's PostToolUse entry: the tools
// the model writes, edits and deletes memory files with. Write, Edit and
// MultiEdit name the file in tool_input.file_path; Bash is there for rm
// and mv, the only way the model deletes a memory (docs/HOOKS.md).
const EditMatcher = "Write|Edit|MultiEdit|Bash"

// hookMatchers is the matcher of each event's entry; events not listed
// have none (every occurrence).
var hookMatchers = map[string]string{"PostToolUse": EditMatcher}

// hookTimeouts is the hard limit in seconds Claude Code gives each command.
// The hook keeps to its own ~1 s budget and fails open; this only bounds a
// hook that is stuck. PreCompact may flush a long transcript tail.
var hookTimeouts = map[string]int{
	"UserPromptSubmit": 5,
	"Stop":             5,
	"SessionStart":     5,
	"SessionEnd":       5,
	"PreCompact":       10,
	"PostToolUse":      5,
}

// Claude Code's settings.json schema for hooks is
//
//	"hooks": {"Event": [{"matcher": "...", "hooks": [{"type": "command", "command": "...", "timeout": 5}]}]}
//
// UserPromptSubmit and Stop take no matcher. SessionStart (startup, resume,
// clear, compact), SessionEnd (clear, logout, prompt_input_exit, other) and
// PreCompact (manual, auto) accept one; an omitted matcher matches every
// occurrence, which is what credence needs. PostToolUse's matcher names
// the tools (EditMatcher).
type hookGroup struct {
	Matcher string      `json:"matcher,omitempty"`
	Hooks   []hookEntry `json:"hooks"`
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// HookCommand returns the command settings.json runs for event: the hook
// binary, shell-quoted when it needs to be, and the event name.
func HookCommand(hookBinary, event string) string {
	return shellQuote(hookBinary) + " " + event
}

// MergeHooks adds a credence-hook entry for each of HookEvents to the
// settings.json at settingsPath, keeping every other setting and hook
// (including other tools' hooks on the same events) and the order of keys.
// An entry of ours pointing at another path of the hook binary (an older
// install) is replaced. It writes a backup first and returns its path; a
// second run changes nothing and writes no backup. A missing file is created
// with mode 0600; a malformed one is reported and left untouched.
func MergeHooks(settingsPath, hookBinary string) (changed bool, backupPath string, err error) {
	if err := checkAbsolute("hook binary", hookBinary); err != nil {
		return false, "", err
	}
	return editJSONFile(settingsPath, func(doc *object) (bool, error) {
		return editHooks(doc, hookBinary, true)
	})
}

// RemoveHooks removes credence's hook entries from settingsPath and nothing
// else; event lists and the "hooks" object that end up empty are removed
// too, so install followed by uninstall gives back the original settings. A
// missing file is not an error.
func RemoveHooks(settingsPath, hookBinary string) (changed bool, backupPath string, err error) {
	if _, exists, err := readIfExists(settingsPath); err != nil || !exists {
		return false, "", err
	}
	return editJSONFile(settingsPath, func(doc *object) (bool, error) {
		return editHooks(doc, hookBinary, false)
	})
}

// editHooks removes every entry of ours that is not exactly the wanted one
// and, when install is set, adds the wanted one where it is missing.
func editHooks(doc *object, hookBinary string, install bool) (bool, error) {
	hooks, err := doc.getObject("hooks")
	if err != nil {
		return false, err
	}
	changed := false
	for _, event := range HookEvents {
		want := HookCommand(hookBinary, event)
		var groups []json.RawMessage
		raw, hadEvent := hooks.get(event)
		if hadEvent {
			if groups, err = parseArray(raw); err != nil {
				return false, fmt.Errorf("hooks.%s: %w", event, err)
			}
		}
		groups, found, edited, err := pruneOurs(groups, hookBinary, event, want, hookMatchers[event], install)
		if err != nil {
			return false, fmt.Errorf("hooks.%s: %w", event, err)
		}
		if install && !found {
			groups = append(groups, encodeJSON(hookGroup{Matcher: hookMatchers[event], Hooks: []hookEntry{{
				Type: "command", Command: want, Timeout: hookTimeouts[event],
			}}}))
			edited = true
		}
		if !edited {
			continue
		}
		changed = true
		if len(groups) == 0 {
			hooks.delete(event)
		} else {
			hooks.set(event, marshalArray(groups))
		}
	}
	if !changed {
		return false, nil
	}
	if len(hooks.members) == 0 {
		doc.delete("hooks")
	} else {
		doc.set("hooks", hooks.marshal())
	}
	return true, nil
}

// pruneOurs walks an event's matcher groups and removes our entries, except
// the first one whose command is exactly want, in a group whose matcher is
// exactly matcher, when keep is set (found reports it). Groups left without
// hooks are dropped; everything else is kept as it was, byte for byte.
func pruneOurs(groups []json.RawMessage, hookBinary, event, want, matcher string, keep bool) (out []json.RawMessage, found, changed bool, err error) {
	for i, raw := range groups {
		group, err := parseObject(raw)
		if err != nil {
			return nil, false, false, fmt.Errorf("entry %d: %w", i, err)
		}
		groupMatcher := ""
		if m, ok := group.get("matcher"); ok {
			_ = json.Unmarshal(m, &groupMatcher)
		}
		entriesRaw, ok := group.get("hooks")
		if !ok {
			out = append(out, raw)
			continue
		}
		entries, err := parseArray(entriesRaw)
		if err != nil {
			return nil, false, false, fmt.Errorf("entry %d: \"hooks\": %w", i, err)
		}
		var kept []json.RawMessage
		for _, e := range entries {
			var entry struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(e, &entry) != nil || !isOurCommand(entry.Command, hookBinary, event) {
				kept = append(kept, e)
				continue
			}
			if keep && !found && entry.Command == want && groupMatcher == matcher {
				found = true
				kept = append(kept, e)
				continue
			}
			changed = true
		}
		switch {
		case len(kept) == len(entries):
			out = append(out, raw)
		case len(kept) > 0:
			group.set("hooks", marshalArray(kept))
			out = append(out, group.marshal())
		}
	}
	return out, found, changed, nil
}

// checkAbsolute rejects a binary path Claude Code could not run from any
// directory: hooks run in the project's directory, and a "~" would be quoted
// away.
func checkAbsolute(what, path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s %q must be an absolute path", what, path)
	}
	return nil
}

// isOurCommand reports whether command runs a credence hook binary (by file
// name, wherever it is installed) for event.
func isOurCommand(command, hookBinary, event string) bool {
	words := shellWords(command)
	return len(words) == 2 && words[1] == event &&
		filepath.Base(words[0]) == filepath.Base(hookBinary)
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./+:@%=,-]+$`)

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWords splits a command line the way sh would for the simple forms
// shellQuote writes: words separated by blanks, with single quotes, double
// quotes and backslashes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// MissingHooks lists the HookEvents for which settingsPath has no entry
// running hookBinary, for doctor; all of them when the file does not exist.
func MissingHooks(settingsPath, hookBinary string) ([]string, error) {
	data, exists, err := readIfExists(settingsPath)
	if err != nil {
		return nil, err
	}
	if !exists || len(bytes.TrimSpace(data)) == 0 {
		return slices.Clone(HookEvents), nil
	}
	doc, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid JSON: %w", settingsPath, err)
	}
	hooks, err := doc.getObject("hooks")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", settingsPath, err)
	}
	var missing []string
	for _, event := range HookEvents {
		found := false
		if raw, ok := hooks.get(event); ok {
			var groups []hookGroup
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, fmt.Errorf("%s: hooks.%s: %w", settingsPath, event, err)
			}
			for _, g := range groups {
				for _, h := range g.Hooks {
					found = found || h.Command == HookCommand(hookBinary, event) && g.Matcher == hookMatchers[event]
				}
			}
		}
		if !found {
			missing = append(missing, event)
		}
	}
	return missing, nil
}
