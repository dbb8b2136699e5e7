package consolidate

import (
	"regexp"
	"strings"
	"sync"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/relations"
	"github.com/credence-mem/credence/store"
)

// fact is one statement read from an episode, whichever mode read it, in the
// form the calibration step applies. It is also what consolidated_episodes
// keeps (as JSON) for cluster synthesis in later cycles.
type fact struct {
	Subject   string `json:"s"`
	Predicate string `json:"p"`
	Object    string `json:"o"`
	Statement string `json:"st"`
	Kind      string `json:"k"`
	Negated   bool   `json:"neg,omitempty"`
	// Replaces is the old value the statement names ("from pnpm to bun").
	Replaces string `json:"rep,omitempty"`
	// Switch marks a statement that the value took another's place ("we
	// switched the cache over to Memcached"), offline only.
	Switch bool `json:"sw,omitempty"`
	// Change marks a statement that the value changed (a move, a switch, a
	// correction): the old value is invalidated, not merely outweighed.
	Change      bool    `json:"chg,omitempty"`
	Support     float64 `json:"sup"`
	Reliability float64 `json:"rel"`
	// Direct marks the user's own, unhedged words: such a fact may create a
	// belief on its own; others only add evidence to existing beliefs or
	// wait for a cluster.
	Direct bool `json:"dir,omitempty"`
	// ForUser marks an instruction about how to treat the person ("when
	// you write docs for me, use British spelling"): it follows them into
	// every project, like their editor.
	ForUser bool `json:"usr,omitempty"`
	// Target is the belief an LLM said this fact reinforces or
	// invalidates (Action says which); empty offline.
	Action string `json:"act,omitempty"`
	Target string `json:"tgt,omitempty"`
}

// notPrefix marks the predicate of a negated belief (relations.NotPrefix):
// negation flips against the positive belief and never reinforces it.
const notPrefix = relations.NotPrefix

// polarPredicate is the predicate a belief built from f carries.
func (f fact) polarPredicate() string {
	if f.Negated {
		return notPrefix + f.Predicate
	}
	return f.Predicate
}

// opposite returns the predicate of the opposite polarity.
func opposite(pred string) string {
	if strings.HasPrefix(pred, notPrefix) {
		return strings.TrimPrefix(pred, notPrefix)
	}
	return notPrefix + pred
}

// basePredicate strips the negation marker.
func basePredicate(pred string) string { return strings.TrimPrefix(pred, notPrefix) }

// toolSlot reports whether a predicate names the one tool a project uses
// for a job (uses_package_manager, deploys_with, …). Who states it — "I
// use", "we use" — does not change which slot it fills.
func toolSlot(pred string) bool { return relations.ToolSlot(pred) }

// slotSubject is the subject a belief competes under: for tool slots "user"
// and "project" are one slot, so "I prefer pnpm" and "we switched from pnpm
// to bun" compete.
func slotSubject(subject, pred string) string {
	if toolSlot(pred) && (subject == extract.SubjectUser || subject == extract.SubjectProject) {
		return extract.SubjectProject
	}
	return subject
}

// subjectsOf lists the stored subjects that share f's slot.
func subjectsOf(subject, pred string) []string {
	if slotSubject(subject, pred) == extract.SubjectProject && toolSlot(pred) {
		return []string{extract.SubjectProject, extract.SubjectUser}
	}
	return []string{subject}
}

// exclusive reports whether a predicate has cardinality one. Negated
// predicates never are: not using yarn says nothing about what else is used.
// A relation the relations table knows has its cardinality from there, the
// one table recall reads too (the database's built-in rows once marked
// linters and languages exclusive, so "we also lint with mypy" ended Ruff
// here while recall showed both); known, the database's relations, decides
// for the rest.
func exclusive(pred string, known map[string]bool) bool {
	if strings.HasPrefix(pred, notPrefix) {
		return false
	}
	if _, ok := relations.ByPredicate(pred); ok {
		return relations.IsExclusive(pred)
	}
	return known[pred] || extract.IsExclusive(pred)
}

// scopeOf decides where a belief built from f lives: personal facts about
// the user (where they live, what they like, their editor, shell and OS)
// are global; other tool slots,
// project facts, guidelines and facts about named entities belong to the
// episode's project, when it has one.
func scopeOf(subject, pred string, ep store.Episode) (scope, project string) {
	if ep.ProjectPath == "" || ep.Scope == belief.ScopeGlobal {
		return belief.ScopeGlobal, ""
	}
	if subject == extract.SubjectUser && (!toolSlot(pred) || relations.IsPersonal(basePredicate(pred))) {
		return belief.ScopeGlobal, "" // "I use Neovim" holds in every project
	}
	if strings.HasPrefix(subject, extract.SubjectUser+"'s ") {
		return belief.ScopeGlobal, "" // the person's daughter is theirs in every project
	}
	return belief.ScopeProject, ep.ProjectPath
}

// scope is where f's belief lives: scopeOf, except that an instruction
// about how to treat the person holds wherever they work.
func (f fact) scope(ep store.Episode) (scope, project string) {
	if f.ForUser {
		return belief.ScopeGlobal, ""
	}
	return scopeOf(f.Subject, f.Predicate, ep)
}

// forUserWords mark an instruction addressed to the person's own needs
// rather than the project's: "for me", "to me", "with me".
var forUserWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:for|to|with) me\b`)
})

// changeWords mark a statement that a value changed rather than merely
// holds: moves, switches, migrations, "no longer", "now". bAbI's "went back
// to the kitchen" is a change; "lives in Kyoto" is not. It is compiled on
// first use, so processes that import consolidate but never run a cycle do
// not pay for it at start.
var changeWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(moved|move|moving|relocated|went|goes|go back|journeyed|travel+ed|switched|switching|migrated|migrating|changed|replaced|no longer|not anymore|any more|anymore|now|from now on|instead|these days|nowadays|stopped|dropped|ditched|as of|starting|effective|bumped|upgraded|downgraded|renamed|left|quit|joined)\b`)
})

// changeLeads reports whether the sentence that holds span says, before
// it, that something changed: "Starting this week I'm working from
// Singapore for six months, so my timezone is SGT" changes the time zone
// too, though its clause says only "my timezone is SGT".
func changeLeads(text, span string) bool {
	i := strings.Index(text, span)
	if span == "" || i <= 0 {
		return false
	}
	lead := text[:i]
	if j := strings.LastIndexAny(lead, ".!?\n"); j >= 0 {
		lead = lead[j+1:]
	}
	return changeWords().MatchString(lead)
}

// fromExtract converts offline extractor output.
func fromExtract(f extract.Fact, direct bool) fact {
	out := fact{
		Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Statement: f.Statement, Kind: f.Kind,
		Negated: f.Negated, Replaces: f.Replaces, Support: f.Support, Reliability: f.Reliability,
		Direct: direct && f.Reliability >= directReliability,
	}
	out.Change = f.Replaces != "" || f.Correction || changeWords().MatchString(f.Span)
	out.ForUser = f.Kind == belief.KindGuideline && (forUserWords().MatchString(f.Span) || extract.AboutAnswers(f.Object))
	out.Switch = !f.Negated && switchWords().MatchString(f.Span)
	return out
}

// switchWords mark a statement that one tool took another's place: "we
// switched the cache over to Memcached". For a tool slot that may hold
// several values (linters, caches) only such a statement ends the others;
// "we now also use ruff" does not.
var switchWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(switched|switching|migrated|migrating|moved|replaced|swapped|ported|porting|rewrote|rewritten|rewriting|converted|transitioned)\b`)
})

// fromLLM converts one LLM-extracted fact. The model's own reading replaces
// the heuristics, but the same calibration rules apply to it.
func fromLLM(f llm.Fact) fact {
	out := fact{
		Subject: strings.ToLower(f.Subject), Predicate: f.Predicate, Object: normalizeObject(f.Object),
		Statement: f.Fact, Kind: f.Kind, Negated: f.Negated, Support: 1, Reliability: llmReliability,
		Direct: true, Action: f.Action, Target: f.BeliefID,
	}
	if out.Kind == belief.KindGuideline {
		out.Subject = extract.SubjectAssistant
	}
	out.Change = f.Action == llm.ActionInvalidate || changeWords().MatchString(f.Fact)
	return out
}

// normalizeObject makes objects comparable: trimmed, lower case, inner
// space collapsed.
func normalizeObject(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// key identifies the claim a fact makes within its slot.
func (f fact) key() string {
	return slotSubject(f.Subject, f.Predicate) + "\x00" + f.polarPredicate() + "\x00" + f.Object
}

// spec is the belief a fact creates.
func (f fact) spec(ep store.Episode, source string) belief.Spec {
	scope, project := f.scope(ep)
	kind := f.Kind
	if kind == "" {
		kind = belief.KindFact
	}
	return belief.Spec{Statement: f.Statement, Subject: f.Subject, Predicate: f.polarPredicate(), Object: f.Object,
		Kind: kind, Scope: scope, ProjectPath: project, Source: source}
}

// userWords returns the part of an episode the user wrote: a prompt is all
// theirs; an exchange ("User: …\n\nAssistant: …") splits into the user's
// part and the assistant's.
func userWords(ep store.Episode) (user, assistant string) {
	c := ep.Content
	if !strings.HasPrefix(c, "User: ") {
		if ep.Kind == store.EpisodeExchange {
			return "", c
		}
		return c, ""
	}
	c = strings.TrimPrefix(c, "User: ")
	if i := strings.Index(c, "\n\nAssistant: "); i >= 0 {
		return c[:i], c[i+len("\n\nAssistant: "):]
	}
	return c, ""
}
