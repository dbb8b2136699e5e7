package markdown

import (
	"regexp"

	"github.com/credence-mem/credence/internal/lazyre"
)

// patterns holds every expression the package compiles on first use.
var patterns lazyre.Set

// lazyRegexp returns a function that compiles expr on its first call; see
// package lazyre.
func lazyRegexp(expr string) func() *regexp.Regexp { return patterns.New(expr) }
