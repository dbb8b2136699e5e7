// Package lazyre compiles regular expressions on first use instead of at
// package initialisation, and remembers them so a package's tests can
// compile them all. extract, redact and markdown build their patterns this
// way: compiling extract's alone took ~14 ms and ~6 MB at the start of
// every credence process, whether it extracted anything or not.
//
// lazyre uses the standard library only, so the packages that must stay
// pure (extract) can import it.
package lazyre

import (
	"regexp"
	"sync"
)

// Set is one package's lazily compiled expressions. Declare it as a
// package variable and call New from package-level initialisers.
type Set struct {
	all []func() *regexp.Regexp
}

// New returns a function that compiles expr on its first call and returns
// the same *regexp.Regexp from then on, safely from any goroutine.
func (s *Set) New(expr string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	s.all = append(s.all, re)
	return re
}

// All returns every expression New has made, so a test can compile them
// all: a broken one then fails the tests instead of the first text that
// reaches it.
func (s *Set) All() []func() *regexp.Regexp { return s.all }
