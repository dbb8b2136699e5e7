package markdown

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
)

// MemoryFileName is the file Claude Code loads from an auto-memory directory.
const MemoryFileName = "MEMORY.md"

// maxKeyLength is Claude Code's MAX_SANITIZED_LENGTH: keys longer than this are
// cut to it and given a hash suffix so they stay under NAME_MAX.
const maxKeyLength = 200

// ProjectKey returns the directory name Claude Code uses for a project under
// ~/.claude/projects: every UTF-16 code unit of path that is not an ASCII
// letter or digit becomes '-', so a non-ASCII letter becomes one '-' and a
// character outside the Basic Multilingual Plane (an emoji) becomes two. A key
// longer than 200 characters is cut to 200 and followed by '-' and a hash of
// the original path: the 32-bit string hash h = h*31 + unit over the path's
// UTF-16 code units with signed wrap-around, written as |h| in base 36.
//
// This mirrors the function in the shipped Claude Code bundle,
//
//	let q = A.replace(/[^a-zA-Z0-9]/g, "-"); if (q.length <= 200) return q;
//	let K = 0; for (...) K = (K << 5) - K + A.charCodeAt(_), K |= 0;
//	return `${q.slice(0, 200)}-${Math.abs(K).toString(36)}`
//
// as read from the CLI bundle and checked against a real 207-character
// directory in github.com/Digital-Process-Tools/claude-remember issue #157,
// and from the native binary (v2.1.139, v2.1.154) in
// github.com/Michaelliv/claude-quest pull #15 and
// github.com/heiervang-technologies/unleash pull #237. The March 2026 source
// shows a Bun.hash branch that the shipped bundles do not take (their
// suffixes are six base-36 digits, a 32-bit hash). testdata/project_keys.json
// holds outputs of that JavaScript run by node.
//
// path should be what Claude Code keys auto memory on: the canonical git root
// (the main worktree's root, so worktrees share memory) or the working
// directory outside git, absolute and as the operating system spells it.
func ProjectKey(path string) string {
	var b strings.Builder
	units := 0
	for _, r := range path {
		if r < 0x80 && isASCIIAlnum(byte(r)) {
			b.WriteByte(byte(r))
			units++
			continue
		}
		// JavaScript's regexp without the u flag sees UTF-16 code units, so a
		// surrogate pair is two non-matching units.
		n := utf16.RuneLen(r)
		if n < 1 {
			n = 1 // an invalid rune decodes to U+FFFD, one unit
		}
		for range n {
			b.WriteByte('-')
		}
		units += n
	}
	key := b.String()
	if units <= maxKeyLength {
		return key
	}
	return key[:maxKeyLength] + "-" + pathHash36(path)
}

// pathHash36 is Claude Code's long-path suffix: the Java-style string hash of
// path's UTF-16 code units in int32 arithmetic, absolute value, base 36.
func pathHash36(path string) string {
	var h int32
	for _, u := range utf16.Encode([]rune(path)) {
		h = (h << 5) - h + int32(u) // wraps like JavaScript's `| 0`
	}
	return abs36(h)
}

// abs36 formats |h| in base 36 as JavaScript's Math.abs(h).toString(36) does;
// Math.abs(-2^31) is 2^31, so the absolute value is taken in 64 bits.
func abs36(h int32) string {
	v := int64(h)
	if v < 0 {
		v = -v
	}
	return strconv.FormatInt(v, 36)
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ProjectMemoryPath returns the MEMORY.md Claude Code loads for the project
// rooted at projectRoot: <home>/.claude/projects/<ProjectKey>/memory/MEMORY.md,
// or <autoMemoryDirectory>/MEMORY.md when that Claude Code setting is given and
// valid. autoMemoryDirectory is the directory that holds the memory files
// themselves (not a replacement for ~/.claude/projects), shared by every
// project that setting applies to; Claude Code accepts it from user, local and
// policy settings but not from a repository's .claude/settings.json. A leading
// "~/" is expanded against home; a relative, root-like ("/", "/a", "~/",
// "~/..") or NUL-containing value is ignored, as Claude Code ignores it, and
// the default path is used.
//
// Callers that honour CLAUDE_CONFIG_DIR pass ClaudeProjectMemoryPath the
// projects directory instead.
func ProjectMemoryPath(home, projectRoot, autoMemoryDirectory string) string {
	return ClaudeProjectMemoryPath(filepath.Join(home, ".claude", "projects"), home, projectRoot, autoMemoryDirectory)
}

// ClaudeProjectMemoryPath is ProjectMemoryPath with Claude Code's projects
// directory given explicitly (for example $CLAUDE_CONFIG_DIR/projects).
func ClaudeProjectMemoryPath(projectsDir, home, projectRoot, autoMemoryDirectory string) string {
	if dir, ok := AutoMemoryDir(home, autoMemoryDirectory); ok {
		return filepath.Join(dir, MemoryFileName)
	}
	return filepath.Join(projectsDir, ProjectKey(projectRoot), "memory", MemoryFileName)
}

// AutoMemoryDir validates an autoMemoryDirectory value the way Claude Code's
// validateMemoryPath does and returns the cleaned absolute directory, or false
// when Claude Code would ignore the value.
func AutoMemoryDir(home, raw string) (string, bool) {
	if raw == "" || strings.ContainsRune(raw, 0) {
		return "", false
	}
	candidate := raw
	if strings.HasPrefix(candidate, "~/") || strings.HasPrefix(candidate, `~\`) {
		rest := filepath.Clean(candidate[2:])
		if rest == "." || rest == ".." {
			return "", false // would be $HOME or above it
		}
		candidate = filepath.Join(home, rest)
	}
	cleaned := strings.TrimRight(filepath.Clean(candidate), `/\`)
	if !filepath.IsAbs(cleaned) || len(cleaned) < 3 || strings.HasPrefix(cleaned, "//") || strings.HasPrefix(cleaned, `\\`) {
		return "", false
	}
	return cleaned, true
}

// GlobalMemoryPath returns the file that receives global beliefs,
// <home>/.claude-memory/MEMORY.md; ~/.claude/CLAUDE.md imports it with the
// line "@~/.claude-memory/MEMORY.md".
func GlobalMemoryPath(home string) string {
	return filepath.Join(home, ".claude-memory", MemoryFileName)
}

// RepoMemoryPath returns the in-repository target of seed 002,
// <projectRoot>/.claude/memory/MEMORY.md, for the project_target = "repo"
// configuration.
func RepoMemoryPath(projectRoot string) string {
	return filepath.Join(projectRoot, ".claude", "memory", MemoryFileName)
}

// ArchivePath returns the archive beside a memory file: MEMORY.md becomes
// MEMORY.archive.md.
func ArchivePath(path string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + ".archive" + ext
}

// LockPath returns the lock file every credence writer of path takes:
// MEMORY.md.lock beside MEMORY.md.
func LockPath(path string) string {
	return path + ".lock"
}
