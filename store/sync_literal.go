package store

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sync writes rows as SQL literals rather than bound arguments. go-libsql
// binds every argument through C, one call and one copy each, and its
// remote client sends a statement with arguments as two HTTP requests (a
// describe, then the statement) with every argument as a JSON object; a
// statement without arguments is one request, a third the size, and
// nothing is bound. The literals are exact: text is quoted with SQLite's
// only escape (a doubled quote), and a REAL is written as an integer
// scaled by powers of two, each step exact in binary floating point, so no
// decimal conversion on either side can round it.

// AppendSQLLiteral appends v (nil, string, int64, int, float64 or bool) as
// an SQL literal.
func AppendSQLLiteral(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "NULL"...)
	case string:
		return AppendSQLText(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case float64:
		return appendReal(b, v)
	case bool:
		if v {
			return append(b, '1')
		}
		return append(b, '0')
	}
	panic(fmt.Sprintf("store: no SQL literal for %T", v))
}

// AppendSQLRow appends vals as a parenthesized row of literals, as a
// multi-row INSERT lists them.
func AppendSQLRow(b []byte, vals []any) []byte {
	b = append(b, '(')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendSQLLiteral(b, v)
	}
	return append(b, ')')
}

// AppendSQLText quotes s as SQLite text. Bytes that are not UTF-8 become
// U+FFFD and NUL becomes U+2400, as the store writes them (validUTF8), so a
// literal never ends early in C.
func AppendSQLText(b []byte, s string) []byte {
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		s = validUTF8(s)
	}
	b = append(b, '\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b = append(append(b, s[:i+1]...), '\'')
		s = s[i+1:]
	}
	return append(append(b, s...), '\'')
}

// appendReal writes f as an exact expression: m.0 scaled by powers of two,
// with m an integer below 2^53 (exact in any decimal parser) and each
// multiplication or division by 2^k exact in binary floating point.
func appendReal(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NULL"...) // SQLite stores NaN as NULL
	case math.IsInf(f, 1):
		return append(b, "9e999"...)
	case math.IsInf(f, -1):
		return append(b, "-9e999"...)
	case f == 0 && math.Signbit(f):
		return append(b, "-0.0"...)
	case f == math.Trunc(f) && math.Abs(f) < 1<<53:
		return strconv.AppendFloat(b, f, 'f', 1, 64)
	}
	frac, exp := math.Frexp(f) // f = frac · 2^exp, 0.5 ≤ |frac| < 1
	m, e := int64(frac*(1<<53)), exp-53
	for m%2 == 0 {
		m, e = m/2, e+1
	}
	steps := 0
	for k := e; k != 0; k -= max(min(k, 62), -62) {
		steps++
	}
	for range steps {
		b = append(b, '(')
	}
	b = strconv.AppendFloat(b, float64(m), 'f', 1, 64)
	for e != 0 {
		k := max(min(e, 62), -62)
		if k > 0 {
			b = append(b, " * "...)
		} else {
			b = append(b, " / "...)
		}
		b = strconv.AppendInt(b, int64(1)<<abs(k), 10)
		b = append(b, ')')
		e -= k
	}
	return b
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
