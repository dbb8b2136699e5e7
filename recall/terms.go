package recall

import (
	"context"
	"sort"
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

// postingsBudget bounds how many matching rows one BM25 search ranks.
// Ranking costs a few microseconds per matching row, and a word such as
// "use" matches most of a long history, so the search keeps a query's
// rarest words while their document counts add up to at most this.
const postingsBudget = 600

// maxSearchWords bounds the words looked up and searched.
const maxSearchWords = 10

// searchWords returns the words of text to search kind with, rarest first,
// within postingsBudget: the rarest word is kept alone up to twice the
// budget; past that, or when no word occurs at all, it returns "" and the
// lexical side of the search is skipped (the vector side still runs).
// Words carry little weight in BM25 exactly when they are common, so little
// ranking is lost.
func (s *search) searchWords(ctx context.Context, kind, text string) (string, error) {
	return s.searchWordsOf(ctx, kind, text, maxSearchWords)
}

// searchWordsOf is searchWords reading up to n distinct words of text:
// the words that state a needed slot are many (every editor's name) and
// the one a history holds may come late ("zed").
func (s *search) searchWordsOf(ctx context.Context, kind, text string, n int) (string, error) {
	q := store.MatchQuery(text, n)
	if q == "" {
		return "", nil
	}
	words := strings.Split(q, " OR ")
	for i, w := range words {
		words[i] = strings.Trim(w, `"`)
	}
	var df map[string]int
	var err error
	if s.r.Cache != nil {
		df, err = s.r.Cache.docFrequencies(ctx, s.r.DB, kind, words, 2*postingsBudget+1)
	} else {
		df, err = s.r.DB.DocFrequencies(ctx, kind, words, 2*postingsBudget+1)
	}
	if err != nil {
		return "", err
	}
	present := words[:0]
	for _, w := range words {
		if df[w] > 0 {
			present = append(present, w)
		}
	}
	sort.SliceStable(present, func(i, j int) bool { return df[present[i]] < df[present[j]] })
	total := 0
	var keep []string
	for i, w := range present {
		if i == 0 && df[w] > 2*postingsBudget || i > 0 && total+df[w] > postingsBudget {
			break
		}
		total += df[w]
		keep = append(keep, w)
	}
	return strings.Join(keep, " "), nil
}
