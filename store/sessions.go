package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Session is the hooks' record of one Claude Code session on this machine:
// where it runs, its transcript, how far that transcript has been flushed
// into episodes, and the prompt episode of its latest turn. Sessions are
// local bookkeeping and never leave the machine.
type Session struct {
	ID             string
	ProjectPath    string
	TranscriptPath string
	// TranscriptOffset is the byte offset up to which the transcript's
	// exchanges are stored; the next flush resumes there.
	TranscriptOffset int64
	// LastPromptID is the episode the latest UserPromptSubmit stored.
	LastPromptID string
	StartedAt    int64 // Unix ms
	LastSeenAt   int64 // Unix ms
	EndedAt      int64 // Unix ms; 0 while open
}

const sessionCols = `session_id, project_path, transcript_path, transcript_offset, last_prompt_id,
	started_at, last_seen_at, coalesce(ended_at, 0)`

func scanSession(sc interface{ Scan(...any) error }) (Session, error) {
	var s Session
	err := sc.Scan(&s.ID, &s.ProjectPath, &s.TranscriptPath, &s.TranscriptOffset, &s.LastPromptID,
		&s.StartedAt, &s.LastSeenAt, &s.EndedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return s, ErrNotFound
	}
	return s, err
}

// Session returns the hooks' record of a session, or ErrNotFound.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(db.sql.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM hook_sessions WHERE session_id = ?`, validUTF8(id)))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return s, wrap("read session", err)
	}
	return s, err
}

// Session reads a session inside the transaction, or ErrNotFound.
func (tx *Tx) Session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(tx.QueryRow(ctx, `SELECT `+sessionCols+` FROM hook_sessions WHERE session_id = ?`, validUTF8(id)))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return s, wrap("read session", err)
	}
	return s, err
}

// SaveSession records that session s was seen now. It creates the row the
// first time; afterwards the non-empty ProjectPath, TranscriptPath and
// LastPromptID of s replace the stored ones, and a non-zero EndedAt marks
// the session ended. The transcript offset moves only through
// SetTranscriptOffset.
func (tx *Tx) SaveSession(ctx context.Context, s Session) error {
	if s.ID == "" {
		return fmt.Errorf("save session: empty session id")
	}
	now := tx.db.now().UnixMilli()
	_, err := tx.Exec(ctx, `INSERT INTO hook_sessions(session_id, project_path, transcript_path, last_prompt_id,
		started_at, last_seen_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(session_id) DO UPDATE SET
		project_path = CASE WHEN excluded.project_path <> '' THEN excluded.project_path ELSE project_path END,
		transcript_path = CASE WHEN excluded.transcript_path <> '' THEN excluded.transcript_path ELSE transcript_path END,
		last_prompt_id = CASE WHEN excluded.last_prompt_id <> '' THEN excluded.last_prompt_id ELSE last_prompt_id END,
		last_seen_at = excluded.last_seen_at,
		ended_at = coalesce(excluded.ended_at, ended_at)`,
		validUTF8(s.ID), validUTF8(s.ProjectPath), validUTF8(s.TranscriptPath), s.LastPromptID, now, now, nullInt(s.EndedAt))
	return wrap("save session", err)
}

// SetTranscriptOffset records how far the session's transcript is flushed.
// The session row must exist (SaveSession first).
func (tx *Tx) SetTranscriptOffset(ctx context.Context, sessionID string, offset int64) error {
	_, err := tx.Exec(ctx, `UPDATE hook_sessions SET transcript_offset = ? WHERE session_id = ?`, offset, validUTF8(sessionID))
	return wrap("set transcript offset", err)
}

// PreviousSession returns the most recently seen session of project other
// than exclude, or ErrNotFound.
func (db *DB) PreviousSession(ctx context.Context, project, exclude string) (Session, error) {
	s, err := scanSession(db.sql.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM hook_sessions
		WHERE project_path = ? AND session_id <> ? ORDER BY last_seen_at DESC LIMIT 1`, validUTF8(project), validUTF8(exclude)))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return s, wrap("read previous session", err)
	}
	return s, err
}

// CountSessionPrompts returns how many prompt episodes of a session have
// exactly this content.
func (db *DB) CountSessionPrompts(ctx context.Context, sessionID, content string) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM episodes WHERE session_id = ? AND kind = 'prompt'
		AND content = ? AND forgotten_at IS NULL`, validUTF8(sessionID), validUTF8(content)).Scan(&n)
	return n, wrap("count session prompts", err)
}

// SessionEpisodesBefore returns up to limit live episodes of a session
// recorded before the episode with sequence number seq, newest first: the
// conversation an utterance answers (a correction that names only a value
// corrects what was said just before it).
func (db *DB) SessionEpisodesBefore(ctx context.Context, sessionID string, seq int64, limit int) ([]Episode, error) {
	if sessionID == "" || limit <= 0 {
		return nil, nil
	}
	return collect(ctx, db.sql, "list session episodes", scanEpisode, `SELECT `+episodeCols+` FROM episodes e
		WHERE session_id = ? AND seq < ? AND forgotten_at IS NULL ORDER BY seq DESC LIMIT ?`,
		validUTF8(sessionID), seq, limit)
}

// LatestSchemaVersion returns the version of the newest embedded migration.
// A database whose SchemaVersion equals it can be opened with
// Options.ReadOnly, which skips the migration pass; the hooks do that on
// every prompt so a busy database costs them no write lock before their own.
func LatestSchemaVersion() (int, error) {
	ms, err := loadMigrations()
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	if len(ms) == 0 {
		return 0, nil
	}
	return ms[len(ms)-1].version, nil
}

// LastSessionPrompt returns the content of the session's latest prompt
// episode stored at or before t, or "" when there is none. The Stop hook
// pairs a reply with it when the transcript cannot say which prompt the
// turn had; "at or before" keeps a Stop stored late from pairing with a
// prompt that came after it.
func (db *DB) LastSessionPrompt(ctx context.Context, sessionID string, t time.Time) (string, error) {
	var content []byte
	err := db.sql.QueryRowContext(ctx, `SELECT CAST('.' || content AS BLOB) FROM episodes
		WHERE session_id = ? AND kind = 'prompt' AND created_at <= ? AND forgotten_at IS NULL
		ORDER BY created_at DESC, id DESC LIMIT 1`, validUTF8(sessionID), t.UnixMilli()).Scan(&content)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", wrap("read session prompt", err)
	}
	return string(content[1:]), nil
}
