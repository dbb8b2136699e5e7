package cli

import (
	"context"
	"sort"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// exclusiveGroup is the active beliefs that compete for one (scope,
// project, subject, exclusive predicate) slot, with their confidences.
type exclusiveGroup struct {
	Scope, Project, Subject, Predicate string
	Members                            []store.Belief
	Raw                                []float64 // decayed confidence
	Normalized                         []float64 // after exclusivity
	Contested                          bool
}

type groupSlot struct{ scope, project, subject, predicate string }

func slotOf(b store.Belief) groupSlot {
	k := groupSlot{b.Scope, "", b.Subject, b.Predicate}
	if b.Scope == belief.ScopeProject {
		k.project = b.ProjectPath
	}
	return k
}

// confidenceView is the confidence of every active belief as recall sees
// it: decayed to now, then normalized within its exclusive group.
type confidenceView struct {
	Turn      int64
	Effective map[string]float64
	Raw       map[string]float64
	Groups    []*exclusiveGroup
	groupOfID map[string]*exclusiveGroup
}

// viewConfidences computes the confidence view of the given active beliefs,
// which must include every member of any exclusive group that matters.
func viewConfidences(ctx context.Context, db *store.DB, active []store.Belief, now time.Time) (*confidenceView, error) {
	turn, err := db.CurrentTurn(ctx)
	if err != nil {
		return nil, err
	}
	exclusive, err := db.ExclusivePredicates(ctx)
	if err != nil {
		return nil, err
	}
	p := db.Params()
	v := &confidenceView{Turn: turn, Effective: map[string]float64{}, Raw: map[string]float64{}, groupOfID: map[string]*exclusiveGroup{}}
	bySlot := map[groupSlot]*exclusiveGroup{}
	for _, b := range active {
		c := b.Confidence(p, now, turn)
		v.Raw[b.ID], v.Effective[b.ID] = c, c
		if b.Predicate == "" || !exclusive[b.Predicate] {
			continue
		}
		k := slotOf(b)
		g := bySlot[k]
		if g == nil {
			g = &exclusiveGroup{Scope: k.scope, Project: k.project, Subject: k.subject, Predicate: k.predicate}
			bySlot[k] = g
			v.Groups = append(v.Groups, g)
		}
		g.Members = append(g.Members, b)
		g.Raw = append(g.Raw, c)
	}
	for _, g := range v.Groups {
		g.Normalized = belief.Normalize(g.Raw, p.Epsilon)
		g.Contested = p.Contested(g.Raw)
		for i, m := range g.Members {
			v.Effective[m.ID] = g.Normalized[i]
			v.groupOfID[m.ID] = g
		}
		sortGroup(g)
	}
	return v, nil
}

// sortGroup orders a group's members by confidence, strongest first.
func sortGroup(g *exclusiveGroup) {
	idx := make([]int, len(g.Members))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return g.Raw[idx[a]] > g.Raw[idx[b]] })
	m, r, n := make([]store.Belief, len(idx)), make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		m[i], r[i], n[i] = g.Members[j], g.Raw[j], g.Normalized[j]
	}
	g.Members, g.Raw, g.Normalized = m, r, n
}

// contested reports whether the belief is in a contested group.
func (v *confidenceView) contested(id string) bool {
	g := v.groupOfID[id]
	return g != nil && g.Contested
}

// activeBeliefs returns every active belief visible from project (its own
// and global ones), or every active belief when project is empty.
func activeBeliefs(ctx context.Context, db *store.DB, project string) ([]store.Belief, error) {
	return db.Beliefs(ctx, store.Filter{Statuses: []belief.Status{belief.Active}, Project: project})
}

// chosenProject is the project a listing is limited to: dir (--project),
// or the current project with here (--here); empty means every project.
func chosenProject(env *Env, dir string, here bool) string {
	if here {
		return workingProject(env)
	}
	return projectFlag(env, dir)
}

// openActiveView opens the database and loads the active beliefs visible
// from project (every active belief when it is empty) with their
// confidence view: what conflicts, neighborhood and beliefs start from.
// The caller closes the database.
func openActiveView(env *Env, project string) (*store.DB, []store.Belief, *confidenceView, error) {
	_, db, err := openDatabase(env)
	if err != nil {
		return nil, nil, nil, err
	}
	active, err := activeBeliefs(env.Ctx, db, project)
	if err == nil {
		var view *confidenceView
		if view, err = viewConfidences(env.Ctx, db, active, db.Now()); err == nil {
			return db, active, view, nil
		}
	}
	db.Close()
	return nil, nil, nil, err
}
