package recall

import (
	"strings"
	"unicode"

	"github.com/credence-mem/credence/store"
)

// queryTerms returns the distinct search terms of a query as the store's
// FTS query sees them (store.MatchQuery), stemmed.
func queryTerms(text string) []string {
	q := store.MatchQuery(cutQuery(text), 32)
	if q == "" {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range strings.Split(q, " OR ") {
		st := stem(strings.Trim(t, `"`))
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out
}

// coverage returns the share of terms that occur in text (stemmed), the
// relevance measure for items that have no vector.
func coverage(terms []string, text string) float64 {
	if len(terms) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(cutBytes(text, maxEmbedBytes*4)), notWordRune) {
		have[stem(w)] = true
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }

// stem is a light suffix stripper, close enough to FTS5's porter stemmer
// that "deploying", "deployed" and "deploys" meet, as do "service" and
// "services".
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ments", "ment", "ings", "ing", "ies", "ed"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			if suf == "ies" {
				w += "y"
			}
			return strings.TrimSuffix(w, "e")
		}
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "es") && strings.ContainsAny(w[len(w)-3:len(w)-2], "sxz"),
		len(w) > 5 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		w = w[:len(w)-1]
	}
	if len(w) > 3 {
		w = strings.TrimSuffix(w, "e")
	}
	return w
}
