// Package recall finds what credence knows that bears on a piece of text and
// renders it for Claude Code: the hybrid search of DESIGN §6 over beliefs and
// episodes (BM25 through the store's FTS5 indexes fused with cosine
// similarity in the configured embedder's vector space), scoped to one
// project plus global memory, with the weighted belief score, the confidence
// floor, exclusivity and contested groups, a relevance floor so an
// unrelated prompt gets nothing, and a character budget.
//
// It is used on the hook hot path, so it imports only store, belief, embed,
// config, ids, transcript and internal/plural, and does a bounded handful of indexed queries
// per call. It must not import hooks, the agent, the LLM client, sync,
// markdown or fsnotify. Recall itself never writes: callers record access
// (store.DB.Touch) for the beliefs they surface, and SyncSketches, which
// maintains the vector sketches, is called where a write is affordable.
package recall
