package recall

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// lazyPattern is a regular expression that is compiled on first need and
// is not run on a text that cannot match it: it knows, from the parsed
// expression, literals one of which every match starts with ("commit",
// "pr", "pull request" …), and a text holding none of them does not
// match. A one-shot hook reads a prompt and a few dozen guidelines against
// every topic's pattern once; most topics' words are in none of them, and
// compiling and running every pattern was a tenth of its CPU. Safe for
// concurrent use.
type lazyPattern struct {
	expr     string
	prepare  sync.Once
	leads    []string // nil when no such literals are known
	compile  sync.Once
	compiled *regexp.Regexp
}

func newLazyPattern(expr string) *lazyPattern { return &lazyPattern{expr: expr} }

// MatchString reports whether s holds a match, as regexp.MatchString.
func (p *lazyPattern) MatchString(s string) bool {
	p.prepare.Do(func() {
		re, err := syntax.Parse(p.expr, syntax.Perl)
		if err != nil {
			return // compiling below panics with the error, as MustCompile did
		}
		if leads, ok := matchLeads(re); ok {
			p.leads = leads
		}
	})
	if p.leads != nil && !containsAny(s, p.leads) {
		return false
	}
	p.compile.Do(func() { p.compiled = regexp.MustCompile(p.expr) })
	return p.compiled.MatchString(s)
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// maxLeadClass bounds the characters of a class that matchLeads turns into
// one literal each.
const maxLeadClass = 8

// matchLeads returns non-empty literals such that every match of re
// starts with one of them, or false when it cannot tell (a match may start
// with an optional part, any character, a case-folded literal …).
func matchLeads(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxLeadClass {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return matchLeads(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		return matchLeads(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if zeroWidth(sub.Op) {
				continue // an assertion consumes nothing: the match starts with what follows
			}
			return matchLeads(sub)
		}
		return nil, false
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			leads, ok := matchLeads(sub)
			if !ok {
				return nil, false
			}
			out = append(out, leads...)
		}
		return out, len(out) > 0
	}
	return nil, false
}

func zeroWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}
