package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/credence-mem/credence/ids"
)

// Episode kinds.
const (
	EpisodePrompt   = "prompt"
	EpisodeExchange = "exchange"
	EpisodeNote     = "note"
	EpisodeImport   = "import"
)

// Episode is one recorded piece of a session. Content is already redacted
// when it reaches the store.
type Episode struct {
	Seq                 int64
	ID                  string
	SessionID           string
	ProjectPath         string
	Scope               string
	Kind                string
	Content             string
	Summary             string
	Surprise            float64
	SurpriseExplanation string
	// DedupKey, when set, makes AddEpisode a no-op for a second episode with
	// the same key: the hooks and the transcript tailer use it so an exchange
	// is stored once whichever path sees it first.
	DedupKey  string
	Turn      int64
	CreatedAt time.Time
	HLC       int64
	Origin    string
	Forgotten bool
	// Consolidated is filled by RecallEpisodes only: the consolidator has
	// read the episode (here, or on the machine it came from), so the
	// beliefs already weigh what it says.
	Consolidated bool
}

// AddEpisode records e, filling in its ID, time, clock and origin when they
// are empty. It reports false, with no error, when an episode with the same
// ID or DedupKey already exists.
func (tx *Tx) AddEpisode(ctx context.Context, e *Episode) (bool, error) {
	if e.Kind == "" {
		e.Kind = EpisodeNote
	}
	if e.Scope == "" {
		e.Scope = "project"
		if e.ProjectPath == "" {
			e.Scope = "global"
		}
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = tx.db.now()
	}
	if e.ID == "" {
		e.ID = ids.NewAt(ids.Episode, e.CreatedAt)
	}
	if e.Origin == "" {
		e.Origin = tx.db.machineID
	}
	if e.HLC == 0 {
		h, err := tx.Tick(ctx)
		if err != nil {
			return false, err
		}
		e.HLC = int64(h)
	}
	if e.Turn == 0 {
		t, err := tx.Turn(ctx)
		if err != nil {
			return false, err
		}
		e.Turn = t
	}
	// The driver refuses invalid UTF-8, and hooks pass on whatever Claude
	// Code sent: keep what is valid, mark the rest.
	e.Content, e.Summary = validUTF8(e.Content), validUTF8(e.Summary)
	e.SessionID, e.ProjectPath = validUTF8(e.SessionID), validUTF8(e.ProjectPath)
	var dedup any
	if e.DedupKey != "" {
		dedup = e.DedupKey
	}
	res, err := tx.Exec(ctx, `INSERT INTO episodes(id, session_id, project_path, scope, kind, content, summary,
		surprise, surprise_explanation, dedup_key, turn, created_at, hlc, origin)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		e.ID, e.SessionID, e.ProjectPath, e.Scope, e.Kind, e.Content, e.Summary,
		nullFloat(e.Surprise), nullString(e.SurpriseExplanation), dedup, e.Turn, e.CreatedAt.UnixMilli(), e.HLC, e.Origin)
	if err != nil {
		return false, wrap("add episode", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// AddEpisode records e in its own transaction; see Tx.AddEpisode.
func (db *DB) AddEpisode(ctx context.Context, e *Episode) (inserted bool, err error) {
	err = db.Write(ctx, func(tx *Tx) error {
		inserted, err = tx.AddEpisode(ctx, e)
		return err
	})
	return inserted, err
}

// HasDedupKey reports whether an episode with this dedup key exists.
func (db *DB) HasDedupKey(ctx context.Context, key string) (bool, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM episodes WHERE dedup_key = ?`, key).Scan(&n)
	return n > 0, wrap("look up dedup key", err)
}

// Episode returns the episode with the given ID.
func (db *DB) Episode(ctx context.Context, id string) (Episode, error) {
	e, err := scanEpisode(db.sql.QueryRowContext(ctx, `SELECT `+episodeCols+` FROM episodes WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("episode %s: %w", id, ErrNotFound)
	}
	return e, wrap("read episode", err)
}

// EpisodesAfter returns up to limit episodes with a local sequence number
// greater than seq, oldest first. Forgotten episodes are skipped.
func (db *DB) EpisodesAfter(ctx context.Context, seq int64, limit int) ([]Episode, error) {
	return collect(ctx, db.sql, "list episodes", scanEpisode, `SELECT `+episodeCols+` FROM episodes
		WHERE seq > ? AND forgotten_at IS NULL ORDER BY seq LIMIT ?`, seq, limit)
}

// EpisodesByID returns the episodes with the given IDs, in no particular order.
func (db *DB) EpisodesByID(ctx context.Context, idList []string) ([]Episode, error) {
	var out []Episode
	for _, chunk := range chunks(idList, 200) {
		es, err := collect(ctx, db.sql, "read episodes", scanEpisode,
			`SELECT `+episodeCols+` FROM episodes WHERE id IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// CountEpisodes returns how many episodes are stored (forgotten ones excluded).
func (db *DB) CountEpisodes(ctx context.Context) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM episodes WHERE forgotten_at IS NULL`).Scan(&n)
	return n, wrap("count episodes", err)
}

// SetSurprise records how surprising an episode was and, when given, why.
func (db *DB) SetSurprise(ctx context.Context, id string, surprise float64, explanation string) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE episodes SET surprise = ?, surprise_explanation = ? WHERE id = ?`,
		surprise, nullString(explanation), id)
	return wrap("set surprise", err)
}

// validUTF8 makes text safe to bind: the driver refuses invalid UTF-8 and
// passes strings through C, where a NUL byte would silently cut them short.
// NUL becomes U+2400 (␀) so nothing after it is lost.
func validUTF8(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\u2400")
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullFloat(f float64) any {
	if f == 0 {
		return nil
	}
	return f
}

func nullInt(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '?')
	}
	return string(b)
}

func anySlice[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func chunks[T any](xs []T, n int) [][]T {
	var out [][]T
	for len(xs) > n {
		out = append(out, xs[:n])
		xs = xs[n:]
	}
	if len(xs) > 0 {
		out = append(out, xs)
	}
	return out
}

// HasEpisode reports whether an episode with this ID exists, forgotten or
// not, inside the transaction.
func (tx *Tx) HasEpisode(ctx context.Context, id string) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM episodes WHERE id = ?`, id).Scan(&n)
	return n > 0, wrap("look up episode", err)
}

// HasEpisode reports whether an episode with this ID exists, forgotten or
// not.
func (db *DB) HasEpisode(ctx context.Context, id string) (bool, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM episodes WHERE id = ?`, id).Scan(&n)
	return n > 0, wrap("look up episode", err)
}

// EpisodeByPrefix returns the episode with the given ID or an unambiguous
// prefix of at least six ULID characters (a trailing "…" from a short ID is
// ignored).
func (db *DB) EpisodeByPrefix(ctx context.Context, id string) (Episode, error) {
	e, err := db.Episode(ctx, id)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return e, err
	}
	prefix := strings.TrimSuffix(id, "…")
	if len(prefix) < len("ep_")+6 || !strings.HasPrefix(prefix, "ep_") {
		return e, err
	}
	rows, qerr := db.sql.QueryContext(ctx, `SELECT `+episodeCols+` FROM episodes WHERE id >= ? AND id < ? LIMIT 2`,
		validUTF8(prefix), validUTF8(prefix)+"~")
	if qerr != nil {
		return e, wrap("read episode", qerr)
	}
	defer rows.Close()
	var found []Episode
	for rows.Next() {
		x, err := scanEpisode(rows)
		if err != nil {
			return e, wrap("read episode", err)
		}
		found = append(found, x)
	}
	switch len(found) {
	case 0:
		return e, fmt.Errorf("episode %s: %w", id, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return e, fmt.Errorf("episode %s: prefix matches more than one episode; give more characters", id)
}
