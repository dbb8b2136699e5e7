// Package extract is the offline (no LLM) extraction mode of the consolidation
// agent: it turns what a developer tells Claude Code into explicit facts and
// guidelines, each a (subject, predicate, object) triple with a sentence
// rendered from it, a support s and a reliability ρ for the belief math.
// ExtractWith reads a text with the conversation around it, so a
// correction that names only a value attaches to the slot it corrects.
//
// It owns the clause splitter (fenced code, quoted text and stack traces are
// skipped), the filters that keep questions, hypotheticals, hedges, transient
// states and reported speech out, the pattern matchers, the developer-tool
// taxonomy that maps "we use pnpm", "I prefer bun" and "we switched from pnpm
// to bun" onto one exclusive predicate, and the list of exclusive predicates.
// Patterns and measured precision and recall are in docs/EXTRACTION.md.
//
// extract is pure: the standard library, internal/lazyre and relations (the
// table of relations, their templates and the tool taxonomy), and no I/O,
// no clock, no randomness. It
// must not import store, belief, embed, the agent, the LLM client or anything
// that touches the database or the network, so the agent, the hooks and the
// CLI can all call it cheaply.
package extract
