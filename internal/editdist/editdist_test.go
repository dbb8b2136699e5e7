package editdist

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"recal", "recall", 1},
		{"stauts", "status", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"ça", "ca", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q)=%d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
