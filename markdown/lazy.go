package markdown

import (
	"regexp"
	"sync"
)

// patterns holds every expression made by lazyRegexp, so a test can compile
// them all: a broken one then fails the tests instead of the first file
// that reaches it.
var patterns []func() *regexp.Regexp

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp from then on, safely from any goroutine.
// The package's patterns (and its goldmark parser) are built on first use
// rather than at package initialisation, so a process that imports markdown
// but never reads or writes a MEMORY.md (most hook events, most commands)
// does not pay for them at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	patterns = append(patterns, re)
	return re
}
