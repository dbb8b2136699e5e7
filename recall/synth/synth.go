// Package synth generates deterministic synthetic Claude Code histories:
// projects, sessions, prompt and exchange episodes, the beliefs a
// consolidation would have drawn from them, and labelled recall queries
// with the episodes and beliefs each should find. The recall quality test
// and the hook benchmarks (scripts/bench-hooks) use it; nothing on the hook
// path imports it.
//
// synth imports store, embed and belief to load a history into a database.
// It must not import hooks, agent, the LLM client or sync code.
package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
)

// Config sizes a history.
type Config struct {
	Seed               uint64
	Projects           int
	SessionsPerProject int
	TurnsPerSession    int
	// ChatterShare is the share of turns about nothing worth remembering.
	ChatterShare float64
	// QueriesPerSlot is how many labelled queries each (project, topic)
	// slot gets; OffTopicQueries adds queries nothing is relevant to.
	QueriesPerSlot  int
	OffTopicQueries int
	// ExtraBeliefs adds unlabelled beliefs about the code, as a long
	// history accumulates (the benchmark's 10,000 beliefs).
	ExtraBeliefs int
	Start        time.Time
}

// Episode is a generated episode. Key labels it in queries.
type Episode struct {
	Key       string
	SessionID string
	Project   string
	Kind      string // "prompt" or "exchange"
	Text      string
	Topic     string // "" for chatter
	CreatedAt time.Time
}

// Belief is a generated belief with how much evidence backs it.
type Belief struct {
	Key         string
	Spec        belief.Spec
	Topic       string
	Supports    int
	Contradicts int
}

// Query is a labelled recall query: Relevant lists the keys of the episodes
// and beliefs that answer it (empty for an off-topic query).
type Query struct {
	Text     string
	Project  string
	Topic    string
	Relevant []string
}

// History is a generated history.
type History struct {
	Projects []string
	Episodes []Episode
	Beliefs  []Belief
	Queries  []Query
}

type gen struct {
	r   *rand.Rand
	cfg Config
}

// projectNames are the repositories of the synthetic developer.
var projectNames = []string{"storefront", "ledger-api", "ml-pipeline", "infra", "mobile-app", "docs-site", "cli-tool",
	"data-export", "auth-service", "search", "notifier", "admin-panel"}

// ProjectPath returns the project root of the i-th synthetic project.
func ProjectPath(i int) string {
	name := projectNames[i%len(projectNames)]
	if i >= len(projectNames) {
		name = fmt.Sprintf("%s-%d", name, i/len(projectNames))
	}
	return "/home/dev/src/" + name
}

// Generate builds a history from cfg. The same cfg always gives the same
// history.
func Generate(cfg Config) History {
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
	}
	g := &gen{r: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)), cfg: cfg}
	var h History
	// The user's own preferences (global topics) are one choice for all
	// projects; project topics get a choice per project.
	userChoice := map[string]string{}
	for _, t := range topics {
		if isGlobal(t) {
			userChoice[t.Name] = pick(g.r, t.Choices)
		}
	}
	slots := map[[2]string][]string{} // (project, topic) → episode keys
	choice := map[[2]string]string{}
	at := cfg.Start
	for p := 0; p < cfg.Projects; p++ {
		proj := ProjectPath(p)
		h.Projects = append(h.Projects, proj)
		// Each project talks about a subset of topics.
		var mine []topic
		for _, t := range topics {
			if g.r.Float64() < 0.75 {
				mine = append(mine, t)
				c := pick(g.r, t.Choices)
				if isGlobal(t) {
					c = userChoice[t.Name]
				}
				choice[[2]string{proj, t.Name}] = c
			}
		}
		for s := 0; s < cfg.SessionsPerProject; s++ {
			sid := fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Uint64()>>16)
			at = at.Add(time.Duration(1+g.r.IntN(20)) * time.Hour)
			for turn := 0; turn < cfg.TurnsPerSession; turn++ {
				at = at.Add(time.Duration(1+g.r.IntN(6)) * time.Minute)
				if len(mine) == 0 || g.r.Float64() < cfg.ChatterShare {
					prompt := g.fill(pick(g.r, chatter), "")
					h.addTurn(g, sid, proj, "", prompt, g.fill(pick(g.r, fillers), ""), at)
					continue
				}
				t := pick(g.r, mine)
				x := choice[[2]string{proj, t.Name}]
				prompt := g.fill(pick(g.r, t.Prompts), x)
				reply := g.fill(pick(g.r, t.Replies), x)
				keys := h.addTurn(g, sid, proj, t.Name, prompt, reply, at)
				slot := [2]string{proj, t.Name}
				slots[slot] = append(slots[slot], keys...)
			}
		}
	}
	h.addBeliefs(g, slots, choice, userChoice)
	h.extraBeliefs(g, cfg.ExtraBeliefs)
	h.addQueries(g, slots)
	return h
}

// addTurn records a prompt episode and its exchange and returns their keys.
func (h *History) addTurn(g *gen, sid, proj, topicName, prompt, reply string, at time.Time) []string {
	var b strings.Builder
	fmt.Fprintf(&b, "User: %s\n\nAssistant: %s", prompt, reply)
	for i, n := 0, 2+g.r.IntN(5); i < n; i++ {
		b.WriteString(" " + g.fill(pick(g.r, fillers), ""))
	}
	pk, ek := fmt.Sprintf("e%d", len(h.Episodes)), fmt.Sprintf("e%d", len(h.Episodes)+1)
	h.Episodes = append(h.Episodes,
		Episode{Key: pk, SessionID: sid, Project: proj, Kind: "prompt", Text: prompt, Topic: topicName, CreatedAt: at},
		Episode{Key: ek, SessionID: sid, Project: proj, Kind: "exchange", Text: b.String(), Topic: topicName, CreatedAt: at.Add(time.Minute)})
	return []string{pk, ek}
}

func isGlobal(t topic) bool {
	switch t.Name {
	case "editor", "indentation", "commit style", "branching":
		return true
	}
	return false
}
