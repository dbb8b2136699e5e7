// Package promote keeps the credence section of every MEMORY.md in step with
// the beliefs (DESIGN §7, seed 002), in both directions.
//
//   - The promotion cycle (Promoter.Promote, run at the end of each
//     consolidation cycle): for every target file — the global file, and
//     each project's Claude Code auto-memory file (or <repo>/.claude/memory)
//     — it ranks the beliefs that pass the promotion rule into ## Beliefs
//     and ## Behavioral Guidelines, moves beliefs that stopped passing it to
//     ## Former Beliefs (stage 1) and drops them later (stage 2), records
//     promoted_at / demoted_at, and writes the section through package
//     markdown, then keeps the file inside Claude Code's line budget.
//   - Reading edits back: before every write the file is compared with what
//     credence last wrote there (the memory_sections table). A promoted
//     bullet a person deleted becomes USER_EDIT evidence against its belief,
//     which is rejected; a bullet a person added becomes a pinned,
//     user-sourced belief.
//   - The Watcher (Open/Close, started by the agent) notices those edits
//     within a second: fsnotify on the directories of all targets, debounced,
//     ignoring credence's own writes by content hash.
//
// The package decides which beliefs are shown and what a person's edit
// means; package markdown owns the file format and every byte written. It
// imports store, belief, config, markdown, extract and fsnotify. It must not
// import the agent, consolidate, the hooks, recall, an LLM client or sync:
// the agent calls it, not the other way round.
package promote
