package embed

import "strings"

// Thresholds are the cosine similarities at which consolidation acts. They
// belong to an embedder: the same two sentences score differently under
// different embedders, so a value tuned for one is wrong for another.
type Thresholds struct {
	// Cluster groups new episodes: pairs at or above it share a cluster.
	Cluster float64
	// Related sends a candidate belief to classification (SUPPORTS /
	// CONTRADICTS / PARTIAL / IRRELEVANT) when it scores at or above this
	// against an active belief but not above Reinforce; below it the
	// candidate is novel.
	Related float64
	// Reinforce lets a candidate scoring above it reinforce the belief.
	Reinforce float64
	// Dedupe marks an extracted fact scoring at or above it as a duplicate
	// of an existing one: the same claim, kept once.
	Dedupe float64
	// Merge is the similarity above which two active beliefs may merge
	// (with the other merge gates: scope, confidence, cooldown).
	Merge float64
}

// seedThresholds are the source designs' values, set for OpenAI
// embeddings: cluster 0.70, related 0.70, reinforce 0.92, merge 0.92
// (Engram) and dedupe 0.95 (Plast Mem).
var seedThresholds = Thresholds{Cluster: 0.70, Related: 0.70, Reinforce: 0.92, Dedupe: 0.95, Merge: 0.92}

// offlineV1Thresholds were derived from testdata/pairs.jsonl by
// TestCalibration; docs/EMBEDDERS.md records the rule and the numbers.
var offlineV1Thresholds = Thresholds{Cluster: 0.18, Related: 0.18, Reinforce: 0.64, Dedupe: 0.78, Merge: 0.65}

// staticV1Thresholds were derived from testdata/pairs.jsonl by the same
// rule (TestCalibration). Its word vectors score related claims ("prefer
// pnpm" / "prefer bun") higher than offline-v1 does, so every cut but
// Cluster sits higher; docs/EMBEDDERS.md has the numbers.
var staticV1Thresholds = Thresholds{Cluster: 0.31, Related: 0.31, Reinforce: 0.77, Dedupe: 0.90, Merge: 0.79}

// ThresholdsFor returns the thresholds calibrated for the embedder with the
// given ID. Offline v1 and static v1 IDs get the values calibrated for
// them; every other ID,
// including "openai:…" and unknown ones, gets the seed values, which were
// set for OpenAI's text-embedding models. Another OpenAI-compatible model
// (a local one behind Ollama, say) should be calibrated the same way before
// its thresholds are trusted.
func ThresholdsFor(embedderID string) Thresholds {
	switch {
	case strings.HasPrefix(embedderID, "offline-v1-"):
		return offlineV1Thresholds
	case strings.HasPrefix(embedderID, "static-v1-"):
		return staticV1Thresholds
	}
	return seedThresholds
}
