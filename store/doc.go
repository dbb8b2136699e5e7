// Package store owns credence's local libSQL database: opening it (WAL, busy
// timeout, foreign keys, secure delete, files created 0600), the embedded SQL
// migrations, and every query the other packages run — episodes, beliefs,
// evidence, belief events, relations, entities, meta, the FTS5 indexes and the
// per-embedder vector tables.
//
// Beliefs are a materialized view: the store appends evidence and belief
// events and folds them into the beliefs table with belief.Params.Apply, in
// the same transaction; Rebuild recomputes the whole table from the logs.
//
// store imports belief, ids and the driver. It must not import hooks, agent,
// the LLM client, sync or markdown code.
package store
