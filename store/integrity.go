package store

import (
	"context"
	"fmt"
)

// ftsTables are the full-text indexes the store keeps, each over the table
// that holds its text.
var ftsTables = []string{"episodes_fts", "beliefs_fts"}

// CheckIntegrity runs SQLite's quick_check, or with full set its
// integrity_check and FTS5's own integrity-check of every full-text index,
// and returns the problems they report (nil when there are none).
func (db *DB) CheckIntegrity(ctx context.Context, full bool) ([]string, error) {
	pragma := "PRAGMA quick_check"
	if full {
		pragma = "PRAGMA integrity_check"
	}
	rows, err := db.sql.QueryContext(ctx, pragma)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pragma, err)
	}
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s: %w", pragma, err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", pragma, err)
	}
	if !full {
		return problems, nil
	}
	for _, fts := range ftsTables {
		// The command reports a damaged index as an error ("database disk
		// image is malformed"), not as rows.
		if _, err := db.sql.ExecContext(ctx, `INSERT INTO `+fts+`(`+fts+`) VALUES ('integrity-check')`); err != nil {
			problems = append(problems, fmt.Sprintf("FTS5 integrity-check of %s: %v", fts, err))
		}
	}
	return problems, nil
}
