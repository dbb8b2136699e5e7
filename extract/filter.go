package extract

import (
	"strings"
	"sync"
)

// The filters keep out what is not an explicit, lasting statement. Each names
// the reason a clause yields nothing; the matchers never see such a clause.
var (
	// questionStart: "should we use pnpm", "do you prefer X", "how do I ...".
	questionStart = lazyRegexp(`^(?:who|what|where|why|how|which|whose|whom|is there|are there|any idea|anyone know|does anyone|do we know|how about|what about)\b|^(?:should|shall|do|does|did|can|could|would|will|is|are|am|was|were|have|has|had|may|might|must|need)\s+(?:i|we|you|it|they|he|she|this|that|there|the|our|my|your|anyone|someone|anybody|somebody)\b`)

	// hypotheticalStart and hypothetical: "if we switched to bun", "what if I
	// moved to Tokyo", "imagine we used Deno", "we could use X".
	hypotheticalStart = sync.OnceValue(func() phraseSet {
		return newPhraseSet("if", "unless", "suppose", "supposing", "assuming", "assume",
			"imagine", "imagining", "hypothetically", "in theory", "theoretically", "ideally",
			"in an ideal world", "in a perfect world", "let us say", "say we", "say i", "what if", "even if",
			"in case", "once", "would", "could", "whether", "wish")
	})
	hypothetical = sync.OnceValue(func() phraseSet {
		return newPhraseSet("what if", "if we", "if i", "if you", "if it", "if they", "if the",
			"if this", "if that", "if our", "if my", "if there", "even if", "as if", "only if", "whether",
			"would", "could", "i wish", "we wish", "in case", "in theory", "hypothetically",
			"in a perfect world", "in an ideal world")
	})

	// hedge: "we might switch to X", "maybe we should use Y", "I'm thinking
	// about moving to Z", "not sure if we use X", future plans.
	hedge = sync.OnceValue(func() phraseSet {
		return newPhraseSet("might", "may", "maybe", "perhaps", "possibly", "potentially", "probably not",
			"not sure", "unsure", "not certain", "uncertain", "wondering", "wonder if", "wonder whether",
			"i wonder", "considering", "thinking about", "thinking of", "planning to", "plan to", "plan on",
			"planning on", "hoping to", "hope to", "i hope", "we hope", "hopefully", "want to switch",
			"want to move", "want to migrate", "want to try", "going to", "will", "shall we", "eventually",
			"someday", "some day", "at some point", "one day", "soon", "tempted", "debating", "evaluating",
			"exploring", "looking into", "trying out", "experimenting", "leaning towards", "leaning toward",
			"on the fence", "torn between", "do not know", "does not know", "no idea", "not decided",
			"undecided", "tbd", "to be decided", "have not decided", "kind of want", "sort of want",
			"we should", "should we", "let us", "ought to", "need to decide", "i guess", "we guess", "my guess", "guess so", "best guess", "in the process of",
			"about to", "trying to decide", "figuring out", "was thinking", "were thinking", "am switching",
			"are switching", "am moving", "are moving", "are migrating", "am migrating")
	})

	// transient: states and scopes that will not hold tomorrow: "I'm tired
	// today", "the build is failing right now", "don't push yet".
	transient = sync.OnceValue(func() phraseSet {
		return newPhraseSet("right now", "at the moment", "for now", "for the moment",
			"for the time being", "today", "tonight", "this morning", "this afternoon", "this evening",
			"just now", "temporarily", "for a bit", "for a while", "for today", "this time",
			"just this once", "this once", "for this task", "for this pr", "in this pr", "for this commit",
			"in this commit", "for this session", "in this session", "this session", "yet", "atm", "rn",
			"when done", "when you are done", "once done", "once you are done", "when finished", "when you finish",
			"at the minute", "currently broken",
			// a stay, not a home: "I'm in Tokyo this week"
			"this week", "for the week", "this weekend", "for the weekend", "for a few days",
			"on vacation", "on holiday", "on a trip")
	})

	// reported: someone else's words or wishes, not a fact the user states:
	// "my coworker said we should use yarn", "Bob wants Deno".
	reported = sync.OnceValue(func() phraseSet {
		return newPhraseSet("said", "says", "told", "tells", "thinks", "think that", "claims", "claimed",
			"suggested", "suggests", "recommended", "recommends", "mentioned", "mentions", "asked", "asks",
			"wants", "wanted", "believes", "argued", "argues", "insists", "insisted", "according to", "heard",
			"apparently", "supposedly", "allegedly", "rumor", "rumour", "reportedly", "the docs say",
			"the readme says", "in the article", "the blog", "used to say", "as they say", "the saying goes")
	})
)

// whenAsked is a condition on being asked, "unless asked", "when told
// to": no one else's words are reported.
var whenAsked = lazyRegexp(`\b(?:unless|until|when|if|as|except when|only when|only if) (?:i |you are |explicitly |specifically )?(?:asked|told|requested|ask|tell you)(?: to)?\b`)

// reportedNoun is a word of reported speech used as a noun, after a
// determiner: "the claims team", "their asks".
var reportedNoun = lazyRegexp(`\b(the|a|an|our|my|their|your|its|this|these|those|no|any|insurance|health) (?:claims|asks|mentions|wants|suggests)\b`)

// rejectReason returns why a clause must yield nothing, or "" if it may be
// matched. Conditional guidelines ("when writing tests, use table tests") are
// matched before this runs.
func rejectReason(c *clause) string {
	ws := words(whenAsked().ReplaceAllString(c.text, ""))
	switch {
	case c.text == "":
		return "empty"
	case c.question || questionStart().MatchString(c.text):
		return "question"
	case hypotheticalStart().opens(ws) || hypothetical().in(ws):
		return "hypothetical"
	case hedge().in(ws):
		return "hedge"
	case transient().in(ws):
		return "transient"
	case narratedNever(c.text):
		return "narrated"
	case reported().in(ws) && (!reportedNoun().MatchString(c.text) || reported().in(words(reportedNoun().ReplaceAllString(c.text, "$1 x")))):
		// "the claims platform", "our asks": after a determiner the word
		// is a noun, no verb of saying
		return "reported speech"
	}
	return ""
}

// neverPast is "never" before a verb in the past, with no subject: "and
// never looked back", "never went back". It tells what happened; it is
// no prohibition.
var neverPast = lazyRegexp(`^(?:and |but |honestly |so )?never ([a-z]+ed|went|saw|got|was|were|had|did|thought|found|came|knew|heard|felt|missed)\b`)

// narratedNever says whether a clause narrates with "never" (neverPast);
// an imperative that ends in -ed ("never embed secrets") is still a rule.
func narratedNever(t string) bool {
	if !strings.HasPrefix(t, "never ") && !strings.Contains(t, " never ") {
		return false
	}
	m := neverPast().FindStringSubmatch(t)
	return m != nil && (!strings.HasSuffix(m[1], "ed") || pastOfVerb(m[1]))
}

// pastOfVerb says whether a word in -ed is a verb's past: "looked",
// "pushed", "used", "tried"; not a verb of its own ("embed", "seed").
func pastOfVerb(w string) bool {
	if imperativeVerbs()[w] || moreVerbs()[w] {
		return false
	}
	switch {
	case strings.HasSuffix(w, "eed"), w == "embed", w == "shed", w == "shred", w == "bed", w == "wed":
		return false // "never embed secrets", "never exceed the budget"
	}
	return len(w) > 4
}
