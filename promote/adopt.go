package promote

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// adoptBullet turns a bullet a person added into a belief and returns its
// ID, and whether an existing belief was reused.
func (p *Promoter) adoptBullet(ctx context.Context, tx *store.Tx, t *target, a markdown.AddedBullet, note string) (string, bool, error) {
	scope, project := t.scopeForAdded()
	evidence := store.Evidence{Source: memorySource, Label: belief.Manual, Support: 1, Reliability: 1,
		Note: "bullet added; " + note}
	matches, err := tx.BeliefsByStatement(ctx, a.Statement, scope, project)
	if err != nil {
		return "", false, err
	}
	for _, m := range matches {
		switch m.Status {
		case belief.Active, belief.Rejected, belief.Archived, belief.Superseded:
		default:
			continue
		}
		evidence.BeliefID = m.ID
		if _, err := tx.AddEvidence(ctx, evidence); err != nil {
			return "", false, fmt.Errorf("record added bullet for %s: %w", m.ID, err)
		}
		if !m.Pinned {
			if _, err := tx.Mark(ctx, m.ID, belief.Pin); err != nil {
				return "", false, fmt.Errorf("pin %s: %w", m.ID, err)
			}
		}
		if m.Status != belief.Active {
			if _, err := tx.Mark(ctx, m.ID, belief.Reactivate); err != nil {
				return "", false, fmt.Errorf("reactivate %s: %w", m.ID, err)
			}
		}
		if err := supersedeRivals(ctx, tx, m.State, note); err != nil {
			return "", false, err
		}
		return m.ID, true, nil
	}
	spec := belief.Spec{Statement: a.Statement, Kind: belief.KindFact, Scope: scope, ProjectPath: project,
		Source: userSource, Pinned: true}
	if f, ok := tripleOf(a.Statement); ok {
		spec.Subject, spec.Predicate, spec.Object = f.Subject, f.Predicate, f.Object
		if f.Kind == extract.KindGuideline {
			spec.Kind = belief.KindGuideline
		}
	}
	if a.Guideline {
		spec.Kind = belief.KindGuideline
	}
	id, err := tx.CreateBelief(ctx, spec)
	if err != nil {
		return "", false, fmt.Errorf("create belief for added bullet: %w", err)
	}
	evidence.BeliefID = id
	if _, err := tx.AddEvidence(ctx, evidence); err != nil {
		return "", false, fmt.Errorf("record added bullet for %s: %w", id, err)
	}
	spec.Scope, spec.ProjectPath = scope, project
	if err := supersedeRivals(ctx, tx, belief.State{ID: id, Spec: spec}, note); err != nil {
		return "", false, err
	}
	return id, false, nil
}

// supersedeRivals makes a person's bullet the clear winner of its exclusive
// group: every other active belief with the same scope, project, subject and
// exclusive predicate gets USER_EDIT evidence against it and is superseded
// by it. Writing "User lives in Lisbon" into MEMORY.md is as direct a
// statement as the user can make; left to compete with "User lives in
// Tokyo", the group would be contested and the person's line would vanish
// from the file on the next render.
func supersedeRivals(ctx context.Context, tx *store.Tx, winner belief.State, note string) error {
	if winner.Subject == "" || winner.Predicate == "" {
		return nil
	}
	var exclusive bool
	err := tx.QueryRow(ctx, `SELECT exclusive FROM relations WHERE predicate = ?`, winner.Predicate).Scan(&exclusive)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !exclusive) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read relation %s: %w", winner.Predicate, err)
	}
	rows, err := tx.Query(ctx, `SELECT id FROM beliefs WHERE status = 'active' AND id != ? AND scope = ?
		AND subject = ? AND predicate = ? AND (scope = 'global' OR project_path = ?)`,
		winner.ID, winner.Scope, winner.Subject, winner.Predicate, winner.ProjectPath)
	if err != nil {
		return fmt.Errorf("find rivals of %s: %w", winner.ID, err)
	}
	var rivals []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("find rivals of %s: %w", winner.ID, err)
		}
		rivals = append(rivals, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("find rivals of %s: %w", winner.ID, err)
	}
	for _, id := range rivals {
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, Source: memorySource, Label: belief.UserEdit,
			Support: -1, Reliability: 1, Note: "a person stated " + winner.ID + "; " + note}); err != nil {
			return fmt.Errorf("record contradiction of %s: %w", id, err)
		}
		if _, err := tx.Supersede(ctx, id, winner.ID); err != nil {
			return fmt.Errorf("supersede %s: %w", id, err)
		}
	}
	return nil
}

// tripleOf extracts the (subject, predicate, object) of a bullet when the
// offline extractor finds exactly one fact in it. Bullets in MEMORY.md are
// usually written in the third person ("User prefers tabs"), which the
// extractor, made for what people say in a prompt, reads in the first
// person, so that form is tried as well.
func tripleOf(statement string) (extract.Fact, bool) {
	for _, text := range []string{statement, firstPerson(statement)} {
		if text == "" {
			continue
		}
		if facts := extract.Extract(text); len(facts) == 1 {
			return facts[0], true
		}
	}
	return extract.Fact{}, false
}

// firstPerson rewrites "User prefers tabs" as "I prefer tabs" (and "User is",
// "User has" as "I am", "I have"); other text gives "".
func firstPerson(s string) string {
	rest, ok := strings.CutPrefix(s, "User ")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "The user "); !ok {
			return ""
		}
	}
	verb, tail, _ := strings.Cut(rest, " ")
	switch {
	case verb == "is":
		verb = "am"
	case verb == "has":
		verb = "have"
	case strings.HasSuffix(verb, "ies") && len(verb) > 3:
		verb = verb[:len(verb)-3] + "y"
	case strings.HasSuffix(verb, "sses"), strings.HasSuffix(verb, "shes"), strings.HasSuffix(verb, "ches"),
		strings.HasSuffix(verb, "xes"), strings.HasSuffix(verb, "zes"):
		verb = verb[:len(verb)-2]
	case strings.HasSuffix(verb, "s") && !strings.HasSuffix(verb, "ss"):
		verb = verb[:len(verb)-1]
	default:
		return ""
	}
	return strings.TrimSpace("I " + verb + " " + tail)
}
