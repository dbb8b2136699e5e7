package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// EpisodeMemory is the kind of an episode holding one version of a memory
// file Claude Code (or a person) keeps in a memory directory: its
// frontmatter and body (docs/MEMORY_MD.md, "Claude Code's memory files").
const EpisodeMemory = "memory"

// MemoryFile is what credence last read from one memory file on this
// machine (table memory_files, local like memory_sections).
type MemoryFile struct {
	Path      string
	Hash      string // hex SHA-256 of the file as last read
	EpisodeID string // the episode of that version
	Type      string // metadata.type: user, feedback, project, reference
	Author    string // "model" or "person": who wrote that version
	// Claims maps each claim's statement key to the belief it gave
	// evidence for.
	Claims    map[string]string
	UpdatedAt int64 // Unix ms
	DeletedAt int64 // Unix ms; 0 while the file exists
}

const memoryFileCols = `path, hash, episode_id, type, author, claims, updated_at, deleted_at`

func scanMemoryFile(sc interface{ Scan(...any) error }) (MemoryFile, error) {
	var m MemoryFile
	var claims string
	if err := sc.Scan(&m.Path, &m.Hash, &m.EpisodeID, &m.Type, &m.Author, &claims, &m.UpdatedAt, &m.DeletedAt); err != nil {
		return m, err
	}
	m.Claims = map[string]string{}
	if claims != "" {
		if err := json.Unmarshal([]byte(claims), &m.Claims); err != nil {
			return m, fmt.Errorf("decode claims of memory file %s: %w", m.Path, err)
		}
	}
	return m, nil
}

// MemoryFile returns the record of the memory file at path inside the
// transaction, or ErrNotFound.
func (tx *Tx) MemoryFile(ctx context.Context, path string) (MemoryFile, error) {
	m, err := scanMemoryFile(tx.QueryRow(ctx, `SELECT `+memoryFileCols+` FROM memory_files WHERE path = ?`, validUTF8(path)))
	if errors.Is(err, sql.ErrNoRows) {
		return MemoryFile{}, fmt.Errorf("memory file %s: %w", path, ErrNotFound)
	}
	if err != nil {
		return MemoryFile{}, wrap("read memory file", err)
	}
	return m, nil
}

// MemoryFile returns the record of the memory file at path, or ErrNotFound.
func (db *DB) MemoryFile(ctx context.Context, path string) (MemoryFile, error) {
	m, err := scanMemoryFile(db.sql.QueryRowContext(ctx, `SELECT `+memoryFileCols+` FROM memory_files WHERE path = ?`, validUTF8(path)))
	if errors.Is(err, sql.ErrNoRows) {
		return MemoryFile{}, fmt.Errorf("memory file %s: %w", path, ErrNotFound)
	}
	if err != nil {
		return MemoryFile{}, wrap("read memory file", err)
	}
	return m, nil
}

// MemoryFiles returns every memory file credence has read, by path.
func (db *DB) MemoryFiles(ctx context.Context) ([]MemoryFile, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+memoryFileCols+` FROM memory_files ORDER BY path`)
	if err != nil {
		return nil, wrap("list memory files", err)
	}
	defer rows.Close()
	var out []MemoryFile
	for rows.Next() {
		m, err := scanMemoryFile(rows)
		if err != nil {
			return nil, wrap("list memory files", err)
		}
		out = append(out, m)
	}
	return out, wrap("list memory files", rows.Err())
}

// PutMemoryFile stores the record of m.Path, replacing any earlier one.
func (tx *Tx) PutMemoryFile(ctx context.Context, m MemoryFile) error {
	if m.Claims == nil {
		m.Claims = map[string]string{}
	}
	claims, err := json.Marshal(m.Claims)
	if err != nil {
		return fmt.Errorf("encode claims of memory file %s: %w", m.Path, err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO memory_files(`+memoryFileCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, episode_id = excluded.episode_id, type = excluded.type,
		author = excluded.author, claims = excluded.claims, updated_at = excluded.updated_at, deleted_at = excluded.deleted_at`,
		validUTF8(m.Path), m.Hash, m.EpisodeID, validUTF8(m.Type), m.Author, string(claims), m.UpdatedAt, m.DeletedAt)
	return wrap("put memory file", err)
}

// EpisodeProjects returns the distinct project roots of stored episodes.
func (db *DB) EpisodeProjects(ctx context.Context) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT CAST('.' || project_path AS BLOB) FROM episodes WHERE project_path != ''`)
	if err != nil {
		return nil, wrap("list episode projects", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, wrap("list episode projects", err)
		}
		out = append(out, string(b[1:]))
	}
	return out, wrap("list episode projects", rows.Err())
}
