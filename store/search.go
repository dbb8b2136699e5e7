package store

import (
	"context"
	"strings"
	"unicode"
)

// TextHit is a full-text result; Score is the negated BM25 (higher is better).
type TextHit struct {
	ID    string
	Score float64
}

// MatchQuery turns free text into a safe FTS5 query: its distinct word
// tokens, quoted, joined with OR. It returns "" when there is nothing to
// search for.
func MatchQuery(text string, maxTerms int) string {
	seen := map[string]bool{}
	var terms []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(f) < 2 || stopWords[f] || seen[f] {
			continue
		}
		seen[f] = true
		terms = append(terms, `"`+f+`"`)
		if len(terms) == maxTerms {
			break
		}
	}
	return strings.Join(terms, " OR ")
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can could do does for from had has have how
		i if in into is it its me my no not of on or our should so that the their them then there these they this
		to too us was we were what when where which who why will with would you your`) {
		stopWords[w] = true
	}
}

// SearchBeliefs runs BM25 over active beliefs visible from project (its own
// and global ones; all when project is "").
func (db *DB) SearchBeliefs(ctx context.Context, text, project string, k int) ([]TextHit, error) {
	q := MatchQuery(text, 32)
	if q == "" {
		return nil, nil
	}
	return db.textSearch(ctx, `SELECT b.id, -bm25(beliefs_fts) FROM beliefs_fts JOIN beliefs b ON b.seq = beliefs_fts.rowid
		WHERE beliefs_fts MATCH ? AND b.status = 'active' AND (? = '' OR b.scope = 'global' OR b.project_path = ?)
		ORDER BY bm25(beliefs_fts) LIMIT ?`, q, project, project, k)
}

// SearchEpisodes runs BM25 over live episodes visible from project.
func (db *DB) SearchEpisodes(ctx context.Context, text, project string, k int) ([]TextHit, error) {
	q := MatchQuery(text, 32)
	if q == "" {
		return nil, nil
	}
	return db.textSearch(ctx, `SELECT e.id, -bm25(episodes_fts) FROM episodes_fts JOIN episodes e ON e.seq = episodes_fts.rowid
		WHERE episodes_fts MATCH ? AND e.forgotten_at IS NULL AND (? = '' OR e.scope = 'global' OR e.project_path = ?)
		ORDER BY bm25(episodes_fts) LIMIT ?`, q, project, project, k)
}

func (db *DB) textSearch(ctx context.Context, query string, args ...any) ([]TextHit, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap("text search", err)
	}
	defer rows.Close()
	var out []TextHit
	for rows.Next() {
		var h TextHit
		if err := rows.Scan(&h.ID, &h.Score); err != nil {
			return nil, wrap("text search", err)
		}
		out = append(out, h)
	}
	return out, wrap("text search", rows.Err())
}
