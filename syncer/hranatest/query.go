package hranatest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// go-libsql, the engine behind the server, returns any TEXT value that
// parses as a date as a time.Time, and cannot hand back an empty BLOB
// without crashing the Go runtime. A server must return the stored text
// exactly, so queries are wrapped: each column comes back with its type
// and, when it is text, as a BLOB with a one-byte prefix that no date
// parser accepts.

// shape returns a query's column names, cached by its text until the
// schema changes. The statement is started with args (NULLs when nil) and
// closed before its first row is read.
func (srv *Server) shape(ctx context.Context, conn *sql.Conn, p piece, args []any) ([]string, error) {
	srv.shapeMu.Lock()
	names, ok := srv.shapes[p.sql]
	srv.shapeMu.Unlock()
	if ok {
		return names, nil
	}
	if args == nil {
		args = make([]any, len(p.params))
	}
	rows, err := conn.QueryContext(ctx, p.sql, args...)
	if err != nil {
		return nil, err
	}
	names, err = rows.Columns()
	rows.Close()
	if err != nil {
		return nil, err
	}
	srv.shapeMu.Lock()
	srv.shapes[p.sql] = names
	srv.shapeMu.Unlock()
	return names, nil
}

func (srv *Server) forgetShapes() {
	srv.shapeMu.Lock()
	clear(srv.shapes)
	srv.shapeMu.Unlock()
}

// query runs a read-only statement and returns its rows exactly as stored.
func (srv *Server) query(ctx context.Context, conn *sql.Conn, p piece, args []any) (*stmtResult, error) {
	names, err := srv.shape(ctx, conn, p, args)
	if err != nil {
		return nil, err
	}
	n := len(names)
	if n == 0 {
		return execRaw(ctx, conn, p.sql, args)
	}
	var b strings.Builder
	b.WriteString("WITH hrana_q(")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "c%d", i)
	}
	b.WriteString(") AS (")
	b.WriteString(p.sql)
	b.WriteString("\n) SELECT ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		// The type comes back as a number: a type name is TEXT, which the
		// engine would try ten date layouts on.
		fmt.Fprintf(&b, "CASE typeof(c%[1]d) WHEN 'integer' THEN 1 WHEN 'real' THEN 2 WHEN 'text' THEN 3 "+
			"WHEN 'blob' THEN 4 ELSE 0 END, CASE typeof(c%[1]d) WHEN 'text' THEN CAST(x'2e' || c%[1]d AS BLOB) "+
			"WHEN 'blob' THEN CASE WHEN length(c%[1]d) = 0 THEN NULL ELSE c%[1]d END ELSE c%[1]d END", i)
	}
	b.WriteString(" FROM hrana_q")
	rows, err := conn.QueryContext(ctx, b.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &stmtResult{Cols: make([]col, n), Rows: [][]value{}}
	for i, name := range names {
		res.Cols[i] = col{Name: &name}
	}
	raw := make([]any, 2*n)
	ptrs := make([]any, 2*n)
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]value, n)
		for i := range n {
			kind, _ := raw[2*i].(int64)
			row[i] = wireValue(kind, raw[2*i+1])
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	res.RowsRead = uint64(len(res.Rows))
	return res, nil
}

// wireValue rebuilds a value read through query's wrapping; kind is the
// number the wrapping gives its type.
func wireValue(kind int64, v any) value {
	switch kind {
	case 1:
		if n, ok := v.(int64); ok {
			return intValue(n)
		}
	case 2:
		if f, ok := v.(float64); ok {
			return floatValue(f)
		}
	case 3:
		if b, ok := v.([]byte); ok && len(b) > 0 {
			return textValue(string(b[1:]))
		}
	case 4:
		if b, ok := v.([]byte); ok {
			return blobValue(b)
		}
		return blobValue(nil) // empty, read as NULL
	}
	return nullValue()
}

// queryRaw runs a statement that returns rows but cannot be wrapped
// (PRAGMA, EXPLAIN, RETURNING). Text that looks like a date comes back as
// the engine formats it; nothing credence sends needs more.
func queryRaw(ctx context.Context, conn *sql.Conn, text string, args []any) (*stmtResult, error) {
	rows, err := conn.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &stmtResult{Cols: make([]col, len(names)), Rows: [][]value{}}
	for i, name := range names {
		res.Cols[i] = col{Name: &name}
	}
	raw := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]value, len(names))
		for i, v := range raw {
			switch v := v.(type) {
			case int64:
				row[i] = intValue(v)
			case float64:
				row[i] = floatValue(v)
			case string:
				row[i] = textValue(v)
			case time.Time:
				row[i] = textValue(v.Format(time.RFC3339Nano))
			case []byte:
				row[i] = blobValue(v)
			default:
				row[i] = nullValue()
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

// execRaw runs a statement that returns no rows.
func execRaw(ctx context.Context, conn *sql.Conn, text string, args []any) (*stmtResult, error) {
	r, err := conn.ExecContext(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	res := &stmtResult{Cols: []col{}, Rows: [][]value{}}
	if n, err := r.RowsAffected(); err == nil && n > 0 {
		res.AffectedRowCount = uint64(n)
		res.RowsWritten = uint64(n)
	}
	if id, err := r.LastInsertId(); err == nil {
		res.LastInsertRowid = rowidString(id)
	}
	return res, nil
}
