package extract

import (
	"strings"
	"unicode"
)

// phraseSet finds whole-word phrases in a clause. It does the work of a
// `\b(?:a|b c|...)\b` regexp over a long alternation in a few map lookups,
// which matters because every clause passes through the filters.
type phraseSet struct {
	byFirst map[string][][]string
}

func newPhraseSet(phrases ...string) phraseSet {
	s := phraseSet{byFirst: make(map[string][][]string, len(phrases))}
	for _, p := range phrases {
		words := strings.Fields(p)
		s.byFirst[words[0]] = append(s.byFirst[words[0]], words)
	}
	return s
}

// words splits a normalised clause into the words the phrase sets match.
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	})
}

// in reports whether any phrase occurs in ws at a word boundary.
func (s phraseSet) in(ws []string) bool {
	for i, w := range ws {
		if s.at(ws, i, w) {
			return true
		}
	}
	return false
}

// opens reports whether ws starts with one of the phrases.
func (s phraseSet) opens(ws []string) bool {
	return len(ws) > 0 && s.at(ws, 0, ws[0])
}

func (s phraseSet) at(ws []string, i int, w string) bool {
	for _, p := range s.byFirst[w] {
		if len(p) > len(ws)-i {
			continue
		}
		match := true
		for j := 1; j < len(p); j++ {
			if ws[i+j] != p[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// containsAny reports whether s contains any of the substrings: a cheap gate
// before a matcher's regexps run.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
