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
// The package also holds the wire format both sides speak (wire.go) and the
// socket's location and permission rules (socket.go).
//
// hookrelay imports config and logfile. It must not import store, go-libsql
// or anything that links C: a process that starts in about two milliseconds
// is its whole reason to exist (docs/BENCHMARKS.md, Hooks).
package hookrelay
