package embed

import (
	"sort"
	"strings"
	"sync"
)

// synonymGroups lists developer-domain words that say the same thing. The
// first word of each line is the canonical form; every word is stemmed when
// the table is built, so inflections ("migrating", "utilizes") match too.
// Changing this table changes vectors: bump offlineVersion when you do.
var synonymGroups = []string{
	"prefer like love favour favor enjoy",
	"use utilize utilise employ leverage adopt rely",
	"switch move migrate port transition convert replace swap substitute",
	"deploy ship release publish rollout",
	"test spec",
	"run execute exec invoke",
	"install setup",
	"remove delete drop uninstall rm",
	"create generate scaffold init",
	"fix repair patch resolve",
	"error err failure exception crash",
	"not no never don't dont doesn't doesnt didn't didnt won't wont can't cant cannot shouldn't shouldnt avoid without",
	"should always must ensure",
	"js javascript ecmascript",
	"ts typescript",
	"py python python3",
	"go golang",
	"k8s kubernetes kube",
	"postgres postgresql pg psql",
	"db database datastore",
	"repo repository codebase",
	"config configuration conf cfg",
	"env environment",
	"dep deps dependency",
	"pkg package",
	"lib library",
	"func function fn method",
	"dir directory folder",
	"doc docs documentation",
	"auth authentication login",
	"pr prs mr",
	"fast quick quickly speedy",
	"big large huge",
	"small tiny short",
	"lint linter",
	"format formatter fmt",
	"indent indentation",
	"server backend",
	"ui frontend",
	"cmd command cli",
	"style convention",
	"log logger logging",
	"build compile",
	"mac macos osx",
	"mongo mongodb",
	"1 one", "2 two", "3 three", "4 four", "5 five", "6 six", "7 seven", "8 eight", "9 nine", "10 ten",
}

// phrases are two-word names that mean one thing. The pair is replaced by
// the canonical word (a key of the synonym table or a plain word) before
// features are made, so "pull requests" and "PRs" agree.
var phrases = map[[2]string]string{
	{"pull", "request"}:    "pr",
	{"merge", "request"}:   "pr",
	{"command", "line"}:    "cli",
	{"vs", "code"}:         "vscode",
	{"node", "js"}:         "node",
	{"next", "js"}:         "nextjs",
	{"type", "hint"}:       "annotation",
	{"package", "manager"}: "pkgmanager",
}

// ambiguousNames are tool names that are also ordinary English words. They
// count as names (class feature, name weight) only when capitalized
// mid-sentence: "written in Go", not "go ahead".
var ambiguousNames = map[string]bool{
	"go": true, "next": true, "solid": true, "express": true, "echo": true, "gin": true,
	"arch": true, "render": true, "fly": true, "action": true, "compose": true,
	"cursor": true, "spring": true, "rail": true, "black": true, "chi": true,
	"fiber": true, "helix": true, "gem": true, "apt": true, "make": true,
}

// relationClasses groups words that fill the same slot without meaning the
// same thing: "pnpm" and "bun" are both package managers. A word emits its
// class as an extra, lighter feature, so "I prefer pnpm" and "I prefer bun"
// score as related (same subject and predicate, different object) rather
// than as paraphrases or as strangers.
var relationClasses = map[string]string{
	"pkgmanager":  "npm pnpm yarn bun pip pipx poetry uv cargo composer gem bundler brew homebrew apt conda",
	"runtime":     "node nodejs deno bun",
	"language":    "go rust python ts js java kotlin swift ruby php elixir haskell scala zig lua c++ c# cpp csharp",
	"editor":      "vim neovim nvim emacs vscode cursor zed helix sublime intellij goland jetbrains",
	"testfw":      "jest vitest mocha pytest jasmine ava playwright cypress rspec unittest testify",
	"database":    "postgres mysql sqlite mongo redis libsql turso dynamodb mariadb supabase",
	"linter":      "eslint prettier biome ruff black gofmt goimports golangci flake8 rubocop pylint mypy clippy rustfmt",
	"webfw":       "react vue svelte angular solid preact next nextjs nuxt remix astro htmx",
	"cssfw":       "tailwind css sass scss bootstrap",
	"bundler":     "webpack vite esbuild rollup parcel turbopack",
	"hosting":     "aws gcp azure vercel netlify fly heroku cloudflare render railway",
	"shell":       "bash zsh fish powershell sh",
	"os":          "linux mac windows ubuntu debian arch fedora wsl",
	"vcshost":     "github gitlab bitbucket gitea",
	"ci":          "actions jenkins circleci travis buildkite",
	"container":   "docker podman k8s compose helm",
	"whitespace":  "tabs spaces tab space",
	"quotes":      "single double",
	"orm":         "prisma drizzle sqlalchemy gorm typeorm sqlc",
	"httpfw":      "express fastify gin echo fiber chi django flask fastapi rails spring hono",
	"theme":       "dark light",
	"casing":      "camelcase snakecase kebabcase pascalcase",
	"branch":      "main master trunk develop",
	"toolversion": "mise asdf nvm volta pyenv rbenv fnm",
}

// lightWordList says little about what a claim is about: "use pnpm" and
// "prefer pnpm" are both about pnpm. These words still count, lightly.
var lightWordList = []string{"use", "prefer", "run", "write", "keep", "make", "work", "put",
	"should", "need", "start", "call", "set", "live", "done", "give", "take", "try"}

// lexEntry is everything the tables say about one stem, so the hot loop
// makes one map lookup per word.
type lexEntry struct {
	canonical  string   // the synonym group's first word, or the stem itself
	renamed    bool     // the stem belongs to a synonym group
	classes    []string // relation classes of the canonical word, sorted
	light      bool     // the canonical word is a light verb
	ambiguous  bool     // the canonical word is a name only when capitalized
	phraseHead bool     // the stem starts an entry of phrases
}

// lexicon is the built form of the tables above, keyed by stem.
type lexicon struct {
	entries map[string]*lexEntry
	phrases map[[2]string]string
	// negation and prefer are the canonical stems of "not" (also "never",
	// "don't", "avoid"...) and "prefer" (also "like", "favour"...).
	negation, prefer string
}

// builtLexicon returns the lexicon, built on first use: building it takes
// about half a millisecond, which a process that never embeds offline (most
// hook events, most commands) should not pay at start.
var builtLexicon = sync.OnceValue(buildLexicon)

func buildLexicon() lexicon {
	canonical := map[string]string{}
	for _, line := range synonymGroups {
		words := strings.Fields(line)
		canon := stem(words[0])
		for _, w := range words {
			canonical[stem(w)] = canon
		}
	}
	canon := func(w string) string {
		if c, ok := canonical[stem(w)]; ok {
			return c
		}
		return stem(w)
	}
	lx := lexicon{entries: map[string]*lexEntry{}, phrases: map[[2]string]string{}}
	entry := func(key string) *lexEntry {
		e, ok := lx.entries[key]
		if !ok {
			e = &lexEntry{canonical: key}
			if c, ok := canonical[key]; ok {
				e.canonical, e.renamed = c, true
			}
			lx.entries[key] = e
		}
		return e
	}
	classes := map[string][]string{}
	for class, line := range relationClasses {
		for _, w := range strings.Fields(line) {
			classes[canon(w)] = append(classes[canon(w)], class)
		}
	}
	light, ambiguous := map[string]bool{}, map[string]bool{}
	for _, w := range lightWordList {
		light[canon(w)] = true
	}
	for w := range ambiguousNames {
		ambiguous[canon(w)] = true
	}
	for words, c := range phrases {
		lx.phrases[[2]string{stem(words[0]), stem(words[1])}] = canon(c)
		entry(stem(words[0])).phraseHead = true
		entry(canon(c))
	}
	for raw := range canonical {
		entry(raw)
	}
	for _, m := range []map[string]bool{light, ambiguous} {
		for w := range m {
			entry(w)
		}
	}
	for w := range classes {
		entry(w)
	}
	for _, e := range lx.entries {
		e.classes = classes[e.canonical]
		// Map iteration order is random; a fixed order keeps the float
		// sums, and so the vectors, bit-for-bit deterministic.
		sort.Strings(e.classes)
		e.light = light[e.canonical]
		e.ambiguous = ambiguous[e.canonical]
	}
	lx.negation = lx.lookup(stem("not")).canonical
	lx.prefer = lx.lookup(stem("prefer")).canonical
	return lx
}

// lookup returns what the tables say about a stem; a stem they do not
// mention is its own canonical form with nothing else attached.
func (lx lexicon) lookup(stem string) lexEntry {
	if e, ok := lx.entries[stem]; ok {
		return *e
	}
	return lexEntry{canonical: stem}
}
