package config

import (
	"path/filepath"

	"github.com/credence-mem/credence/config/defaults"
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

// expandHome replaces a leading "~" or "~/" with home; see
// defaults.ExpandHome.
func expandHome(path, home string) string { return defaults.ExpandHome(path, home) }

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
		c.DataDir = defaults.DataDir(getenv, home)
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
		Database:       defaults.Database(c.DataDir),
		LogDir:         defaults.LogDir(c.DataDir),
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
