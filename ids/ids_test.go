package ids

import (
	"sort"
	"testing"
	"time"
)

func TestNewSortsByTime(t *testing.T) {
	var got []string
	for i := 0; i < 1000; i++ {
		got = append(got, New(Belief))
	}
	if !sort.StringsAreSorted(got) {
		t.Fatal("IDs made in sequence are not sorted")
	}
	for _, id := range got[:3] {
		if !Valid(Belief, id) {
			t.Errorf("Valid(%q)=false", id)
		}
		if Valid(Episode, id) {
			t.Errorf("Valid(ep_, %q)=true", id)
		}
	}
	if Valid(Belief, "bl_notaulid") {
		t.Error("Valid accepted a malformed ULID")
	}
}

func TestShort(t *testing.T) {
	id := NewAt(Belief, time.UnixMilli(1700000000000))
	if got := Short(id); got != id[:13]+"…" {
		t.Errorf("Short(%q)=%q", id, got)
	}
	if got := Short("x"); got != "x" {
		t.Errorf("Short(x)=%q", got)
	}
}

func TestHLC(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	tests := []struct {
		name string
		last HLC
		now  time.Time
		want HLC
	}{
		{"wall moves ahead", MakeHLC(t0.UnixMilli()-5, 3), t0, MakeHLC(t0.UnixMilli(), 0)},
		{"same millisecond", MakeHLC(t0.UnixMilli(), 3), t0, MakeHLC(t0.UnixMilli(), 4)},
		{"clock went back", MakeHLC(t0.UnixMilli()+1000, 7), t0, MakeHLC(t0.UnixMilli()+1000, 8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tick(tt.last, tt.now); got != tt.want {
				t.Errorf("Tick()=%v, want %v", got, tt.want)
			}
		})
	}
	remote := MakeHLC(t0.UnixMilli()+60_000, 2)
	if got := Receive(MakeHLC(t0.UnixMilli(), 0), remote, t0); got <= remote {
		t.Errorf("Receive()=%v, want > %v", got, remote)
	}
	h := MakeHLC(123456, 9)
	if h.Millis() != 123456 || h.Logical() != 9 {
		t.Errorf("MakeHLC round trip: %v", h)
	}
}
