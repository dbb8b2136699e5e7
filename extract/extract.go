package extract

import "strings"

// matcher reads one kind of statement from a prepared clause.
type matcher func(c *clause) []Fact

// matchers run in order; the first that yields facts wins the clause. Facts
// about identity come before usage so "I moved to Tokyo" is a residence, and
// usage before guidelines so "we never use yarn" is a fact about the project.
var matchers = []matcher{
	matchIdentity,
	matchChange,
	matchStopped,
	matchPrefer,
	matchLike,
	matchDeploy,
	matchUse,
	matchSlot,
	matchBuiltIn,
	matchEntityPath,
	matchGuideline,
}

// Extract returns the explicit facts and guidelines stated in text, in the
// order they appear. It reads at most MaxInputBytes and returns at most
// MaxFacts facts; questions, hypotheticals, hedges, transient states,
// reported speech, code and quotes yield nothing.
func Extract(text string) []Fact {
	var out []Fact
	seen := make(map[string]bool)
	var prev *Fact
	for _, rc := range splitClauses(text) {
		c := analyze(rc)
		facts := extractClause(&c, prev)
		for _, f := range facts {
			f = finish(f, &c)
			if seen[f.key()] {
				continue
			}
			seen[f.key()] = true
			out = append(out, f)
			prev = &out[len(out)-1]
			if len(out) == MaxFacts {
				return out
			}
		}
	}
	return out
}

// extractClause runs the filters and matchers over one clause. prev is the
// last fact of this text, which a bare correction ("sorry, I meant bun")
// revises.
func extractClause(c *clause, prev *Fact) []Fact {
	if c.text == "" || c.question {
		return nil
	}
	if f := matchNarrative(c); f != nil {
		return f
	}
	if f, handled := matchConditionalGuideline(c); handled {
		return f
	}
	if rejectReason(c) != "" {
		return nil
	}
	c.text = stripTrailing(c.text)
	for _, m := range matchers {
		if f := m(c); len(f) > 0 {
			return f
		}
	}
	if c.correction && prev != nil {
		return bareCorrection(c, prev)
	}
	return nil
}

// bareCorrection reads "sorry, I meant bun" or "no, Tokyo, not Kyoto" after a
// fact in the same text: the previous fact with the new object.
func bareCorrection(c *clause, prev *Fact) []Fact {
	t := c.text
	for _, p := range []string{"it is ", "it was ", "it should be ", "make that ", "that should be ", "should be "} {
		t = strings.TrimPrefix(t, p)
	}
	objRaw, _, _ := splitAlternative(t)
	obj, ok := nounPhrase(objRaw, 3)
	if !ok || prev.Kind == KindGuideline {
		return nil
	}
	if tl, known := lookupTool(obj); known {
		obj = tl.Name
	}
	if obj == prev.Object {
		return nil
	}
	f := Fact{Subject: prev.Subject, Predicate: prev.Predicate, Object: obj, Replaces: prev.Object,
		Negated: prev.Negated}
	f.Statement = strings.Replace(prev.Statement, toolDisplay(prev.Span, prev.Object), toolDisplay(c.span, obj), 1)
	if f.Statement == prev.Statement {
		f.Statement = subjectDisplay(f.Subject) + " " + strings.ReplaceAll(f.Predicate, "_", " ") + " " + toolDisplay(c.span, obj)
	}
	return []Fact{f}
}

// finish fills what every fact carries: kind, exclusivity, flags, support and
// reliability, span and action.
func finish(f Fact, c *clause) Fact {
	if f.Kind == "" {
		f.Kind = KindFact
	}
	f.Exclusive = IsExclusive(f.Predicate)
	f.Correction = f.Correction || c.correction
	f.Action = ActionNew
	f.Span = c.span
	f.Support = 1
	switch {
	case f.Reliability != 0:
		// set by the matcher ("we used to use X")
	case c.hedged:
		f.Support, f.Reliability = 0.6, 0.6
	case f.Correction:
		f.Reliability = 0.95
	default:
		f.Reliability = 0.9
	}

	return f
}
