package hooks

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// Digest limits: SessionStart says a few things or nothing.
const (
	maxDigestItems = 3
	maxChanged     = 50
)

// DigestHeading opens the SessionStart digest.
const DigestHeading = "## credence: since your last session"

// sessionStart prints a short digest when there is something worth saying
// before the first prompt: contested beliefs of this project (and global
// ones), and beliefs formed or dropped since the project's previous session.
// It records the session either way.
func (h *handler) sessionStart(ctx context.Context, in Input) error {
	rec := h.receive(in)
	project := h.project(in.Cwd)
	db, release, err := h.database(ctx)
	if err != nil {
		return err
	}
	defer release()
	rctx, cancel := context.WithDeadline(ctx, h.deadline)
	defer cancel()
	digest, err := h.digest(rctx, db, project, in.SessionID)
	if err == nil {
		err = h.emit(rctx, digest)
	}
	if serr := h.store(ctx, db, rec); serr != nil {
		return serr
	}
	return err
}

// digest builds the SessionStart text, or "" when there is nothing to say.
func (h *handler) digest(ctx context.Context, db *store.DB, project, sessionID string) (string, error) {
	p := db.Params()
	turn, err := db.CurrentTurn(ctx)
	if err != nil {
		return "", err
	}
	now := h.now()
	contested, err := contestedLines(ctx, db, p, project, now, turn)
	if err != nil {
		return "", err
	}
	var added, dropped []string
	prev, err := db.PreviousSession(ctx, project, sessionID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// A first session: everything would be "new", which says nothing.
	case err != nil:
		return "", err
	default:
		changed, err := db.BeliefsChangedSince(ctx, prev.LastSeenAt, project, maxChanged)
		if err != nil {
			return "", err
		}
		for _, b := range changed {
			conf := b.Confidence(p, now, turn)
			switch {
			case b.Status == belief.Active && b.CreatedAt > prev.LastSeenAt && conf >= h.cfg.Recall.MinConfidence:
				if cur, err := currentOfSlot(ctx, db, b, project, p, now, turn); err != nil {
					return "", err
				} else if cur.ID != b.ID {
					// Not what recall gives as the slot's value: the
					// contested lines say so, or it is outweighed.
					continue
				}
				added = append(added, fmt.Sprintf("- New [Belief %.2f] %s (%s)", conf, b.Statement, ids.Short(b.ID)))
			case b.Status == belief.Superseded || b.Status == belief.Revised || b.Status == belief.Rejected || b.Status == belief.Archived:
				dropped = append(dropped, fmt.Sprintf("- No longer believed (%s): %s (%s)", b.Status, b.Statement, ids.Short(b.ID)))
			}
		}
	}
	if len(contested)+len(added)+len(dropped) == 0 {
		return "", nil
	}
	var sb strings.Builder
	sb.WriteString(DigestHeading + "\n")
	for _, part := range [][]string{contested, added, dropped} {
		for i, l := range part {
			if i == maxDigestItems {
				fmt.Fprintf(&sb, "- …and %d more (credence conflicts, credence status)\n", len(part)-i)
				break
			}
			sb.WriteString(l + "\n")
		}
	}
	return strings.TrimRight(sb.String(), "\n"), nil
}

// currentOfSlot returns the belief recall gives as the current value of
// b's slot (recall.Current), or b itself when its predicate is not
// exclusive.
func currentOfSlot(ctx context.Context, db *store.DB, b store.Belief, project string, p belief.Params, now time.Time, turn int64) (store.Belief, error) {
	if !relations.IsExclusive(b.Predicate) || b.Kind != belief.KindFact {
		return b, nil
	}
	members, err := db.RecallSlot(ctx, b.Predicate, []string{b.Subject}, project)
	if err != nil {
		return store.Belief{}, err
	}
	var group []store.Belief
	for _, m := range members {
		if m.Scope == b.Scope && (m.Scope != belief.ScopeProject || m.ProjectPath == b.ProjectPath) {
			group = append(group, m)
		}
	}
	cur, ok := recall.Current(group, p, now, turn)
	if !ok {
		return b, nil
	}
	return cur, nil
}

// contestedLines describes each contested exclusive group visible from
// project: the members and their normalized confidences.
func contestedLines(ctx context.Context, db *store.DB, p belief.Params, project string, now time.Time, turn int64) ([]string, error) {
	bs, err := db.ExclusiveBeliefs(ctx, project)
	if err != nil {
		return nil, err
	}
	groups := map[string][]store.Belief{}
	var keys []string
	for _, b := range bs {
		k := b.Scope + "\x00" + b.Subject + "\x00" + b.Predicate
		if b.Scope == belief.ScopeProject {
			k += "\x00" + b.ProjectPath
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], b)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		raw := make([]float64, len(g))
		for i, b := range g {
			raw[i] = b.Confidence(p, now, turn)
		}
		if !p.Contested(raw) {
			continue
		}
		norm := belief.Normalize(raw, p.Epsilon)
		parts := make([]string, len(g))
		for i, b := range g {
			parts[i] = fmt.Sprintf("%q %.2f (%s)", b.Statement, norm[i], ids.Short(b.ID))
		}
		out = append(out, "- Contested, ask before relying on either: "+strings.Join(parts, " vs "))
	}
	return out, nil
}
