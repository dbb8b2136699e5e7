package extract

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/statements.golden")

const (
	statementsIn     = "testdata/statements.txt"
	statementsGolden = "testdata/statements.golden"
)

// TestStatementsGolden renders the statement of everything extracted from
// each utterance of testdata/statements.txt and compares the result with
// testdata/statements.golden, which was reviewed by hand line by line. A
// change of wording shows as a diff to review; -update rewrites the file.
func TestStatementsGolden(t *testing.T) {
	f, err := os.Open(statementsIn)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		var ctx Context
		text := line
		if before, after, ok := strings.Cut(line, " >> "); ok {
			ctx.Recent = strings.Split(before, " || ")
			text = after
			fmt.Fprintf(&b, "%s\t(after %q)\n", text, ctx.Recent)
		} else {
			fmt.Fprintf(&b, "%s\n", text)
		}
		facts := ExtractWith(text, ctx)
		if len(facts) == 0 {
			b.WriteString("\t(nothing)\n")
		}
		for _, f := range facts {
			neg := ""
			if f.Negated {
				neg = "not "
			}
			rep := ""
			if f.Replaces != "" {
				rep = fmt.Sprintf(" replacing %q", f.Replaces)
			}
			fmt.Fprintf(&b, "\t%s%s(%s, %q)%s: %s\n", neg, f.Predicate, f.Subject, f.Object, rep, f.Statement)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("%s has %d utterances, want at least 100", statementsIn, n)
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(statementsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(statementsGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("statements differ from %s at line %d:\n got: %s\nwant: %s\n(review the change, then rerun with -update)", statementsGolden, i+1, g, w)
			}
		}
	}
}
