// Package agent is credence's background daemon, `credence agent`: one
// instance per data directory, holding <data>/agent.lock. It owns the
// schedule of consolidation cycles (at start, every consolidation.interval,
// once consolidation.episode_threshold new episodes wait, and soon after a
// cycle that ran out of budget), the embedding of episodes and beliefs the
// hooks stored, the transcript tailer (the backstop for a SessionEnd hook
// that never fired), the heartbeat in meta, and the lifetimes of the
// components it runs beside them: the MEMORY.md promoter and watcher
// (package promote) and, when configured, the sync loop (package syncer).
//
// The daemon does not poll busily: timers drive the schedule, a cheap
// count of waiting episodes runs every CheckEvery, and fsnotify reports
// transcript writes. The first SIGTERM or SIGINT (handled by the CLI) stops
// it gracefully — a cycle in progress saves its progress — and a second
// aborts.
//
// agent imports consolidate, llm, promote, syncer, store, transcript,
// redact, recall (for project roots), app and config, and hooks and
// hookrelay: it serves credence-hook's events with a hooks.Server and its
// tailer stores exchanges through hooks.StoreExchanges, so an event is
// handled by one code path whichever process runs it. It must not be
// imported by the hooks or by anything on their path
// (docs/ARCHITECTURE.md; internal/layers enforces it).
package agent
