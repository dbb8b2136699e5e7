// Package belief holds the belief math and lifecycle rules of credence as pure
// functions: graded evidence to Beta counts, confidence, lazy decay toward the
// prior on a wall or turn clock, exclusivity normalization and contested
// groups, retrieval strength and stability, the lifecycle gates (revise,
// split, merge, archive), and the reducer that folds a belief's history into
// its current state.
//
// belief does no I/O and imports only the standard library. The store applies
// these functions inside its transactions; the agent decides when to call the
// gates. Nothing here reads the clock: every function takes the time it needs.
package belief
