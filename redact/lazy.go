package redact

import (
	"regexp"
	"sync"
)

// patterns holds every expression made by lazyRegexp, so a test can compile
// them all: a broken one then fails the tests instead of the first text
// that contains its anchor.
var patterns []func() *regexp.Regexp

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp from then on, safely from any goroutine.
// Rules compile their expression only once a text holds their anchor, so a
// hook process redacting an ordinary prompt compiles none, and a process
// that never redacts does not pay for them at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	patterns = append(patterns, re)
	return re
}
