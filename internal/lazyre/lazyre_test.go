package lazyre

import "testing"

func TestSet(t *testing.T) {
	var s Set
	a := s.New(`a+`)
	b := s.New(`b+`)
	if len(s.All()) != 2 {
		t.Fatalf("All() holds %d expressions, want 2", len(s.All()))
	}
	first := a()
	if first != a() || !first.MatchString("xaa") || b().MatchString("aa") {
		t.Error("New's function must compile once and return the expression asked for")
	}
}
