package embed

import (
	"fmt"
	"math"
	"testing"
)

func TestPortableLn(t *testing.T) {
	for _, x := range []float64{1, 1.5, 2, 3, 10, 100, 1000, 65536, 1e9} {
		t.Run(fmt.Sprint(x), func(t *testing.T) {
			got, want := portableLn(x), math.Log(x)
			if math.Abs(got-want) > 1e-14*math.Max(1, want) {
				t.Errorf("portableLn(%v)=%v, want %v", x, got, want)
			}
		})
	}
}

func TestFeatureBagCountsAndGrows(t *testing.T) {
	b := newFeatureBag(2)
	for i := uint64(1); i <= 1000; i++ {
		b.add(i*0x9e3779b97f4a7c15, 1)
	}
	b.add(1*0x9e3779b97f4a7c15, 0.5)
	b.add(0, 1) // 0 is the empty marker; it must still be counted
	if b.len() != 1001 {
		t.Fatalf("len()=%d, want 1001 distinct features", b.len())
	}
	for _, i := range b.used {
		s := b.slots[i]
		if s.key == 0x9e3779b97f4a7c15 && (s.count != 2 || s.weight != 1) {
			t.Errorf("repeated feature count=%d weight=%v, want 2 and the larger weight 1", s.count, s.weight)
		}
	}
	b.reset()
	if b.len() != 0 {
		t.Errorf("len() after reset=%d, want 0", b.len())
	}
	for _, s := range b.slots {
		if s.key != 0 {
			t.Fatal("reset left an occupied slot")
		}
	}
}
