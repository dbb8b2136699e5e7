// Package mcpserver is `credence mcp`: a Model Context Protocol server over
// stdio, built on the official Go SDK (github.com/modelcontextprotocol/go-sdk),
// that lets Claude Code query and edit its memory mid-session with the tools
// memory_recall, memory_expand, memory_why, memory_forget, memory_status and
// memory_save.
//
// Every tool returns a short text for the model and the same data as
// structured JSON. When stdin ends, every request already read is answered
// before the server exits (drain.go): a client may pipe a whole session in
// and close its end. Text Claude sends to memory_save is redacted before it is
// stored, like everything the hooks capture.
//
// mcpserver imports store, recall, redact, extract, promote (to take a
// forgotten belief out of MEMORY.md at once), config, embed and belief. It
// must not import cli, hooks, the agent or sync: the server is
// one short-lived process per Claude Code session, and slow work stays with
// the agent.
package mcpserver
