package relations

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Need is a relation a prompt asks about, or needs to be answered well,
// with how strongly the prompt says so.
type Need struct {
	Relation Relation
	// Score adds 1 for each noun, cue or value of the relation the prompt
	// names and ½ for each weak cue; a relation is needed from 1 up.
	Score float64
	// Subjects are the subjects the prompt can mean: the person ("my",
	// "I") or the project ("we", "this repo"), narrowed from Relation.Of
	// when the prompt says which.
	Subjects []string
	// Words are the nouns, cues and values the prompt named.
	Words []string
}

// maxNeeds bounds the relations one prompt is read as needing.
const maxNeeds = 3

// Needs reads a prompt for the relations it asks about or depends on:
// "Where do I live these days?" needs lives_in, "add lodash" the
// package manager, "format the meeting time" the timezone. A relation
// counts when the prompt names one of its nouns, strong cues or (for a
// tool relation) tools, or two weak cues. The strongest first, at most
// three; then what new code or a question of what may be used here needs
// (the language and framework, the language versions), at score 1.
func Needs(prompt string) []Need {
	norm := " " + normalize(prompt) + " "
	if strings.TrimSpace(norm) == "" {
		return nil
	}
	// A one-word cue also matches its inflections ("reformatted"); a
	// phrase matches only as said ("works for me" is not "work for").
	text, folded := norm, foldInflections(norm)
	// A phrase of three words or more also matches with the prompt's
	// articles left out ("jump to the definition" says "jump to
	// definition"); a shorter one would find pairs the article kept apart
	// ("build the server binary" is not a "build server").
	bare := dropArticles(norm)
	articles := len(bare) != len(norm)
	needs := make([]Need, len(table))
	weak := make([]float64, len(table))
	// Longest phrases first, each occurrence blanked once matched, so
	// "package manager" is not also a "manager".
	for _, c := range cues() {
		// (the padded phrase is built once: concatenating it here was a
		// quarter of Needs' time)
		if !strings.Contains(text, c.padded) && (c.words > 1 || !strings.Contains(folded, c.padded)) &&
			(c.words < 3 || !articles || !strings.Contains(bare, c.padded)) {
			continue
		}
		if toolPhrases()[c.phrase] && commonNoun(text, c.phrase) {
			// "what's a semaphore in concurrency?" asks of the thing,
			// not of Semaphore CI
			continue
		}
		for _, e := range c.entries {
			n := &needs[e.relation]
			if slices.Contains(n.Words, c.phrase) {
				continue
			}
			n.Words = append(n.Words, c.phrase)
			if e.weak {
				weak[e.relation] += 0.5
			} else {
				n.Score++
			}
		}
		blank := " " + strings.Repeat("\x00 ", c.words)
		text = strings.ReplaceAll(text, c.padded, blank)
		folded = strings.ReplaceAll(folded, c.padded, blank)
		if b := dropArticles(c.padded); strings.Count(b, " ") > 1 {
			bare = strings.ReplaceAll(bare, b, " "+strings.Repeat("\x00 ", strings.Count(b, " ")-1))
		}
		if f := foldInflections(c.padded); f != c.padded {
			folded = strings.ReplaceAll(folded, f, blank)
		}
	}
	// The request's own verb counts as a cue of the slots whose work it
	// asks for.
	if v := mainVerb(norm); v != "" && !actsOnData(norm, v) {
		for i, r := range table {
			// (a noun counted already, unless ambiguous: "cache the product
			// list" asks for the cache, though "a cache" alone may not)
			if slices.Contains(r.Acts, v) && !slices.Contains(r.Cues, v) && (!slices.Contains(r.Nouns, v) || slices.Contains(r.Ambiguous, v)) {
				needs[i].Score++
				if !slices.Contains(needs[i].Words, v) {
					needs[i].Words = append(needs[i].Words, v)
				}
			}
		}
	}
	// A package named by its shape ("pull in python-dateutil", "add
	// @tanstack/react-query") is added with the package manager, though
	// no list knows its name.
	if name := packageRequest(norm); name != "" {
		if i := slices.IndexFunc(table, func(r Relation) bool { return r.Predicate == "uses_package_manager" }); i >= 0 && !slices.Contains(needs[i].Words, name) {
			needs[i].Score++
			needs[i].Words = append(needs[i].Words, name)
		}
	}
	who := subjectsOf(norm)
	var out []Need
	strong := map[string]float64{}
	for i, n := range needs {
		strong[table[i].Predicate] = n.Score
		n.Score += min(weak[i], 1)
		if n.Score < 1 {
			continue
		}
		n.Relation = table[i]
		n.Subjects = narrow(table[i], who)
		out = append(out, n)
	}
	// At equal scores a relation named by a strong cue comes before one
	// that only weak cues add up to: "language version upgrade" asks about
	// the language first, not about every version slot.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return strong[out[i].Relation.Predicate] > strong[out[j].Relation.Predicate]
	})
	if len(out) > maxNeeds {
		out = out[:maxNeeds]
	}
	// Readings that need relations the prompt does not name, beyond the
	// three: new code, and no tool more particular, needs the stack it is
	// written in (an endpoint that returns the API quota needs the
	// framework as much as the quota); "can I use a match statement
	// here?" needs the language's version, whichever language that is; a
	// text about the person, a new project, the toolchain and a container
	// image need theirs.
	if !slices.ContainsFunc(out, func(n Need) bool { return n.Relation.Category != "" }) && writesCode(norm) {
		out = appendNeeds(out, who, "new code", func(r Relation) bool {
			return r.Predicate == "uses_framework" || r.Predicate == "uses_language"
		})
	}
	if availability().MatchString(norm) {
		// the language's version, and the framework's, whose version
		// the message that names it gives ("sorry typo, Django 5.1")
		out = appendNeeds(out, who, "can i use", func(r Relation) bool {
			return r.Family == FamilyLanguageVersion || r.Predicate == "uses_framework"
		})
	}
	if slices.ContainsFunc(aboutMe, func(p string) bool { return has(norm, p) }) {
		// a text about the person, or written as them, needs who they
		// are, whatever else the prompt needs
		out = appendNeeds(out, who, "about me", func(r Relation) bool {
			return aboutMeSlots[r.Predicate]
		})
	}
	if newProject().MatchString(norm) {
		// a project started from nothing is set up with the tools the
		// person uses: its package manager, language, framework and tests
		out = appendNeeds(out, who, "new project", func(r Relation) bool {
			return newProjectSlots[r.Predicate]
		})
	}
	if toolchain().MatchString(norm) {
		// what it takes to build or run the project: its language at its
		// version, whichever language that is
		out = appendNeeds(out, who, "toolchain", func(r Relation) bool {
			return r.Family == FamilyLanguageVersion || r.Predicate == "uses_language"
		})
	}
	if buildsImage().MatchString(norm) {
		out = appendNeeds(out, who, "image", func(r Relation) bool {
			return r.Family == FamilyLanguageVersion || r.Predicate == "uses_language"
		})
	}
	return out
}

// appendNeeds adds to out, at score 1, each relation of the table that
// want picks and out does not hold yet, as read from word.
func appendNeeds(out []Need, who []string, word string, want func(Relation) bool) []Need {
	for _, r := range table {
		if want(r) && !slices.ContainsFunc(out, func(n Need) bool { return n.Relation.Predicate == r.Predicate }) {
			out = append(out, Need{Relation: r, Score: 1, Subjects: narrow(r, who), Words: []string{word}})
		}
	}
	return out
}

// buildsImage asks for a container image of the project: "write me a
// multi-stage Dockerfile", "which base image should we use". The image
// starts from the language at its version, so both are needed.
var buildsImage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:dockerfile|containerfile|base image|docker image|container image|multi-stage build)s?\b`)
})

// aboutMe are the texts written about or as the person — a bio, a cv,
// an introduction, a signature: each needs who they are (aboutMeSlots:
// name, employer, role, pronouns) though it names none of them.
var (
	aboutMe = []string{"about me", "bio", "my bio", "speaker bio", "my cv", "my resume", "my résumé", "cover letter",
		"intro of me", "introduction of me", "introduce me", "introduce myself", "my profile", "as me", "my signature", "email signature",
		"me as the author", "me as author", "me as the maintainer", "me as maintainer", "me as the owner", "me as owner", "me as the contact", "my details"}
	aboutMeSlots = map[string]bool{"name_is": true, "works_at": true, "role_is": true, "pronouns_are": true}
)

// newProject asks to start a project from nothing: "set up a new node
// project for the cli tool", "scaffold a fresh app", "bootstrap a service".
var (
	newProject = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:a|an) (?:new|fresh|greenfield|blank) (?:[\w.-]+ ){0,2}(?:project|app|repo|repository|package|service|library|lib|cli|monorepo)\b|\bscaffold\w*\b|\bbootstrap (?:a|an|the|my)\b|\b(?:npm|pnpm|yarn|cargo|go mod|poetry|uv|bun) init\b`)
	})
	newProjectSlots = map[string]bool{"uses_package_manager": true, "uses_language": true, "uses_framework": true, "uses_test_runner": true}
)

// toolchain asks what it takes to build or run the project: "what's the
// minimum toolchain someone needs to build this repo?", "make the CI setup
// step use the right runtime", "what are the prerequisites?".
var toolchain = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\btoolchains?\b|\b(?:right|correct|same|minimum|min|supported) (?:runtime|version|sdk)s?\b|\bruntime versions?\b|\bprerequisites\b|\bneeds? (?:installed|to build (?:this|the|our) (?:repo|project|code))\b`)
})

// availability asks whether a feature may be used in the project: "can I
// use the built-in fetch here", "can we use range-over-func iterators in
// this repo", "is GeneratedField available in this project?". Without
// "here" or a part of the project it is a general question ("can I use a
// regex to parse HTML?").
var availability = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\b(?:can|could|may) (?:i|we) (?:use|rely on|write)\b|\b(?:is|are) [\w.-]+(?: [\w.-]+)? (?:available|supported)\b).*(?:\bhere\b|\bin (?:this|our|the) [a-z]+)`)
})

// cue is one phrase and the relations it points to.
type cue struct {
	phrase  string
	padded  string // " " + phrase + " ", as has looks for it
	words   int    // how many words phrase has
	entries []cueEntry
}

type cueEntry struct {
	relation int // index in table
	weak     bool
}

// cues lists every noun, cue, weak cue and tool value of the table, the
// longest phrases first.
var cues = sync.OnceValue(buildCues)

func buildCues() []cue {
	idx := map[string]int{}
	var out []cue
	add := func(phrase string, rel int, weak bool) {
		i, ok := idx[phrase]
		if !ok {
			i = len(out)
			idx[phrase] = i
			out = append(out, cue{phrase: phrase})
		}
		for _, e := range out[i].entries {
			if e.relation == rel {
				return
			}
		}
		out[i].entries = append(out[i].entries, cueEntry{rel, weak})
	}
	for i, r := range table {
		for _, w := range append(slices.Clone(r.Nouns), r.Cues...) {
			if !slices.Contains(r.Ambiguous, w) {
				add(w, i, false)
			}
		}
		for _, w := range r.Ambiguous {
			add("my "+w, i, false)
			add("our "+w, i, false)
		}
		for _, w := range r.Weak {
			add(w, i, true)
		}
		if r.Category != "" {
			// A language named in passing ("explain closures in
			// JavaScript") is no question about the project's stack;
			// with a cue it is ("which language", "written in").
			weakValue := r.Category == CatLanguage
			for _, w := range valueWords()[r.Category] {
				add(w, i, weakValue)
			}
		}
		if r.Predicate == "uses_package_manager" {
			for _, w := range libraries {
				add(w, i, true)
			}
			for _, c := range []string{CatFramework, CatTestRunner, CatLinter, CatFormatter, CatBundler, CatE2E} {
				for _, w := range valueWords()[c] {
					add(w, i, true) // "install express", "add vitest"
				}
			}
		}
	}
	// Longest first, in table order within a length: a stable bucket
	// sort. (A comparison sort that counted the words in each comparison
	// was a tenth of a one-shot hook's CPU.)
	most := 0
	for i := range out {
		out[i].words = strings.Count(out[i].phrase, " ") + 1
		out[i].padded = " " + out[i].phrase + " "
		most = max(most, out[i].words)
	}
	sorted := make([]cue, 0, len(out))
	for n := most; n > 0; n-- {
		for _, c := range out {
			if c.words == n {
				sorted = append(sorted, c)
			}
		}
	}
	return sorted
}

// toolPhrases are the tool names among the cues.
var toolPhrases = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, names := range valueWords() {
		for _, n := range names {
			out[n] = true
		}
	}
	return out
})

// CommonNouns returns the tools' names a prompt uses only as common
// nouns: "semaphore" in "what's a semaphore in concurrency?", not in "our
// CI is on Semaphore". Recall leaves them out of the words it searches
// with, as Needs does.
func CommonNouns(prompt string) []string {
	norm := " " + normalize(prompt) + " "
	var out []string
	for _, w := range strings.Fields(norm) {
		if toolPhrases()[w] && !slices.Contains(out, w) && commonNoun(norm, w) {
			out = append(out, w)
		}
	}
	return out
}

// commonNoun reports whether every use of a tool's name in the padded,
// normalized text is a common noun: after "a", "an" or "some" and before
// no other noun ("a semaphore in concurrency", "fly a drone", "when would
// I use a semaphore", "some poetry by Mary Oliver"), where "a Redis
// cache", "a Jenkins job" and "some jest tests" name the tool.
func commonNoun(text, name string) bool {
	for rest := text; ; {
		i := strings.Index(rest, " "+name+" ")
		if i < 0 {
			return true
		}
		before := strings.Fields(rest[:i])
		after := strings.Fields(rest[i+len(name)+1:])
		if n := len(before); n > 1 && evaluative[before[n-1]] {
			before = before[:n-1] // "a good jest", "a quick flask"
		}
		if len(before) == 0 || before[len(before)-1] != "a" && before[len(before)-1] != "an" && before[len(before)-1] != "some" {
			return false
		}
		if len(after) > 0 && !closesNoun[after[0]] {
			return false
		}
		rest = rest[i+len(name)+1:]
	}
}

// evaluative are adjectives that judge a thing, which a tool's name is
// not led by: "tell me a good jest", "bring a big flask".
var evaluative = map[string]bool{"good": true, "great": true, "nice": true, "funny": true, "clever": true,
	"bad": true, "terrible": true, "witty": true, "silly": true, "famous": true, "classic": true, "little": true,
	"lovely": true, "beautiful": true, "cute": true, "tiny": true, "huge": true}

// closesNoun are the words that may follow a noun phrase that ends in the
// noun itself.
var closesNoun = map[string]bool{"in": true, "and": true, "or": true, "with": true, "for": true, "to": true,
	"of": true, "about": true, "is": true, "are": true, "vs": true, "versus": true, "instead": true, "when": true, "that": true,
	"which": true, "from": true, "on": true, "at": true, "as": true, "like": true, "work": true, "works": true, "by": true}

// libraries are packages people ask to add or upgrade ("add lodash"): a
// weak sign the prompt needs the package manager.
var libraries = []string{
	"lodash", "axios", "zod", "dayjs", "date-fns", "moment", "uuid", "chalk", "dotenv", "yup",
	"rxjs", "immer", "redux", "zustand", "swr", "ky", "got", "commander", "yargs", "sharp",
	"prisma", "drizzle", "mongoose", "sequelize", "knex", "jsonwebtoken", "bcrypt", "nodemailer",
	"numpy", "pandas", "requests", "pydantic", "httpx", "sqlalchemy", "scipy", "matplotlib",
	"left-pad", "typescript", "@types/node", "tsx", "ts-node", "nodemon",
}

// foldInflections turns each inflected form of a one-word cue back into
// the cue ("reformatted" → "reformat", "deployed" → "deploy",
// "installing" → "install"), so a cue list names a verb or noun once
// and a prompt that uses its past tense, participle or plural still
// reads as the cue. A word that is itself a cue stays as it is
// ("builds", "lives").
func foldInflections(padded string) string {
	base := inflections()
	if !strings.ContainsFunc(padded, func(r rune) bool { return r == 's' || r == 'd' || r == 'g' }) {
		return padded
	}
	fs := strings.Fields(padded)
	changed := false
	for i, f := range fs {
		if b, ok := base[f]; ok {
			fs[i] = b
			changed = true
		}
	}
	if !changed {
		return padded
	}
	return " " + strings.Join(fs, " ") + " "
}

// inflections maps the regular inflections of every one-word cue that
// is not itself a cue to the cue: -s/-es, -ed/-d, -ing (dropping a final
// e, or doubling a final consonant: "reformatted", "shipping").
var inflections = sync.OnceValue(func() map[string]string {
	isCue := map[string]bool{}
	for _, c := range cues() {
		isCue[c.phrase] = true
	}
	out := map[string]string{}
	add := func(form, base string) {
		if form != base && !isCue[form] && !nounForms[form] {
			if _, taken := out[form]; !taken {
				out[form] = base
			}
		}
	}
	for _, c := range cues() {
		w := c.phrase
		if c.words != 1 || len(w) < 4 || strings.ContainsAny(w, "./:@#+_'-0123456789") {
			continue
		}
		add(w+"s", w)
		add(w+"ed", w)
		add(w+"ing", w)
		switch last := w[len(w)-1]; {
		case last == 'e':
			add(w+"d", w)
			add(w[:len(w)-1]+"ing", w)
		case last == 's' || last == 'x' || last == 'h':
			add(w+"es", w)
		case last == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
			add(w[:len(w)-1]+"ies", w)
			add(w[:len(w)-1]+"ied", w)
		case strings.ContainsRune("bdgmnprt", rune(last)) && strings.ContainsRune("aeiou", rune(w[len(w)-2])) &&
			!strings.ContainsRune("aeiou", rune(w[len(w)-3])):
			// a short final syllable doubles its consonant: "reformatted"
			add(w+string(last)+"ed", w)
			add(w+string(last)+"ing", w)
		}
	}
	return out
})

// nounForms are inflections that are nouns of their own more often than
// the cue's verb: a "shipping vendor" ships nothing, a "building" is not
// a build.
var nounForms = map[string]bool{"shipping": true, "building": true, "buildings": true, "settings": true, "setting": true,
	"meeting": true, "meetings": true, "housing": true, "clothing": true, "saving": true, "savings": true}

// has reports whether the padded, normalized text holds the phrase as
// whole words.
func has(text, phrase string) bool { return strings.Contains(text, " "+phrase+" ") }

// dropArticles leaves the articles out of a padded, normalized prompt.
func dropArticles(padded string) string {
	if !strings.Contains(padded, " the ") && !strings.Contains(padded, " a ") && !strings.Contains(padded, " an ") {
		return padded
	}
	fs := strings.Fields(padded)
	out := fs[:0:0]
	for _, f := range fs {
		if f != "the" && f != "a" && f != "an" {
			out = append(out, f)
		}
	}
	return " " + strings.Join(out, " ") + " "
}

// valueWords are the tool names and aliases of each category, longer than
// two letters (so "go", "pg" and "js" do not make every prompt a question
// about languages or databases).
var valueWords = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, t := range toolTable {
		for _, name := range append([]string{t.Name}, t.Aliases...) {
			if len(name) <= 2 {
				continue
			}
			for _, c := range t.Categories {
				m[c] = append(m[c], name)
			}
		}
	}
	return m
})

// subjectsOf says whom a prompt is about: the person, the project, or
// either when it does not say.
func subjectsOf(text string) []string {
	// A bare "I" says little: "how should I install the dependencies?"
	// asks about the project. "my", "me" and "mine" mean the person.
	user := has(text, "my") || has(text, "me") || has(text, "mine")
	project := has(text, "we") || has(text, "our") || has(text, "us") || has(text, "this repo") ||
		has(text, "the repo") || has(text, "this project") || has(text, "the project") || has(text, "here")
	switch {
	case user && !project:
		return []string{User}
	case project && !user:
		return []string{Project}
	}
	return []string{User, Project}
}

// narrow keeps the subjects of the relation the prompt can mean; when the
// prompt means only subjects the relation is not said of, the relation's
// own subjects stand ("where do we live" still means the person). "My"
// in a prompt about a project tool is the person's work in the project
// ("why is the pipeline red on my branch", "add zod to my api"): the
// project's tool answers it as well as one the person named for
// themselves; only a tool of the person's own machine (Personal: editor,
// shell, OS) is theirs alone.
func narrow(r Relation, who []string) []string {
	if r.Category != "" && !r.Personal && slices.Equal(who, []string{User}) {
		return r.Of
	}
	var out []string
	for _, s := range r.Of {
		for _, w := range who {
			if s == w {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		return r.Of
	}
	return out
}

// normalize lowercases a prompt and keeps the characters tool names and
// cues use (letters, digits, . / : @ # + _ ' -), trimming sentence
// punctuation off the ends of words.
func normalize(s string) string {
	if len(s) > 4<<10 {
		s = s[:4<<10]
	}
	s = strings.ToLower(s)
	s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	fields := strings.FieldsFunc(s, func(r rune) bool {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127:
			return false
		}
		return !strings.ContainsRune("./:@#+_'-", r)
	})
	out := fields[:0]
	for _, f := range fields {
		if f = strings.Trim(f, ".:'-"); f != "" {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// requestLeads are the courtesies and frames a request opens with before
// its verb: "ok so pls", "can you", "let's", "go ahead and", "I need you
// to". A lead of one word may repeat ("ok so now").
var requestLeads = []string{"can you please", "could you please", "would you please", "can you", "could you", "would you",
	"will you", "go ahead and", "i need you to", "i want you to", "i'd like you to", "help me", "let's", "lets",
	"ok", "okay", "so", "now", "pls", "plz", "please", "then", "also", "and", "just", "quickly", "next", "first", "finally", "alright", "right"}

// MainVerb is mainVerb of a prompt as it was typed.
func MainVerb(prompt string) string { return mainVerb(normalize(prompt)) }

// mainVerb is the word a request opens with past its leads ("ok so pls
// format the src folder" → "format"), or "" for a question: what it asks
// for is the work of that verb.
func mainVerb(norm string) string {
	v, _, _ := strings.Cut(withoutLeads(norm), " ")
	switch v {
	case "what", "which", "who", "where", "when", "why", "how", "is", "are", "do", "does", "did", "should", "can", "could", "would", "will":
		return ""
	}
	return v
}

// packageRequest returns the package a request asks to add when the
// package is recognisable by its shape alone: a name of lower-case parts
// joined by hyphens, dots or underscores, or a scoped name
// ("python-dateutil", "react-hook-form", "@tanstack"), right after a verb
// of adding ("add", "install", "pull in", "bring in", "grab"). A file
// ("utils.py"), a version ("1.2.3") or a word of English written with a
// hyphen ("follow-up") is none.
func packageRequest(norm string) string {
	p := withoutLeads(norm)
	for _, v := range addingVerbs {
		rest, ok := strings.CutPrefix(p, v+" ")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		if packageShaped(name) {
			return name
		}
		return ""
	}
	return ""
}

// addingVerbs ask to add a package, longest first.
var addingVerbs = []string{"pull in", "bring in", "add in", "install", "add", "grab", "vendor", "require"}

// packageShaped reports whether a word is shaped like a package's name.
func packageShaped(w string) bool {
	if strings.HasPrefix(w, "@") && len(w) > 2 {
		return true // a scoped npm package
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '.' || r == '_' })
	if len(parts) < 2 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-._") != "" {
		return false
	}
	if hyphenWords[w] || fileExtensions[parts[len(parts)-1]] {
		return false
	}
	letters := false
	for _, r := range w {
		if r >= 'a' && r <= 'z' {
			letters = true
		}
	}
	return letters
}

// hyphenWords are words of English written with a hyphen, which an
// imperative may add without an article.
var hyphenWords = map[string]bool{"follow-up": true, "follow-ups": true, "built-in": true, "built-ins": true,
	"e-mail": true, "opt-in": true, "opt-out": true, "sign-in": true, "sign-up": true, "log-in": true, "add-on": true,
	"add-ons": true, "check-in": true, "set-up": true, "re-run": true, "real-time": true, "end-to-end": true,
	"two-factor": true, "read-only": true, "dark-mode": true, "drag-and-drop": true, "type-safe": true,
	"fine-tuning": true, "to-do": true, "to-dos": true, "rate-limiting": true, "auto-save": true}

// fileExtensions end the names of files, not of packages.
var fileExtensions = map[string]bool{"py": true, "ts": true, "tsx": true, "js": true, "jsx": true, "go": true,
	"rs": true, "rb": true, "java": true, "kt": true, "md": true, "json": true, "yaml": true, "yml": true, "toml": true,
	"txt": true, "sql": true, "sh": true, "css": true, "html": true, "vue": true, "svelte": true, "c": true, "h": true,
	"cpp": true, "cs": true, "swift": true, "ex": true, "exs": true, "php": true, "env": true, "lock": true, "mod": true}

// withoutLeads returns a normalized request without the courtesies and
// frames it opens with ("can you please", "ok so").
func withoutLeads(norm string) string {
	p := strings.TrimSpace(norm)
	for again := true; again; {
		again = false
		for _, l := range requestLeads {
			if rest, ok := strings.CutPrefix(p, l+" "); ok {
				p, again = rest, true
			}
		}
	}
	return p
}

// actsOnData reports whether the request's verb acts on a value in the
// program rather than on the code: "format the due date as 'Mar 3'",
// "format the price with two decimals" ask for no code formatter.
func actsOnData(norm, verb string) bool {
	_, rest, _ := strings.Cut(norm, " "+verb+" ")
	words := strings.Fields(rest)
	for _, w := range words[:min(len(words), 4)] {
		if dataNouns[w] {
			return true
		}
	}
	return false
}

// dataNouns are values a program formats, parses or prints.
var dataNouns = map[string]bool{"date": true, "dates": true, "time": true, "times": true, "timestamp": true,
	"timestamps": true, "number": true, "numbers": true, "price": true, "prices": true, "currency": true,
	"amount": true, "amounts": true, "phone": true, "duration": true, "durations": true, "percentage": true,
	"output": true, "json": true, "string": true, "strings": true, "total": true, "totals": true}

// codeVerbs open a request for new code, codeParts name what is made.
var (
	codeVerbs = map[string]bool{"add": true, "write": true, "implement": true, "create": true, "scaffold": true,
		"generate": true, "build": true, "expose": true, "make": true}
	codeParts = map[string]bool{"endpoint": true, "endpoints": true, "handler": true, "handlers": true, "route": true,
		"routes": true, "controller": true, "healthcheck": true, "webhook": true, "resolver": true, "serializer": true,
		"composable": true, "component": true, "middleware": true, "model": true, "migration": true, "api": true,
		"form": true, "forms": true, "page": true, "screen": true, "view": true, "modal": true, "dialog": true}
)

// writesCode reports whether a prompt asks for new code of the project's
// own kind — "add an endpoint that returns the version", "write a
// handler for /status" — which is written in the project's language and
// framework: such a task shares no word with "we ported the app to
// FastAPI", and still needs it. The verb opens the request (in its first
// three words); the part it makes is one a framework shapes.
func writesCode(norm string) bool {
	f := strings.Fields(norm)
	verb := false
	for i := 0; i < len(f) && i < 3; i++ {
		if codeVerbs[f[i]] {
			verb = true
			break
		}
	}
	if !verb {
		return false
	}
	for _, w := range f {
		if codeParts[w] {
			return true
		}
	}
	return false
}
