// Package embed turns text into vectors. It owns the Embedder interface, the
// two built-in deterministic embedders (pure Go, nothing downloaded): Static,
// the default, which adds pretrained word vectors (package wordvec) to
// Offline's hashed features, and Offline alone; and an OpenAI-compatible
// embedder (go-openai). Every vector is tagged with the ID of the embedder
// that made it, so vectors from different embedders never mix.
//
// It also owns what depends on the embedder: the similarity thresholds the
// consolidation pipeline acts on (ThresholdsFor, calibrated per embedder on
// testdata/pairs.jsonl), cosine similarity, and the F32_BLOB encoding the
// store binds to libSQL vector columns. docs/EMBEDDERS.md describes the
// features, the calibration and the measurements.
//
// embed must not import store, agent, hooks or any LLM chat code: the hook hot
// path imports it.
package embed
