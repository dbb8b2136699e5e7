package extract

import "testing"

func TestOpensCorrection(t *testing.T) {
	for text, want := range map[string]string{
		"hmm no, finance wants them in America/Chicago, my bad": "finance wants them in america/chicago, my bad",
		"no wait it's 75, 80 is the other repo":                 "it's 75, 80 is the other repo",
		"sorry, I meant Perth in Scotland":                      "perth in scotland",
		"no scratch that, they go out from main with a tag":     "they go out from main with a tag",
		"actually no, it's PARCELNET_API_KEY":                   "it's parcelnet_api_key",
	} {
		if got, ok := OpensCorrection(text); !ok || got != want {
			t.Errorf("OpensCorrection(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for _, text := range []string{"sorry if I'm slow today", "now write the migration", "we use pnpm"} {
		if got, ok := OpensCorrection(text); ok {
			t.Errorf("OpensCorrection(%q) = %q: read as a correction", text, got)
		}
	}
}

// TestChatApologyOpensACorrection: "sry" is "sorry" typed fast; what
// follows it is the correction, not a value.
func TestChatApologyOpensACorrection(t *testing.T) {
	facts := ExtractWith("sry not rabbit, its NATS jetstream now, rabbit was the old thing", Context{Recent: []string{"the queue is rabbitmq"}})
	if len(facts) != 1 || facts[0].Object != "nats" || facts[0].Predicate != "uses_queue" {
		t.Errorf("got %+v, want the queue corrected to NATS", facts)
	}
}
