package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
)

// Queries and bookkeeping for promotion to MEMORY.md (DESIGN §7). The
// promotion marks (promoted_at, demoted_at) and the memory_sections table are
// local to this machine: which files exist and what was written into them is
// not something another machine can know.

// PromotionSelect narrows PromotionCandidates to the beliefs of one target
// file, and lets the database drop beliefs that cannot pass the promotion
// rule. The zero value selects every belief that is active or marked.
type PromotionSelect struct {
	Global   bool     // global beliefs
	Projects []string // project beliefs of these project paths
	// MinConfidence and MinEvidence drop active beliefs whose undecayed
	// confidence alpha/(alpha+beta) is below MinConfidence or whose
	// evidence count is below MinEvidence. Decay only moves a confidence
	// toward the prior and exclusivity only lowers it, so when the prior is
	// below MinConfidence nothing promotable is dropped. Pinned beliefs from
	// source "user" are kept down to PinnedMinConfidence whatever their
	// evidence, and every active belief of an exclusive predicate is kept
	// (its rivals' confidences decide its own).
	MinConfidence       float64
	MinEvidence         int
	PinnedMinConfidence float64
}

// PromotionCandidates returns the beliefs a promotion cycle has to look at:
// the active beliefs sel keeps (candidates, and rivals in exclusive groups)
// and every belief that still carries a promotion mark whatever its status
// (it is in a MEMORY.md now and may have to leave it), oldest first.
//
// The rows carry only what promotion reads: ID, statement, subject,
// predicate, kind, scope, project path, source, status, pinned, the counts
// and their moment, peak, evidence and contradiction counts, and the local
// promotion marks: a cycle reads every candidate of every project, and the
// driver's cost is per column and row.
func (db *DB) PromotionCandidates(ctx context.Context, sel PromotionSelect) ([]Belief, error) {
	// Text columns are read as prefixed BLOBs (rawCols): the driver tries ten date layouts on
	// every TEXT value it returns (to hand back time.Time), which was most of
	// a cycle's CPU time; bytes are returned as they are.
	q := `SELECT ` + rawCols(`#id`, `#statement`, `#subject`, `#predicate`, `#kind`, `#scope`, `#project_path`,
		`#source`, `#status`, `pinned`, `alpha`, `beta`, `counts_at`, `counts_turn`, `peak_confidence`,
		`evidence_count`, `contradictions`, `coalesce(promoted_at, 0)`, `coalesce(demoted_at, 0)`) + `
		FROM beliefs WHERE (promoted_at IS NOT NULL OR demoted_at IS NOT NULL OR (status = 'active' AND (
			(evidence_count >= ? AND alpha >= ? * (alpha + beta))
			OR (pinned = 1 AND source = 'user' AND alpha >= ? * (alpha + beta))
			OR predicate IN (SELECT predicate FROM relations WHERE exclusive = 1))))`
	args := []any{sel.MinEvidence, sel.MinConfidence, sel.PinnedMinConfidence}
	var scopes []string
	if sel.Global {
		scopes = append(scopes, "scope = 'global'")
	}
	if len(sel.Projects) > 0 {
		scopes = append(scopes, "(scope = 'project' AND project_path IN ("+placeholders(len(sel.Projects))+"))")
		for _, p := range sel.Projects {
			args = append(args, validUTF8(p))
		}
	}
	if len(scopes) > 0 {
		q += " AND (" + strings.Join(scopes, " OR ") + ")"
	}
	rows, err := db.sql.QueryContext(ctx, q+" ORDER BY seq", args...)
	if err != nil {
		return nil, wrap("list promotion candidates", err)
	}
	defer rows.Close()
	var out []Belief
	for rows.Next() {
		var b Belief
		var status string
		if err := rows.Scan(rawText{&b.ID}, rawText{&b.Statement}, rawText{&b.Subject}, rawText{&b.Predicate},
			rawText{&b.Kind}, rawText{&b.Scope}, rawText{&b.ProjectPath}, rawText{&b.Source}, rawText{&status}, &b.Pinned, &b.Alpha, &b.Beta, &b.CountsAt.Millis, &b.CountsAt.Turn, &b.Peak,
			&b.EvidenceCount, &b.Contradictions, &b.PromotedAt, &b.DemotedAt); err != nil {
			return nil, wrap("list promotion candidates", err)
		}
		b.Status = belief.Status(status)
		out = append(out, b)
	}
	return out, wrap("list promotion candidates", rows.Err())
}

// RejectedSinceSupport returns the IDs of beliefs whose latest reject event
// is later (by hybrid logical clock) than their latest supporting evidence.
// Such a belief was rejected, by a person deleting its bullet or otherwise,
// and nothing has spoken for it since, so it must not be promoted even if
// something reactivated it.
func (db *DB) RejectedSinceSupport(ctx context.Context) (map[string]bool, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT r.belief_id FROM
		(SELECT belief_id, max(hlc) AS at FROM belief_events WHERE kind = 'reject' GROUP BY belief_id) r
		WHERE r.at > coalesce((SELECT max(v.hlc) FROM evidence v WHERE v.belief_id = r.belief_id AND v.support > 0), 0)`)
	if err != nil {
		return nil, wrap("list rejected beliefs", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("list rejected beliefs", err)
		}
		out[id] = true
	}
	return out, wrap("list rejected beliefs", rows.Err())
}

// PromotionMark is the promotion state of one belief on this machine; zero
// clears a mark.
type PromotionMark struct {
	ID         string
	PromotedAt int64 // Unix ms
	DemotedAt  int64 // Unix ms
}

// SetPromotions records many promotion marks in one transaction.
func (db *DB) SetPromotions(ctx context.Context, marks []PromotionMark) error {
	if len(marks) == 0 {
		return nil
	}
	return db.Write(ctx, func(tx *Tx) error {
		for _, m := range marks {
			if err := tx.SetPromotion(ctx, m.ID, m.PromotedAt, m.DemotedAt); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetPromotion records a belief's promotion marks inside a transaction, so
// they can change together with the evidence that caused the change.
func (tx *Tx) SetPromotion(ctx context.Context, id string, promotedAt, demotedAt int64) error {
	_, err := tx.Exec(ctx, `UPDATE beliefs SET promoted_at = ?, demoted_at = ? WHERE id = ?`,
		nullInt(promotedAt), nullInt(demotedAt), id)
	return wrap("set promotion", err)
}

// MemorySection is what credence last wrote into one MEMORY.md file. Section
// and Pending are opaque to the store (the promote package encodes them).
type MemorySection struct {
	Path      string
	Section   string // the section as last confirmed on disk
	Pending   string // a section being written; empty when none is
	Hash      string // hex SHA-256 of the file after credence's last write
	WrittenAt int64  // Unix ms
}

const memorySectionCols = `path, section, pending, hash, written_at`

func scanMemorySection(sc interface{ Scan(...any) error }) (MemorySection, error) {
	var m MemorySection
	err := sc.Scan(&m.Path, &m.Section, &m.Pending, &m.Hash, &m.WrittenAt)
	return m, err
}

// MemorySection returns the record for the file at path, or ErrNotFound.
func (db *DB) MemorySection(ctx context.Context, path string) (MemorySection, error) {
	return readMemorySection(db.sql.QueryRowContext(ctx,
		`SELECT `+memorySectionCols+` FROM memory_sections WHERE path = ?`, validUTF8(path)), path)
}

// MemorySection returns the record for the file at path inside the
// transaction, or ErrNotFound.
func (tx *Tx) MemorySection(ctx context.Context, path string) (MemorySection, error) {
	return readMemorySection(tx.QueryRow(ctx,
		`SELECT `+memorySectionCols+` FROM memory_sections WHERE path = ?`, validUTF8(path)), path)
}

func readMemorySection(row *sql.Row, path string) (MemorySection, error) {
	m, err := scanMemorySection(row)
	if errors.Is(err, sql.ErrNoRows) {
		return MemorySection{}, fmt.Errorf("memory section %s: %w", path, ErrNotFound)
	}
	if err != nil {
		return MemorySection{}, wrap("read memory section", err)
	}
	m.Path = path
	return m, nil
}

// MemorySections returns every file credence has written a section into.
func (db *DB) MemorySections(ctx context.Context) ([]MemorySection, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+memorySectionCols+` FROM memory_sections ORDER BY path`)
	if err != nil {
		return nil, wrap("list memory sections", err)
	}
	defer rows.Close()
	var out []MemorySection
	for rows.Next() {
		m, err := scanMemorySection(rows)
		if err != nil {
			return nil, wrap("list memory sections", err)
		}
		out = append(out, m)
	}
	return out, wrap("list memory sections", rows.Err())
}

// PutMemorySection stores the record for m.Path, replacing any earlier one.
func (db *DB) PutMemorySection(ctx context.Context, m MemorySection) error {
	_, err := db.sql.ExecContext(ctx, putMemorySectionSQL, memorySectionArgs(m)...)
	return wrap("put memory section", err)
}

// PutMemorySection stores the record for m.Path inside the transaction.
func (tx *Tx) PutMemorySection(ctx context.Context, m MemorySection) error {
	_, err := tx.Exec(ctx, putMemorySectionSQL, memorySectionArgs(m)...)
	return wrap("put memory section", err)
}

const putMemorySectionSQL = `INSERT INTO memory_sections(path, section, pending, hash, written_at)
	VALUES (?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET section = excluded.section,
	pending = excluded.pending, hash = excluded.hash, written_at = excluded.written_at`

func memorySectionArgs(m MemorySection) []any {
	return []any{validUTF8(m.Path), validUTF8(m.Section), validUTF8(m.Pending), m.Hash, m.WrittenAt}
}

// BeliefsByStatement returns the beliefs of one scope (and project, for
// project scope) whose statement equals statement up to ASCII case, newest
// first. A bullet a person types into MEMORY.md is matched against these
// before a new belief is created for it.
func (tx *Tx) BeliefsByStatement(ctx context.Context, statement, scope, project string) ([]Belief, error) {
	q := `SELECT ` + beliefCols + ` FROM beliefs WHERE lower(statement) = lower(?) AND scope = ?`
	args := []any{validUTF8(strings.TrimSpace(statement)), scope}
	if scope == "project" {
		q, args = q+` AND project_path = ?`, append(args, validUTF8(project))
	}
	rows, err := tx.Query(ctx, q+` ORDER BY seq DESC`, args...)
	if err != nil {
		return nil, wrap("find belief by statement", err)
	}
	defer rows.Close()
	var out []Belief
	for rows.Next() {
		b, err := scanBelief(rows)
		if err != nil {
			return nil, wrap("find belief by statement", err)
		}
		out = append(out, b)
	}
	return out, wrap("find belief by statement", rows.Err())
}
