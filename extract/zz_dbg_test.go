package extract

import (
	"os"
	"strings"
	"testing"
)

func TestDbg(t *testing.T) {
	for _, line := range strings.Split(os.Getenv("DBG"), "|") {
		for _, f := range Extract(line) {
			t.Logf("%q → %s %s(%s, %q) neg=%v rep=%q corr=%v ρ=%.2f %q", line, f.Kind, f.Predicate, f.Subject, f.Object, f.Negated, f.Replaces, f.Correction, f.Reliability, f.Statement)
		}
		if len(Extract(line)) == 0 {
			t.Logf("%q → nothing", line)
		}
	}
}

func TestDbgClause(t *testing.T) {
	for _, line := range strings.Split(os.Getenv("DBG"), "|") {
		for _, rc := range splitClauses(line) {
			c := analyze(rc)
			t.Logf("%q → clause %q corr=%v std=%v dir=%v chg=%v reject=%q", line, c.text, c.correction, c.standing, c.directive, c.change, rejectReason(&c))
		}
	}
}

func TestDbgBatch(t *testing.T) {
	var cs []heldoutCase
	for _, c := range loadCases(t, devFile) {
		if strings.HasPrefix(c.ID, os.Getenv("BATCH")) {
			cs = append(cs, c)
		}
	}
	s := scoreSet(cs, inContext)
	t.Log("\n" + s.table("batch "+os.Getenv("BATCH")))
	t.Log("misses:\n  " + strings.Join(s.misses, "\n  "))
	t.Log("spurious:\n  " + strings.Join(s.spurious, "\n  "))
}
