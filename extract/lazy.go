package extract

import (
	"regexp"
	"sync"
)

// patterns holds every expression made by lazyRegexp, so a test can compile
// them all: a broken one then fails the tests instead of the first clause
// that reaches it.
var patterns []func() *regexp.Regexp

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp from then on, safely from any goroutine.
// The package's patterns are built this way rather than at package
// initialisation because compiling them all takes ~14 ms and ~6 MB, which
// every credence process importing extract would otherwise pay at start
// whether it extracts or not.
func lazyRegexp(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	patterns = append(patterns, re)
	return re
}
