// Package demo holds credence's demonstrations: the substrate's toy world
// (seed 003), run phase by phase through the real store and belief engine.
//
// demo imports store and belief; it must not import hooks, agent or cli.
package demo
