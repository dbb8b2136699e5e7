package recall

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// go test ./recall -run TestZZ -v  with ZZ="said|statement|prompt" lines in /tmp/s13/zz.txt
func TestZZ(t *testing.T) {
	b, err := os.ReadFile("/tmp/s13/zz.txt")
	if err != nil {
		t.Skip()
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		p := strings.Split(line, "|")
		r := recallerOver(t, []saidBelief{{p[0], rule(p[1])}})
		res, err := r.Recall(context.Background(), Query{Text: p[2], Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s\n  => %d beliefs %d eps: %s\n", p[2], len(res.Beliefs), len(res.Episodes), Render(res, r.Opts.BudgetChars, r.Opts.MaxChars))
	}
}
