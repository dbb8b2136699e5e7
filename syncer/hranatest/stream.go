package hranatest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// stream is one Hrana stream: a connection to the backing database that
// lives across pipeline requests, tied to them by a baton.
type stream struct {
	mu       sync.Mutex // one pipeline at a time; the reaper waits for it
	conn     *sql.Conn
	sqls     map[int32]string // texts stored with store_sql
	inTx     bool             // inside an explicit transaction
	baton    string
	lastUsed time.Time
	closed   bool
}

// run executes one stream request and returns its response, or the error
// the pipeline reports in its place.
func (s *stream) run(ctx context.Context, srv *Server, req streamReq) (any, *protoError) {
	switch req.Type {
	case "execute":
		if req.Stmt == nil {
			return nil, &protoError{Message: "execute without stmt", Code: "PROTOCOL"}
		}
		res, err := s.execute(ctx, srv, *req.Stmt)
		if err != nil {
			return nil, err
		}
		return executeResp{Type: "execute", Result: *res}, nil
	case "batch":
		if req.Batch == nil {
			return nil, &protoError{Message: "batch without steps", Code: "PROTOCOL"}
		}
		return batchResp{Type: "batch", Result: s.batch(ctx, srv, *req.Batch)}, nil
	case "sequence":
		text, err := s.text(req.SQL, req.SQLID)
		if err != nil {
			return nil, err
		}
		for _, p := range splitSQL(text) {
			if _, err := s.exec(ctx, srv, p, nil, false); err != nil {
				return nil, err
			}
		}
		return typedResp{Type: "sequence"}, nil
	case "describe":
		text, err := s.text(req.SQL, req.SQLID)
		if err != nil {
			return nil, err
		}
		res, err := s.describe(ctx, srv, text)
		if err != nil {
			return nil, err
		}
		return describeResp{Type: "describe", Result: *res}, nil
	case "store_sql":
		if req.SQLID == nil || req.SQL == nil {
			return nil, &protoError{Message: "store_sql needs sql_id and sql", Code: "PROTOCOL"}
		}
		if _, dup := s.sqls[*req.SQLID]; dup {
			return nil, &protoError{Message: fmt.Sprintf("sql_id %d is already in use", *req.SQLID), Code: "SQL_ID_IN_USE"}
		}
		s.sqls[*req.SQLID] = *req.SQL
		return typedResp{Type: "store_sql"}, nil
	case "close_sql":
		if req.SQLID != nil {
			delete(s.sqls, *req.SQLID)
		}
		return typedResp{Type: "close_sql"}, nil
	case "get_autocommit":
		return autocommitResp{Type: "get_autocommit", IsAutocommit: !s.inTx}, nil
	case "close":
		return typedResp{Type: "close"}, nil
	}
	return nil, &protoError{Message: fmt.Sprintf("unknown request type %q", req.Type), Code: "PROTOCOL"}
}

// text resolves an sql / sql_id pair; exactly one must be set.
func (s *stream) text(sqlText *string, id *int32) (string, *protoError) {
	switch {
	case sqlText != nil && id != nil:
		return "", &protoError{Message: "both sql and sql_id given", Code: "PROTOCOL"}
	case sqlText != nil:
		return *sqlText, nil
	case id != nil:
		t, ok := s.sqls[*id]
		if !ok {
			return "", &protoError{Message: fmt.Sprintf("sql_id %d is not stored", *id), Code: "SQL_NOT_FOUND"}
		}
		return t, nil
	}
	return "", &protoError{Message: "neither sql nor sql_id given", Code: "PROTOCOL"}
}

// batch runs steps in order, each when its condition holds.
func (s *stream) batch(ctx context.Context, srv *Server, b batch) batchResult {
	res := batchResult{StepResults: make([]*stmtResult, len(b.Steps)), StepErrors: make([]*protoError, len(b.Steps))}
	for i, step := range b.Steps {
		if step.Condition != nil && !s.holds(*step.Condition, res, i) {
			continue
		}
		r, err := s.execute(ctx, srv, step.Stmt)
		res.StepResults[i], res.StepErrors[i] = r, err
	}
	return res
}

// holds evaluates a batch condition against the steps before step.
func (s *stream) holds(c batchCond, res batchResult, step int) bool {
	ran := func(i uint32) bool { return int(i) < step }
	switch c.Type {
	case "ok":
		return ran(c.Step) && res.StepResults[c.Step] != nil
	case "error":
		return ran(c.Step) && res.StepErrors[c.Step] != nil
	case "not":
		return c.Cond != nil && !s.holds(*c.Cond, res, step)
	case "and":
		for _, sub := range c.Conds {
			if !s.holds(sub, res, step) {
				return false
			}
		}
		return true
	case "or":
		for _, sub := range c.Conds {
			if s.holds(sub, res, step) {
				return true
			}
		}
		return false
	case "is_autocommit":
		return !s.inTx
	}
	return false
}

// execute runs one statement with its arguments.
func (s *stream) execute(ctx context.Context, srv *Server, st stmt) (*stmtResult, *protoError) {
	text, perr := s.text(st.SQL, st.SQLID)
	if perr != nil {
		return nil, perr
	}
	pieces := splitSQL(text)
	if len(pieces) != 1 {
		return nil, &protoError{Message: fmt.Sprintf("expected one statement, got %d", len(pieces)), Code: "SQL_MANY_STATEMENTS"}
	}
	args, perr := bindArgs(pieces[0], st)
	if perr != nil {
		return nil, perr
	}
	want := st.WantRows == nil || *st.WantRows
	return s.exec(ctx, srv, pieces[0], args, want)
}

// bindArgs matches the positional and named arguments to the statement's
// parameters, in the order database/sql binds them.
func bindArgs(p piece, st stmt) ([]any, *protoError) {
	if len(st.NamedArgs) == 0 {
		if len(st.Args) != len(p.params) {
			return nil, &protoError{Message: fmt.Sprintf("statement takes %d arguments, got %d", len(p.params), len(st.Args)),
				Code: "ARGS_INVALID"}
		}
		args := make([]any, len(st.Args))
		for i, v := range st.Args {
			a, err := v.toGo()
			if err != nil {
				return nil, &protoError{Message: err.Error(), Code: "ARGS_INVALID"}
			}
			args[i] = a
		}
		return args, nil
	}
	named := map[string]value{}
	for _, a := range st.NamedArgs {
		named[a.Name] = a.Value
		named[strings.TrimLeft(a.Name, ":@$")] = a.Value
	}
	args := make([]any, len(p.params))
	for i, name := range p.params {
		var v value
		var ok bool
		if name == nil || strings.HasPrefix(*name, "?") {
			if i < len(st.Args) {
				v, ok = st.Args[i], true
			}
		} else if v, ok = named[*name]; !ok {
			v, ok = named[(*name)[1:]]
		}
		if !ok {
			return nil, &protoError{Message: fmt.Sprintf("no value for parameter %d", i+1), Code: "ARGS_INVALID"}
		}
		a, err := v.toGo()
		if err != nil {
			return nil, &protoError{Message: err.Error(), Code: "ARGS_INVALID"}
		}
		// go-libsql binds by position, and SQLite numbers a named
		// parameter where it first appears, as p.params lists them.
		args[i] = a
	}
	return args, nil
}

// exec runs one statement on the stream's connection and keeps track of
// whether the stream is inside a transaction.
func (s *stream) exec(ctx context.Context, srv *Server, p piece, args []any, wantRows bool) (*stmtResult, *protoError) {
	srv.observe(p.sql)
	var res *stmtResult
	var err error
	switch {
	case p.query():
		res, err = srv.query(ctx, s.conn, p, args)
	case p.returns || p.keyword == "PRAGMA" || p.keyword == "EXPLAIN":
		res, err = queryRaw(ctx, s.conn, p.sql, args)
	default:
		res, err = execRaw(ctx, s.conn, p.sql, args)
		if err == nil && !p.changes() {
			// The engine reports the last INSERT, UPDATE or DELETE's
			// count for any statement; a server reports none for others.
			res.AffectedRowCount, res.RowsWritten = 0, 0
		}
	}
	switch p.keyword {
	case "BEGIN":
		if err == nil {
			s.inTx = true
		}
	case "COMMIT", "END":
		// A COMMIT that fails because the database is busy leaves the
		// transaction open; any other failure or success ends it.
		if err == nil || !isBusy(err) {
			s.inTx = false
		}
	case "ROLLBACK":
		if !strings.Contains(strings.ToUpper(p.sql), " TO ") {
			s.inTx = false
		}
	case "CREATE", "DROP", "ALTER":
		if err == nil {
			srv.forgetShapes()
		}
	}
	if err != nil {
		return nil, sqlError(err)
	}
	if !wantRows {
		res.Rows = [][]value{}
	}
	return res, nil
}

// describe answers a describe request: the statement's parameters and, for
// a query, its columns, found by running it with NULL arguments and no
// rows.
func (s *stream) describe(ctx context.Context, srv *Server, text string) (*describeResult, *protoError) {
	pieces := splitSQL(text)
	if len(pieces) != 1 {
		return nil, &protoError{Message: fmt.Sprintf("expected one statement, got %d", len(pieces)), Code: "SQL_MANY_STATEMENTS"}
	}
	p := pieces[0]
	res := &describeResult{Params: []describeParam{}, Cols: []describeCol{}, IsExplain: p.keyword == "EXPLAIN",
		IsReadonly: p.readOnly()}
	for _, name := range p.params {
		res.Params = append(res.Params, describeParam{Name: name})
	}
	if p.query() {
		// A statement that fails with NULL arguments (LIMIT NULL) is
		// described without its columns, as clients here never read them.
		names, _ := srv.shape(ctx, s.conn, p, nil)
		for _, n := range names {
			res.Cols = append(res.Cols, describeCol{Name: n})
		}
	}
	return res, nil
}

// close ends the stream: a transaction left open is rolled back, and a
// connection that cannot roll back is discarded rather than reused.
func (s *stream) close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.inTx {
		if _, err := s.conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			_ = s.conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		s.inTx = false
	}
	s.conn.Close()
}

// sqlError turns an engine error into the protocol's Error, with an SQLite
// error code when the message names one.
func sqlError(err error) *protoError {
	msg := err.Error()
	code := "SQLITE_ERROR"
	switch {
	case isBusy(err):
		code = "SQLITE_BUSY"
	case strings.Contains(msg, "constraint failed") || strings.Contains(msg, "UNIQUE constraint"):
		code = "SQLITE_CONSTRAINT"
	case strings.Contains(msg, "no such table"):
		code = "SQLITE_ERROR"
	}
	return &protoError{Message: msg, Code: code}
}

func isBusy(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "busy")
}

func rowidString(n int64) *string {
	s := strconv.FormatInt(n, 10)
	return &s
}
