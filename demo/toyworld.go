package demo

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// The toy world of the belief-state substrate: three capitals, one exclusive
// relation, and a scripted stream of evidence.
var (
	capitals  = []string{"Paris", "Rome", "Berlin"}
	countries = []string{"France", "Italy", "Germany"}
	truth     = map[string]string{"Paris": "France", "Rome": "Italy", "Berlin": "Germany"}
)

const toyPredicate = "capital_of"

// Observation is one piece of evidence in the scripted world: a claim that
// city is the capital of country, with support s and reliability rho.
type Observation struct {
	City, Country string
	Support       float64
	Reliability   float64
}

// Phase is a named step of the script: observations, one turn each, then
// idle turns in which nothing is observed.
type Phase struct {
	Name         string
	Description  string
	Observations []Observation
	IdleTurns    int64
}

// PhaseResult is what the world looks like after a phase.
type PhaseResult struct {
	Phase             string   `json:"phase"`
	Description       string   `json:"description"`
	Turn              int64    `json:"turn"`
	Accuracy          float64  `json:"accuracy"`
	ContradictionRate float64  `json:"contradiction_rate"`
	MeanConfidence    float64  `json:"mean_top_confidence"`
	Groups            []Group  `json:"groups"`
	Contested         []string `json:"contested,omitempty"`
}

// Group is one city's competing capital_of beliefs.
type Group struct {
	City      string   `json:"city"`
	Truth     string   `json:"truth"`
	Top       string   `json:"top"`
	Contested bool     `json:"contested"`
	Members   []Member `json:"members"`
}

// Member is one competing belief: raw confidence (decayed), and normalized
// confidence after exclusivity.
type Member struct {
	ID         string  `json:"id"`
	Country    string  `json:"country"`
	Confidence float64 `json:"confidence"`
	Normalized float64 `json:"normalized"`
	Evidence   int     `json:"evidence"`
}

// Script returns the four phases of the toy world: formation, contradiction,
// reinforcement-driven stabilization and decay.
func Script() []Phase {
	var formation, contradiction, stabilization []Observation
	for i := 0; i < 8; i++ {
		for _, c := range capitals {
			formation = append(formation, Observation{c, truth[c], 1, 0.9})
		}
	}
	// Conflicting reports arrive: a wrong claim for every city, strongest
	// for Berlin, where it overtakes the truth.
	for i := 0; i < 6; i++ {
		contradiction = append(contradiction,
			Observation{"Paris", "Italy", 1, 0.8},
			Observation{"Rome", "France", 1, 0.8},
			Observation{"Berlin", "France", 1, 1},
			Observation{"Berlin", "France", 1, 1},
		)
	}
	// Reliable sources confirm the truth and refute the wrong claims.
	for i := 0; i < 12; i++ {
		for _, c := range capitals {
			stabilization = append(stabilization, Observation{c, truth[c], 1, 1})
		}
		stabilization = append(stabilization,
			Observation{"Paris", "Italy", -1, 1},
			Observation{"Rome", "France", -1, 1},
			Observation{"Berlin", "France", -1, 1},
		)
	}
	return []Phase{
		{Name: "formation", Description: "reliable reports of each capital form beliefs", Observations: formation},
		{Name: "contradiction", Description: "conflicting reports arrive; Berlin's wrong claim overtakes the truth", Observations: contradiction},
		{Name: "stabilization", Description: "reliable confirmations and refutations settle every group", Observations: stabilization},
		{Name: "decay", Description: "1,500 turns pass with no evidence; confidence drifts toward the prior", IdleTurns: 1500},
	}
}

// RunToyWorld plays the script against db (which should use
// belief.ToyWorldParams) and returns the state after each phase.
func RunToyWorld(ctx context.Context, db *store.DB, phases []Phase) ([]PhaseResult, error) {
	ids := map[[2]string]string{}
	var out []PhaseResult
	for _, ph := range phases {
		for _, o := range ph.Observations {
			if err := observe(ctx, db, ids, o); err != nil {
				return nil, fmt.Errorf("phase %s: %w", ph.Name, err)
			}
		}
		if ph.IdleTurns > 0 {
			if err := db.Write(ctx, func(tx *store.Tx) error { return tx.AdvanceTurns(ctx, ph.IdleTurns) }); err != nil {
				return nil, fmt.Errorf("phase %s: %w", ph.Name, err)
			}
		}
		r, err := Measure(ctx, db)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", ph.Name, err)
		}
		r.Phase, r.Description = ph.Name, ph.Description
		out = append(out, r)
	}
	return out, nil
}

// observe records one observation as one turn: the belief is created on
// first sight, then the evidence is appended through the store.
func observe(ctx context.Context, db *store.DB, ids map[[2]string]string, o Observation) error {
	key := [2]string{o.City, o.Country}
	return db.Write(ctx, func(tx *store.Tx) error {
		if _, err := tx.NextTurn(ctx); err != nil {
			return err
		}
		id, ok := ids[key]
		if !ok {
			var err error
			id, err = tx.CreateBelief(ctx, belief.Spec{
				Statement: fmt.Sprintf("%s is the capital of %s", o.City, o.Country),
				Subject:   o.City, Predicate: toyPredicate, Object: o.Country,
				Scope: belief.ScopeGlobal, Source: "toy-world",
			})
			if err != nil {
				return err
			}
			ids[key] = id
		}
		label := belief.Supports
		if o.Support < 0 {
			label = belief.Contradicts
		}
		_, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Label: label, Support: o.Support,
			Reliability: o.Reliability, Source: "toy-world"})
		return err
	})
}

// Measure computes accuracy against ground truth (the argmax of each city's
// capital_of group) and the contradiction rate (the share of groups that
// are contested) at the database's current turn.
func Measure(ctx context.Context, db *store.DB) (PhaseResult, error) {
	var turn int64
	if err := db.Write(ctx, func(tx *store.Tx) error {
		var err error
		turn, err = tx.Turn(ctx)
		return err
	}); err != nil {
		return PhaseResult{}, err
	}
	bs, err := db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}, Predicate: toyPredicate})
	if err != nil {
		return PhaseResult{}, err
	}
	p := db.Params()
	now := belief.Moment{Millis: db.Now().UnixMilli(), Turn: turn}
	byCity := map[string][]store.Belief{}
	for _, b := range bs {
		byCity[b.Subject] = append(byCity[b.Subject], b)
	}
	r := PhaseResult{Turn: turn}
	correct, contested := 0, 0
	var topSum float64
	for _, city := range capitals {
		members := byCity[city]
		g := Group{City: city, Truth: truth[city]}
		raw := make([]float64, len(members))
		for i, b := range members {
			raw[i] = p.ConfidenceAt(b.State, now)
		}
		norm := belief.Normalize(raw, p.Epsilon)
		for i, b := range members {
			g.Members = append(g.Members, Member{ID: b.ID, Country: b.Object, Confidence: round(raw[i]),
				Normalized: round(norm[i]), Evidence: b.EvidenceCount})
		}
		sort.Slice(g.Members, func(i, j int) bool { return g.Members[i].Normalized > g.Members[j].Normalized })
		if len(g.Members) > 0 {
			g.Top = g.Members[0].Country
			topSum += g.Members[0].Normalized
		}
		g.Contested = p.Contested(raw)
		if g.Top == g.Truth {
			correct++
		}
		if g.Contested {
			contested++
			r.Contested = append(r.Contested, city)
		}
		r.Groups = append(r.Groups, g)
	}
	n := float64(len(capitals))
	r.Accuracy, r.ContradictionRate, r.MeanConfidence = float64(correct)/n, float64(contested)/n, round(topSum/n)
	return r, nil
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
