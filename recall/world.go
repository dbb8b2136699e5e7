package recall

// A question about the world ("how hot is the surface of mercury?", "what
// does a product manager do all day?") shares words with the person's
// memories in other senses: Mercury Bank is where they work, Lena is the
// project's product manager. Such a question gets a memory only where it
// names the thing the memory is about in particular (search.world,
// rankBeliefs, rankEpisodes).

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/credence-mem/credence/embed/wordvec"
	"github.com/credence-mem/credence/relations"
)

// worldQuestion reports whether a prompt asks about the world, not about
// the person's work or life: a question with no "I", "my", "we", "this"
// or "here" in it and no "the" that points at a thing of theirs ("who was
// Nikola Tesla?", "what's the region of convergence of a power series?").
func worldQuestion(prompt string) bool {
	// "who wrote The Metamorphosis?": a capitalised "The" inside a
	// sentence opens a title, a work of the world, not a thing of theirs
	p := titleThe().ReplaceAllString(cutBytes(prompt, 600), "$1$2")
	// "why was the Berlin Wall built?": "the" before a name that is no
	// tool's (and no acronym, "the DBA") is the world's
	p = theName().ReplaceAllStringFunc(p, func(m string) string {
		name := strings.TrimSpace(strings.TrimPrefix(m, "the"))
		for _, w := range strings.Fields(name) {
			if _, tool := relations.LookupTool(strings.ToLower(w)); tool || isSlotNoun(strings.ToLower(w)) {
				return m // "the Kafka Consumer", "the Payments Manager"
			}
		}
		return name
	})
	p = strings.ToLower(strings.TrimSpace(p))
	asks := generalQuestion().MatchString(p) || strings.HasPrefix(p, "where ") // "where does the phrase … come from?"
	return asks && !ownWork().MatchString(timeDeixis().ReplaceAllString(p, " ")) && !pointsAtOurs(p)
}

// titleThe matches a capitalised "The" after a word inside a sentence,
// before a capitalised word: the start of a title ("who wrote The
// Metamorphosis?", "have you seen The Wire?").
var titleThe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([\p{L}\p{N},]\s+)The\s+(\p{Lu})`)
})

// theName matches a lower-case "the" before two capitalised words that
// are not all capitals, a name of the world: "the Berlin Wall", "the
// Roman Empire", not "the DBA", "the API" or "the Dockerfile".
var theName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bthe\s+\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+`)
})

// timeDeixis are the phrases of "this" and "these" that point at a time,
// not at the person's things: "what careers pay best these days?".
var timeDeixis = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:these days|this (?:week|month|year|morning|afternoon|evening|weekend|time of year))\b`)
})

// pointsAtOurs reports whether a question points at a particular thing of
// the person's world with "the": "who's the DBA?", "why is the bundler so
// slow?", "what's the staging url for the api?" — not "the surface of
// mercury", "the region of convergence", "the difference between …",
// whose "the" is of the thing after "of" or "for".
func pointsAtOurs(p string) bool {
	toks := strings.FieldsFunc(p, notWordRune)
	for i, t := range toks {
		if t != "the" {
			continue
		}
		next := toks[i+1 : min(len(toks), i+5)]
		ours := slices.IndexFunc(next, func(w string) bool { return ourParts[w] || isSlotNoun(w) })
		kind := slices.IndexFunc(next, func(w string) bool { return worldKinds[w] })
		if kind >= 0 && (ours < 0 || kind < ours) {
			continue // "the phrase vim and vigor", "the python is operator"
		}
		if ours > 0 && !ourParts[next[ours]] && !slotPhrase(next[:ours+1]) {
			continue // "the phoenix framework" is one of the world's
		}
		if ours >= 0 {
			return true
		}
		if !slices.ContainsFunc(next, func(w string) bool { return worldOf[w] || worldPlaces[w] }) {
			return true
		}
	}
	return false
}

// worldKinds are nouns of things of language and knowledge, which a "the"
// before them points at in the world, not in the person's work: "the
// phrase", "the operator", "the theorem".
var worldKinds = map[string]bool{"phrase": true, "word": true, "term": true, "idiom": true, "expression": true,
	"saying": true, "proverb": true, "operator": true, "keyword": true, "theorem": true, "concept": true,
	"principle": true, "paradox": true, "meaning": true, "etymology": true, "origin": true, "history": true}

// slotPhrase reports whether words that end in a relation's noun are one
// of its nouns as a whole ("web framework", "test runner") or the noun
// led only by words of the person's own parts ("the api framework"), not
// a name before a kind ("the phoenix framework").
func slotPhrase(words []string) bool {
	if _, ok := relations.ByNoun(strings.Join(words, " ")); ok {
		return true
	}
	return !slices.ContainsFunc(words[:len(words)-1], func(w string) bool { return !ourParts[w] && !ownModifiers[w] })
}

// ownModifiers say which of the person's things a noun means: "the new
// bundler", "the main database".
var ownModifiers = map[string]bool{"new": true, "old": true, "current": true, "main": true, "primary": true,
	"default": true, "local": true, "whole": true, "same": true}

// worldOf are the words after which "the" is of a thing of the world:
// "the surface of mercury", "the hex code for black".
// A possessive reads as "of": "the pacific ocean's deepest point", "the
// moon's orbit" ("the api's port" names a part of ours first).
var worldOf = map[string]bool{"of": true, "for": true, "between": true, "among": true, "s": true}

// worldPlaces are the places and times of the world, which "the" before
// them points at whoever asks: "in the wild", "the southern hemisphere",
// "the arctic", "on the moon", "in the middle ages".
var worldPlaces = map[string]bool{"wild": true, "world": true, "hemisphere": true, "arctic": true, "antarctic": true,
	"antarctica": true, "ocean": true, "oceans": true, "sea": true, "seas": true, "moon": true, "sun": true, "earth": true,
	"planet": true, "universe": true, "sky": true, "atmosphere": true, "equator": true, "tropics": true, "desert": true,
	"rainforest": true, "jungle": true, "wilderness": true, "mountains": true, "alps": true, "himalayas": true,
	"sahara": true, "amazon": true, "pacific": true, "atlantic": true, "mediterranean": true, "galaxy": true,
	"stars": true, "past": true, "ages": true, "century": true, "renaissance": true, "empire": true, "bible": true,
	"olympics": true, "north": true, "south": true, "tundra": true, "savanna": true, "savannah": true}

// isSlotNoun reports whether a word is a one-word noun of a relation
// ("bundler", "editor", "manager"): "the bundler" is the project's.
func isSlotNoun(w string) bool {
	r, ok := relations.ByNoun(w)
	return ok && !slices.Contains(r.Ambiguous, w)
}

// worldNeeds keeps, of what a question about the world was read as
// needing, the relations it named by a cue of the person's situation:
// "explain the double helix" names the editor Helix, "what does a product
// manager do all day?" the role, "what's the hex code for black?" the
// formatter, and none of them asks about the person's.
func worldNeeds(needs []relations.Need, prompt string) []relations.Need {
	p := " " + strings.Join(strings.FieldsFunc(strings.ToLower(prompt), notWordRune), " ") + " "
	var out []relations.Need
	generic := genericTerms(prompt)
	for _, n := range needs {
		if slices.ContainsFunc(n.Words, func(w string) bool {
			if slices.Contains(n.Relation.Nouns, w) || slices.Contains(n.Relation.Weak, w) {
				return false
			}
			if !strings.Contains(w, " ") && generic[stem(w)] {
				return false // "what is a regression in statistics?", "why use breakpoints?"
			}
			if strings.HasPrefix(w, "the ") && (strings.Contains(p, " "+w+" of ") || strings.Contains(p, " "+w+" for ")) {
				return false // "the region of convergence" is not the project's region
			}
			_, tool := relations.LookupTool(w)
			return !tool && slices.Contains(n.Relation.Cues, w)
		}) {
			out = append(out, n)
		}
	}
	return out
}

// genericTerms returns the prompt's search terms that it uses only of a
// kind, not of a particular one: after "a" or "an" ("what does a product
// manager do?") or as a bare plural ("why do cats knead blankets?").
func genericTerms(prompt string) map[string]bool {
	toks := strings.FieldsFunc(strings.ToLower(cutQuery(prompt)), notWordRune)
	generic, specific := map[string]bool{}, map[string]bool{}
	for i, w := range toks {
		st := stem(w)
		prev := ""
		if i > 0 {
			prev = toks[i-1]
		}
		// "a product manager": the article may lead the noun's modifier
		indefinite := prev == "a" || prev == "an" || i > 1 && !determiners[prev] && (toks[i-2] == "a" || toks[i-2] == "an")
		if indefinite || len(w) > 3 && strings.HasSuffix(w, "s") && st != w && !determiners[prev] {
			generic[st] = true
		} else {
			specific[st] = true
		}
	}
	for st := range specific {
		delete(generic, st)
	}
	return generic
}

// determiners point at a particular thing: "the cats", "my cats".
var determiners = map[string]bool{"the": true, "this": true, "that": true, "these": true, "those": true, "my": true,
	"our": true, "your": true, "his": true, "her": true, "their": true, "its": true}

// namedSpecifically reports whether text holds one of the prompt's terms
// that the prompt uses of a particular thing, not only of a kind.
func (s *search) namedSpecifically(text string) bool {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(cutBytes(text, maxEpisodeRead)), notWordRune) {
		have[stem(w)] = true
	}
	for _, t := range s.terms {
		if have[t] && !s.generic[t] {
			return true
		}
	}
	return false
}

// valueOnly reports whether the prompt's words that a message holds all
// come after the verb of the message's sentence, as what it says of its
// subject: "I work at Mercury Bank" for "how hot is the surface of
// mercury?", not "standup is at 9:30" for "when is standup?".
func (s *search) valueOnly(text string) bool {
	own := strings.ToLower(cutBytes(ownWords(text), maxEpisodeRead))
	shared := false
	for _, sent := range strings.FieldsFunc(own, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' || r == ';' }) {
		words := strings.FieldsFunc(sent, notWordRune)
		verb := slices.IndexFunc(words, func(w string) bool { return statingVerbs[w] })
		for i, w := range words {
			if !slices.Contains(s.terms, stem(w)) {
				continue
			}
			shared = true
			if verb < 0 || i < verb {
				return false // the message is about the word
			}
		}
	}
	return shared
}

// statingVerbs open what a sentence says of its subject: "my dog is
// called Pixel", "I drive a Tesla", "tests here run with jest".
var statingVerbs = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "m": true,
	"s": true, "re": true, "called": true, "named": true, "use": true, "uses": true, "using": true, "run": true,
	"runs": true, "drive": true, "drives": true, "work": true, "works": true, "live": true, "lives": true,
	"have": true, "has": true, "got": true, "learning": true, "prefer": true, "like": true, "love": true,
	"go": true, "goes": true, "moved": true, "switched": true, "deploy": true, "deploys": true, "store": true}

// offSenseTools returns the tools' names a prompt uses in their everyday
// sense: a name that is also a common English word ("rust", "fish",
// "black", "spring", "fedora"), written in lower case, in a prompt that
// says nothing of software, names no other tool and speaks of no "we":
// "how do I get rust off a cast iron pan?", "how long should I bake a fish
// fillet?". "why does rust's borrow checker reject this?" and "our
// service is in rust" keep the tool.
func offSenseTools(prompt string) []string {
	p := cutBytes(prompt, 600)
	lower := strings.ToLower(p)
	if softwareWords().MatchString(lower) || ourWords().MatchString(lower) || codeNoun().MatchString(p) {
		return nil
	}
	t, err := wordvec.Default()
	if err != nil {
		return nil
	}
	var tools, out []string
	for _, w := range strings.FieldsFunc(p, notWordRune) {
		lw := strings.ToLower(w)
		if _, tool := relations.LookupTool(lw); !tool {
			continue
		}
		tools = append(tools, lw)
		i, found := t.Find(lw)
		if w == lw && found && t.Rank(i) < everydayRank && !slices.Contains(out, lw) {
			out = append(out, lw)
		}
	}
	if len(tools) != len(out) {
		return nil // another tool named, or one capitalised: the talk is of tools
	}
	return out
}

// everydayRank is the frequency rank (in the word vectors' corpus) under
// which a word is an everyday English word: "fish" 2,007, "rust" 16,894,
// "fedora" 41,106; "docker" 97,707 and "vim" 91,333 are not.
const everydayRank = 50000

var (
	// softwareWords say a prompt is about software.
	softwareWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:code|coding|program\w*|develop\w*|dev|software|app|apps|api|server|deploy\w*|install\w*|version|versions|upgrade|build|compile\w*|crate|crates|gem|gems|library|libraries|package|packages|framework|language|languages|syntax|runtime|compiler|interpreter|borrow checker|async|thread|threads|memory|terminal|shell|command|cli|git|github|repo|pr|prs|pull request|branch|branches|commit|commits|rebase|merge conflict|database|query|config|project|service|ci|pipeline|container|cluster|frontend|backend|stack|benchmark|performance|lint\w*|format\w*|plugin|extension|ide|editor|kernel|distro|os|linux|macos|windows|laptop|computer|machine|tutorial|docs|documentation|closures?|variables?|alias\w*|abbr\w*|dotfiles|scripting|debug\w*|regex\w*|json|yaml|http|web|website|cloud|prompt|keybindings?)\b`)
	})
	// ourWords speak of the person's team or project.
	ourWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:we|we're|we've|our|ours|us|this repo|this project|here)\b`)
	})
)

// worldNames returns the tools' names that a prompt (a question about the
// world when world is set) uses as names of the world's people, works or
// colours, not of the tools:
//   - a question about the world that asks who made something ("who wrote
//     The Metamorphosis, was it Kafka?", "who painted the Night Watch,
//     Rembrandt?") names people and works;
//   - a tool's name that is a colour, in lower case, in a prompt that
//     speaks of colours ("make the navbar background black and the text
//     white") is the colour.
func worldNames(prompt string, world bool) []string {
	p := cutBytes(prompt, 600)
	lower := strings.ToLower(p)
	authorship := world && worldMaker().MatchString(lower)
	colours := colourTalk().MatchString(lower)
	var out []string
	words := strings.FieldsFunc(p, notWordRune)
	for i, w := range words {
		lw := strings.ToLower(w)
		if _, tool := relations.LookupTool(lw); !tool || slices.Contains(out, lw) {
			continue
		}
		// "the board game Go", "the band Queen": a kind of the world's
		// things before the name says what it names
		appositive := i > 0 && worldThings[strings.ToLower(words[i-1])]
		if authorship || appositive || colours && colourWords[lw] && w == lw {
			out = append(out, lw)
		}
	}
	return out
}

// worldThings are kinds of the world's things that, just before a name,
// say what it names: "the board game Go", "the novel Dune", "the river
// Rust".
var worldThings = map[string]bool{"game": true, "band": true, "movie": true, "film": true, "novel": true,
	"book": true, "song": true, "album": true, "show": true, "series": true, "play": true, "opera": true,
	"poem": true, "painting": true, "painter": true, "poet": true, "author": true, "writer": true, "singer": true,
	"city": true, "town": true, "river": true, "island": true, "country": true, "mountain": true, "lake": true,
	"dish": true, "drink": true, "cocktail": true, "plant": true, "flower": true, "tree": true, "animal": true,
	"bird": true, "snake": true, "breed": true, "horse": true, "character": true, "god": true, "goddess": true,
	"planet": true, "moon": true, "composer": true, "philosopher": true, "king": true, "queen": true,
	"emperor": true, "saint": true, "hurricane": true, "storm": true, "ship": true, "brand": true}

// notOurWords returns the words of a prompt that cannot name a thing of
// the person's: amounts ("convert 5432 seconds into hours", not port
// 5432), a function's name in code ("explain the main() function", not
// the branch main) and a relation's noun that names a kind of person or
// thing by what it works on ("how do I become a book editor?", not the
// person's editor).
func notOurWords(prompt string) []string {
	p := cutBytes(prompt, 600)
	var out []string
	add := func(w string) {
		if w = strings.ToLower(w); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, m := range amount().FindAllStringSubmatch(p, -1) {
		add(m[1])
	}
	t, err := wordvec.Default()
	if err != nil {
		return out
	}
	for _, m := range codeCall().FindAllStringSubmatch(p, -1) {
		// an everyday word called ("main()", "print()"), not a name of
		// the person's code ("parse_config()")
		if j, found := t.Find(strings.ToLower(m[1])); found && t.Rank(j) < everydayRank {
			add(m[1])
		}
	}
	words := strings.FieldsFunc(strings.ToLower(p), notWordRune)
	for i := 2; i < len(words); i++ {
		article, mod, noun := words[i-2], words[i-1], words[i]
		if article != "a" && article != "an" || !isSlotNoun(noun) || kindAdjectives[mod] || softwareWords().MatchString(mod) {
			continue
		}
		if _, ok := relations.ByNoun(mod + " " + noun); ok {
			continue // "a text editor" is one
		}
		if _, tool := relations.LookupTool(mod); tool {
			continue
		}
		if j, found := t.Find(mod); found && t.Rank(j) < kindRank {
			add(noun)
		}
	}
	return out
}

// kindRank is the frequency rank under which a word before a relation's
// noun is a plain English noun of the world ("book", "video", "copy").
const kindRank = 10000

// kindAdjectives say which one, or how good, not what kind: "a good
// editor", "a new manager".
var kindAdjectives = map[string]bool{"good": true, "new": true, "better": true, "best": true, "great": true,
	"nice": true, "simple": true, "decent": true, "lightweight": true, "light": true, "fast": true, "faster": true,
	"modern": true, "free": true, "open": true, "different": true, "other": true, "proper": true, "real": true,
	"single": true, "second": true, "third": true, "first": true, "separate": true, "local": true, "shared": true,
	"default": true, "custom": true, "quick": true, "minimal": true, "popular": true, "small": true, "big": true,
	"cheap": true, "reliable": true, "stable": true, "specific": true, "particular": true, "strict": true}

var (
	// amount is a number followed by a unit: a quantity, not an ID.
	amount = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d[\d,.]*)\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|ms|milliseconds?|kb|mb|gb|tb|bytes?|km|kilometers?|kilometres?|miles?|meters?|metres?|feet|ft|inches|kg|kilos?|grams?|lbs?|pounds?|ounces?|oz|liters?|litres?|ml|cups?|calories|kcal|dollars?|euros?|usd|eur|gbp|percent|degrees|people|persons|steps|pages|words)\b`)
	})
	// codeCall is a name called as a function: "main()", "useEffect(".
	codeCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b([A-Za-z_]\w*)\(`)
	})
)

var (
	// worldMaker opens a question of who made a work or a discovery.
	worldMaker = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:who|who's|whos)\s+(?:wrote|painted|composed|directed|sang|invented|discovered|founded|designed|built|sculpted|coined|said|first said|starred in|is the author of|was the author of)\b`)
	})
	// colourTalk speaks of colours: what is coloured, or two colours.
	colourTalk = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:background|foreground|colou?rs?|font colou?r|text colou?r|border colou?r|shade|tint|hex|rgb|hsl|palette|paint)\b|\b(?:black|white|red|green|blue|yellow|orange|purple|pink|grey|gray|brown|teal|navy)\b.*\b(?:and|or|on)\s+(?:the\s+\w+\s+)?(?:black|white|red|green|blue|yellow|orange|purple|pink|grey|gray|brown|teal|navy)\b`)
	})
)

// colourWords are the colours some tools are named after.
var colourWords = map[string]bool{"black": true, "white": true, "red": true, "green": true, "blue": true,
	"yellow": true, "orange": true, "purple": true, "pink": true, "grey": true, "gray": true, "brown": true,
	"teal": true, "navy": true, "indigo": true, "violet": true, "crimson": true, "amber": true, "cyan": true}

// commonTerms returns the terms a prompt that speaks of nothing of anyone's
// ("my", "our", "we", "this", "here"; "how should I …" asks, it owns
// nothing) writes in lower case: there a word the person's memories hold
// as a name is the common word ("how much black pepper goes in a
// carbonara?" is not about their cat Pepper, "how often should I water a
// rose bush?" not about a person named Rose).
func commonTerms(prompt string) map[string]bool {
	p := cutBytes(prompt, 600)
	if owning().MatchString(strings.ToLower(p)) {
		return nil
	}
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(p, notWordRune) {
		if w == strings.ToLower(w) {
			out[stem(w)] = true
		}
	}
	return out
}

// namesOnly reports whether every one of the prompt's terms a memory's
// text holds is, there, a name inside a sentence (capitalised, not its
// first word) that the prompt writes as a common word (commonTerms).
func (s *search) namesOnly(text string) bool {
	if len(s.common) == 0 {
		return false
	}
	named := false
	for _, sent := range strings.FieldsFunc(cutBytes(ownWords(text), maxEpisodeRead), func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' || r == ';' }) {
		for i, w := range strings.FieldsFunc(sent, notWordRune) {
			lw := strings.ToLower(w)
			st := stem(lw)
			if !slices.Contains(s.terms, st) {
				continue
			}
			if _, tool := relations.LookupTool(lw); tool || i == 0 || w == lw || !s.common[st] {
				return false // the word itself, a tool however written, or one the prompt writes as a name
			}
			named = true
		}
	}
	return named
}

// owning are the words that make a prompt speak of someone's things.
var owning = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:my|mine|me|we|we're|our|ours|us|this|these|that|here|the (?:project|repo|repository|codebase|app|service))\b`)
})
