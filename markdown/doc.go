// Package markdown owns the MEMORY.md files credence keeps in step with its
// beliefs (DESIGN §7): where they live, the marker section at the top of each
// file, and every write to them.
//
//   - Targets: ProjectKey derives Claude Code's ~/.claude/projects/<key>
//     directory name exactly as Claude Code does; ProjectMemoryPath,
//     GlobalMemoryPath and RepoMemoryPath name the files.
//   - The section: RenderSection turns ranked entries into the lines between
//     <!-- CREDENCE:BELIEFS:BEGIN --> and <!-- CREDENCE:BELIEFS:END -->,
//     Splice puts that section at the top of a document (repairing missing,
//     lone, duplicated or moved markers) without changing a byte of the text
//     around it, and ParseSection reads back what a person left inside it.
//   - Writes: WriteSection locks MEMORY.md.lock, re-reads, splices, writes
//     atomically, verifies, and redoes when a lock-free writer (Claude Code)
//     changed the file underneath. EnforceBudget moves the oldest dated
//     sections to MEMORY.archive.md when the file outgrows what Claude Code
//     loads. SweepTemps removes temp files a killed writer left behind.
//     Each takes the target's Root: nothing is read or written through a
//     symbolic link that leads out of it (ErrOutsideRoot).
//
// The package is file-level only: it decides nothing about which beliefs are
// promoted or demoted (the caller passes entries already ranked) and keeps no
// state between calls. It must not import the store, the agent, the belief
// math, an LLM client, sync or fsnotify; the hooks may import it cheaply.
// docs/MEMORY_MD.md records the rules and the facts about Claude Code they
// rest on.
package markdown
