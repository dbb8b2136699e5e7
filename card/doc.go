// Package card holds the shapes in which credence shows its data as JSON: a
// belief's card with its evidence, events and lineage, an episode, a
// confidence timeline, and the beliefs `remember` created or reinforced.
// `credence … --json` and the MCP server's structured results both use
// them, so the two say the same thing in the same words. The store returns
// the data (store.Card, store.Episode, store.Remembered); this package only
// shapes it.
//
// card imports store and nothing above it; only cli and mcpserver import
// card.
package card
