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

// TestFindEveryWord looks every word up by its spelling.
func TestFindEveryWord(t *testing.T) {
	table := defaultTable(t)
	for e := range table.Len() {
		w := table.Word(e)
		if got, ok := table.Find(w); !ok || got != e {
			t.Fatalf("Find(%q)=%d,%v, want %d,true", w, got, ok, e)
		}
		if e > 0 && table.Rank(e) <= table.Rank(e-1) {
			t.Fatalf("entry %d (%q) has rank %d after %d: want the source's order", e, w, table.Rank(e), table.Rank(e-1))
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

// TestEncodeRoundTrip writes a small table and reads it back: words,
// ranks, and vectors within one quantization step.
func TestEncodeRoundTrip(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "délta", "e"}
	ranks := []uint32{3, 10, 11, 400, 9000}
	vecs := [][]float64{{1, -2, 0.5, 0}, {0, 0, 0, 0}, {-0.25, 0.125, 3, -3}, {1e-3, 2e-3, -1e-3, 0}, {127, -127, 1, 0.5}}
	data, err := Encode(words, ranks, vecs, 1)
	if err != nil {
		t.Fatal(err)
	}
	table, err := Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if table.Len() != len(words) || table.Dim() != 4 {
		t.Fatalf("Len()=%d Dim()=%d, want %d and 4", table.Len(), table.Dim(), len(words))
	}
	for i, w := range words {
		e, ok := table.Find(w)
		if !ok || e != i || table.Word(e) != w || table.Rank(e) != int(ranks[i]) {
			t.Fatalf("Find(%q)=%d,%v word %q rank %d; want %d, rank %d", w, e, ok, table.Word(e), table.Rank(e), i, ranks[i])
		}
		got := make([]float32, 4)
		table.AddTo(got, e, 1)
		maxAbs := 0.0
		for _, x := range vecs[i] {
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
		for d, x := range vecs[i] {
			if math.Abs(float64(got[d])-x) > maxAbs/127/2+1e-6 {
				t.Errorf("%s[%d]=%v, want %v within half a step", w, d, got[d], x)
			}
		}
	}
	if _, ok := table.Find("omega"); ok {
		t.Error(`Find("omega") found a word the table lacks`)
	}
	for name, bad := range map[string]func() ([]byte, error){
		"duplicate": func() ([]byte, error) {
			return Encode([]string{"a", "a"}, []uint32{0, 1}, [][]float64{{0, 0, 0, 0}, {0, 0, 0, 0}}, 0)
		},
		"dimension": func() ([]byte, error) { return Encode([]string{"a"}, []uint32{0}, [][]float64{{0, 0, 0}}, 0) },
		"empty":     func() ([]byte, error) { return Encode(nil, nil, nil, 0) },
	} {
		if _, err := bad(); err == nil {
			t.Errorf("Encode(%s): nil error", name)
		}
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
