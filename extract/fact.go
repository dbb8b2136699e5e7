package extract

import "github.com/credence-mem/credence/relations"

// Kinds of extracted statement: a fact about the user, the project or a named
// entity, or a guideline for the assistant.
const (
	KindFact      = "fact"
	KindGuideline = "guideline"
)

// Canonical subjects. Named people and entities are lowercased names ("mary",
// "api"); the subject of a possessive is written "user's cat".
const (
	SubjectUser      = "user"
	SubjectProject   = "project"
	SubjectAssistant = "assistant"
)

// ActionNew is the only action the offline extractor emits. The LLM mode also
// emits "reinforce" and "invalidate" after predict-calibrate; offline, the
// invalidation is carried by Replaces and Correction instead.
const ActionNew = "new"

// Limits that keep the work bounded whatever the input.
const (
	// MaxInputBytes is how much of a text Extract reads; the rest is ignored.
	// Pasted logs and files can be megabytes, statements are near the top.
	MaxInputBytes = 32 << 10
	// MaxFacts is the most facts Extract returns for one text.
	MaxFacts = 64
	// maxClauseBytes: a longer clause is a paste or a run-on, not a statement.
	maxClauseBytes = 400
)

// Fact is one explicit statement found in a text.
type Fact struct {
	// Subject is "user" for I/me/my, "project" for we/our/this repo,
	// "assistant" for guidelines, or a lowercased person or entity name.
	Subject string
	// Predicate is snake_case: prefers, likes, uses_package_manager,
	// lives_in, should, should_not, should_when_<context>, ...
	Predicate string
	// Object is the normalised value: "pnpm", "tokyo", "fly.io",
	// "use pnpm" for a guideline.
	Object string
	// Statement is a natural sentence: "User prefers pnpm over npm".
	Statement string
	// Kind is KindFact or KindGuideline (guidelines have Subject "assistant").
	Kind string
	// Exclusive says the predicate has cardinality one (IsExclusive).
	Exclusive bool
	// Negated marks "I don't like X" and "we no longer use X".
	Negated bool
	// Replaces is the old object when the text says it changed ("we switched
	// from pnpm to bun" replaces "pnpm"; "use X instead of Y" replaces
	// "use Y"); empty when no old value is named.
	Replaces string
	// Correction marks "actually, ...", "sorry, I meant ..." and the like.
	Correction bool
	// Action is ActionNew offline; the LLM mode fills it from predict-calibrate.
	Action string
	// Support is s in [-1, 1] and Reliability is ρ in [0, 1] for the belief
	// math: s=+1, ρ=0.9 for an explicit first-person statement, lower for a
	// hedged one. Support is for the fact as stated, negation included.
	Support     float64
	Reliability float64
	// Span is the clause the fact came from, as written.
	Span string

	// How the statement shows the triple, set by the matcher; Statement
	// is rendered from the triple and these (render.go).
	shownSubject string // a named subject as written: "Mary", "The API"
	shownObject  string // the object as written or as its tool is spelled: "Lisbon", "PostgreSQL"
	detail       string // what the sentence adds after the triple: " over npm", "; use pnpm"
	when         string // a conditional guideline's condition: "when writing tests"
	retracted    bool   // taken back later in the same text ("Porto, no wait, Coimbra")
}

// IsExclusive reports whether predicate has cardinality one
// (relations.IsExclusive): its relation says so, or it names a single value
// with the "_is" suffix (favorite_language_is, default_branch_is).
// Guideline predicates never are.
func IsExclusive(predicate string) bool { return relations.IsExclusive(predicate) }

// key identifies a fact for deduplication within one text.
func (f Fact) key() string {
	neg := "+"
	if f.Negated {
		neg = "-"
	}
	return f.Subject + "\x00" + f.Predicate + "\x00" + f.Object + "\x00" + neg
}
