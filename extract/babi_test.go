package extract

import (
	"strings"
	"testing"

	"github.com/credence-mem/credence/internal/testkit"
)

// TestBabiTask1 extracts every statement of the 200 stories and answers
// every "Where is X?" from the newest located_in fact about X, the way an
// exclusive predicate resolves. Every statement must give exactly one fact
// and every answer must be right.
func TestBabiTask1(t *testing.T) {
	var statements, questions, right int
	for _, story := range testkit.BabiStories(t) {
		where := make(map[string]string)
		fact := 0
		for _, q := range story.Questions {
			for ; fact < len(story.Facts) && story.Facts[fact].Line < q.Line; fact++ {
				text := story.Facts[fact].Text
				statements++
				got := Extract(text)
				if len(got) != 1 || got[0].Predicate != "located_in" || !got[0].Exclusive {
					t.Fatalf("story %d: Extract(%q)=%v, want one exclusive located_in fact", story.Story, text, triples(got))
				}
				if !strings.HasPrefix(strings.ToLower(text), got[0].Subject+" ") {
					t.Fatalf("story %d: Extract(%q) subject %q is not the sentence's person", story.Story, text, got[0].Subject)
				}
				where[got[0].Subject] = got[0].Object
			}
			questions++
			person := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(q.Question, "Where is "), "?"))
			if where[person] == q.Answer {
				right++
			} else {
				t.Errorf("story %d: %s answered %q, want %q", story.Story, q.Question, where[person], q.Answer)
			}
		}
	}
	if questions == 0 {
		t.Fatal("bAbI file held no questions")
	}
	t.Logf("bAbI task 1: %d statements, %d/%d questions answered (%.1f%%)", statements, right, questions, 100*float64(right)/float64(questions))
}
