package relations

import "testing"

// BenchmarkBuildCues times building the cue table, which a one-shot hook
// process pays on its first Needs call.
func BenchmarkBuildCues(b *testing.B) {
	for b.Loop() {
		buildCues()
	}
}

// BenchmarkNeeds times reading one prompt's needs, which recall does on
// every prompt (the cue table already built).
func BenchmarkNeeds(b *testing.B) {
	prompts := []string{
		"format the whole src folder",
		"ok my fix is done, what now?",
		"how do I jump to the definition of this function?",
		"I need to parse cron expressions in the scheduler, go ahead and add that",
		"what's the minimum toolchain someone needs to build this repo?",
		"write a short bio for me for the conference page",
		"the signup form doesn't validate emails, can you add that and make sure the error message matches the design in the figma file we talked about yesterday",
	}
	Needs(prompts[0])
	for b.Loop() {
		for _, p := range prompts {
			Needs(p)
		}
	}
}
