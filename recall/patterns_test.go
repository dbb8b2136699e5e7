package recall

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"sync"
	"testing"
)

func TestMatchLeads(t *testing.T) {
	for _, c := range []struct {
		expr  string
		leads []string // nil: none known
	}{
		{`\bcommits?\b|\bconventional commits\b`, []string{"commit", "conventional commits"}},
		{`\bprs?\b|\bpull requests?\b|\bmerg(?:e|ing)\b`, []string{"pr", "pull request", "merg"}},
		{`^(?:please )?commit\b`, nil}, // a match may start with "please " or "commit"
		{`(?i)\bdeploy\b`, nil},
		{`\b[a-c]x`, []string{"a", "b", "c"}},
		{`\b\w+_\w+\b`, nil},
		{`(?:ab)+c`, []string{"ab"}},
		{`x*y`, nil},
		{`\b\b`, nil},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		leads, ok := matchLeads(re)
		if ok != (c.leads != nil) || !sameSet(leads, c.leads) {
			t.Errorf("matchLeads(%q) = %q, %v; want %q", c.expr, leads, ok, c.leads)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestLazyPatternsMatchAsCompiled runs every topic pattern, lazily and
// compiled at once, on many lower-case texts: the test's own sentences,
// each topic's words, and sentences around every word the patterns name.
// The two must agree on every one, and the texts must match each pattern
// at least once (the check is not vacuous).
func TestLazyPatternsMatchAsCompiled(t *testing.T) {
	texts := []string{"", "commit", "please commit this", "write a commit message", "open a pr for it",
		"always run go test -race before pushing", "never use emojis in your answers", "can i merge this?",
		"prefer pnpm over npm", "deploy to staging on fridays", "the changelog needs an entry"}
	for _, tp := range taskTopics {
		texts = append(texts, tp.words, "please "+tp.words, "always "+tp.words+" first")
	}
	texts = append(texts, "add a helper function for dates", "fix the login bug", "i'm done with the feature",
		"double-check the config", "before we merge, run the linter", "write the api docs")
	// Sentences around every word the patterns name, with the openings
	// prompts and guidelines have.
	for _, tp := range taskTopics {
		for _, expr := range []string{tp.prompt, tp.guide} {
			for _, w := range regexp.MustCompile(`[a-z][a-z' -]*[a-z]`).FindAllString(expr, -1) {
				for _, lead := range []string{"", "please ", "can you ", "always ", "never ", "i'm ", "before we "} {
					texts = append(texts, lead+w, lead+w+" it now", "we "+w+"s here")
				}
			}
		}
	}
	for _, tp := range taskTopics {
		for _, expr := range []string{tp.prompt, tp.guide} {
			lazy, re := newLazyPattern(expr), regexp.MustCompile(expr)
			matched := 0
			for _, s := range texts {
				want := re.MatchString(s)
				if got := lazy.MatchString(s); got != want {
					t.Fatalf("topic %q, %q on %q: lazy %v, compiled %v", tp.name, expr, s, got, want)
				}
				if want {
					matched++
				}
			}
			if matched == 0 {
				t.Errorf("topic %q: %q matched none of %d texts; add one it matches", tp.name, expr, len(texts))
			}
		}
	}
}

func TestLazyPatternConcurrentFirstUse(t *testing.T) {
	p := newLazyPattern(`\bcommits?\b`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			if !p.MatchString("two commits") || p.MatchString("nothing here") {
				t.Error("wrong answer on first use")
			}
		})
	}
	wg.Wait()
}
