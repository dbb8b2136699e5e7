package extract

import (
	"slices"
	"strings"
	"sync"

	"github.com/credence-mem/credence/relations"
)

// The taxonomy of tools and the relations they fill live in package
// relations, which recall reads too: one table for what the extractor
// understands and what a prompt can ask about. These names keep the
// extractor's code short.

const (
	catPackageManager = relations.CatPackageManager
	catRuntime        = relations.CatRuntime
	catLanguage       = relations.CatLanguage
	catTestRunner     = relations.CatTestRunner
	catE2E            = relations.CatE2E
	catDeploy         = relations.CatDeploy
	catDatabase       = relations.CatDatabase
	catCache          = relations.CatCache
	catCI             = relations.CatCI
	catEditor         = relations.CatEditor
	catFormatter      = relations.CatFormatter
	catLinter         = relations.CatLinter
	catCloud          = relations.CatCloud
	catFramework      = relations.CatFramework
	catBundler        = relations.CatBundler
	catShell          = relations.CatShell
	catOS             = relations.CatOS
)

type tool = relations.Tool

func lookupTool(phrase string) (*tool, bool) {
	t, ok := relations.LookupTool(phrase)
	if ok || !strings.Contains(phrase, " ") {
		return t, ok
	}
	// "fish shell", "postgres database": a tool named with the noun of its
	// own slot is that tool
	i := strings.LastIndexByte(phrase, ' ')
	if cat, known := slotCategory()[phrase[i+1:]]; known {
		if t, ok := relations.LookupTool(phrase[:i]); ok && slices.Contains(t.Categories, cat) {
			return t, true
		}
	}
	return nil, false
}

// pickCategory is relations.PickCategory, except that a slot the
// sentence names wins when both tools can fill it: "our hosting from AWS
// to Hetzner" is about deploys, though both are clouds too.
func pickCategory(t *tool, other *tool, hint string) string {
	if hint != "" && slices.Contains(t.Categories, hint) && (other == nil || slices.Contains(other.Categories, hint)) {
		return hint
	}
	return relations.PickCategory(t, other, hint)
}

// categoryPredicate maps a tool category to its relation's predicate.
var categoryPredicate = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range relations.All() {
		if r.Category != "" {
			m[r.Category] = r.Predicate
		}
	}
	return m
})

// slotCategory maps the noun that names a tool slot ("our CI", "my
// editor", "as our package manager", "for testing") to its category.
var slotCategory = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range relations.All() {
		if r.Category == "" {
			continue
		}
		for _, n := range r.Nouns {
			m[n] = r.Category
		}
	}
	return m
})

// personalCategory are the categories of tools a person picks for
// themselves (Relation.Personal): "switched my editor to Zed", "Just
// switched to helix" and "moved to nushell" are about the user, not the
// project.
var personalCategory = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range relations.All() {
		if r.Personal && r.Category != "" {
			m[r.Category] = true // editor, shell, OS
		}
	}
	return m
})

// personalPredicate reports whether predicate holds a tool of a personal
// category.
func personalPredicate(predicate string) bool {
	for cat := range personalCategory() {
		if categoryPredicate()[cat] == predicate {
			return true
		}
	}
	return false
}

// teamWords say a statement is about the team or project, not the person.
var teamWords = lazyRegexp(`\b(?:we|our|us|team|project|repo|everyone|everybody)\b`)
