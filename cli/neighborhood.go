package cli

import (
	"math"
	"sort"
	"strings"

	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "neighborhood",
		Usage:   "[--project dir | --here] [--k 20] [--json] <entity>",
		Summary: "the beliefs around an entity: direct and one hop away, by confidence², recency and distance",
		Run:     runNeighborhood,
	})
}

// Neighborhood scoring (DESIGN §6, seed 003): confidence^2 ·
// exp(−recencyRate·age_in_turns) · hop penalty.
const (
	neighborhoodPower       = 2.0
	neighborhoodRecencyRate = 0.05
	neighborhoodHop0        = 1.0
	neighborhoodHop1        = 0.7
)

// neighbor is one belief of a neighborhood.
type neighbor struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Subject    string  `json:"subject"`
	Predicate  string  `json:"predicate"`
	Object     string  `json:"object"`
	Hop        int     `json:"hop"`
	Via        string  `json:"via,omitempty"`
	Confidence float64 `json:"confidence"`
	AgeTurns   int64   `json:"age_turns"`
	Score      float64 `json:"score"`
	Contested  bool    `json:"contested,omitempty"`
}

func runNeighborhood(env *Env, args []string) int {
	fs := env.Flags("neighborhood")
	projectDir := fs.String("project", "", "only this project's beliefs and global ones")
	here := fs.Bool("here", false, "only the current project's beliefs and global ones")
	k := fs.Int("k", 20, "how many beliefs to show")
	asJSON := fs.Bool("json", false, "print the neighborhood as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	entity := store.NormalizeEntity(strings.Join(fs.Args(), " "))
	if entity == "" || *k <= 0 {
		fs.Usage()
		return 2
	}
	db, active, view, err := openActiveView(env, chosenProject(env, *projectDir, *here))
	if err != nil {
		return env.Fail("neighborhood", err)
	}
	defer db.Close()
	ns := neighborhood(active, view, entity, *k)
	if *asJSON {
		return env.JSON(map[string]any{"entity": entity, "turn": view.Turn, "beliefs": ns})
	}
	if len(ns) == 0 {
		env.Printf("no active belief mentions %q\n", entity)
		return 0
	}
	env.Printf("beliefs around %q (score = confidence² · e^(−0.05·age in turns) · hop penalty)\n", entity)
	for _, n := range ns {
		hop := "direct"
		if n.Hop == 1 {
			hop = "via " + n.Via
		}
		note := ""
		if n.Contested {
			note = " (contested)"
		}
		env.Printf("  %.3f  [%.2f] %s  %s — %s%s\n", n.Score, n.Confidence, ids.Short(n.ID),
			squeezeText(n.Statement, 60), hop, note)
	}
	return 0
}

// neighborhood scores the beliefs that mention entity (hop 0) and those
// that mention an entity a hop-0 belief connects it to (hop 1), and returns
// the top k.
func neighborhood(active []store.Belief, view *confidenceView, entity string, k int) []neighbor {
	best := map[string]neighbor{}
	score := func(b store.Belief, hop int, via string) {
		conf := view.Effective[b.ID]
		age := max(view.Turn-b.CountsAt.Turn, 0)
		penalty := neighborhoodHop0
		if hop == 1 {
			penalty = neighborhoodHop1
		}
		n := neighbor{ID: b.ID, Statement: b.Statement, Subject: b.Subject, Predicate: b.Predicate, Object: b.Object,
			Hop: hop, Via: via, Confidence: roundTo(conf, 4), AgeTurns: age, Contested: view.contested(b.ID),
			Score: roundTo(math.Pow(conf, neighborhoodPower)*math.Exp(-neighborhoodRecencyRate*float64(age))*penalty, 6)}
		if old, ok := best[b.ID]; !ok || n.Score > old.Score {
			best[b.ID] = n
		}
	}
	next := map[string]bool{}
	for _, b := range active {
		subj, obj := store.NormalizeEntity(b.Subject), store.NormalizeEntity(b.Object)
		switch {
		case mentions(subj, entity):
			score(b, 0, "")
			if obj != "" && obj != entity {
				next[obj] = true
			}
		case mentions(obj, entity):
			score(b, 0, "")
			if subj != "" && subj != entity {
				next[subj] = true
			}
		}
	}
	for _, b := range active {
		if _, direct := best[b.ID]; direct {
			continue
		}
		for _, e := range []string{store.NormalizeEntity(b.Subject), store.NormalizeEntity(b.Object)} {
			if next[e] {
				score(b, 1, e)
			}
		}
	}
	out := make([]neighbor, 0, len(best))
	for _, n := range best {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// mentions reports whether a normalized name is the entity or holds it as
// whole words ("use pnpm" mentions "pnpm").
func mentions(name, entity string) bool {
	if name == "" {
		return false
	}
	if name == entity {
		return true
	}
	return strings.Contains(" "+name+" ", " "+entity+" ")
}
