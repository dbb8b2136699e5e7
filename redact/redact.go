package redact

import (
	"slices"
	"sort"
	"strings"
)

// markerPrefix starts every replacement. A value that already starts with it
// is never redacted again, which keeps String idempotent.
const markerPrefix = "[REDACTED:"

// marker returns the replacement text for a secret of the given kind.
func marker(kind string) string { return markerPrefix + kind + "]" }

// finding is one span of the text to replace.
type finding struct {
	start, end int
	repl       string
}

// String returns s with every secret replaced by a [REDACTED:kind] marker.
// Text without secrets is returned unchanged (the same string, no copy).
func String(s string) string {
	var buf []finding
	for i := range rules {
		buf = rules[i].find(s, buf[:0], false)
		if len(buf) > 0 {
			s = replace(s, buf)
		}
	}
	return s
}

// Bytes is String for byte slices. It returns b itself when b holds no secret.
func Bytes(b []byte) []byte {
	if !Contains(string(b)) {
		return b
	}
	return []byte(String(string(b)))
}

// Contains reports whether s holds anything String would redact.
func Contains(s string) bool {
	for i := range rules {
		if len(rules[i].find(s, nil, true)) > 0 {
			return true
		}
	}
	return false
}

// replace applies sorted, non-overlapping findings to s.
func replace(s string, fs []finding) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, f := range fs {
		b.WriteString(s[prev:f.start])
		b.WriteString(f.repl)
		prev = f.end
	}
	b.WriteString(s[prev:])
	return b.String()
}

// caseVariants returns each word in lower case, capitalised and in upper
// case. Case-insensitive anchors are searched as these three spellings,
// which cover how people and tools write them (bearer, Bearer, BEARER),
// without building a lower-case copy of a large text; an odd mix such as
// bEaReR is not found.
func caseVariants(words []string) []string {
	var out []string
	for _, w := range words {
		w = strings.ToLower(w)
		title := w
		if i := strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }); i >= 0 {
			title = w[:i] + strings.ToUpper(w[i:i+1]) + w[i+1:]
		}
		for _, v := range []string{w, title, strings.ToUpper(w)} {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// anchorHits returns the sorted positions of every anchor in hay.
func anchorHits(hay string, anchors []string) []int {
	var hits []int
	for _, a := range anchors {
		for i := 0; ; {
			j := strings.Index(hay[i:], a)
			if j < 0 {
				break
			}
			hits = append(hits, i+j)
			i += j + len(a)
		}
	}
	if len(anchors) > 1 {
		sort.Ints(hits)
	}
	return hits
}
