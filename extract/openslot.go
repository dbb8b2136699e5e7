package extract

import (
	"strings"
	"sync"
	"unicode"

	"github.com/credence-mem/credence/embed"
)

// Open slots: facts whose slot no relation names, read from the grammar
// that states them rather than from a list of slots.
//
//   - a possessive and a copula: "my commute is about 50 minutes", "our
//     staging url is https://stg.acme.dev", "my partner's birthday is
//     March 3rd" — (user, commute_is, about 50 minutes);
//   - a name given to someone or something of the person's: "my wife is
//     called Ingrid", "my sister, Ana, is visiting", "my daughter Mila has
//     chickenpox", "Mila is my daughter", "I have a beagle named Waffles",
//     "we've got two cats, Pixel and Nori" — (user's wife, name_is,
//     Ingrid), the form the extractor already gave "my dog's name is Rex";
//   - where a part of the project is kept or served from: "search is
//     backed by Meilisearch", "we keep the sessions in Redis", "our images
//     are pushed to GHCR", "staging lives at staging.acme.dev" — (project,
//     search_is, Meilisearch);
//   - who owns a part of it: "Marta owns the ingestion pipeline" —
//     (project, ingestion_pipeline_owner_is, Marta).
//
// The value must look like one: a capitalised name, a number, a date or
// time, an address or path, or a known tool. "my build is failing", "our
// tests are slow", "my laptop is a mess" and "my question is why" say
// nothing. The slot noun must be a noun phrase of at most three words that
// is not a stand-in ("my point", "my problem", "my guess").

var (
	// openCopula: "my commute is about 50 minutes", "our staging url =
	// https://…", "my partner's birthday is March 3rd".
	openCopula = lazyRegexp(`^(my|our) ((?:[a-z][a-z0-9-]*(?:'s)? ){0,2}[a-z][a-z0-9-]*)(?: is| are| =|:| is called| is named| are called| are named) (.+)$`)
	// openReversed: "Mila is my daughter", "Fatima is our designer".
	openReversed = lazyRegexp(`^([a-z][a-z.'-]*(?: [a-z][a-z.'-]*){0,2}) (?:is|are) (my|our) ([a-z][a-z-]*(?: [a-z][a-z-]*)?)$`)
	// openAppositive: "my sister, Ana, is visiting", "my daughter Mila has
	// chickenpox", "my teammate Arjun wrote that component".
	openAppositive = lazyRegexp(`(?:^|\s)(my|our) ([a-z][a-z-]*),? ([a-z][a-z'-]*(?: [a-z][a-z'-]*)?)(?:,|\s|$)`)
	// openHave: "I have a beagle named Waffles", "we have got two cats,
	// Pixel and Nori", "I have two kids: Leo and Ava".
	openHave = lazyRegexp(`^(?:i|we) (?:have|have got|got|own) (?:a|an|one|two|three|four|2|3|4) ([a-z][a-z-]*)(?: (?:named|called)|,|:) (.+)$`)
	// openPlace: "search is backed by Meilisearch", "our images are pushed
	// to GHCR", "staging lives at staging.acme.dev".
	openPlace = lazyRegexp(`^(?:our |the )?((?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]*) (?:is|are) (?:backed by|stored in|kept in|hosted on|hosted at|hosted in|pushed to|published to|served from|served by|powered by|handled by|tracked in|managed in|sent through|sent via) (.+)$|^(?:our |the )?((?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]*) (?:lives?|go|goes|runs?) (?:at|in|on|through|via) (.+)$`)
	// openKeep: "we keep the sessions in Redis", "we store uploads in S3",
	// "we host the docs on Netlify".
	openKeep = lazyRegexp(`^we (?:keep|store|host|put|push|publish|track|manage|send) (?:the |our |all (?:the |our )?)?((?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]*) (?:in|on|to|at|with|through|via) (.+)$`)
	// theAddress: "the public api base url is https://api.acme.io/v2".
	theAddress = lazyRegexp(`^the ((?:[a-z][a-z0-9-]* ){0,3}[a-z][a-z0-9-]*) (?:is|=|:) (\S+)$`)
	// openValueEnd: where a long value's own words end ("50 minutes on the
	// train each way").
	openValueEnd = lazyRegexp(`\s+(?:on|in|at|by|for|from|with|each|every|per|during|via|through)\s`)
	// relativeTail: a relative clause after a name.
	relativeTail = lazyRegexp(`\s+(?:who|that|which|whose|whom)\s`)
	// slotOfPart: a slot said of a part of the project.
	slotOfPart = lazyRegexp(`^(?:the|our) ([a-z][a-z-]*(?: [a-z][a-z-]*)?) (?:for|of|in) (?:this|the|our) (?:[a-z][a-z-]*) (?:is|=) (.+)$`)
	// openOwns: "Marta owns the ingestion pipeline", "Sam and Priya own
	// billing".
	openOwns = lazyRegexp(`^([a-z][a-z.'-]*(?: (?:and|&) [a-z][a-z.'-]*)?) (?:owns|own|maintains|maintain|runs|is responsible for|are responsible for|is in charge of) (?:the |our )?((?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]*)$`)
)

// standIns are nouns that stand for something said next, not a slot of
// their own ("my point is …", "our problem is Redis"), and the artifacts
// of the task at hand, which a turn names and the next forgets ("my test
// file is test_x.py", "my PR is #123", "my branch is feature/login").
var standIns = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`point problem issue question guess plan idea goal fault concern worry
		bad pleasure turn answer answers reason understanding impression hope fear bet suggestion
		assumption theory concern thought thoughts feeling view opinion take mistake error errors output
		result results code change changes fix fixes job task work stuff thing things one ones favorite
		favourite experience apologies excuse request ask priority focus main current old new own
		previous former first last next other best worst only real actual usual default whole
		file files function functions method class variable test tests pr prs commit commits bug bugs
		ticket line lines log logs query script snippet diff patch stack trace build builds input
		value values command terminal screen branch version rule rules policy convention standard
		guideline practice approach style motto`) {
		m[w] = true
	}
	return m
})

// otherPeople are the nouns of people whose doings the labelled sets
// count as nobody's fact ("my friend lives in Oslo", "my coworker Dan
// prefers spaces"): named in passing, they are not named for the record.
var otherPeople = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`friend friends coworker coworkers co-worker colleague colleagues buddy mate pal
		classmate neighbour neighbor roommate flatmate acquaintance`) {
		m[w] = true
	}
	return m
})

// monthsAndDays are capitalised words that are dates, not names.
var monthsAndDays = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
		mondays tuesdays wednesdays thursdays fridays saturdays sundays`) {
		m[w] = true
	}
	return m
})

// traceOpenSlot, when set (tests), sees every clause the open-slot
// reader is given.
var traceOpenSlot func(text, span string)

func matchOpenSlot(c *clause) []Fact {
	t := strings.TrimSpace(c.text)
	if traceOpenSlot != nil {
		traceOpenSlot(t, c.span)
	}
	if m := openHave().FindStringSubmatch(t); m != nil {
		return namedOnes(c, m[1], m[2])
	}
	if m := slotOfPart().FindStringSubmatch(t); m != nil {
		// "the datastore for this service is CockroachDB", "the CI for
		// this repo is GitHub Actions": the project's slot, said of a part
		sub := *c
		sub.text = "our " + m[1] + " is " + m[2]
		if f := matchSlot(&sub); f != nil {
			return f
		}
	}
	if m := openOwns().FindStringSubmatch(t); m != nil {
		if names, ok := givenNames(c.span, m[1]); ok && openNoun(m[2]) {
			return []Fact{{Subject: SubjectProject, Predicate: snake(m[2], 3) + "_owner_is", Object: strings.Join(names, " and "),
				shownObject: upperWords(strings.Join(names, " and "))}}
		}
		return nil
	}
	if m := openKeep().FindStringSubmatch(t); m != nil {
		if kindOfPlace(c.span, m[2]) {
			return nil // "we keep SQL in .sql files, not inline strings": where every one goes, a convention
		}
		return storedIn(partValue(c, m[1], m[2]), prepBefore(t, m[2]))
	}
	if m := openGoesTo().FindStringSubmatch(t); m != nil && bareKind(t, m[1]) {
		if _, tool := lookupTool(m[2]); tool {
			return storedIn(partValue(c, m[1], m[2]), "in") // "events go to Cassandra": they are in it
		}
	}
	if m := openPlace().FindStringSubmatch(t); m != nil {
		if m[1] != "" {
			return partValue(c, m[1], m[2])
		}
		if kindPlace().MatchString(t) && bareKind(t, m[3]) && artifacts()[lastOf(m[3])] && pluralNoun(m[3]) {
			return nil // "fixtures go in testdata/": where every one goes, a convention
		}
		if homeVerb().MatchString(t) && personKind(m[3]) {
			return nil // "the customer lives in Ohio": a person's home, no part of the project
		}
		return partValue(c, m[3], m[4])
	}
	if m := openReversed().FindStringSubmatch(t); m != nil {
		if names, ok := givenNames(c.span, m[1]); ok && len(names) == 1 && openNoun(m[3]) {
			return []Fact{named(m[2], m[3], names)}
		}
		return nil
	}
	if m := openCopula().FindStringSubmatch(t); m != nil {
		if f := possessed(c, m[1], m[2], m[3]); f != nil {
			return f
		}
	}
	if m := theAddress().FindStringSubmatch(t); m != nil && openNoun(m[1]) {
		// "the public api base url is https://api.acme.io/v2": an address
		// said of the project's thing
		if _, _, known := slotOf(m[1]); !known {
			if obj, ok := openValue(c.span, m[2]); ok && isAddress(obj) {
				return []Fact{{Subject: SubjectProject, Predicate: snake(m[1], 4) + "_is", Object: obj, shownObject: display(c.span, obj)}}
			}
		}
		return nil
	}
	if m := openAppositive().FindStringSubmatch(t); m != nil && m[1] == "my" {
		if _, _, known := slotOf(m[2]); known || !openNoun(m[2]) || otherPeople()[m[2]] {
			return nil // "my coworker Dan prefers spaces" is Dan's, as the sets label it
		}
		first := strings.Fields(m[3])[0]
		if names, ok := givenNames(c.span, first); ok && !ordinaryWord(first) {
			return []Fact{named(m[1], m[2], names)}
		}
	}
	return nil
}

// named is the name of someone or something of the person's: (user's
// sister, name_is, Ana).
func named(owner, noun string, names []string) Fact {
	if len(names) > 1 && strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") {
		noun = strings.TrimSuffix(noun, "s") // "two cats, Pixel and Nori": each is a cat
	}
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = upperWords(n)
	}
	return Fact{Subject: "user's " + noun, Predicate: "name_is", Object: strings.Join(names, " and "), shownObject: strings.Join(shown, " and ")}
}

// namedOnes reads "I have a beagle named Waffles" and "we have two cats,
// Pixel and Nori".
func namedOnes(c *clause, noun, rest string) []Fact {
	if !openNoun(noun) {
		return nil
	}
	if names, ok := givenNames(c.span, rest); ok {
		return []Fact{named("my", noun, names)}
	}
	return nil
}

// givenNames reads one name or a short list of names ("Pixel and Nori"),
// each capitalised where written and no tool, place noun or date.
func givenNames(span, raw string) ([]string, bool) {
	raw = strings.TrimSpace(raw)
	if loc := relativeTail().FindStringIndex(raw); loc != nil {
		raw = raw[:loc[0]] // "Waffles who eats everything"
	}
	raw = cutValueTail(raw)
	raw = strings.TrimSuffix(strings.TrimSpace(raw), ".")
	var out []string
	for _, part := range splitList(raw) {
		n, ok := personName(strings.TrimSpace(part))
		if !ok || len(strings.Fields(n)) > 2 || !capitalized(span, n) || monthsAndDays()[firstWord(n)] || n == "i" {
			return nil, false
		}
		if d := display(span, n); len(d) <= 4 && strings.ToUpper(d) == d {
			return nil, false // "our staging DB": an acronym, no name
		}
		if _, tool := lookupTool(n); tool {
			return nil, false
		}
		out = append(out, n)
	}
	return out, len(out) > 0 && len(out) <= 4
}

// ordinaryWord reports whether a capitalised word after a noun is more
// likely the next word of the sentence than a name ("my sister Is", "my
// team The").
func ordinaryWord(w string) bool {
	return badStart()[w] || ctxStopwords()[w] || w == "is" || w == "has" || w == "was" || w == "and"
}

// openNoun reports whether a phrase can be an open slot's noun: one to
// four words, no pronoun or stand-in.
func openNoun(phrase string) bool {
	words := strings.Fields(strings.ReplaceAll(phrase, "'s", ""))
	if len(words) == 0 || len(words) > 4 {
		return false
	}
	for _, w := range words {
		if badStart()[w] || standIns()[w] {
			return false
		}
	}
	return true
}

// possessed reads "my/our <noun> is <value>".
func possessed(c *clause, owner, noun, value string) []Fact {
	if !openNoun(noun) || oldSlot().MatchString(noun) || namedNoun(c.span, noun) {
		return nil // "my old car" says what it was; "my cat Pepper is 14" describes Pepper
	}
	value, _ = valueAndOld(value)
	if whose, slot, ok := strings.Cut(noun, "'s "); ok && (owner == "my" || slot == "name") && !strings.Contains(whose, "'s") {
		// "my partner's birthday is March 3rd": the partner's birthday
		obj, ok := openValue(c.span, value)
		if !ok {
			return nil
		}
		pred := snake(slot, 3) + "_is"
		if _, p, known := slotOf(slot); known && p != "" {
			pred = p
		}
		return []Fact{{Subject: "user's " + whose, Predicate: pred, Object: obj, shownObject: showValue(pred, obj, c.span)}}
	}
	if _, _, known := slotOf(noun); known {
		return nil // a known slot is matchSlot's
	}
	if _, p, known := slotOf(noun + " version"); known && p != "" && versionLike().MatchString(strings.TrimSpace(value)) {
		// "our python is 3.11": the language's version
		v := strings.TrimSpace(value)
		return []Fact{{Subject: map[string]string{"my": SubjectUser, "our": SubjectProject}[owner], Predicate: p, Object: v, shownObject: v}}
	}
	kind := strings.HasPrefix(value, "a ") || strings.HasPrefix(value, "an ") || strings.HasPrefix(value, "the ")
	if names, ok := givenNames(c.span, value); ok && !kind && owner == "my" && !strings.Contains(noun, " ") && !strings.Contains(noun, "'s") {
		return []Fact{named(owner, noun, names)} // "my wife is Ingrid"
	}
	obj, ok := openValue(c.span, value)
	if !ok {
		return nil
	}
	subject := SubjectUser
	if owner == "our" {
		subject = SubjectProject
	}
	return []Fact{{Subject: subject, Predicate: snake(strings.ReplaceAll(noun, "'s", ""), 3) + "_is", Object: obj, shownObject: display(c.span, obj)}}
}

// partValue reads where a part of the project is kept: "search is backed
// by Meilisearch".
func partValue(c *clause, part, value string) []Fact {
	if !openNoun(part) {
		return nil
	}
	if _, _, known := slotOf(part); known {
		return nil // "our CI runs on Buildkite" is the CI's
	}
	value, old := valueAndOld(value)
	if f := namedSlotValue(SubjectProject, value, c); f != nil {
		return f // "the api runs on port 8443"
	}
	obj, ok := openValue(c.span, value)
	if ok && !isAddress(obj) && !strings.ContainsFunc(obj, unicode.IsDigit) && !capitalized(c.span, firstWord(obj)) {
		// "the deploy key lives in vault": a place said in passing, in
		// lower case, is no named store ("search is backed by Meilisearch")
		ok = false
	}
	if ok {
		f := Fact{Subject: SubjectProject, Predicate: snake(part, 3) + "_is", Object: obj, shownObject: display(c.span, obj)}
		if o, ok := nounPhrase(old, 3); ok {
			f.Replaces = o
		}
		return []Fact{f}
	}
	return nil
}

// namedSlotValue reads a value that names its own slot: "port 8443" is a
// port.
func namedSlotValue(subject, value string, c *clause) []Fact {
	noun, rest, ok := strings.Cut(strings.TrimSpace(value), " ")
	if !ok {
		return nil
	}
	_, pred, known := slotOf(noun)
	if !known || pred == "" {
		return nil
	}
	v := firstWord(rest)
	if (pred == "port_is" || strings.HasSuffix(pred, "_version_is")) && !versionLike().MatchString(v) {
		return nil
	}
	return []Fact{{Subject: subject, Predicate: pred, Object: v, shownObject: showValue(pred, v, c.span)}}
}

// openValue cleans an open slot's value and says whether it looks like
// one: a capitalised name, a number, a date or time, an address or path,
// or a known tool.
func openValue(span, raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	for _, p := range []string{"about ", "around ", "roughly ", "like ", "basically ", "usually ", "always ", "on ", "at ", "in "} {
		raw = strings.TrimPrefix(raw, p)
	}
	obj, ok := nounPhrase(raw, 5)
	if !ok {
		// "50 minutes on the train each way": the value, without where
		if loc := openValueEnd().FindStringIndex(raw); loc != nil && loc[0] > 0 {
			obj, ok = nounPhrase(raw[:loc[0]], 5)
		}
		if !ok {
			return "", false
		}
	}
	if _, tool := lookupTool(obj); tool {
		return obj, true
	}
	if strings.HasSuffix(firstWord(obj), "ing") || strings.HasSuffix(firstWord(obj), "ed") && !capitalized(span, firstWord(obj)) {
		return "", false // "failing", "broken", "deprecated"
	}
	switch {
	case strings.ContainsFunc(obj, unicode.IsDigit), isAddress(obj):
		return obj, true
	case capitalized(span, firstWord(obj)) && firstWord(obj) != "i":
		return obj, true
	}
	return "", false
}

// isAddress reports whether a value is a URL, host, path or handle:
// "https://api.acme.io/v2", "staging.acme.dev", "packages/ui", "@lena-k".
func isAddress(v string) bool {
	if strings.Contains(v, " ") {
		return false
	}
	return strings.Contains(v, "://") || strings.Contains(v, "/") || strings.HasPrefix(v, "@") ||
		strings.Contains(strings.Trim(v, "."), ".") && strings.ContainsFunc(v, unicode.IsLetter)
}

// homeVerb: the verb of a home, "X lives in Y".
var homeVerb = lazyRegexp(`^(?:our |the )?(?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]* lives? (?:in|at|on) `)

// personKind says whether a noun names a kind of person ("customer",
// "client", "hero", "landlord"), from the pretrained vectors: a word
// nearer "person" than any thing of a repository is ("config", "docs",
// "secrets" sit near zero). Such a thing's "lives in" is a home.
func personKind(noun string) bool {
	v := wordVector(lastOf(noun))
	if v == nil {
		return false
	}
	p := personVector()
	return p != nil && embed.Cosine(v, p) >= minPersonSimilarity
}

// minPersonSimilarity is the nearness to "person" a kind of person has in
// the built-in vectors (customer 0.24, hero 0.23, landlord 0.28; config
// -0.07, docs 0.01, secrets 0.13, images 0.11).
const minPersonSimilarity = 0.2

var personVector = sync.OnceValue(func() []float32 { return wordVector("person") })

// kindOfPlace says whether where something is kept is a kind of place
// rather than one place: a plural in lower case without a determiner or a
// path (".sql files", "separate modules"; not "Redis", "db/migrations",
// "the shared bucket").
func kindOfPlace(span, place string) bool {
	place, _, _ = strings.Cut(place, ",")
	place, _, _ = strings.Cut(place, " not ")
	ws := strings.Fields(strings.TrimSpace(place))
	if len(ws) == 0 || len(ws) > 3 || strings.Contains(place, "/") || determiner().MatchString(ws[0]) || capitalized(span, ws[0]) {
		return false
	}
	if _, tool := lookupTool(strings.Join(ws, " ")); tool {
		return false
	}
	return pluralNoun(ws[len(ws)-1])
}

// openGoesTo: "events go to Cassandra", where a kind of data is sent.
var openGoesTo = lazyRegexp(`^(?:all (?:our |the )?|our )?((?:[a-z][a-z0-9-]* ){0,2}[a-z][a-z0-9-]*s) (?:go|get sent|are sent|are written) to ([a-z0-9][a-z0-9. -]*)$`)

// storedIn shows where a kind of data is kept with its preposition:
// "we store events in Cassandra" is "Project's events are in Cassandra",
// where the open slot read "Project's events are Cassandra". The object
// stays the store, so a later value competes with it.
func storedIn(fs []Fact, prep string) []Fact {
	for i, f := range fs {
		if strings.HasSuffix(f.Predicate, "_is") && f.Subject == SubjectProject && f.Kind != KindGuideline {
			fs[i].shownObject = prep + " " + f.shownObjectOr()
		}
	}
	return fs
}

// prepBefore is the preposition before value in t: "in" for "we store
// events in cassandra".
func prepBefore(t, value string) string {
	i := strings.LastIndex(t, " "+value)
	if i <= 0 {
		return "in"
	}
	switch p := lastOf(t[:i]); p {
	case "on", "at", "in", "with", "through", "via":
		return p
	case "to":
		return "in" // "we push images to ECR": they are in it
	}
	return "in"
}
