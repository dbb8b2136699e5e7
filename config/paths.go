package config

import (
	"path/filepath"
	"strings"
)

// Paths are the files and directories credence and Claude Code use, derived
// from HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, CLAUDE_CONFIG_DIR and the
// config. All are absolute.
type Paths struct {
	Home           string // the user's home directory
	ConfigFile     string // credence's config.toml (it need not exist)
	DataDir        string // data_dir: database, logs, agent state
	Database       string // <data>/credence.db
	LogDir         string // <data>/logs
	ClaudeDir      string // $CLAUDE_CONFIG_DIR or ~/.claude
	ClaudeSettings string // <claude>/settings.json, where hooks are registered
	ClaudeJSON     string // ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json), where user MCP servers live
	ClaudeMD       string // <claude>/CLAUDE.md, which imports the global memory file
	ClaudeProjects string // <claude>/projects: transcripts and auto-memory
	GlobalMemory   string // memory.global_path
}

// configFileName is credence's file under the XDG config directory.
const configFileName = "credence/config.toml"

// xdgDir returns the XDG base directory named by env var, or home/fallback
// when it is unset. The XDG spec says relative values are invalid and must be
// ignored.
func xdgDir(getenv func(string) string, home, variable, fallback string) string {
	if dir := getenv(variable); dir != "" && filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(home, fallback)
}

// defaultConfigFile is where credence looks for config.toml.
func defaultConfigFile(getenv func(string) string, home string) string {
	return filepath.Join(xdgDir(getenv, home, "XDG_CONFIG_HOME", ".config"), configFileName)
}

// expandHome replaces a leading "~" or "~/" with home; other paths are
// returned cleaned, and relative ones are left relative for Validate to
// reject.
func expandHome(path, home string) string {
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

// resolvePaths expands ~ in path settings, fills derived defaults and
// computes c.Paths.
func (c *Config) resolvePaths(getenv func(string) string, home, configFile string) {
	for _, f := range Fields() {
		if f.Path {
			v := f.value(c)
			v.SetString(expandHome(v.String(), home))
		}
	}
	c.resolveDefaultPaths(getenv, home, configFile)
}

// resolveDefaultPaths fills the derived defaults and computes c.Paths; the
// path settings themselves must already be expanded (the defaults need no
// expanding).
func (c *Config) resolveDefaultPaths(getenv func(string) string, home, configFile string) {
	if c.DataDir == "" {
		c.DataDir = filepath.Join(xdgDir(getenv, home, "XDG_DATA_HOME", ".local/share"), "credence")
	}
	if c.Memory.GlobalPath == "" {
		c.Memory.GlobalPath = filepath.Join(home, ".claude-memory", "MEMORY.md")
	}

	claudeDir := filepath.Join(home, ".claude")
	claudeJSON := filepath.Join(home, ".claude.json")
	// Claude Code moves both its directory and its .claude.json into
	// CLAUDE_CONFIG_DIR when that is set.
	if dir := expandHome(getenv("CLAUDE_CONFIG_DIR"), home); dir != "" && filepath.IsAbs(dir) {
		claudeDir = dir
		claudeJSON = filepath.Join(dir, ".claude.json")
	}

	c.Paths = Paths{
		Home:           home,
		ConfigFile:     configFile,
		DataDir:        c.DataDir,
		Database:       filepath.Join(c.DataDir, "credence.db"),
		LogDir:         filepath.Join(c.DataDir, "logs"),
		ClaudeDir:      claudeDir,
		ClaudeSettings: filepath.Join(claudeDir, "settings.json"),
		ClaudeJSON:     claudeJSON,
		ClaudeMD:       filepath.Join(claudeDir, "CLAUDE.md"),
		ClaudeProjects: filepath.Join(claudeDir, "projects"),
		GlobalMemory:   c.Memory.GlobalPath,
	}
}

// GlobalMemoryImportLine returns the line ~/.claude/CLAUDE.md needs to load
// the global memory file: "@~/.claude-memory/MEMORY.md" by default, written
// with ~ whenever the file is under the home directory.
func (c *Config) GlobalMemoryImportLine() string {
	return "@" + filepath.ToSlash(tildePath(c.Paths.GlobalMemory, c.Paths.Home))
}
