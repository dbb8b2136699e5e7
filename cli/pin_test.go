package cli

import (
	"testing"
)

func TestPinUnpin(t *testing.T) {
	h := newCmdHarness(t)
	var r struct{ Beliefs []struct{ ID string } }
	h.json(&r, "remember", "I prefer tabs over spaces")
	id := r.Beliefs[0].ID
	type marked struct {
		ID      string
		Pinned  bool
		Changed bool
	}
	steps := []struct {
		name        string
		cmd         string
		wantPinned  bool
		wantChanged bool
	}{
		{"pin", "pin", true, true},
		{"pin again changes nothing", "pin", true, false},
		{"unpin", "unpin", false, true},
		{"unpin again changes nothing", "unpin", false, false},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			var out []marked
			h.json(&out, st.cmd, id)
			if len(out) != 1 || out[0].Pinned != st.wantPinned || out[0].Changed != st.wantChanged {
				t.Fatalf("%s = %+v, want pinned %v changed %v", st.cmd, out, st.wantPinned, st.wantChanged)
			}
			b, err := h.db().Belief(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if b.Pinned != st.wantPinned {
				t.Errorf("stored pinned = %v, want %v", b.Pinned, st.wantPinned)
			}
		})
	}
	events, err := h.db().Events(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(events); n != 4 { // create, reinforce, pin, unpin
		t.Errorf("%d events, want 4: a no-op pin must not append one", n)
	}
	if code, _, _ := h.run("pin", "bl_01ZZZZZZZZZZZZZZZZZZZZZZZZ"); code != 1 {
		t.Errorf("pin of an unknown belief: exit %d, want 1", code)
	}
}
