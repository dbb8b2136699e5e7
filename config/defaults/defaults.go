// Package defaults is the part of credence's configuration that needs no
// TOML: where credence's files are before anything moves them, the hook's
// default limits, and whether anything (a CREDENCE_ or fallback variable, a
// config file that sets a key) changes the defaults at all.
//
// Package config builds on it. credence-hook's front uses it alone: on a
// default install it finds the agent's socket and its own limits without
// linking a TOML parser, whose package set-up alone (it reads the local time
// zone) costs a process that lives a few milliseconds a tenth of one.
package defaults

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EnvPrefix starts every environment variable credence reads for itself.
const EnvPrefix = "CREDENCE_"

// ConfigEnv names the config file in place of the default one.
const ConfigEnv = EnvPrefix + "CONFIG"

// FallbackEnv lists the generic variables the configuration reads below its
// file (OpenAI's own). config's TestFallbackEnvMatchesFields keeps it in
// step with the fields.
var FallbackEnv = []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"}

// Sections are the configuration's tables; config's
// TestFallbackEnvMatchesFields keeps the list in step with the fields.
var Sections = []string{"belief", "consolidation", "embedder", "llm", "recall", "memory", "sync", "hook"}

// The defaults of the settings credence-hook's front reads itself.
const (
	LogLevel          = "info"
	HookStdinMaxBytes = int64(4 << 20)
	HookBudget        = time.Second
	// HookStdinTimeout is the whole budget: a prompt piped in slowly is
	// still stored (hookrelay.StoreGrace), only recall may give up.
	HookStdinTimeout = HookBudget
	HookLogMaxBytes  = int64(1 << 20)
)

// configFileName is credence's file under the XDG config directory.
const configFileName = "credence/config.toml"

// Home returns the user's home directory: $HOME from getenv, else
// os.UserHomeDir, with a leading "~" expanded.
func Home(getenv func(string) string) (string, error) {
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find home directory: %w", err)
		}
		home = h
	}
	return ExpandHome(home, home), nil
}

// ExpandHome replaces a leading "~" or "~/" with home; other paths are
// returned cleaned, and relative ones are left relative for the config's
// validation to reject.
func ExpandHome(path, home string) string {
	switch {
	case path == "":
		return ""
	case path == "~":
		return home
	case strings.HasPrefix(path, "~/"):
		return filepath.Join(home, path[2:])
	}
	return filepath.Clean(path)
}

// XDGDir returns the XDG base directory the variable names, or
// home/fallback when it is unset. The XDG spec says relative values are
// invalid and must be ignored.
func XDGDir(getenv func(string) string, home, variable, fallback string) string {
	if dir := getenv(variable); dir != "" && filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(home, fallback)
}

// ConfigFile returns where credence reads its config file: $CREDENCE_CONFIG
// (explicit: it must exist), else $XDG_CONFIG_HOME/credence/config.toml or
// ~/.config/credence/config.toml (which need not).
func ConfigFile(getenv func(string) string, home string) (path string, explicit bool) {
	if p := getenv(ConfigEnv); p != "" {
		return ExpandHome(p, home), true
	}
	return filepath.Join(XDGDir(getenv, home, "XDG_CONFIG_HOME", ".config"), configFileName), false
}

// DataDir returns data_dir's default: $XDG_DATA_HOME/credence or
// ~/.local/share/credence.
func DataDir(getenv func(string) string, home string) string {
	return filepath.Join(XDGDir(getenv, home, "XDG_DATA_HOME", ".local/share"), "credence")
}

// Database returns the database's path in a data directory.
func Database(dataDir string) string { return filepath.Join(dataDir, "credence.db") }

// LogDir returns the log directory in a data directory.
func LogDir(dataDir string) string { return filepath.Join(dataDir, "logs") }

// HookFallbackLog is where the hook logs when its configured log directory
// is unusable: credence-hook-<uid>.log in the system temp directory.
func HookFallbackLog() string {
	return filepath.Join(os.TempDir(), "credence-hook-"+strconv.Itoa(os.Getuid())+".log")
}

// Untouched reports whether nothing changes the defaults: environ (as
// os.Environ gives it) holds no CREDENCE_ and no fallback variable, and the
// config file at path is missing (when not named explicitly) or inert.
// That is a default install's case.
func Untouched(environ []string, path string, explicit bool) bool {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, EnvPrefix) || value != "" && slices.Contains(FallbackEnv, name) {
			return false
		}
	}
	data, ok := readConfig(path, explicit)
	return ok && Inert(data)
}

// HookEnv reports whether the environment variable name can set what
// credence-hook's front reads itself: data_dir, log_level and the [hook]
// table. config's TestHookSettingsCovered keeps it in step with the fields.
func HookEnv(name string) bool {
	return name == EnvPrefix+"DATA_DIR" || name == EnvPrefix+"LOG_LEVEL" || strings.HasPrefix(name, EnvPrefix+"HOOK_")
}

// HookUntouched reports whether what credence-hook's front reads itself
// (data_dir, log_level, the [hook] table) is at its defaults: no variable
// sets it (HookEnv), and the config file at path is missing (when not named
// explicitly) or cannot set it (hookNeutral). An LLM endpoint, an API key or
// any other setting changes nothing the front does, so it does not send the
// front's events the slower way, through `credence hook`.
func HookUntouched(environ []string, path string, explicit bool) bool {
	for _, kv := range environ {
		if name, _, _ := strings.Cut(kv, "="); HookEnv(name) {
			return false
		}
	}
	data, ok := readConfig(path, explicit)
	return ok && hookNeutral(data)
}

// hookNeutral reports whether a TOML file certainly sets none of data_dir,
// log_level and the [hook] table's keys. It does not parse the file (the
// front links no TOML); it over-approximates, line by line, skipping blank
// and comment lines:
//   - no line may hold "data_dir", "log_level" or "hook" (a dotted or
//     quoted key), or a \u or \U escape, which could spell one in a quoted
//     key;
//   - below a table header holding "hook", no line may set anything.
//
// A line inside a multi-line string is read as if it were TOML: it can only
// make the answer false where it was true, which costs the front's events
// the slower way, never a wrong setting. A key line after the header opens
// any such string, so the header that follows [hook] before its first key
// is a real one.
func hookNeutral(data []byte) bool {
	inHook := false
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0, t[0] == '#':
			continue
		case t[0] == '[':
			if inHook = bytes.Contains(t, []byte("hook")); inHook {
				continue
			}
		case inHook:
			return false
		}
		for _, s := range []string{"data_dir", "log_level", "hook", `\u`, `\U`} {
			if bytes.Contains(t, []byte(s)) {
				return false
			}
		}
	}
	return true
}

// readConfig reads the config file: ok with no data when a default path
// does not exist, not ok when it cannot be read or an explicit one is
// missing.
func readConfig(path string, explicit bool) (data []byte, ok bool) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return nil, true
	case err != nil:
		return nil, false
	}
	return data, true
}

// Inert reports whether a TOML file sets nothing: only comments, blank lines
// and headers of the configuration's tables, as `credence config init`
// writes it. Anything else, an unknown table included, takes the layered
// load, which reports what it does not know.
func Inert(data []byte) bool {
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0, t[0] == '#':
		case len(t) > 2 && t[0] == '[' && t[len(t)-1] == ']' && slices.Contains(Sections, string(bytes.TrimSpace(t[1:len(t)-1]))):
		default:
			return false
		}
	}
	return true
}
