package promote

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// memorySource is the evidence source of a person's edit to MEMORY.md.
const memorySource = "memory.md"

// edits is what a person changed in a file's section since credence wrote
// it: promoted bullets deleted, former bullets deleted, bullets added.
type edits struct {
	deleted       []markdown.Entry
	deletedFormer []markdown.FormerEntry
	added         []markdown.AddedBullet
}

func (e edits) empty() bool {
	return len(e.deleted) == 0 && len(e.deletedFormer) == 0 && len(e.added) == 0
}

// findEdits compares the section a file holds now with the one credence
// knows it wrote. A file without a section tells nothing (the markers may
// have been damaged; the next write repairs them), so it yields no edits.
// Bullets in credence's own format that credence did not write (a copy of
// the file from another machine, a database that was reset) are not a
// person's statement and are not taken as additions.
//
// Bullets a person types under ## Former Beliefs would be dropped by the
// next render (the renderer owns that heading), so they are adopted like
// those under ## Beliefs: the line lives on as a belief of its own. One
// that is only a former bullet with its figures edited away is matched to
// that former belief and is neither a deletion nor an addition.
func findEdits(onDisk markdown.Section, current markdown.ParsedSection, ok bool) edits {
	if !ok {
		return edits{}
	}
	ch := markdown.DiffSection(onDisk, current)
	e := edits{deleted: ch.Deleted}
	seen := map[string]bool{}
	for _, a := range ch.Added {
		if !a.Generated() {
			e.added = append(e.added, a)
			seen[markdown.StatementKey(a.Statement)] = true
		}
	}
	kept := map[string]bool{}
	former := map[string]string{}
	for _, f := range onDisk.Former {
		former[markdown.StatementKey(f.Statement)] = f.ID
	}
	for _, b := range current.Bullets(markdown.HeadingFormer) {
		if b.Generated() {
			continue
		}
		b.Statement = markdown.StripFormerTag(b.Statement)
		k := markdown.StatementKey(b.Statement)
		if id, ok := former[k]; ok {
			kept[id] = true
			continue
		}
		if k == "" || seen[k] || inSection(onDisk, k) {
			continue
		}
		seen[k] = true
		e.added = append(e.added, markdown.AddedBullet{Bullet: b})
	}
	for _, f := range ch.DeletedFormer {
		if !kept[f.ID] {
			e.deletedFormer = append(e.deletedFormer, f)
		}
	}
	return e
}

// inSection reports whether a promoted entry of s has statement key k.
func inSection(s markdown.Section, k string) bool {
	for _, list := range [][]markdown.Entry{s.Beliefs, s.Guidelines} {
		for _, e := range list {
			if markdown.StatementKey(e.Statement) == k {
				return true
			}
		}
	}
	return false
}

// editOutcome counts what applying edits did.
type editOutcome struct {
	rejected, cleared, created, attached int
}

// applyEdits records a person's edits to the file of t, in one transaction
// together with the file's record, so an edit is never applied twice:
//
//   - A deleted promoted bullet is USER_EDIT evidence against its belief
//     (s = −1, ρ = 1, source "memory.md"), the belief is rejected, and its
//     marks are cleared. It is not promoted again until supporting evidence
//     newer than the rejection arrives (store.RejectedSinceSupport).
//   - A deleted former bullet only clears the marks: the person tidied up a
//     belief that was already on its way out.
//   - An added bullet becomes a pinned, user-sourced belief with MANUAL
//     evidence. If a belief with the same statement exists in the same scope
//     (active, rejected, archived or superseded), that belief gets the
//     evidence and is pinned and reactivated instead of being duplicated.
//
// rec is updated to what the file now holds: deleted entries out, added
// ones in (with their belief IDs), so the next comparison starts from here.
func (p *Promoter) applyEdits(ctx context.Context, t *target, e edits, rec *record) (editOutcome, error) {
	var out editOutcome
	gone := map[string]bool{}
	var added []markdown.Entry
	var addedGuidelines []markdown.Entry
	note := "edited in " + t.path
	err := p.db.Write(ctx, func(tx *store.Tx) error {
		out, gone, added, addedGuidelines = editOutcome{}, map[string]bool{}, nil, nil
		for _, d := range e.deleted {
			gone[d.ID] = true
			status, err := beliefStatus(ctx, tx, d.ID)
			if err != nil || status == "" || status == belief.Forgotten {
				if err != nil {
					return err
				}
				continue
			}
			if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: d.ID, Source: memorySource, Label: belief.UserEdit,
				Support: -1, Reliability: 1, Note: "bullet deleted; " + note}); err != nil {
				return fmt.Errorf("record deletion of %s: %w", d.ID, err)
			}
			if _, err := tx.Mark(ctx, d.ID, belief.Reject); err != nil {
				return fmt.Errorf("reject %s: %w", d.ID, err)
			}
			if err := tx.SetPromotion(ctx, d.ID, 0, 0); err != nil {
				return err
			}
			out.rejected++
		}
		for _, f := range e.deletedFormer {
			gone[f.ID] = true
			if err := tx.SetPromotion(ctx, f.ID, 0, 0); err != nil {
				return err
			}
			out.cleared++
		}
		for _, a := range e.added {
			id, attached, err := p.adoptBullet(ctx, tx, t, a, note)
			if err != nil {
				return err
			}
			if attached {
				out.attached++
			} else {
				out.created++
			}
			entry := markdown.Entry{ID: id, Statement: a.Statement}
			if a.Guideline {
				addedGuidelines = append(addedGuidelines, entry)
			} else {
				added = append(added, entry)
			}
		}
		next := *rec
		next.written = without(rec.written, gone)
		next.written.Beliefs = append(next.written.Beliefs, added...)
		next.written.Guidelines = append(next.written.Guidelines, addedGuidelines...)
		if rec.pending != nil {
			pending := without(*rec.pending, gone)
			pending.Beliefs = append(pending.Beliefs, added...)
			pending.Guidelines = append(pending.Guidelines, addedGuidelines...)
			next.pending = &pending
		}
		row, err := next.row()
		if err != nil {
			return err
		}
		if err := tx.PutMemorySection(ctx, row); err != nil {
			return err
		}
		*rec = next
		rec.found = true
		return nil
	})
	if err != nil {
		return editOutcome{}, fmt.Errorf("apply edits to %s: %w", t.path, err)
	}
	return out, nil
}

// beliefStatus returns a belief's status inside tx, or "" when it does not
// exist on this machine.
func beliefStatus(ctx context.Context, tx *store.Tx, id string) (belief.Status, error) {
	var s string
	err := tx.QueryRow(ctx, `SELECT status FROM beliefs WHERE id = ?`, id).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read status of %s: %w", id, err)
	}
	return belief.Status(s), nil
}
