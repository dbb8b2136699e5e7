package hranatest

import (
	"strings"
	"unicode"
)

// piece is one SQL statement of a text, as the server needs to know it
// without a parser: its text without the trailing semicolon, its first
// keyword, and its parameters in order of first appearance (nil for an
// anonymous "?").
type piece struct {
	sql     string
	keyword string
	params  []*string
	returns bool // has a RETURNING clause, so it produces rows
	writes  bool // names a statement that changes the database (a CTE's INSERT)
}

// splitSQL cuts text into statements at semicolons outside quotes and
// comments. Empty statements are dropped.
func splitSQL(text string) []piece {
	var out []piece
	cur := newScan()
	start := 0
	flush := func(end int) {
		p := cur.piece(strings.TrimSpace(text[start:end]))
		if p.sql != "" {
			out = append(out, p)
		}
		cur = newScan()
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(text, i, c)
		case c == '[':
			if j := strings.IndexByte(text[i:], ']'); j >= 0 {
				i += j + 1
			} else {
				i = len(text)
			}
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(text)
			}
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			if j := strings.Index(text[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(text)
			}
		case c == ';':
			flush(i)
			i++
			start = i
		case c == '?':
			j := i + 1
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			if j == i+1 {
				cur.params = append(cur.params, nil)
			} else {
				cur.named(text[i:j])
			}
			i = j
		case c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < len(text) && isIdent(rune(text[j])) {
				j++
			}
			if j > i+1 {
				cur.named(text[i:j])
			}
			i = j
		case isIdentStart(rune(c)):
			j := i + 1
			for j < len(text) && isIdent(rune(text[j])) {
				j++
			}
			cur.word(text[i:j])
			i = j
		default:
			i++
		}
	}
	flush(len(text))
	return out
}

// scan collects what splitSQL learns about one statement.
type scan struct {
	keyword string
	params  []*string
	seen    map[string]bool
	returns bool
	writes  bool
}

func newScan() *scan { return &scan{seen: map[string]bool{}} }

func (s *scan) word(w string) {
	u := strings.ToUpper(w)
	if s.keyword == "" {
		s.keyword = u
	}
	switch u {
	case "RETURNING":
		s.returns = true
	case "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER":
		s.writes = true
	}
}

func (s *scan) named(name string) {
	if s.seen[name] {
		return
	}
	s.seen[name] = true
	n := name
	s.params = append(s.params, &n)
}

func (s *scan) piece(sql string) piece {
	return piece{sql: sql, keyword: s.keyword, params: s.params, returns: s.returns, writes: s.writes}
}

// skipQuoted returns the index just past the quoted run that starts at i;
// a doubled quote inside stays in the run.
func skipQuoted(text string, i int, q byte) int {
	for j := i + 1; j < len(text); j++ {
		if text[j] == q {
			if j+1 < len(text) && text[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) || r >= 0x80 }

func isIdent(r rune) bool { return isIdentStart(r) || unicode.IsDigit(r) }

// readOnly reports whether the statement only reads, as a describe
// answers it.
func (p piece) readOnly() bool {
	switch p.keyword {
	case "SELECT", "VALUES", "WITH", "EXPLAIN":
		return !p.writes
	}
	return false
}

// query reports whether the statement is a query whose rows the server can
// read back exactly, wrapped in a CTE (see conn.query).
func (p piece) query() bool {
	switch p.keyword {
	case "SELECT", "VALUES", "WITH":
		return !p.writes
	}
	return false
}

// changes reports whether the statement's affected row count means
// anything: it inserts, updates or deletes.
func (p piece) changes() bool {
	switch p.keyword {
	case "INSERT", "UPDATE", "DELETE", "REPLACE":
		return true
	case "WITH":
		return p.writes
	}
	return false
}
