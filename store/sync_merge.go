package store

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/oklog/ulid/v2"
)

// DuplicatesMerged says what MergeDuplicates derived.
type DuplicatesMerged struct {
	Merged    int // beliefs marked merged into an earlier twin
	Mirrored  int // evidence rows copied onto a survivor
	Forgotten int // twins forgotten because another member of their group was
	// Beliefs are the beliefs that changed and were folded again.
	Beliefs []string
}

// Changed reports whether anything was derived.
func (d DuplicatesMerged) Changed() bool { return d.Merged+d.Mirrored+d.Forgotten > 0 }

// CanonicalKey is the identity two independently created beliefs share when
// they say the same thing: kind, scope, project and the normalized triple
// (with context and timeframe, so the children of a split stay apart), or
// the normalized statement when the belief has no triple.
func CanonicalKey(s belief.Spec) string {
	parts := []string{s.Kind, s.Scope, s.ProjectPath}
	if s.Subject != "" && s.Predicate != "" {
		parts = append(parts, "t", NormalizeEntity(s.Subject), NormalizeEntity(s.Predicate), NormalizeEntity(s.Object),
			NormalizeEntity(s.Context), NormalizeEntity(s.Timeframe))
	} else {
		parts = append(parts, "s", strings.TrimRight(NormalizeEntity(s.Statement), ".!"))
	}
	return strings.Join(parts, "\x1f")
}

// MergeDuplicates merges beliefs that machines created independently and
// that say the same thing (same CanonicalKey, both active). It is a pure
// function of the rows held, so machines that hold the same rows derive the
// same rows, with the same IDs, and sync deduplicates them:
//
//   - In each group of active twins the survivor is the pinned one, then
//     the one created first by (create HLC, ID). Every other twin gets a
//     merge event (origin OriginDerived) pointing at it, placed just after
//     the twin's latest record.
//   - Every evidence row of a merged twin (not itself derived) is mirrored
//     onto the end of its chain of derived merges, with an ID derived from
//     the original's, so the survivor folds the union of both histories
//     and no evidence counts twice, however many machines derive it.
//   - Forgetting any member of a group of derived twins forgets them all,
//     so a forget on one machine removes the same fact said on another.
//
// Sync runs it after every pull; the agent may run it after consolidation.
func (tx *Tx) MergeDuplicates(ctx context.Context) (DuplicatesMerged, error) {
	var out DuplicatesMerged
	changed := map[string]bool{}
	merged, err := tx.mergeTwins(ctx, changed)
	if err != nil {
		return out, err
	}
	out.Merged = merged
	edges, err := tx.derivedMerges(ctx)
	if err != nil {
		return out, err
	}
	if out.Mirrored, err = tx.mirrorEvidence(ctx, edges, changed); err != nil {
		return out, err
	}
	if err := tx.Refold(ctx, sortedKeys(changed)...); err != nil {
		return out, err
	}
	forgot, err := tx.forgetTwins(ctx, edges)
	if err != nil {
		return out, err
	}
	out.Forgotten = len(forgot)
	if err := tx.Refold(ctx, forgot...); err != nil {
		return out, err
	}
	for _, id := range forgot {
		changed[id] = true
	}
	out.Beliefs = sortedKeys(changed)
	return out, nil
}

type twin struct {
	id        string
	key       string
	pinned    bool
	createHLC int64
	lastHLC   int64
}

// before orders the members of a group: pinned first, then the first made.
func (a twin) before(b twin) bool {
	if a.pinned != b.pinned {
		return a.pinned
	}
	if a.createHLC != b.createHLC {
		return a.createHLC < b.createHLC
	}
	return a.id < b.id
}

// mergeTwins appends a derived merge event to every active belief that has
// an active twin sorting before it.
func (tx *Tx) mergeTwins(ctx context.Context, changed map[string]bool) (int, error) {
	rows, err := tx.Query(ctx, `SELECT b.id, b.statement, b.subject, b.predicate, b.object, b.context, b.timeframe,
		b.kind, b.scope, b.project_path, b.pinned, b.last_hlc, e.hlc
		FROM beliefs b JOIN belief_events e ON e.belief_id = b.id AND e.kind = 'create'
		WHERE b.status = 'active'`)
	if err != nil {
		return 0, wrap("read active beliefs", err)
	}
	groups := map[string][]twin{}
	for rows.Next() {
		var t twin
		var s belief.Spec
		if err := rows.Scan(&t.id, &s.Statement, &s.Subject, &s.Predicate, &s.Object, &s.Context, &s.Timeframe,
			&s.Kind, &s.Scope, &s.ProjectPath, &t.pinned, &t.lastHLC, &t.createHLC); err != nil {
			rows.Close()
			return 0, wrap("read active beliefs", err)
		}
		t.key = CanonicalKey(s)
		groups[t.key] = append(groups[t.key], t)
	}
	if err := closeRows(rows, "read active beliefs"); err != nil {
		return 0, err
	}
	keys := make([]string, 0, len(groups))
	for k, g := range groups {
		if len(g) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].before(g[j]) })
		survivor := g[0]
		for _, d := range g[1:] {
			h := d.lastHLC + 1
			payload, _ := json.Marshal(eventPayload{Target: survivor.id})
			ev := SyncEvent{
				ID:       derivedID(ids.BeliefEvent, ids.HLC(h).Millis(), "merge", d.id, survivor.id, strconv.FormatInt(h, 10)),
				BeliefID: d.id, Kind: string(belief.Merge), Payload: string(payload),
				CreatedAt: ids.HLC(h).Millis(), HLC: h, Origin: OriginDerived,
			}
			if _, err := tx.insertSyncEvents(ctx, []SyncEvent{ev}); err != nil {
				return n, err
			}
			if err := tx.Observe(ctx, ids.HLC(h)); err != nil {
				return n, err
			}
			changed[d.id], changed[survivor.id] = true, true
			n++
		}
	}
	return n, nil
}

// mergeEdge is a derived merge: belief from was merged into to.
type mergeEdge struct{ from, to string }

// derivedMerges returns every derived merge in fold order.
func (tx *Tx) derivedMerges(ctx context.Context) ([]mergeEdge, error) {
	rows, err := tx.Query(ctx, `SELECT belief_id, payload FROM belief_events
		WHERE kind = 'merge' AND origin = ? ORDER BY hlc, id`, OriginDerived)
	if err != nil {
		return nil, wrap("read derived merges", err)
	}
	var out []mergeEdge
	for rows.Next() {
		var from, payload string
		if err := rows.Scan(&from, &payload); err != nil {
			rows.Close()
			return nil, wrap("read derived merges", err)
		}
		var p eventPayload
		if json.Unmarshal([]byte(payload), &p) == nil && p.Target != "" {
			out = append(out, mergeEdge{from, p.Target})
		}
	}
	return out, closeRows(rows, "read derived merges")
}

// mirrorEvidence copies the original evidence of every derived-merged belief
// onto the end of its merge chain.
func (tx *Tx) mirrorEvidence(ctx context.Context, edges []mergeEdge, changed map[string]bool) (int, error) {
	latest := map[string]string{}
	for _, e := range edges {
		latest[e.from] = e.to // fold order: the last one wins
	}
	froms := make([]string, 0, len(latest))
	for f := range latest {
		froms = append(froms, f)
	}
	sort.Strings(froms)
	terminal := func(id string) string {
		seen := map[string]bool{id: true}
		for {
			next, ok := latest[id]
			if !ok || seen[next] {
				return id
			}
			seen[next], id = true, next
		}
	}
	n := 0
	creates := map[string]int64{}
	for _, chunk := range chunks(froms, 200) {
		orig, err := tx.originalEvidence(ctx, chunk)
		if err != nil {
			return n, err
		}
		var mirrors []SyncEvidence
		for _, e := range orig {
			t := terminal(e.BeliefID)
			if t == e.BeliefID {
				continue
			}
			createHLC, ok := creates[t]
			if !ok {
				if createHLC, err = tx.createHLC(ctx, t); err != nil {
					return n, err
				}
				creates[t] = createHLC
			}
			mirrors = append(mirrors, SyncEvidence{
				ID:       derivedID(ids.Evidence, e.CreatedAt, "mirror", e.ID, t),
				BeliefID: t, EpisodeID: e.EpisodeID, Source: "merge", Label: e.Label, Support: e.Support,
				Reliability: e.Reliability, Note: "mirrors " + e.ID + " of " + e.BeliefID, Turn: e.Turn,
				CreatedAt: e.CreatedAt, HLC: max(e.HLC, createHLC+1), Origin: OriginDerived,
			})
		}
		held, err := tx.heldEvidence(ctx, mirrors)
		if err != nil {
			return n, err
		}
		var newEvidence []SyncEvidence
		var newEvents []SyncEvent
		for _, m := range mirrors {
			if held[m.ID] {
				continue // derived here before, or pulled with its event from the machine that did
			}
			newEvidence = append(newEvidence, m)
			newEvents = append(newEvents, SyncEvent{
				ID:       derivedID(ids.BeliefEvent, m.CreatedAt, "mirror-event", m.ID),
				BeliefID: m.BeliefID, Kind: string(belief.EvidenceKind(m.Support)), EvidenceID: m.ID, Payload: "{}",
				Turn: m.Turn, CreatedAt: m.CreatedAt, HLC: m.HLC, Origin: OriginDerived,
			})
			if err := tx.Observe(ctx, ids.HLC(m.HLC)); err != nil {
				return n, err
			}
			changed[m.BeliefID] = true
		}
		if _, err := tx.insertSyncEvidence(ctx, newEvidence); err != nil {
			return n, err
		}
		if _, err := tx.insertSyncEvents(ctx, newEvents); err != nil {
			return n, err
		}
		n += len(newEvidence)
	}
	return n, nil
}

// heldEvidence reports which of the rows' IDs are already stored here.
func (tx *Tx) heldEvidence(ctx context.Context, rs []SyncEvidence) (map[string]bool, error) {
	held := map[string]bool{}
	for _, chunk := range chunks(rs, 500) {
		idList := make([]any, len(chunk))
		for i, r := range chunk {
			idList[i] = r.ID
		}
		rows, err := tx.Query(ctx, `SELECT id FROM evidence WHERE id IN (`+placeholders(len(chunk))+`)`, idList...)
		if err != nil {
			return nil, wrap("read mirrored evidence", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, wrap("read mirrored evidence", err)
			}
			held[id] = true
		}
		if err := closeRows(rows, "read mirrored evidence"); err != nil {
			return nil, err
		}
	}
	return held, nil
}

// originalEvidence returns the evidence of the given beliefs that was
// recorded by a machine rather than derived.
func (tx *Tx) originalEvidence(ctx context.Context, beliefIDs []string) ([]SyncEvidence, error) {
	args := append(anySlice(beliefIDs), OriginDerived)
	rows, err := tx.Query(ctx, `SELECT id, belief_id, coalesce(episode_id, ''), source, label, support, reliability,
		turn, created_at, hlc FROM evidence WHERE belief_id IN (`+placeholders(len(beliefIDs))+`) AND origin != ?
		ORDER BY belief_id, hlc, id`, args...)
	if err != nil {
		return nil, wrap("read evidence to mirror", err)
	}
	var out []SyncEvidence
	for rows.Next() {
		var e SyncEvidence
		if err := rows.Scan(&e.ID, &e.BeliefID, &e.EpisodeID, &e.Source, &e.Label, &e.Support, &e.Reliability,
			&e.Turn, &e.CreatedAt, &e.HLC); err != nil {
			rows.Close()
			return nil, wrap("read evidence to mirror", err)
		}
		out = append(out, e)
	}
	return out, closeRows(rows, "read evidence to mirror")
}

func (tx *Tx) createHLC(ctx context.Context, beliefID string) (int64, error) {
	var h int64
	err := tx.QueryRow(ctx, `SELECT coalesce(min(hlc), 0) FROM belief_events WHERE belief_id = ? AND kind = 'create'`,
		beliefID).Scan(&h)
	return h, wrap("read create event", err)
}

// derivedID makes an ID from the rows a derived row comes from: a ULID
// whose time is ms and whose entropy is a hash of parts, so every machine
// derives the same ID.
func derivedID(prefix string, ms int64, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	var id ulid.ULID
	if err := id.SetTime(ulid.Timestamp(time.UnixMilli(max(ms, 0)))); err != nil {
		_ = id.SetTime(0)
	}
	_ = id.SetEntropy(sum[:10])
	return prefix + id.String()
}

// forgetTwins forgets every belief joined by derived merges to a forgotten
// one, and returns their IDs. Forgetting the survivor would otherwise leave
// the same sentence in the twins merged into it, and forgetting a twin would
// leave it in the survivor.
func (tx *Tx) forgetTwins(ctx context.Context, edges []mergeEdge) ([]string, error) {
	if len(edges) == 0 {
		return nil, nil
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			parent[x] = x
			return x
		}
		root := find(p)
		parent[x] = root
		return root
	}
	for _, e := range edges {
		a, b := find(e.from), find(e.to)
		if a != b {
			if b < a {
				a, b = b, a
			}
			parent[b] = a
		}
	}
	members := make([]string, 0, len(parent))
	for id := range parent {
		members = append(members, id)
	}
	sort.Strings(members)
	status := map[string]string{}
	last := map[string]int64{}
	for _, chunk := range chunks(members, 200) {
		rows, err := tx.Query(ctx, `SELECT id, status, last_hlc FROM beliefs WHERE id IN (`+placeholders(len(chunk))+`)`,
			anySlice(chunk)...)
		if err != nil {
			return nil, wrap("read merged twins", err)
		}
		for rows.Next() {
			var id, st string
			var h int64
			if err := rows.Scan(&id, &st, &h); err != nil {
				rows.Close()
				return nil, wrap("read merged twins", err)
			}
			status[id], last[id] = st, h
		}
		if err := closeRows(rows, "read merged twins"); err != nil {
			return nil, err
		}
	}
	doomed := map[string]bool{}
	for _, id := range members {
		if status[id] == string(belief.Forgotten) {
			doomed[find(id)] = true
		}
	}
	var out []string
	for _, id := range members {
		st, held := status[id]
		if !held || st == string(belief.Forgotten) || !doomed[find(id)] {
			continue
		}
		h := last[id] + 1
		ms := ids.HLC(h).Millis()
		ev := SyncEvent{
			ID:       derivedID(ids.BeliefEvent, ms, "forget", id, strconv.FormatInt(h, 10)),
			BeliefID: id, Kind: string(belief.Forget), Payload: "{}", CreatedAt: ms, HLC: h, Origin: OriginDerived,
		}
		if _, err := tx.insertSyncEvents(ctx, []SyncEvent{ev}); err != nil {
			return nil, err
		}
		if _, err := tx.insertSyncTombstones(ctx, []SyncTombstone{{TargetID: id, Kind: "belief", CreatedAt: ms, HLC: h,
			Origin: OriginDerived}}); err != nil {
			return nil, err
		}
		if err := tx.ApplyTombstone(ctx, id, "belief"); err != nil {
			return nil, err
		}
		if err := tx.Observe(ctx, ids.HLC(h)); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}
