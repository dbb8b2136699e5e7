package embed

import (
	"context"
	"strings"
)

// StaticID is the ID of the default built-in embedder, NewStatic's.
const StaticID = "static-v1-484"

// Local reports whether the embedder with the given ID runs in-process
// (the built-in ones): a vector costs microseconds to make, so callers may
// recompute one rather than store or wait for it.
func Local(embedderID string) bool {
	return strings.HasPrefix(embedderID, "offline-") || strings.HasPrefix(embedderID, "static-")
}

// Embedder turns texts into unit-length vectors of a fixed dimension.
type Embedder interface {
	// ID names the embedder and its dimension, e.g. "offline-v1-384" or
	// "openai:text-embedding-3-small:1536". It is stored beside every vector.
	ID() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
