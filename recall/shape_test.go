package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/store"
)

// TestRecallValueOfTheSlotsShape: "everything runs in eu-west-1 btw",
// "we're pinned to Python 3.10" and "the admin app serves on 8501" were
// read as no fact and share no word with the prompts that need them; the
// value's own shape (a cloud region, a language and its version, a port)
// says which slot they state. A prompt that needs none is told none.
func TestRecallValueOfTheSlotsShape(t *testing.T) {
	toldEach(t, "/a", []string{
		"fwiw everything runs in eu-west-1 btw, the bucket names are prefixed with acme-",
		"heads up we're pinned to Python 3.10 because the lab cluster is ancient",
		"the admin app serves on 8501, it's a streamlit thing",
		"can you tidy up the imports in the reports module",
	}, []toldCase{
		{"create an S3 bucket for the nightly exports in our region", "eu-west-1", "8501"},
		{"can I use match statements in this repo?", "3.10", "eu-west-1"},
		{"what url do I open to see the admin app?", "8501", "3.10"},
		{"explain how a bloom filter works", "", "eu-west-1"},
	})
}

// TestRecallNotesWhichShapedValueIsCurrent: a correction that names the
// new region and the old one says which is current; so does a move
// "from 8080 to 9090".
func TestRecallNotesWhichShapedValueIsCurrent(t *testing.T) {
	for _, tc := range []struct {
		said, prompt, note string
	}{
		{"correction: eu-central-1, Frankfurt. eu-west-1 is our old account, ignore it",
			"create an S3 bucket for the export files in our region", "now: eu-central-1; earlier: eu-west-1"},
		{"moved the api from port 8080 to port 9090 because of the proxy",
			"what url do I open to see the api locally?", "now: 9090; earlier: 8080"},
	} {
		clock := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
		out := toldAfter(t, &clock, tc.prompt, func(ctx context.Context, tx *store.Tx) error {
			_, err := tx.AddEpisode(ctx, &store.Episode{ProjectPath: "/a", Kind: store.EpisodePrompt, Content: tc.said})
			return err
		})
		if !strings.Contains(out, tc.note) {
			t.Errorf("%q: not noted %q:\n%s", tc.said, tc.note, out)
		}
	}
}
