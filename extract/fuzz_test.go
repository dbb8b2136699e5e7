package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract checks that Extract never panics, stays within its bounds and
// returns well-formed facts whatever the input.
func FuzzExtract(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.Text)
	}
	f.Add(strings.Repeat("we use pnpm and ", 5000))
	f.Add("```\n" + strings.Repeat("I like tabs\n", 100))
	f.Add("\xff\xfe I like \x00 tabs")
	f.Fuzz(func(t *testing.T, text string) {
		facts := Extract(text)
		if len(facts) > MaxFacts {
			t.Fatalf("len(Extract)=%d, want <= %d", len(facts), MaxFacts)
		}
		for _, fact := range facts {
			if fact.Subject == "" || fact.Predicate == "" || fact.Object == "" || fact.Statement == "" {
				t.Fatalf("Extract(%q) gave an incomplete fact %+v", text, fact)
			}
			if fact.Kind != KindFact && fact.Kind != KindGuideline {
				t.Fatalf("Kind=%q, want fact or guideline", fact.Kind)
			}
			if fact.Kind == KindGuideline && fact.Subject != SubjectAssistant {
				t.Fatalf("guideline with Subject=%q, want %q", fact.Subject, SubjectAssistant)
			}
			if fact.Exclusive != IsExclusive(fact.Predicate) {
				t.Fatalf("Exclusive=%v for %q, want %v", fact.Exclusive, fact.Predicate, !fact.Exclusive)
			}
			if fact.Support < -1 || fact.Support > 1 || fact.Reliability < 0 || fact.Reliability > 1 {
				t.Fatalf("Support=%v Reliability=%v, want s in [-1,1] and rho in [0,1]", fact.Support, fact.Reliability)
			}
			if len(fact.Span) > maxClauseBytes || len(fact.Statement) > 4*maxClauseBytes {
				t.Fatalf("Span is %d bytes and Statement %d, want bounded by the clause", len(fact.Span), len(fact.Statement))
			}
			for _, s := range []string{fact.Subject, fact.Predicate, fact.Object, fact.Statement, fact.Span, fact.Replaces} {
				if !utf8.ValidString(s) {
					t.Fatalf("invalid UTF-8 in %+v", fact)
				}
			}
		}
	})
}
