// Package e2e holds credence's end-to-end test: it builds the real
// credence and credence-hook binaries, installs them into a temporary HOME
// with `credence install`, replays a scripted history of Claude Code
// sessions in two projects through the hook commands settings.json names
// (with Claude Code's stdin shapes and a transcript file growing beside
// them), consolidates offline with `credence consolidate`, and checks what
// Claude is told, the MEMORY.md files, `credence why`, that a pasted secret
// is nowhere on disk and that a forget leaves no byte of its text in the
// data directory. TestCLIEdges runs the binary through what a new user
// meets first: a mistyped command, version, sync --status while sync is off,
// beliefs and uninstall. TestRealClaudeCode runs the real Claude Code CLI
// (pinned releases that scripts/install-claude-code.sh installs) against a
// fake Messages API on 127.0.0.1 with credence installed (docs/HOOKS.md).
//
// The package has no code of its own. Besides the standard library it
// imports store and belief (to look up IDs the way a person would read them
// off `credence recall`) and markdown (for the path of a project's
// MEMORY.md); everything under test runs as a separate process.
package e2e
