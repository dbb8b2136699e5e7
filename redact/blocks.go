package redact

import "strings"

const (
	privateOpen  = "<private>"
	privateClose = "</private>"
	// pemSearch bounds how far after a BEGIN line the END line is looked
	// for; real keys are a few kilobytes.
	pemSearch = 64 << 10
)

var (
	pemBegin = lazyRegexp(`^-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = lazyRegexp(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
)

var privateOpens, privateCloses = caseVariants([]string{privateOpen}), caseVariants([]string{privateClose})

// scanPrivateTags finds <private>…</private> blocks across lines, with the
// tags written in lower, capitalised or upper case. An unclosed block runs
// to the end of the text: a person who opened the tag meant what follows to
// stay private.
func scanPrivateTags(s string, out []finding, first bool) []finding {
	for i := 0; ; {
		j := indexAny(s[i:], privateOpens)
		if j < 0 {
			return out
		}
		start := i + j
		end := len(s)
		if k := indexAny(s[start+len(privateOpen):], privateCloses); k >= 0 {
			end = start + len(privateOpen) + k + len(privateClose)
		}
		out = append(out, finding{start, end, marker("private")})
		if first {
			return out
		}
		i = end
	}
}

// indexAny returns the first index in s of any of the words, which all have
// the same length, or -1.
func indexAny(s string, words []string) int {
	best := -1
	for _, w := range words {
		hay := s
		if best >= 0 {
			hay = s[:best+len(w)-1] // only matches starting before best
		}
		if j := strings.Index(hay, w); j >= 0 {
			best = j
		}
	}
	return best
}

// scanPEM finds private key blocks from the BEGIN line to the END line. A
// block cut short (a truncated paste, a head of a file) is redacted as far as
// its lines look like key material.
func scanPEM(s string, out []finding, first bool) []finding {
	prevEnd := 0
	for _, h := range anchorHits(s, []string{"-----BEGIN "}) {
		if h < prevEnd {
			continue
		}
		hdr := pemBegin().FindStringIndex(s[h:min(len(s), h+128)])
		if hdr == nil {
			continue
		}
		body := h + hdr[1]
		limit := min(len(s), body+pemSearch)
		end := body + keyBodyLen(s[body:limit])
		if e := pemEnd().FindStringIndex(s[body:limit]); e != nil {
			end = body + e[1]
		}
		out = append(out, finding{h, end, marker("private-key")})
		if first {
			return out
		}
		prevEnd = end
	}
	return out
}

// keyBodyLen returns how many leading bytes of b are key material: lines of
// base64 or PEM headers (Proc-Type: …), separated by real or JSON-escaped
// line breaks. It stops at the first line of anything else, such as prose.
func keyBodyLen(b string) int {
	pos := 0
	for pos < len(b) {
		i := skipLineBreaks(b, pos)
		if i == pos {
			return pos // every line, the first too, starts after a break
		}
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		j := i
		for j < len(b) && b[j] != '\n' && b[j] != '\r' && b[j] != '\\' {
			j++
		}
		if line := b[i:j]; line == "" || !(isBase64Line(line) || isPEMHeader(line)) {
			return pos
		}
		pos = j
	}
	return pos
}

// skipLineBreaks skips real line breaks and their JSON escapes (\n, \r).
func skipLineBreaks(b string, i int) int {
	for i < len(b) {
		switch {
		case b[i] == '\n' || b[i] == '\r':
			i++
		case b[i] == '\\' && i+1 < len(b) && (b[i+1] == 'n' || b[i+1] == 'r'):
			i += 2
		default:
			return i
		}
	}
	return i
}

func isBase64Line(line string) bool {
	for i := 0; i < len(line); i++ {
		if c := line[i]; !isAlnum(c) && c != '+' && c != '/' && c != '=' {
			return false
		}
	}
	return true
}

// isPEMHeader reports RFC 1421 header lines such as "DEK-Info: AES-128-CBC,…".
func isPEMHeader(line string) bool {
	i := strings.Index(line, ": ")
	if i <= 0 {
		return false
	}
	for k := 0; k < i; k++ {
		if c := line[k]; !isAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}
