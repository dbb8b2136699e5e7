package plural

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		n    int
		noun string
		want string
	}{
		{1, "file", "1 file"},
		{0, "file", "0 files"},
		{2, "exchange", "2 exchanges"},
		{1, "exchange", "1 exchange"},
		{3, "query", "3 queries"},
		{3, "day", "3 days"},
		{2, "match", "2 matches"},
		{2, "box", "2 boxes"},
		{2, "status", "2 statuses"},
		{2, "MEMORY.md file", "2 MEMORY.md files"},
		{1, "MEMORY.md file", "1 MEMORY.md file"},
		{1, "person|people", "1 person"},
		{4, "person|people", "4 people"},
		{-1, "row", "-1 rows"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := Count(tt.n, tt.noun); got != tt.want {
				t.Errorf("Count(%d, %q)=%q, want %q", tt.n, tt.noun, got, tt.want)
			}
		})
	}
}
