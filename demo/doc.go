// Package demo holds credence's demonstrations: the substrate's toy world
// (seed 003), run phase by phase through the real store and belief engine,
// and a scripted Claude Code session replayed through the real credence-hook
// binary, offline consolidation and MEMORY.md promotion in a temporary HOME.
//
// demo imports store, belief, app, config, consolidate, promote and
// markdown; it runs the hook as a separate process and must not import
// hooks, agent or cli.
package demo
