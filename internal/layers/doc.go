// Package layers is the package table of docs/ARCHITECTURE.md as data:
// which package may import what. Its test checks the module's import graph
// against it (`go list`), and the document's table against it, so the two
// cannot drift apart: a new package, a new import across a layer, or an
// edited rule in either place fails until both agree.
//
// layers imports nothing; only its test runs anything.
package layers
