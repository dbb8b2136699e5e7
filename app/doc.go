// Package app wires credence's parts together for the binaries: it loads the
// config, opens the store with the configured belief constants, builds the
// configured embedder and resolves the per-embedder thresholds. Log files
// are package logfile's.
//
// app may import config, store, embed and belief. It must not import hooks,
// agent, sync, markdown or cli: those import it.
package app
