package embed

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes caps how much of one token feeds character n-grams, so a
// base64 blob or minified line costs no more than an ordinary word.
const maxTokenBytes = 40

// stopWords returns the words that carry little meaning on their own. They
// still count, lightly, so "use X" and "don't use X" differ, but they never
// decide a match. The set is built on first use, not at package init.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a an the and or but if then else so as of at by for from in into on onto
		to with about over under than too very just also only even still
		i me my mine myself we us our ours you your yours he him his she her it
		its they them their this that these those there here who whom which what
		when where why how whose
		is am are was were be been being do does did doing done have has had
		having will would shall can could may might
		i'm i've i'd i'll we're we've we'd we'll you're you've it's that's
		there's let's let lets
		please thanks thank ok okay yes yeah sure really actually basically
		some any all each every both either neither other such own same
		more most less much many few lot lots
		get got gonna want wanna
		thing things stuff way
	`) {
		m[w] = true
	}
	return m
})

// token is one word of a text, lowercased. Proper is set for a word
// written with a capital letter somewhere other than the start of a
// sentence ("we deploy to Vercel"): such words usually name the thing a
// claim is about. Clause is set on the first token after punctuation, so
// negation scope and bigrams stop at clause boundaries.
type token struct {
	text   string
	proper bool
	clause bool
}

// span is a token's place in the lowercased buffer while it is being built.
type span struct {
	start, end     int
	proper, clause bool
}

// tokenizer keeps its buffers between calls; it is not safe for concurrent
// use (the offline embedder pools them).
type tokenizer struct {
	tokens []token
	lower  []byte
	spans  []span
}

// tokenize lowercases s and splits it into word tokens: runs of letters and
// digits, keeping inner apostrophes ("don't"), trailing + or # ("c++",
// "c#") and dots inside numbers ("3.12"). Anything else, including NUL
// bytes and invalid UTF-8, separates tokens. All token texts are substrings
// of one lowercased copy of s, so a call allocates that copy and nothing
// per token. The result is valid until the next call.
func (tz *tokenizer) tokenize(s string) []token {
	buf, sp := tz.lower[:0], tz.spans[:0]
	start, sentenceStart, clause, upper := -1, true, true, false
	flush := func() {
		if start >= 0 {
			sp = append(sp, span{start, len(buf), upper && !sentenceStart, clause})
			start, sentenceStart, clause, upper = -1, false, false, false
		}
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		word := isWordRune(r)
		if !word && start >= 0 && (r == '\'' || r == '’') && i+size < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[i+size:]); isWordRune(next) {
				word, r = true, '\'' // inner apostrophe: don't, it's, l’été
			}
		}
		if !word && start >= 0 && (r == '+' || r == '#') {
			word = true // c++, c#, f#
		}
		if !word && r == '.' && start >= 0 && isDigitByte(buf[len(buf)-1]) && i+1 < len(s) && isDigitByte(s[i+1]) {
			word = true // versions stay whole: 3.12, 1.22.4
		}
		if !word {
			flush()
			switch r {
			case '.', '!', '?', '\n':
				sentenceStart, clause = true, true
			case ',', ';', ':', '(', ')':
				clause = true
			}
			i += size
			continue
		}
		if start < 0 {
			start = len(buf)
			upper = unicode.IsUpper(r)
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			buf = append(buf, byte(r))
		} else {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		}
		i += size
	}
	flush()
	low := string(buf)
	out := tz.tokens[:0]
	for _, x := range sp {
		out = appendToken(out, token{text: low[x.start:x.end], proper: x.proper, clause: x.clause})
	}
	tz.tokens, tz.lower, tz.spans = out, buf, sp
	return out
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// appendToken drops a possessive "'s".
func appendToken(out []token, tok token) []token {
	t := tok.text
	if len(t) > 2 && strings.HasSuffix(t, "'s") && t != "it's" && t != "let's" &&
		t != "that's" && t != "there's" {
		tok.text = t[:len(t)-2]
	}
	return append(out, tok)
}

// stem strips the common English inflections that matter for paraphrase:
// plurals, -ing and -ed, then a final silent e, so "use", "uses", "used"
// and "using" share the stem "us". It is deliberately light: a wrong stem is
// harmless as long as it is the same for every form of the word.
func stem(w string) string {
	if len(w) < 3 || !isASCII(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && len(w) > 3 && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && hasVowel(w[:len(w)-3]) && len(w) > 4:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && hasVowel(w[:len(w)-2]) && len(w) > 3:
		w = w[:len(w)-2]
	}
	// Two derivations that paraphrases lean on: "validation" / "validate"
	// (both "validat") and "deployment" / "deploy".
	switch {
	case strings.HasSuffix(w, "ation") && len(w) > 7:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ment") && len(w) > 7:
		w = w[:len(w)-4]
	}
	// Undoubling every word, not only stripped ones, keeps "add" and
	// "added" (both "ad") together.
	w = undouble(w)
	if len(w) >= 3 && w[len(w)-1] == 'e' && w[len(w)-2] != 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns "runn" into "run" and "preferr" into "prefer", keeping the
// doubled l, s and z that inflection does not create ("install", "pass").
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isDigitByte(b byte) bool { return '0' <= b && b <= '9' }

func hasVowel(s string) bool {
	return strings.ContainsAny(s, "aeiouy")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
