package redact

import (
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
	t := text{s: s}
	var buf []finding
	for i := range rules {
		buf = rules[i].find(&t, buf[:0], false)
		if len(buf) > 0 {
			t.replace(buf)
		}
	}
	return t.s
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
	t := text{s: s}
	for i := range rules {
		if len(rules[i].find(&t, nil, true)) > 0 {
			return true
		}
	}
	return false
}

// text is the string being redacted together with a lazily built ASCII
// lower-case copy of the same length, used to find case-insensitive anchors.
type text struct {
	s     string
	lower string
	fresh bool
}

// folded returns the lower-case copy of t.s, rebuilding it after a change.
func (t *text) folded() string {
	if !t.fresh {
		t.lower = asciiLower(t.s)
		t.fresh = true
	}
	return t.lower
}

// replace applies sorted, non-overlapping findings to t.s.
func (t *text) replace(fs []finding) {
	var b strings.Builder
	b.Grow(len(t.s))
	prev := 0
	for _, f := range fs {
		b.WriteString(t.s[prev:f.start])
		b.WriteString(f.repl)
		prev = f.end
	}
	b.WriteString(t.s[prev:])
	t.s = b.String()
	t.fresh = false
}

// asciiLower lower-cases ASCII letters only, so offsets in the result match
// offsets in s exactly (strings.ToLower may change the length of non-ASCII
// text).
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// window is a region of the text a rule's expression runs on.
type window struct{ lo, hi int }

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

// windows turns anchor hits into merged regions reaching back and fwd bytes
// around each hit. Unless multiline is set, a region never crosses a line
// break, because every single-line secret lies within one line.
func windows(s string, hits []int, back, fwd int, multiline bool) []window {
	var ws []window
	for _, h := range hits {
		lo, hi := max(0, h-back), min(len(s), h+fwd)
		if !multiline {
			if nl := strings.LastIndexByte(s[lo:h], '\n'); nl >= 0 {
				lo += nl + 1
			}
			if nl := strings.IndexByte(s[h:hi], '\n'); nl >= 0 {
				hi = h + nl
			}
		}
		if n := len(ws); n > 0 && lo <= ws[n-1].hi {
			ws[n-1].hi = max(ws[n-1].hi, hi)
			continue
		}
		ws = append(ws, window{lo, hi})
	}
	return ws
}
