package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// VectorsByID returns the stored embeddings of the given episodes (kind
// "episodes") or beliefs (kind "beliefs") in the space, keyed by ID. IDs
// without a vector are absent from the map.
func (db *DB) VectorsByID(ctx context.Context, sp Space, kind string, idList []string) (map[string][]float32, error) {
	if kind != "episodes" && kind != "beliefs" {
		return nil, fmt.Errorf("vectors by id: unknown kind %q", kind)
	}
	out := make(map[string][]float32, len(idList))
	for _, chunk := range chunks(idList, 200) {
		rows, err := db.sql.QueryContext(ctx, `SELECT id, embedding FROM vec_`+sp.Name+`_`+kind+
			` WHERE id IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
		if err != nil {
			return nil, wrap("read vectors", err)
		}
		for rows.Next() {
			var id string
			var blob []byte
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return nil, wrap("read vectors", err)
			}
			v, err := DecodeVector(blob)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("read vector %s: %w", id, err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, wrap("read vectors", err)
		}
	}
	return out, nil
}

// BeliefsChangedSince returns up to limit beliefs visible from project (its
// own and global ones) whose row changed after sinceMs, newest first.
func (db *DB) BeliefsChangedSince(ctx context.Context, sinceMs int64, project string, limit int) ([]Belief, error) {
	return db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs
		WHERE updated_at > ? AND (scope = 'global' OR project_path = ?) AND status <> 'forgotten'
		ORDER BY updated_at DESC LIMIT ?`, sinceMs, validUTF8(project), limit)
}

// ExclusiveBeliefs returns the active beliefs visible from project whose
// predicate is exclusive: the members of every group that can be contested.
func (db *DB) ExclusiveBeliefs(ctx context.Context, project string) ([]Belief, error) {
	return db.queryBeliefs(ctx, `SELECT `+beliefCols+` FROM beliefs
		WHERE status = 'active' AND (scope = 'global' OR project_path = ?)
		AND predicate IN (SELECT predicate FROM relations WHERE exclusive = 1)
		ORDER BY subject, predicate, seq`, validUTF8(project))
}

// CurrentTurn returns the turn counter (0 before the first prompt).
func (db *DB) CurrentTurn(ctx context.Context) (int64, error) {
	v, err := db.Meta(ctx, MetaTurn)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read turn: %w", err)
	}
	return n, nil
}

// ScopedVector is a stored vector with its row number in its vector table
// and the project of the episode or belief it embeds ("" for global rows
// and for rows whose item no longer exists).
type ScopedVector struct {
	RowID   int64
	ID      string
	Project string
	Vec     []float32
}

// VectorsAfter returns, inside the transaction, up to limit vectors of the
// space's episodes or beliefs table whose row number is above after, in row
// order. Vectors are appended with growing row numbers, so a caller that
// remembers the last one it saw reads each new vector once.
func (tx *Tx) VectorsAfter(ctx context.Context, sp Space, kind string, after int64, limit int) ([]ScopedVector, error) {
	var join string
	switch kind {
	case "episodes":
		join = `LEFT JOIN episodes x ON x.id = v.id`
	case "beliefs":
		join = `LEFT JOIN beliefs x ON x.id = v.id`
	default:
		return nil, fmt.Errorf("vectors after: unknown kind %q", kind)
	}
	rows, err := tx.Query(ctx, `SELECT v.rowid, v.id, v.embedding,
		coalesce(CASE WHEN x.scope = 'global' THEN '' ELSE x.project_path END, '')
		FROM vec_`+sp.Name+`_`+kind+` v `+join+` WHERE v.rowid > ? ORDER BY v.rowid LIMIT ?`, after, limit)
	if err != nil {
		return nil, wrap("read new vectors", err)
	}
	defer rows.Close()
	var out []ScopedVector
	for rows.Next() {
		var sv ScopedVector
		var blob []byte
		if err := rows.Scan(&sv.RowID, &sv.ID, &blob, &sv.Project); err != nil {
			return nil, wrap("read new vectors", err)
		}
		if sv.Vec, err = DecodeVector(blob); err != nil {
			return nil, fmt.Errorf("read vector %s: %w", sv.ID, err)
		}
		out = append(out, sv)
	}
	return out, wrap("read new vectors", rows.Err())
}

// SketchChunk is one row of recall_sketches: up to a few thousand vectors of
// one space, kind and project, as newline-separated IDs and packed sign
// bits (Dim/8 bytes per vector, in ID order).
type SketchChunk struct {
	Space   string
	Kind    string
	Project string
	Chunk   int
	Count   int
	IDs     []byte
	Signs   []byte
}

// SketchChunks returns the sketch chunks of a space and kind for the given
// projects ("" is global), or for every project when projects is nil.
func (db *DB) SketchChunks(ctx context.Context, space, kind string, projects []string) ([]SketchChunk, error) {
	q := `SELECT space, kind, project, chunk, count, ids, signs FROM recall_sketches WHERE space = ? AND kind = ?`
	args := []any{space, kind}
	if projects != nil {
		q += ` AND project IN (` + placeholders(len(projects)) + `)`
		for _, p := range projects {
			args = append(args, validUTF8(p))
		}
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("read sketches", err)
	}
	defer rows.Close()
	var out []SketchChunk
	for rows.Next() {
		var c SketchChunk
		if err := rows.Scan(&c.Space, &c.Kind, &c.Project, &c.Chunk, &c.Count, &c.IDs, &c.Signs); err != nil {
			return nil, wrap("read sketches", err)
		}
		out = append(out, c)
	}
	return out, wrap("read sketches", rows.Err())
}

// LastSketchChunk returns the highest-numbered chunk of a space, kind and
// project inside the transaction, or ErrNotFound.
func (tx *Tx) LastSketchChunk(ctx context.Context, space, kind, project string) (SketchChunk, error) {
	c := SketchChunk{Space: space, Kind: kind, Project: project}
	err := tx.QueryRow(ctx, `SELECT chunk, count, ids, signs FROM recall_sketches
		WHERE space = ? AND kind = ? AND project = ? ORDER BY chunk DESC LIMIT 1`, space, kind, validUTF8(project)).
		Scan(&c.Chunk, &c.Count, &c.IDs, &c.Signs)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	return c, wrap("read sketch chunk", err)
}

// PutSketchChunk writes a chunk, replacing the stored one with the same key.
func (tx *Tx) PutSketchChunk(ctx context.Context, c SketchChunk) error {
	_, err := tx.Exec(ctx, `INSERT INTO recall_sketches(space, kind, project, chunk, count, ids, signs)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(space, kind, project, chunk) DO UPDATE SET
		count = excluded.count, ids = excluded.ids, signs = excluded.signs`,
		c.Space, c.Kind, validUTF8(c.Project), c.Chunk, c.Count, c.IDs, c.Signs)
	return wrap("write sketch chunk", err)
}

// DeleteSketches removes every sketch chunk of a space (before a rebuild).
func (tx *Tx) DeleteSketches(ctx context.Context, space string) error {
	_, err := tx.Exec(ctx, `DELETE FROM recall_sketches WHERE space = ?`, space)
	return wrap("delete sketches", err)
}
