// Package hooks handles the events Claude Code raises on every prompt and
// at session boundaries, two ways: in a process of its own (Run, behind
// `credence hook`, which credence-hook execs when no agent answers) and in
// the agent (Server, which credence-hook hands events to over a socket;
// package hookrelay is that front). The handler reads the event's JSON
// (bounded in size and time), records what happened as episodes and, on
// UserPromptSubmit, prints the beliefs and episodes recall finds as
// additionalContext; SessionStart may print a short digest; Stop stores the
// exchange; SessionEnd and PreCompact flush the transcript beyond the
// session's stored offset (DESIGN §4, §6, §9).
//
// It fails open: any error, a locked database, a missing transcript or an
// exhausted time budget ends in exit code 0 with nothing on stdout and a
// line in <logdir>/hook.log, because a memory tool must never block a
// prompt. Nothing but the protocol JSON is written to stdout, nothing to
// stderr, and no goroutine or child process outlives Run holding stdout.
//
// hooks imports app, belief, config, embed, hookrelay, ids, logfile, recall,
// redact, store and transcript.
// It must not import the agent, the LLM client, sync, markdown or fsnotify:
// everything slow happens in the agent.
package hooks
