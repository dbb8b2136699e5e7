package embed

import "context"

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
