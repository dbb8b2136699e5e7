package consolidate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/internal/testkit"
	"github.com/credence-mem/credence/store"
)

// TestBabiTask1 replays the 200 bAbI task-1 stories (40 with -short or
// -race) as episodes, each story
// in its own project, in offline mode. Before every question the statements
// so far are consolidated by a full cycle; the answer is the object of the
// most confident active located_in belief about the person. Every answer
// must be right: a person's location is an exclusive predicate whose
// newest value must win and supersede the old one.
func TestBabiTask1(t *testing.T) {
	stories := testkit.BabiStories(t)
	if testing.Short() || raceEnabled {
		stories = stories[:40] // the full replay takes ~15 s, ten times that under -race
	}
	e := newEnv(t)
	questions, right := 0, 0
	for _, s := range stories {
		project := fmt.Sprintf("/babi/story-%03d", s.Story)
		next := 0
		for _, q := range s.Questions {
			for ; next < len(s.Facts) && s.Facts[next].Line < q.Line; next++ {
				e.say(project, s.Facts[next].Text)
			}
			e.run()
			person := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(q.Question, "Where is "), "?"))
			got := e.whereIs(project, person)
			questions++
			if got == q.Answer {
				right++
			} else if right+5 > questions { // report the first few failures in full
				t.Errorf("story %d, line %d: %s top belief %q, want %q", s.Story, q.Line, q.Question, got, q.Answer)
			}
		}
	}
	acc := float64(right) / float64(questions)
	t.Logf("bAbI task 1 (offline consolidation): %d/%d questions right (%.1f%%)", right, questions, 100*acc)
	if right != questions {
		t.Errorf("accuracy %.3f, want 1.0", acc)
	}
}

// whereIs answers from the most confident active located_in belief.
func (e *testEnv) whereIs(project, person string) string {
	var best string
	bestConf := -1.0
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Scope: belief.ScopeProject, Project: project, Subject: person,
		Predicate: "located_in", Statuses: []belief.Status{belief.Active}})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, b := range bs {
		if c := e.conf(b); c > bestConf {
			best, bestConf = b.Object, c
		}
	}
	return best
}
