package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// vocab maps a braced placeholder to the ways people say it. Some sets are
// synonyms the offline embedder knows (deploy/ship/release) and BM25 does
// not; others ("roll out", "sign-in", "settings") neither knows.
var vocab = map[string][]string{
	"deploy":  {"deploy", "ship", "release", "roll out", "publish"},
	"db":      {"database", "db", "datastore"},
	"test":    {"test", "spec"},
	"repo":    {"repo", "repository", "codebase", "project"},
	"use":     {"use", "rely on", "utilize", "employ"},
	"install": {"install", "set up", "add"},
	"build":   {"build", "compile"},
	"error":   {"error", "failure", "exception", "crash"},
	"config":  {"config", "configuration", "settings"},
	"format":  {"format"},
	"style":   {"style", "convention"},
	"indent":  {"indent"},
	"log":     {"log"},
	"auth":    {"auth", "login", "authentication", "sign-in"},
	"docs":    {"docs", "documentation"},
	"fast":    {"fast", "quick", "speedy"},
	"pr":      {"pr", "pull request", "merge request"},
}

var (
	fileWords = []string{"billing", "invoice", "user", "session", "cart", "export", "report", "search", "upload",
		"webhook", "scheduler", "cache", "router", "payment", "profile", "audit", "mailer", "queue", "metrics", "admin"}
	fileKinds = []string{"service", "handler", "store", "client", "worker", "util", "model", "controller"}
	exts      = []string{".go", ".ts", ".py", ".tsx", ".rs", ".kt", ".sql", ".yaml"}
	verbs     = []string{"parse", "load", "render", "validate", "compute", "fetch", "merge", "flush", "retry", "encode"}
	nouns     = []string{"Total", "Config", "Rows", "Token", "Batch", "Header", "Window", "Digest", "Limit", "Schema"}

	// fillers pad the assistant's replies with the everyday talk of a
	// coding session, so replies are long and share common words.
	fillers = []string{
		"Let me look at {file} first to see how {fn} is called.",
		"I read {file} and {file2}; {fn} is only used in two places.",
		"Running the {test} suite again: {n} passed, 0 failed.",
		"The change touches {file} and keeps the public interface the same.",
		"I also noticed {fn} ignores the context deadline, which could explain the timeouts.",
		"There is a TODO in {file} about this from an earlier refactor.",
		"I kept the diff small so it is easy to review.",
		"Here is the updated {fn} with the edge case for empty input handled.",
		"The linter reported {n} warnings, none related to this change.",
		"I checked the git history of {file}; the behaviour changed {n} commits ago.",
		"If you want, I can split this into two commits.",
		"The benchmark went from {n} ms to {m} ms on my run.",
	}

	// chatter are prompts about nothing a memory should answer later.
	chatter = []string{
		"rename {fn} to something clearer", "explain what {fn} in {file} does", "add a comment above {fn}",
		"why is {file} so long, can you split it", "fix the typo in the readme", "what does this regex match",
		"make {fn} return early when the slice is empty", "remove the unused import in {file}",
		"convert this loop in {file} to use a map", "show me the callers of {fn}",
	}

	// offTopic are prompts no stored memory is relevant to: the relevance
	// floor should make recall print nothing for them.
	offTopic = []string{
		"write a haiku about autumn leaves", "what is the capital of australia", "convert 72 fahrenheit to celsius",
		"tell me a joke about penguins", "summarize the plot of hamlet in two sentences", "how many legs does a spider have",
		"translate good morning into portuguese", "what year did the berlin wall fall", "suggest a name for my cat",
		"how do volcanoes form", "recommend a novel set in iceland", "what rhymes with orange",
		"explain photosynthesis to a child", "plan a three day trip to kyoto", "what is the boiling point of ethanol",
		"give me a recipe for banana bread", "who painted the starry night", "how far away is the moon",
		"list the planets in order", "describe the rules of chess castling",
	}
)

// filler expands braces: vocab sets, identifiers and numbers.
func (g *gen) fill(tmpl, x string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(g.word(tmpl[i+1:i+j], x))
		tmpl = tmpl[i+j+1:]
	}
}

func (g *gen) word(key, x string) string {
	switch key {
	case "x":
		return x
	case "file", "file2":
		return pick(g.r, fileWords) + "_" + pick(g.r, fileKinds) + pick(g.r, exts)
	case "fn":
		return pick(g.r, verbs) + pick(g.r, nouns)
	case "n":
		return fmt.Sprint(g.r.IntN(400) + 2)
	case "m":
		return fmt.Sprint(g.r.IntN(90) + 1)
	case "word":
		return pick(g.r, fileWords)
	}
	if set, ok := vocab[key]; ok {
		return pick(g.r, set)
	}
	return "{" + key + "}"
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
