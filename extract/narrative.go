package extract

import (
	"strings"

	"github.com/credence-mem/credence/embed"
	"sync"
)

// Third-person statements about named people and project entities: bAbI
// task-1 moves ("Mary journeyed to the bathroom."), "Alice lives in Berlin",
// and where a part of the code lives ("the API lives in services/api").
// Pronouns ("he went to the kitchen") are never resolved: nothing is said.

var (
	personMoveRe = lazyRegexp(`^([A-Z][a-z]+)(?: and ([A-Z][a-z]+))? (?:journeyed|went back|went|travelled|traveled|moved|walked|ran|headed|came back|returned|got back|drove|flew|hurried|rushed|wandered|strolled|dashed)(?: back)? (?:to|into) (the )?([a-z][a-z]*(?: [a-z]+)?)$`)
	personInRe   = lazyRegexp(`^([A-Z][a-z]+) is (?:in|at) (the )?([a-z][a-z]*(?: [a-z]+)?)$`)
	personLiveRe = lazyRegexp(`^` + workCircle + `([A-Z][a-z]+) (?:lives|now lives|is living|is based) in (` + placeName + `)$`)
	// personThereRe: "she's in São Paulo", said of a person just named:
	// where a colleague is, in a sentence about who they are, is where
	// they live ("Renata is in São Paulo" alone may be a visit).
	personThereRe = lazyRegexp(`^([A-Z][a-z]+) is (?:now |currently |still )?in (` + placeName + `)$`)
	personWorkRe  = lazyRegexp(`^` + workCircle + `([A-Z][a-z]+) (?:works|now works) (?:at|for) ([A-Z][A-Za-z0-9.&]+(?: [A-Z][A-Za-z0-9.&]+){0,2})$`)

	entityPathRe = lazyRegexp(`^(?:the |our |all (?:of )?(?:the |our )?)?([a-z0-9_.-]+(?: [a-z0-9_.-]+){0,3}) (lives|live|is|are|sits|sit|resides|reside|is located|are located|can be found|is kept|are kept|is defined|are defined|is stored|are stored|belongs|belong|go|goes) (in|under|at|inside|within) (?:the )?([a-z0-9_.~@-]*/[a-z0-9_./~@-]*|[a-z0-9_-]+\.(?:go|ts|tsx|js|jsx|py|rb|rs|json|ya?ml|toml|md|sql|sh|env|ini|cfg|conf|lock|mod))(?: (?:directory|folder|dir|package|module|file))?$`)
)

// placeName is a place written as a name, in any alphabet: "Lisbon",
// "São Paulo", "Łódź".
const placeName = `\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+){0,2}`

// cityLike says whether a capitalised name is a place rather than a part
// of a company: nearer "city" than "company" and "department" in the
// built-in vectors ("Leeds", "São Paulo"; not "Engineering", "Sales"),
// or unknown to them.
func cityLike(name string) bool {
	v := wordVector(name)
	if v == nil {
		return true
	}
	ref := placeVectors()
	return embed.Cosine(v, ref[0]) > max(embed.Cosine(v, ref[1]), embed.Cosine(v, ref[2]))
}

var placeVectors = sync.OnceValue(func() [3][]float32 {
	return [3][]float32{wordVector("city"), wordVector("company"), wordVector("department")}
})

// workCircle names a person by their place in the user's work: "my
// coworker Priya lives in Pune" is about Priya.
const workCircle = `(?:[Mm]y (?:coworker|co-worker|colleague|teammate|manager|boss|lead|tech lead|cofounder|co-founder|report|direct report|skip|skip-level) )?`

// notPersons are capitalised words that open a sentence without naming a
// person.
var notPersons = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"I": true, "We": true, "You": true, "He": true, "She": true, "They": true, "It": true,
		"This": true, "That": true, "The": true, "There": true, "My": true, "Our": true,
		"Your": true, "Everyone": true, "Someone": true, "Nobody": true, "Then": true,
		"Now": true, "Also": true, "So": true, "And": true, "But": true, "Please": true,
		"Always": true, "Never": true, "Everybody": true, "Somebody": true, "Who": true,
		"What": true, "Where": true, "Today": true, "Yesterday": true, "Tomorrow": true,
	}
})

// entityNoise are subjects whose location is a transient bug report, not a
// fact about the layout: "the bug is in auth/login.go".
var entityNoise = []string{"bug", "error", "issue", "problem", "crash", "failure", "typo",
	"leak", "regression", "exception", "panic", "mistake", "i", "we", "it", "this", "that", "you"}

func person(name string) (string, bool) {
	if notPersons()[name] {
		return "", false
	}
	if _, tool := lookupTool(strings.ToLower(name)); tool {
		return "", false
	}
	return strings.ToLower(name), true
}

func matchNarrative(c *clause) []Fact {
	span := strings.TrimRight(c.span, ".!")
	if m := personMoveRe().FindStringSubmatch(span); m != nil {
		return located(m[3]+m[4], m[4], m[1], m[2])
	}
	if m := personInRe().FindStringSubmatch(span); m != nil {
		return located(m[2]+m[3], m[3], m[1], "")
	}
	if m := personLiveRe().FindStringSubmatch(span); m != nil {
		if p, ok := person(m[1]); ok {
			return []Fact{{Subject: p, Predicate: "lives_in", Object: strings.ToLower(m[2]), shownSubject: m[1], shownObject: m[2]}}
		}
	}
	if m := personWorkRe().FindStringSubmatch(span); m != nil {
		if p, ok := person(m[1]); ok {
			return []Fact{{Subject: p, Predicate: "works_at", Object: strings.ToLower(m[2]), shownSubject: m[1], shownObject: m[2]}}
		}
	}
	return nil
}

// located builds "Mary is in the bathroom" for each named person.
func located(placeShown, place string, names ...string) []Fact {
	var out []Fact
	for _, n := range names {
		p, ok := person(n)
		if n == "" || !ok {
			continue
		}
		out = append(out, Fact{Subject: p, Predicate: "located_in", Object: place, shownSubject: n, shownObject: placeShown})
	}
	return out
}

// kindPlace: a kind of thing said to go somewhere by rule.
var kindPlace = lazyRegexp(`^(?:all |our )?(?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+s (?:go|live|belong|sit|stay)\b`)

func matchEntityPath(c *clause) []Fact {
	m := entityPathRe().FindStringSubmatch(c.text)
	if m == nil {
		return nil
	}
	entity, path := m[1], m[4]
	if bareKind(c.text, entity) && artifacts()[lastOf(entity)] && pluralNoun(entity) && kindPlace().MatchString(c.text) {
		// "tests go in tests/", "migrations live in db/migrate": where every
		// thing of a kind goes is a convention (matchConvention), not where
		// one thing is
		return nil
	}
	for _, w := range strings.Fields(entity) {
		for _, n := range entityNoise {
			if w == n || strings.TrimSuffix(w, "s") == n {
				return nil
			}
		}
	}
	shown := display(c.span, entity)
	if strings.HasPrefix(strings.ToLower(c.span), "the ") {
		shown = "the " + shown
	}
	return []Fact{{Subject: entity, Predicate: "located_in", Object: path, shownSubject: shown, shownObject: display(c.span, path)}}
}
