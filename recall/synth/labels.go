package synth

import (
	"fmt"
	"sort"

	"github.com/credence-mem/credence/belief"
)

// addBeliefs adds the beliefs consolidation would have formed: one per
// (project, topic) slot the project talked about, global for the user's own
// preferences, and for one slot in five of an exclusive topic a rival
// belief with a different choice and as much evidence, so the group is
// contested.
func (h *History) addBeliefs(g *gen, slots map[[2]string][]string, choice map[[2]string]string, userChoice map[string]string) {
	byName := map[string]topic{}
	for _, t := range topics {
		byName[t.Name] = t
	}
	globalDone := map[string]string{}
	for _, slot := range sortedSlots(slots) {
		t := byName[slot[1]]
		if isGlobal(t) {
			if _, ok := globalDone[t.Name]; !ok {
				globalDone[t.Name] = h.addBelief(g, t, userChoice[t.Name], belief.ScopeGlobal, "")
			}
			continue
		}
		x := choice[slot]
		h.addBelief(g, t, x, belief.ScopeProject, slot[0])
		if t.Predicate != "" && g.r.Float64() < 0.2 {
			rival := pick(g.r, t.Choices)
			if rival != x {
				h.addBelief(g, t, rival, belief.ScopeProject, slot[0])
			}
		}
	}
}

func (h *History) addBelief(g *gen, t topic, x, scope, project string) string {
	stmt := g.fill(t.Belief, x)
	kind, subject, pred := belief.KindFact, "project", t.Predicate
	switch {
	case t.Guideline:
		kind, subject, pred = belief.KindGuideline, "assistant", "should"
	case scope == belief.ScopeGlobal:
		subject = "user"
	}
	key := fmt.Sprintf("b%d", len(h.Beliefs))
	h.Beliefs = append(h.Beliefs, Belief{
		Key:   key,
		Topic: t.Name,
		Spec: belief.Spec{Statement: stmt, Subject: subject, Predicate: pred, Object: x, Kind: kind, Scope: scope,
			ProjectPath: project, Source: "synth"},
		Supports:    2 + g.r.IntN(7),
		Contradicts: g.r.IntN(2),
	})
	return key
}

// addQueries writes QueriesPerSlot queries for every slot, labelled with the
// slot's episodes and the beliefs about the topic visible from the project,
// plus the off-topic queries.
func (h *History) addQueries(g *gen, slots map[[2]string][]string) {
	byName := map[string]topic{}
	for _, t := range topics {
		byName[t.Name] = t
	}
	for _, slot := range sortedSlots(slots) {
		t := byName[slot[1]]
		var rel []string
		rel = append(rel, slots[slot]...)
		for _, b := range h.Beliefs {
			if b.Topic == t.Name && (b.Spec.Scope == belief.ScopeGlobal || b.Spec.ProjectPath == slot[0]) {
				rel = append(rel, b.Key)
			}
		}
		order := g.r.Perm(len(t.Queries))
		for i := 0; i < h.queriesPerSlot(g) && i < len(order); i++ {
			h.Queries = append(h.Queries, Query{Text: g.fill(t.Queries[order[i]], ""), Project: slot[0], Topic: t.Name, Relevant: rel})
		}
	}
	for i := 0; i < g.cfg.OffTopicQueries; i++ {
		h.Queries = append(h.Queries, Query{Text: offTopic[i%len(offTopic)], Project: pick(g.r, h.Projects)})
	}
}

func (h *History) queriesPerSlot(g *gen) int { return max(g.cfg.QueriesPerSlot, 1) }

func sortedSlots(slots map[[2]string][]string) [][2]string {
	out := make([][2]string, 0, len(slots))
	for k := range slots {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}
