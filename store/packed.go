package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Recall reads its candidate rows packed: the query returns one row with
// one BLOB, every matching row's fields printed into it by SQLite, which Go
// then splits. go-libsql pays a few microseconds for every row it returns
// and about one more for every value in it (a cgo call or two, and a Rust
// row), so two dozen beliefs of seventeen fields cost 0.86 ms as rows and
// 0.39 ms packed (store BenchmarkRecallRows, docs/BENCHMARKS.md).
//
// A packed record is its fields in order, each as
//
//	text     <byte length>:<bytes>
//	integer  <decimal>;
//	real     <%!.17g>;   (17 significant digits: the double, exactly)
//
// Text is printed with %s, which stops at a NUL byte: the store never keeps
// NUL in text it writes (cleanText), so a packed field is never cut short.

// packField is one field of a packed record: its kind (packText,
// packInt, packReal) and the SQL expression that gives it.
type packField struct {
	kind byte
	expr string
}

const (
	packText = 't'
	packInt  = 'i'
	packReal = 'r'
)

// packExpr returns the SQL expression that prints one row's fields as a
// packed record.
func packExpr(fields ...packField) string {
	var format strings.Builder
	var args []string
	for _, f := range fields {
		switch f.kind {
		case packText:
			e := "coalesce(" + f.expr + ", '')"
			format.WriteString("%d:%s")
			args = append(args, "octet_length("+e+")", e)
		case packInt:
			format.WriteString("%d;")
			args = append(args, "coalesce("+f.expr+", 0)")
		case packReal:
			format.WriteString("%!.17g;")
			args = append(args, "coalesce("+f.expr+", 0.0)")
		}
	}
	return "printf('" + format.String() + "', " + strings.Join(args, ", ") + ")"
}

// packedQuery wraps a query whose only column is a packExpr into one that
// returns every row's record in one BLOB.
func packedQuery(inner string) string {
	return `SELECT CAST(group_concat(p, '') AS BLOB) FROM (` + inner + `)`
}

// idsJSON renders IDs as the JSON array `IN (SELECT value FROM json_each(?))`
// reads: one argument, however many IDs (binding each costs a cgo call).
func idsJSON(ids []string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// unpacker reads a packed record's fields in order; the first malformed
// field sets err, and every read after it returns a zero value.
type unpacker struct {
	b   []byte
	err error
}

var errPacked = errors.New("malformed packed record")

func (u *unpacker) more() bool { return u.err == nil && len(u.b) > 0 }

func (u *unpacker) fail(what string) {
	if u.err == nil {
		u.err = fmt.Errorf("%w: bad %s at %.20q", errPacked, what, u.b)
	}
}

func (u *unpacker) text() string {
	if u.err != nil {
		return ""
	}
	i := bytes.IndexByte(u.b, ':')
	n, err := strconv.Atoi(string(u.b[:max(i, 0)]))
	if i < 0 || err != nil || n < 0 || n > len(u.b)-i-1 {
		u.fail("text")
		return ""
	}
	s := string(u.b[i+1 : i+1+n])
	u.b = u.b[i+1+n:]
	return s
}

// field returns the bytes up to the next ';'.
func (u *unpacker) field(what string) []byte {
	if u.err != nil {
		return nil
	}
	i := bytes.IndexByte(u.b, ';')
	if i < 0 {
		u.fail(what)
		return nil
	}
	f := u.b[:i]
	u.b = u.b[i+1:]
	return f
}

func (u *unpacker) int() int64 {
	f := u.field("integer")
	if u.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(string(f), 10, 64)
	if err != nil {
		u.fail("integer")
	}
	return n
}

func (u *unpacker) real() float64 {
	f := u.field("real")
	if u.err != nil {
		return 0
	}
	x, err := strconv.ParseFloat(string(f), 64)
	if err != nil {
		u.fail("real")
	}
	return x
}
