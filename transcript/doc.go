// Package transcript reads Claude Code session transcripts, the JSON Lines
// files under ~/.claude/projects/<key>/<session>.jsonl, and turns them into
// exchanges: one user prompt with the assistant's reply and a short summary
// of the tools it used.
//
// It owns the line format (ParseLine), the rules for what counts as a
// prompt and what is noise, incremental reading by byte offset
// (ReadExchanges), and the exchange key (KeyFor) that lets the Stop hook and
// the agent's transcript tailer recognise an exchange the other one already
// stored.
//
// transcript sits on the hook hot path, so it imports only the standard
// library: never store, redact, agent, hooks or anything that does network
// I/O. It does not redact; callers pass Prompt and Response through package
// redact before storing them.
package transcript
