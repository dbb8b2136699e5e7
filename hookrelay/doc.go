// Package hookrelay is credence-hook, the executable Claude Code runs on
// every prompt and at session boundaries. It is a small pure-Go front: it
// reads the event's JSON from stdin (bounded in size and time), hands it to
// the running agent over a private Unix socket, where a warm process with the
// database already open records and recalls (package hooks, Server), and
// prints the agent's reply. When no agent answers in time to start, it
// replaces itself (exec, not a child) with `credence hook <event>`, which
// handles the event in-process, so the hooks work without the agent, only
// slower. It fails open like the rest: exit 0, nothing on stdout, a line in
// the hook log.
//
// The front reads only data_dir, log_level and the [hook] table, and uses
// their defaults when nothing can change them (defaults.HookUntouched; an
// LLM endpoint or an API key does not count). A configuration that may move
// the data directory, the log or the limits makes it hand the event,
// unread, to `credence hook`, which loads the configuration and tries the
// agent first (StartEnv).
//
// The package also holds the wire format both sides speak (wire.go) and the
// socket's location and permission rules (socket.go).
//
// hookrelay imports config/defaults and internal/rotfile, which link
// nothing beyond the standard library. It must not import the layered
// config, store, go-libsql, or anything with costly package set-up (TOML,
// slog, JSON, regexp, crypto): a process that starts in about two
// milliseconds is its whole reason to exist (docs/BENCHMARKS.md, Hooks;
// TestHookDependencies).
package hookrelay
