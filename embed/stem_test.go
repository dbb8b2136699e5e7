package embed

import "testing"

func TestStem(t *testing.T) {
	tests := []struct {
		name  string
		forms []string
	}{
		{"use", []string{"use", "uses", "used", "using"}},
		{"prefer", []string{"prefer", "prefers", "preferred", "preferring"}},
		{"test", []string{"test", "tests", "tested", "testing"}},
		{"migrate", []string{"migrate", "migrates", "migrated", "migrating", "migration", "migrations"}},
		{"validate", []string{"validate", "validation", "validated"}},
		{"deploy", []string{"deploy", "deploys", "deployed", "deploying", "deployment", "deployments"}},
		{"dependency", []string{"dependency", "dependencies"}},
		{"fix", []string{"fix", "fixes", "fixed", "fixing"}},
		{"run", []string{"run", "runs", "running"}},
		{"add", []string{"add", "adds", "added", "adding"}},
		{"commit", []string{"commit", "commits", "committed", "committing"}},
		{"cache", []string{"cache", "caches", "cached", "caching"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := stem(tt.forms[0])
			for _, f := range tt.forms[1:] {
				if got := stem(f); got != want {
					t.Errorf("stem(%q)=%q, want %q (the stem of %q)", f, got, want, tt.forms[0])
				}
			}
		})
	}
}

func TestStemLeavesWordsAlone(t *testing.T) {
	for _, w := range []string{"string", "thing", "status", "class", "analysis", "js", "ts", "go", "pnpm", "bun", "über"} {
		t.Run(w, func(t *testing.T) {
			if got := stem(w); got != w {
				t.Errorf("stem(%q)=%q, want it unchanged", w, got)
			}
		})
	}
}
