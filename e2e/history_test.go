package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/internal/testkit"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// The secret pasted by mistake in the api project: an OpenAI-style project
// key (made up, and built at run time so no scanner flags this file).
var pastedSecret = "sk-proj-" + strings.Repeat("Zq7", 8) + "Xw9Lm2Pa4Tk6Rb8Nc1Vd3"

// forgettable is a preference the person later asks credence to forget.
const forgettable = "solarized"

// step is one prompt and reply of the scripted history.
type step struct{ prompt, reply string }

// history is six sessions alternating between the two projects:
// preferences stated, repeated and changed, an instruction, a correction and
// a secret pasted by mistake.
func history(secret string) []struct {
	project string
	steps   []step
} {
	return []struct {
		project string
		steps   []step
	}{
		{"webapp", []step{
			{"We use pnpm as the package manager in this repo.", "Got it: pnpm for installs and scripts."},
			{"I prefer tabs over spaces.", "Noted, tabs."},
			{"Always run make lint before committing.", "Will do: make lint before every commit."},
			{"I prefer the solarized dark theme for screenshots.", "Solarized dark it is."},
		}},
		{"api", []step{
			{"We deploy with fly.io.", "Understood, deploys go to fly.io."},
			{"I prefer tabs over spaces.", "Tabs, as everywhere."},
			{"Here is the staging key for the smoke test: " + secret, "Thanks; I will not repeat the key anywhere."},
		}},
		{"webapp", []step{
			{"Reminder: we use pnpm as the package manager here.", "Yes, pnpm."},
			{"Always run make lint before committing.", "Right, make lint first."},
			{"I prefer tabs over spaces.", "Tabs."},
		}},
		{"api", []step{
			{"Actually, we switched from fly.io to render for deploys.", "Noted: render, not fly.io any more."},
			{"We deploy with render.", "Render it is."},
		}},
		{"webapp", []step{
			{"We use pnpm as the package manager, so add zod with it.", "Added zod with pnpm add zod."},
			{"Always run make lint before committing.", "make lint passed; committing."},
		}},
		{"api", []step{
			{"We deploy with render.", "Deploying to render."},
		}},
	}
}

func TestHistory(t *testing.T) {
	w := newWorld(t)
	roots := map[string]string{"webapp": w.project("webapp"), "api": w.project("api")}
	for i, sess := range history(pastedSecret) {
		s := w.start(roots[sess.project])
		for _, st := range sess.steps {
			if told := s.turn(st.prompt, st.reply); strings.Contains(told, pastedSecret) {
				t.Fatalf("session %d: Claude was told the secret", i+1)
			}
		}
		s.end()
		w.credence("consolidate") // fails the test if the command is missing or fails
	}

	t.Run("secret nowhere on disk", func(t *testing.T) {
		// Claude Code's own transcripts hold what was typed; everything
		// credence wrote must not.
		if hits := testkit.FilesContaining(t, w.home, pastedSecret, w.transcripts...); len(hits) > 0 {
			t.Errorf("the pasted key is on disk in %v", hits)
		}
		if hits := testkit.FilesContaining(t, w.home, pastedSecret); len(hits) == 0 {
			t.Error("the key is not even in the transcripts; the check would prove nothing")
		}
	})
	t.Run("recall", func(t *testing.T) {
		s := w.start(roots["webapp"])
		told := s.turn("Should I use npm or pnpm to add a date library?", "pnpm.")
		s.end()
		if !regexp.MustCompile(`\[Belief 0\.\d\d[^\]]*\] [^\n]*pnpm`).MatchString(told) {
			t.Errorf("webapp prompt was told:\n%s\nwant a pnpm belief line", told)
		}
		s = w.start(roots["api"])
		told = s.turn("Should this deploy go to fly.io or render?", "render.")
		s.end()
		if !regexp.MustCompile(`\[Belief 0\.\d\d[^\]]*\] [^\n]*(?i:render)`).MatchString(told) {
			t.Errorf("api prompt was told:\n%s\nwant a render belief line", told)
		}
		if strings.Contains(told, "pnpm") {
			t.Errorf("the api project was told about the webapp's package manager:\n%s", told)
		}
	})

	t.Run("MEMORY.md", func(t *testing.T) {
		cases := []struct {
			name, path string
			want       []string
			notInBel   []string
		}{
			{"webapp", markdown.ProjectMemoryPath(w.home, roots["webapp"], ""), []string{"pnpm", "make lint"}, []string{"fly.io", "render", "tabs"}},
			{"api", markdown.ProjectMemoryPath(w.home, roots["api"], ""), []string{"render"}, []string{"pnpm", "fly.io"}},
			{"global", filepath.Join(w.home, ".claude-memory", "MEMORY.md"), []string{"tabs"}, []string{"pnpm", "render"}},
		}
		for _, c := range cases {
			data, err := os.ReadFile(c.path)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			text := string(data)
			section := between(text, "<!-- CREDENCE:BELIEFS:BEGIN -->", "<!-- CREDENCE:BELIEFS:END -->")
			if section == "" {
				t.Errorf("%s MEMORY.md has no credence section:\n%s", c.name, text)
				continue
			}
			current := between(section, "## Beliefs", "## Former Beliefs")
			if current == "" {
				current = section
			}
			for _, want := range c.want {
				if !strings.Contains(strings.ToLower(section), strings.ToLower(want)) {
					t.Errorf("%s section lacks %q:\n%s", c.name, want, section)
				}
			}
			// A current bullet may name an old value it replaced ("switched
			// from fly.io to render"), never the old value alone.
			for _, line := range strings.Split(strings.ToLower(current), "\n") {
				for _, not := range c.notInBel {
					if strings.Contains(line, strings.ToLower(not)) && !strings.Contains(line, strings.ToLower(c.want[0])) {
						t.Errorf("%s section lists %q as current:\n%s", c.name, not, section)
					}
				}
			}
			if strings.Contains(text, pastedSecret) {
				t.Errorf("%s MEMORY.md holds the secret", c.name)
			}
		}
	})

	db := openDB(t, w)
	pnpm := findBelief(t, db, "pnpm")

	t.Run("why", func(t *testing.T) {
		out := w.credence("why", pnpm.ID)
		for _, want := range []string{pnpm.ID, "Confidence over time", "1.0 │", "Evidence (", "episode ep_", "pnpm as the package manager"} {
			if !strings.Contains(out, want) {
				t.Errorf("credence why lacks %q:\n%s", want, out)
			}
		}
		var card struct {
			Evidence []struct {
				EpisodeID string `json:"episode_id"`
			} `json:"evidence"`
			Timeline []struct{ Confidence float64 } `json:"timeline"`
		}
		if err := json.Unmarshal([]byte(w.credence("why", "--json", pnpm.ID)), &card); err != nil {
			t.Fatal(err)
		}
		if len(card.Evidence) < 3 || len(card.Timeline) < 4 {
			t.Errorf("why --json: %d evidence, %d timeline points; want ≥ 3 and ≥ 4", len(card.Evidence), len(card.Timeline))
		}
	})

	t.Run("forget leaves no byte", func(t *testing.T) {
		theme := findBelief(t, db, forgettable)
		db.Close()
		w.credence("forget", "--with-evidence", theme.ID)
		dataDir := filepath.Join(w.home, ".local", "share", "credence")
		if hits := testkit.FilesContaining(t, dataDir, forgettable); len(hits) > 0 {
			t.Errorf("%q is still in the data directory after forget: %v", forgettable, hits)
		}
		if hits := testkit.FilesContaining(t, dataDir, "pnpm"); len(hits) == 0 {
			t.Error("forget purged unrelated memory too")
		}
	})
}

// openDB opens the world's database to look up IDs.
func openDB(t *testing.T, w *world) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(w.home, ".local", "share", "credence", "credence.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// findBelief returns the active belief whose statement mentions word.
func findBelief(t *testing.T, db *store.DB, word string) store.Belief {
	t.Helper()
	bs, err := db.Beliefs(context.Background(), store.Filter{Statuses: []belief.Status{belief.Active}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if strings.Contains(strings.ToLower(b.Statement), word) {
			return b
		}
	}
	var all []string
	for _, b := range bs {
		all = append(all, b.Statement)
	}
	t.Fatalf("no active belief mentions %q; beliefs: %q", word, all)
	return store.Belief{}
}

// between returns the text between the first start and the next end after
// it ("" when start is missing; to the end when end is).
func between(text, start, end string) string {
	i := strings.Index(text, start)
	if i < 0 {
		return ""
	}
	rest := text[i+len(start):]
	if j := strings.Index(rest, end); j >= 0 {
		return rest[:j]
	}
	return rest
}
