package wordvec

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"regexp"
	"testing"
)

func defaultTable(t testing.TB) *Table {
	t.Helper()
	table, err := Default()
	if err != nil {
		t.Fatalf("Default(): %v", err)
	}
	return table
}

// TestNoticeNamesTheTable ties NOTICE to the committed bytes: a table
// rebuilt with other settings must come with a NOTICE that says so.
func TestNoticeNamesTheTable(t *testing.T) {
	notice, err := os.ReadFile("NOTICE")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(glove))
	want := hex.EncodeToString(sum[:])
	if !regexp.MustCompile(`(?m)^` + want + `$`).Match(notice) {
		t.Errorf("NOTICE does not give glove.bin's sha256 %s: update it after running scripts/wordvec.sh", want)
	}
	table := defaultTable(t)
	if table.Len() < 50000 || table.Dim() != 100 {
		t.Errorf("table has %d words of %d dimensions, want at least 50000 of 100", table.Len(), table.Dim())
	}
}

// TestFindEveryWord looks every word up by its spelling: the sorted index
// is a permutation in byte order and finds each entry.
func TestFindEveryWord(t *testing.T) {
	table := defaultTable(t)
	prev := ""
	for k := range table.Len() {
		e := int(table.u32(table.sorted + 4*k))
		w := table.Word(e)
		if k > 0 && w <= prev {
			t.Fatalf("sorted index out of order at %d: %q after %q", k, w, prev)
		}
		prev = w
		if got, ok := table.Find(w); !ok || got != e {
			t.Fatalf("Find(%q)=%d,%v, want %d,true", w, got, ok, e)
		}
	}
	for _, w := range []string{"", "pnpm", "zzzzzz", "The", "don't"} {
		if i, ok := table.Find(w); ok {
			t.Errorf("Find(%q)=%d,true, want not found", w, i)
		}
	}
	if i, ok := table.Find("the"); !ok || table.Rank(i) != 0 {
		t.Errorf(`Find("the") rank %d, %v; want rank 0`, table.Rank(i), ok)
	}
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// TestVectorsMeanSomething checks the decoded vectors on word pairs any
// English speaker would rank: near words closer than unrelated ones.
func TestVectorsMeanSomething(t *testing.T) {
	table := defaultTable(t)
	vec := func(w string) []float32 {
		i, ok := table.Find(w)
		if !ok {
			t.Fatalf("Find(%q): not in the table", w)
		}
		v := make([]float32, table.Dim())
		table.AddTo(v, i, 1)
		return v
	}
	for _, c := range []struct{ a, near, far string }{
		{"live", "reside", "keyboard"},
		{"manager", "boss", "banana"},
		{"cat", "dog", "invoice"},
		{"database", "server", "grandmother"},
	} {
		near, far := cosine(vec(c.a), vec(c.near)), cosine(vec(c.a), vec(c.far))
		if near <= far+0.2 {
			t.Errorf("cos(%s,%s)=%.2f, cos(%s,%s)=%.2f: want the first well above", c.a, c.near, near, c.a, c.far, far)
		}
	}
}

func TestParseRejectsCorrupt(t *testing.T) {
	good := glove
	cases := map[string]string{
		"empty":       "",
		"no magic":    "xxxxxxxx" + good[8:],
		"truncated":   good[:len(good)-1],
		"too long":    good + "x",
		"header only": good[:headerSize],
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(data); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Parse()=%v, want ErrCorrupt", err)
			}
		})
	}
}

// BenchmarkFind times one lookup of a word the table has.
func BenchmarkFind(b *testing.B) {
	table := defaultTable(b)
	for b.Loop() {
		table.Find("reside")
	}
}
