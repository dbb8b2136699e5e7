package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Space is the pair of vector tables of one embedder: vec_<name>_episodes and
// vec_<name>_beliefs, each with a libSQL vector index. Vectors of different
// embedders never share a table, so the table a vector lives in records
// which embedder made it, and switching embedders is a reindex, not a
// migration.
type Space struct {
	Name       string
	EmbedderID string
	Dim        int
}

func (s Space) table(id string) (string, error) {
	switch {
	case strings.HasPrefix(id, "ep_"):
		return "vec_" + s.Name + "_episodes", nil
	case strings.HasPrefix(id, "bl_"):
		return "vec_" + s.Name + "_beliefs", nil
	}
	return "", fmt.Errorf("no vector table for id %q", id)
}

// spaceName turns an embedder ID into a table-name fragment.
func spaceName(embedderID string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(embedderID) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// EnsureSpace returns the vector space of an embedder, creating its tables
// and indexes the first time. A second embedder ID with the same name but a
// different dimension is an error.
func (db *DB) EnsureSpace(ctx context.Context, embedderID string, dim int) (Space, error) {
	if dim <= 0 || dim > 65536 {
		return Space{}, fmt.Errorf("vector space %s: bad dimension %d", embedderID, dim)
	}
	sp := Space{Name: spaceName(embedderID), EmbedderID: embedderID, Dim: dim}
	var have int
	err := db.sql.QueryRowContext(ctx, `SELECT dim FROM vector_spaces WHERE embedder_id = ?`, embedderID).Scan(&have)
	if err == nil {
		if have != dim {
			return Space{}, fmt.Errorf("vector space %s: stored vectors have %d dimensions, embedder gives %d; run `credence reindex`", embedderID, have, dim)
		}
		return sp, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Space{}, wrap("read vector space", err)
	}
	err = db.Write(ctx, func(tx *Tx) error {
		for _, kind := range []string{"episodes", "beliefs"} {
			t := "vec_" + sp.Name + "_" + kind
			// No libSQL vector index: recall searches sign sketches
			// (recall/sketch.go), and the index made every insert cost
			// 5–50 ms under the write lock (migration 0009 drops it).
			if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (id TEXT PRIMARY KEY, embedding F32_BLOB(%d) NOT NULL)`, t, dim)); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO vector_spaces(name, embedder_id, dim, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, sp.Name, embedderID, dim, db.now().UnixMilli())
		return err
	})
	return sp, wrap("create vector space "+embedderID, err)
}

// Spaces lists the vector spaces that exist.
func (db *DB) Spaces(ctx context.Context) ([]Space, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT name, embedder_id, dim FROM vector_spaces ORDER BY created_at`)
	if err != nil {
		return nil, wrap("list vector spaces", err)
	}
	defer rows.Close()
	var out []Space
	for rows.Next() {
		var s Space
		if err := rows.Scan(&s.Name, &s.EmbedderID, &s.Dim); err != nil {
			return nil, wrap("list vector spaces", err)
		}
		out = append(out, s)
	}
	return out, wrap("list vector spaces", rows.Err())
}

// DropSpace removes an embedder's vector tables (after a reindex to another).
func (db *DB) DropSpace(ctx context.Context, sp Space) error {
	return db.Write(ctx, func(tx *Tx) error {
		for _, kind := range []string{"episodes", "beliefs"} {
			if _, err := tx.Exec(ctx, `DROP TABLE IF EXISTS vec_`+sp.Name+`_`+kind); err != nil {
				return wrap("drop vector table", err)
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM vector_spaces WHERE embedder_id = ?`, sp.EmbedderID)
		return wrap("drop vector space", err)
	})
}

// Vector is an ID with its embedding.
type Vector struct {
	ID  string
	Vec []float32
}

// PutVectors stores embeddings of episodes and beliefs in the space,
// replacing earlier ones.
func (db *DB) PutVectors(ctx context.Context, sp Space, vs []Vector) error {
	return db.Write(ctx, func(tx *Tx) error { return tx.PutVectors(ctx, sp, vs) })
}

// PutVectors stores embeddings inside the transaction.
func (tx *Tx) PutVectors(ctx context.Context, sp Space, vs []Vector) error {
	for _, v := range vs {
		if len(v.Vec) != sp.Dim {
			return fmt.Errorf("put vector %s: %d dimensions, space %s has %d", v.ID, len(v.Vec), sp.EmbedderID, sp.Dim)
		}
		t, err := sp.table(v.ID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO `+t+`(id, embedding) VALUES (?, ?)
			ON CONFLICT(id) DO UPDATE SET embedding = excluded.embedding`, v.ID, EncodeVector(v.Vec)); err != nil {
			return wrap("put vector", err)
		}
	}
	return nil
}

// GetVector returns the stored embedding of an episode or belief, or
// ErrNotFound.
func (db *DB) GetVector(ctx context.Context, sp Space, id string) ([]float32, error) {
	t, err := sp.table(id)
	if err != nil {
		return nil, err
	}
	var blob []byte
	err = db.sql.QueryRowContext(ctx, `SELECT embedding FROM `+t+` WHERE id = ?`, id).Scan(&blob)
	if err != nil {
		return nil, fmt.Errorf("read vector %s: %w", id, notFound(err))
	}
	return DecodeVector(blob)
}

// Unembedded returns up to limit IDs of live episodes (kind "episodes") or
// active beliefs (kind "beliefs") that have no vector in the space yet.
func (db *DB) Unembedded(ctx context.Context, sp Space, kind string, limit int) ([]string, error) {
	var q string
	switch kind {
	case "episodes":
		q = `SELECT e.id FROM episodes e LEFT JOIN vec_` + sp.Name + `_episodes v ON v.id = e.id
			WHERE v.id IS NULL AND e.forgotten_at IS NULL ORDER BY e.seq LIMIT ?`
	case "beliefs":
		q = `SELECT b.id FROM beliefs b LEFT JOIN vec_` + sp.Name + `_beliefs v ON v.id = b.id
			WHERE v.id IS NULL AND b.status NOT IN ('forgotten') ORDER BY b.seq LIMIT ?`
	default:
		return nil, fmt.Errorf("unembedded: unknown kind %q", kind)
	}
	rows, err := db.sql.QueryContext(ctx, q, limit)
	if err != nil {
		return nil, wrap("list unembedded", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("list unembedded", err)
		}
		out = append(out, id)
	}
	return out, wrap("list unembedded", rows.Err())
}

// EncodeVector lays out v as libSQL's F32_BLOB: little-endian float32s.
func EncodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// DecodeVector reads an F32_BLOB.
func DecodeVector(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("decode vector: %d bytes is not a whole number of float32s", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

func (db *DB) deleteVectors(ctx context.Context, tx *Tx, id string) error {
	spaces, err := db.Spaces(ctx)
	if err != nil {
		return err
	}
	for _, sp := range spaces {
		t, err := sp.table(id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM `+t+` WHERE id = ?`, id); err != nil {
			return wrap("delete vector", err)
		}
	}
	return nil
}
