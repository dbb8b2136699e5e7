package store

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// TestPackedRoundTrip: what SQLite packs, the unpacker reads back exactly:
// text with the separators in it, empty and NULL text, extreme integers, and
// doubles to the last bit.
func TestPackedRoundTrip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	expr := packExpr(packField{packText, "?1"}, packField{packInt, "?2"}, packField{packReal, "?3"}, packField{packText, "?4"})
	q := packedQuery(`SELECT ` + expr + ` AS p`)
	texts := []string{"", "plain", "12:not a length", "a;b;c", "line\nbreak", "é 漢字 🙂", "%s %d %%"}
	ints := []int64{0, -1, 42, math.MaxInt64, math.MinInt64}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		text, n := texts[i%len(texts)], ints[i%len(ints)]
		var x float64
		switch i % 4 {
		case 0:
			x = r.Float64()
		case 1:
			x = r.NormFloat64() * 1e6
		case 2:
			x = math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(0x7fe)+1)<<52) // any finite double
		default:
			x = float64(r.IntN(100)) + 0.1
		}
		var packed []byte
		if err := db.sql.QueryRowContext(ctx, q, text, n, x, nil).Scan(&packed); err != nil {
			t.Fatal(err)
		}
		u := unpacker{b: packed}
		gotText, gotN, gotX, gotNull := u.text(), u.int(), u.real(), u.text()
		if u.err != nil || u.more() || gotText != text || gotN != n || math.Float64bits(gotX) != math.Float64bits(x) || gotNull != "" {
			t.Fatalf("%q, %d, %v (%x): read %q, %d, %v (%x), %q, err %v, left %q", text, n, x, math.Float64bits(x),
				gotText, gotN, gotX, math.Float64bits(gotX), gotNull, u.err, u.b)
		}
	}
}

func TestUnpackerRefuses(t *testing.T) {
	for _, b := range []string{"5:abc", "x:abc", "-1:", "3", "12", "1.5x;"} {
		u := unpacker{b: []byte(b)}
		u.text()
		u.int()
		u.real()
		if u.err == nil {
			t.Errorf("%q: no error", b)
		}
	}
}

// TestRecallBeliefsMatchesBelief: the packed read fills recall's fields as
// the full read does.
func TestRecallBeliefsMatchesBelief(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	var ids []string
	for i, st := range []string{"uses pnpm; not npm", "deploys: fly.io", "likes 12:30 lunches"} {
		id := mustCreate(t, db, belief.Spec{Statement: st, Subject: "project", Predicate: "p" + st[:2], Object: "o", Kind: "fact"})
		for j := 0; j <= i; j++ {
			addEv(t, db, id, belief.Supports, 0.29*float64(j+1))
		}
		ids = append(ids, id)
	}
	got, err := db.RecallBeliefs(ctx, append(ids, "bl_missing"))
	if err != nil || len(got) != len(ids) {
		t.Fatalf("RecallBeliefs: %d, %v", len(got), err)
	}
	for _, g := range got {
		w, err := db.Belief(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Statement != w.Statement || g.Subject != w.Subject || g.Predicate != w.Predicate || g.Kind != w.Kind ||
			g.Scope != w.Scope || g.ProjectPath != w.ProjectPath || g.Status != w.Status || g.Alpha != w.Alpha || g.Beta != w.Beta ||
			g.CountsAt != w.CountsAt || g.EvidenceCount != w.EvidenceCount || g.CreatedAt != w.CreatedAt ||
			g.UpdatedAt != w.UpdatedAt || g.Stability != w.Stability || g.LastAccessedAt != w.LastAccessedAt || g.Seq != w.Seq {
			t.Errorf("packed %+v\nfull   %+v", g, w)
		}
	}
}
