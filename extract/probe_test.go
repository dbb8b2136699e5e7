package extract

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestProbe prints what is extracted from each line of the file named by
// CREDENCE_PROBE_FILE, for reading sentences by eye while building a
// reading. A line "> text" is an earlier utterance of the conversation of
// the lines after it, up to a blank line; lines starting with # are
// skipped.
func TestProbe(t *testing.T) {
	file := os.Getenv("CREDENCE_PROBE_FILE")
	if file == "" {
		t.Skip("set CREDENCE_PROBE_FILE to a file of sentences")
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recent []string
	var out strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			recent = nil
			continue
		case strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "> "):
			recent = append(recent, line[2:])
			continue
		}
		fmt.Fprintf(&out, "%s\n", line)
		if os.Getenv("CREDENCE_PROBE_CLAUSES") != "" {
			for _, rc := range splitClauses(line) {
				c := analyze(rc)
				fmt.Fprintf(&out, "  . %q -> %q q=%v corr=%v change=%v dir=%v std=%v\n", rc.text, c.text, c.question, c.correction, c.change, c.directive, c.standing)
			}
		}
		fs := ExtractWith(line, Context{Recent: recent})
		if len(fs) == 0 {
			fmt.Fprintf(&out, "    -\n")
		}
		for _, x := range fs {
			neg := ""
			if x.Negated {
				neg = "not "
			}
			rep := ""
			if x.Replaces != "" {
				rep = " <" + x.Replaces
			}
			fmt.Fprintf(&out, "    %s%s %s %q%s  | %s  ρ%.1f\n", neg, x.Subject, x.Predicate, x.Object, rep, x.Statement, x.Reliability)
		}
	}
	fmt.Print(out.String())
}
