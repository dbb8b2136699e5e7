package plural

import (
	"strconv"
	"strings"
)

// Count returns n followed by noun, in the plural unless n is 1: "1 file",
// "0 files", "2 exchanges". The noun is given in the singular; when its
// last word is not a regular English noun, give both forms as
// "singular|plural" ("1 person|people"). Only the last word is inflected,
// so "MEMORY.md file" becomes "MEMORY.md files".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun returns noun in the form that goes with n: singular for 1, plural
// otherwise. Count documents the forms it accepts.
func Noun(n int, noun string) string {
	one, many, irregular := strings.Cut(noun, "|")
	if n == 1 {
		return one
	}
	if irregular {
		return many
	}
	return pluralize(one)
}

// pluralize applies the regular English rules to the last letters of word.
func pluralize(word string) string {
	switch {
	case word == "":
		return word
	case strings.HasSuffix(word, "s"), strings.HasSuffix(word, "x"), strings.HasSuffix(word, "z"),
		strings.HasSuffix(word, "ch"), strings.HasSuffix(word, "sh"):
		return word + "es"
	case len(word) >= 2 && word[len(word)-1] == 'y' && !strings.ContainsRune("aeiou", rune(word[len(word)-2])):
		return word[:len(word)-1] + "ies"
	}
	return word + "s"
}
