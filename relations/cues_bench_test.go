package relations

import "testing"

// BenchmarkBuildCues times building the cue table, which a one-shot hook
// process pays on its first Needs call.
func BenchmarkBuildCues(b *testing.B) {
	for b.Loop() {
		buildCues()
	}
}
