// Package testkit holds helpers several packages' tests share. Only _test
// files import it.
package testkit

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/credence-mem/credence/internal/lazyre"
)

// CompileAll compiles every expression of a package's lazyre.Set, so a
// broken one fails the package's tests instead of the first text that
// reaches it, and checks each is compiled once.
func CompileAll(t *testing.T, set *lazyre.Set) {
	t.Helper()
	if len(set.All()) == 0 {
		t.Fatal("no lazily compiled patterns registered")
	}
	for i, re := range set.All() {
		first := re()
		if first == nil {
			t.Fatalf("pattern %d compiled to nil", i)
		}
		if again := re(); again != first {
			t.Errorf("pattern %d (%s) compiled twice: %p then %p", i, first, first, again)
		}
	}
}

// InFreshProcess runs fn in a new process of the test binary, running only
// the calling test, where package-level state built on first use (lazily
// compiled patterns, tables, parsers) has not been built yet. env names the
// variable that marks the child; the parent fails when the child fails or
// does not run the test.
func InFreshProcess(t *testing.T, env string, fn func(t *testing.T)) {
	t.Helper()
	if os.Getenv(env) == "1" {
		fn(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fresh process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("fresh process did not run the test:\n%s", out)
	}
}
