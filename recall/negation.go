package recall

import (
	"context"
	"slices"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// A belief that denies a value ("Project no longer uses Jest", read from
// "jest is gone, vitest replaced it last week") ends the belief that
// affirms it ("Project uses Jest for tests") when it rests on a message
// at least as new: the consolidator keeps both active (a negation is
// never exclusive, and the affirmation only lost some confidence), and
// shown side by side they would hand Claude both answers. The slot's
// value may be unknown (the replacement was not read), so this is
// separate from the slots' current truth: the affirmation is left out,
// or marked when the prompt asks about the past, and so is an older
// episode that states the ended value.

// negationPrefix marks a negated belief's predicate:
// (project, not_uses_test_runner, jest).
const negationPrefix = relations.NotPrefix

// endKey names one value of one slot. Tool slots are one slot for the
// person and the project ("I use jest", "we no longer use jest"), as the
// consolidator holds them.
type endKey struct{ subject, predicate, object string }

func endKeyOf(subject, predicate, object string) endKey {
	if relations.ToolSlot(predicate) && (subject == extract.SubjectUser || subject == extract.SubjectProject) {
		subject = extract.SubjectProject
	}
	return endKey{subject, predicate, normObject(object)}
}

// ending is the newest denial of one value: its statement, and the time
// of the newest message it rests on.
type ending struct {
	statement string
	at        int64
	// episode is the newest message the denial rests on ("jest is gone,
	// vitest replaced it"), and object the value it ended, as said.
	episode, object string
}

// negations reads the active, visible denials of the values the shown
// beliefs affirm, each dated by the newest message it rests on.
func (s *search) negations(ctx context.Context, beliefs []BeliefHit, states map[string]store.Belief) (map[endKey]ending, error) {
	if !s.q.AsOf.IsZero() || len(beliefs) == 0 {
		return nil, nil
	}
	asked := map[string]bool{}
	var found []store.Belief
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || st.Predicate == "" || strings.HasPrefix(st.Predicate, negationPrefix) || asked[st.Predicate] {
			continue
		}
		asked[st.Predicate] = true
		subjects := []string{st.Subject}
		if relations.ToolSlot(st.Predicate) {
			subjects = []string{extract.SubjectUser, extract.SubjectProject}
		}
		ns, err := s.r.DB.RecallSlot(ctx, negationPrefix+st.Predicate, subjects, s.q.Project)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			if n.Status == belief.Active && s.visible(n.Scope, n.ProjectPath) {
				found = append(found, n)
			}
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	said, err := s.newestSupport(ctx, found)
	if err != nil {
		return nil, err
	}
	out := map[endKey]ending{}
	for _, n := range found {
		at := n.UpdatedAt
		if sup, ok := said[n.ID]; ok && sup.At < at {
			at = sup.At
		}
		k := endKeyOf(n.Subject, strings.TrimPrefix(n.Predicate, negationPrefix), n.Object)
		if e, ok := out[k]; !ok || at > e.at {
			out[k] = ending{n.Statement, at, said[n.ID].EpisodeID, n.Object}
		}
	}
	return out, nil
}

// endedBelief returns the denial that ends a shown belief: one that
// rests on a message at least as new as the belief's newest.
func endedBelief(ends map[endKey]ending, st store.Belief) (ending, bool) {
	if len(ends) == 0 || strings.HasPrefix(st.Predicate, negationPrefix) {
		return ending{}, false
	}
	e, ok := ends[endKeyOf(st.Subject, st.Predicate, st.Object)]
	return e, ok && e.at >= st.UpdatedAt
}

// endedClaim returns the denial that ends what an episode states: one
// that rests on a newer message.
func endedClaim(ends map[endKey]ending, c claim, at int64) (ending, bool) {
	if len(ends) == 0 {
		return ending{}, false
	}
	e, ok := ends[endKeyOf(c.slot.subject, c.slot.predicate, c.object)]
	return e, ok && e.at > at
}

// endNote is what a shown message that a denial rests on is told to say:
// it names the value it ended ("jest is gone, vitest replaced it last
// week" names jest), which is no longer current.
func endNote(ends map[endKey]ending, episodeID string) string {
	var ended []string
	for _, e := range ends {
		if e.episode == episodeID && e.episode != "" {
			ended = append(ended, displayObject(e.object))
		}
	}
	if len(ended) == 0 {
		return ""
	}
	slices.Sort(ended)
	return "no longer: " + strings.Join(ended, ", ")
}

// dropToldDenials leaves out a denial that a shown belief of its slot
// already tells: beside "User uses Zed as their editor (earlier: Sublime
// Text)", "User does not use Sublime Text as their editor" says nothing
// more, and it names the old value without saying it is the old one.
func dropToldDenials(beliefs []BeliefHit, states map[string]store.Belief) []BeliefHit {
	type slotValue struct{ subject, predicate, value string }
	told := map[slotValue]bool{}
	for _, b := range beliefs {
		if st, ok := states[b.ID]; ok && b.Earlier != "" && b.SupersededBy == "" {
			told[slotValue{st.Subject, st.Predicate, normObject(b.Earlier)}] = true
		}
	}
	if len(told) == 0 {
		return beliefs
	}
	out := beliefs[:0:0]
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if base, denial := strings.CutPrefix(st.Predicate, relations.NotPrefix); ok && denial &&
			told[slotValue{st.Subject, base, normObject(st.Object)}] {
			continue
		}
		out = append(out, b)
	}
	return out
}

// dropSaidByVersion leaves out a shown belief that only names a language
// or runtime whose version another shown belief holds: "Project uses Go"
// beside "Project uses Go 1.21" repeats it.
func dropSaidByVersion(beliefs []BeliefHit, states map[string]store.Belief) []BeliefHit {
	versioned := map[[2]string]bool{} // subject, tool
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if !ok || b.SupersededBy != "" || b.Doubted || b.Contested {
			continue
		}
		if r, ok := relations.ByPredicate(st.Predicate); ok && r.Family == relations.FamilyLanguageVersion && r.VersionOf != "" {
			versioned[[2]string{st.Subject, r.VersionOf}] = true
		}
	}
	if len(versioned) == 0 {
		return beliefs
	}
	out := beliefs[:0:0]
	for _, b := range beliefs {
		st, ok := states[b.ID]
		if ok && (st.Predicate == "uses_language" || st.Predicate == "uses_runtime") && b.SupersededBy == "" {
			name := normObject(st.Object)
			if t, tool := relations.LookupTool(name); tool {
				name = t.Name
			}
			if versioned[[2]string{st.Subject, name}] {
				continue
			}
		}
		out = append(out, b)
	}
	return out
}
