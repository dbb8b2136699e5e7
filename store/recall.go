package store

import (
	"context"
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
