package recall

import (
	"strings"
	"testing"
	"time"
)

func TestBeliefLine(t *testing.T) {
	tests := []struct {
		name string
		hit  BeliefHit
		want string
	}{
		{"plain", BeliefHit{ID: "bl_01JC4Z8Q2MABCDEFGHJKMNPQRS", Statement: "User prefers Bun over Node.js", Confidence: 0.8512, Sources: 7},
			"- [Belief 0.85] User prefers Bun over Node.js (bl_01JC4Z8Q2M…, 7 sources)"},
		{"one source", BeliefHit{ID: "bl_01JC4Z8Q2MABCDEFGHJKMNPQRS", Statement: "Tabs", Confidence: 0.5, Sources: 1},
			"- [Belief 0.50] Tabs (bl_01JC4Z8Q2M…, 1 source)"},
		{"contested", BeliefHit{ID: "bl_01JC4Z8Q2MABCDEFGHJKMNPQRS", Statement: "The project uses pnpm", Confidence: 0.51, Sources: 4,
			Contested: true, Rivals: []Rival{{ID: "bl_01JC4Z9999ABCDEFGHJKMNPQRS", Statement: "The project uses bun", Confidence: 0.49}}},
			`- [Belief 0.51, contested] The project uses pnpm (bl_01JC4Z8Q2M…, 4 sources; uncertain, competes with "The project uses bun" 0.49 bl_01JC4Z9999…)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BeliefLine(tc.hit); got != tc.want {
				t.Errorf("BeliefLine()=\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestRender(t *testing.T) {
	at := time.Date(2025, 3, 2, 10, 0, 0, 0, time.UTC)
	fact := BeliefHit{ID: "bl_01JC4Z8Q2MABCDEFGHJKMNPQRS", Statement: "The project uses pnpm", Kind: "fact", Confidence: 0.8, Sources: 3}
	guide := BeliefHit{ID: "bl_01JC4Z8Q2NABCDEFGHJKMNPQRS", Statement: "Run go vet before committing", Kind: "guideline", Confidence: 0.7, Sources: 2}
	long := EpisodeHit{ID: "ep_01JC4Z8Q2PABCDEFGHJKMNPQRS", Kind: "exchange", Text: strings.Repeat("deploy notes ", 400), CreatedAt: at}
	tests := []struct {
		name          string
		res           Result
		budget, max   int
		want, dontWnt []string
		maxLen        int
	}{
		{"empty result renders nothing", Result{}, 2000, 10000, nil, nil, 0},
		{"sections in order", Result{Beliefs: []BeliefHit{guide, fact}, Episodes: []EpisodeHit{long}}, 2000, 10000,
			[]string{HeadingFacts + "\n- [Belief 0.80]", HeadingGuidelines + "\n- [Belief 0.70]", HeadingEpisodes + "\n- [2025-03-02 exchange] deploy notes"},
			nil, 2000},
		{"episodes shortened to the budget", Result{Episodes: []EpisodeHit{long, long, long}}, 600, 10000,
			[]string{HeadingEpisodes, "…"}, nil, 600},
		{"budget above the cap is clamped", Result{Episodes: []EpisodeHit{long}}, 50000, 300, []string{HeadingEpisodes}, nil, 300},
		{"a budget too small for anything", Result{Beliefs: []BeliefHit{fact}}, 10, 10000, nil, []string{HeadingFacts}, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.res, tc.budget, tc.max)
			if len(got) > tc.maxLen {
				t.Errorf("len(Render())=%d, want at most %d:\n%s", len(got), tc.maxLen, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Render() lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.dontWnt {
				if strings.Contains(got, w) {
					t.Errorf("Render() has %q:\n%s", w, got)
				}
			}
			if strings.Index(got, HeadingFacts) > strings.Index(got, HeadingGuidelines) && strings.Contains(got, HeadingGuidelines) && strings.Contains(got, HeadingFacts) {
				t.Errorf("facts after guidelines:\n%s", got)
			}
		})
	}
}

func TestSpelledAs(t *testing.T) {
	for _, c := range []struct{ value, statement, want string }{
		{"kim", "User's manager is Kim", "Kim"},
		{"initech", "User works at Initech", "Initech"},
		{"pnpm", "Project uses pnpm as its package manager", "pnpm"},
		{"Bun", "Project uses bun", "bun"},
		{"madrid", "User lives in Lisbon", "madrid"},
		{"", "User lives in Lisbon", ""},
		{"zürich", "User lives in Zürich", "Zürich"},
	} {
		if got := spelledAs(c.value, c.statement); got != c.want {
			t.Errorf("spelledAs(%q, %q)=%q, want %q", c.value, c.statement, got, c.want)
		}
	}
}

func TestRespell(t *testing.T) {
	beliefs := []BeliefHit{{Statement: "User's manager is Luis", Earlier: "kim"}, {Statement: "Project uses pnpm", SupersededBy: "bun"}}
	eps := []EpisodeHit{
		{Text: "Kim left, Luis is my manager now", Note: "now: luis; earlier: kim"},
		{Text: "we moved to BUN", Note: "now: bun; earlier: pnpm"},
		{Text: "I moved to Lisbon", SupersededBy: "lisbon"},
	}
	respell(beliefs, eps)
	if beliefs[0].Earlier != "Kim" || beliefs[1].SupersededBy != "bun" {
		t.Errorf("beliefs %+v: want earlier Kim, a tool as it is (bun)", beliefs)
	}
	if eps[0].Note != "now: Luis; earlier: Kim" || eps[1].Note != "now: bun; earlier: pnpm" || eps[2].SupersededBy != "Lisbon" {
		t.Errorf("episodes %+v: want names as the texts spell them and tools as they are", eps)
	}
}
