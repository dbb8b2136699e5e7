package cli

import (
	"strings"
	"testing"

	"github.com/credence-mem/credence/card"
)

func TestExpandBelief(t *testing.T) {
	h := newCmdHarness(t)
	beliefID, promptID, _ := seedPromptAndExchange(t, h, "for the record my codename is Zanzibarquokka")
	var card card.Belief
	h.json(&card, "expand", beliefID)
	if card.ID != beliefID || card.Predicate != "codename_is" || card.Status != "active" {
		t.Errorf("card = %s %s %s, want %s codename_is active", card.ID, card.Predicate, card.Status, beliefID)
	}
	if card.StoredAlpha != 2 || card.StoredBeta != 1 || card.Confidence < 0.66 || card.Confidence > 0.67 {
		t.Errorf("α %v β %v confidence %v, want 2, 1 and 2/3", card.StoredAlpha, card.StoredBeta, card.Confidence)
	}
	if len(card.Evidence) != 1 || card.Evidence[0].Episode == nil || card.Evidence[0].Episode.ID != promptID {
		t.Fatalf("evidence = %+v, want one piece from episode %s", card.Evidence, promptID)
	}
	if len(card.Events) != 2 || card.Events[0].Kind != "create" || card.Events[1].Kind != "reinforce" {
		t.Errorf("events = %+v, want create then reinforce", card.Events)
	}
	text := h.ok("expand", beliefID[:12])
	for _, want := range []string{beliefID, "(user, codename_is, zanzibarquokka)", "α 2.00", "SUPPORTS", promptID, "History (2 events)"} {
		if !strings.Contains(text, want) {
			t.Errorf("expand output lacks %q:\n%s", want, text)
		}
	}
}

func TestExpandEpisode(t *testing.T) {
	h := newCmdHarness(t)
	beliefID, promptID, _ := seedPromptAndExchange(t, h, "for the record my codename is Zanzibarquokka")
	var ep struct {
		card.Episode
		Beliefs []card.Related `json:"beliefs"`
	}
	h.json(&ep, "expand", promptID)
	if ep.ID != promptID || ep.Kind != "prompt" || !strings.Contains(ep.Content, "Zanzibarquokka") {
		t.Errorf("episode = %+v", ep.Episode)
	}
	if len(ep.Beliefs) != 1 || ep.Beliefs[0].ID != beliefID {
		t.Errorf("beliefs = %+v, want %s", ep.Beliefs, beliefID)
	}
}

func TestExpandErrors(t *testing.T) {
	h := newCmdHarness(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no ID", []string{"expand"}, 2, "Usage"},
		{"unknown belief", []string{"expand", "bl_01ZZZZZZZZZZZZZZZZZZZZZZZZ"}, 1, "IDs look like"},
		{"unknown episode", []string{"expand", "ep_01ZZZZZZZZZZ"}, 1, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := h.run(tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d stderr %q, want %d and %q", code, errs, tt.code, tt.want)
			}
		})
	}
}
