package store

import (
	"database/sql"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLiteralsAreExact writes values as literals through the engine and
// reads them back bit for bit.
func TestLiteralsAreExact(t *testing.T) {
	db, err := sql.Open("libsql", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	floats := []float64{0.1, 0.2, 1.0 / 3, -1, 1, 0.5, 0.7734123456789012, math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64 * 3, math.MaxFloat64, 1e300, 1 << 60, -(1 << 53) - 2, 2.5e-310, 123456789.125}
	for i := 0; i < 2000; i++ {
		floats = append(floats, math.Float64frombits(rng.Uint64()), rng.Float64()*2-1, rng.NormFloat64()*1e6)
	}
	for _, f := range floats {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		lit := string(appendReal(nil, f))
		var got float64
		if err := db.QueryRow("SELECT " + lit).Scan(&got); err != nil {
			t.Fatalf("SELECT %s: %v", lit, err)
		}
		if math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("%s read back as %v, want %v", lit, got, f)
		}
	}
	texts := []string{"", "it's", "''", "a'b'c'", "2026-01-02", "ünïcødé ✓", "line\nbreak", "back\\slash", "nul\x00here", "bad\xffutf8"}
	for _, s := range texts {
		lit := string(AppendSQLText(nil, s))
		var got []byte
		if err := db.QueryRow("SELECT CAST('.' || " + lit + " AS BLOB)").Scan(&got); err != nil {
			t.Fatalf("SELECT %s: %v", lit, err)
		}
		want := strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\u2400")
		if string(got[1:]) != want {
			t.Errorf("%q read back as %q, want %q", s, got[1:], want)
		}
	}
	for _, n := range []int64{0, -1, math.MaxInt64, math.MinInt64} {
		var got int64
		if err := db.QueryRow("SELECT " + string(AppendSQLLiteral(nil, n))).Scan(&got); err != nil || got != n {
			t.Errorf("%d read back as %d, %v", n, got, err)
		}
	}
}
