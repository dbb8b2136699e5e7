// Package install owns the library side of putting credence into a user's
// Claude Code setup and taking it out again: merging the hook entries into
// settings.json, registering the MCP server in ~/.claude.json, adding the
// global memory import to CLAUDE.md, and writing, starting and stopping the
// agent's user service (systemd --user, launchd, or a detached process).
//
// Every edit of a file the user or Claude Code owns keeps everything else in
// it (key order included), writes a timestamped backup before changing
// anything, writes atomically, is idempotent (a second run changes nothing
// and writes no backup), and leaves a malformed file untouched with an error
// naming it.
//
// install takes every path as an argument, so tests point it at a temporary
// HOME; starting and stopping services goes through the Runner interface, so
// tests never touch the real system. It must not import store, hooks, agent
// or any code on the hook's hot path; the CLI wires it up.
package install
