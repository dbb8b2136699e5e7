package store

import "context"

// rowScanner is what scan functions read from: *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(...any) error }

// collect runs query and scans every row with scan; op names the
// operation in errors.
func collect[T any](ctx context.Context, q querier, op string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, wrap(op, err)
		}
		out = append(out, v)
	}
	return out, wrap(op, rows.Err())
}
