package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestUnknownCommand: a mistyped command gets a short error with the
// likeliest command and a pointer to help, exit 2, and not the whole help.
func TestUnknownCommand(t *testing.T) {
	tests := []struct {
		typed, suggest string
	}{
		{"recal", "recall"},
		{"stauts", "status"},
		{"Remember", "remember"},
		{"consolodate", "consolidate"},
		{"neighbourhood", "neighborhood"},
		{"unistall", "uninstall"},
		{"belief", "beliefs"},
		{"xyzzy", ""},
		{"--verbose", ""},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			h := newCmdHarness(t)
			code, out, errs := h.run(tt.typed)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing on stdout", code, out)
			}
			want := "credence: unknown command \"" + tt.typed + "\""
			if tt.suggest != "" {
				want += "; did you mean \"" + tt.suggest + "\"?"
			}
			want += "\nRun 'credence help' for the list of commands.\n"
			if errs != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", errs, want)
			}
		})
	}
}

// TestVersion: version and --version print the same report.
func TestVersion(t *testing.T) {
	h := newCmdHarness(t)
	out := h.ok("version")
	if alias := h.ok("--version"); alias != out {
		t.Errorf("--version printed %q, version %q", alias, out)
	}
	for _, want := range []string{"credence ", "\ngo      go1.", "\nschema  "} {
		if !strings.Contains(out, want) {
			t.Errorf("version printed:\n%s\nwant %q in it", out, want)
		}
	}
	var v versionInfo
	h.json(&v, "version")
	if v.Schema < 1 || !strings.HasPrefix(v.Go, "go1.") {
		t.Errorf("version --json = %+v", v)
	}
}

// TestReadVersion: the commit, its time and the dirty flag come from the
// build's version control settings.
func TestReadVersion(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	v := readVersion(bi)
	if v.Version != "v1.2.3" || v.Commit != "0123456789abcdef0123456789abcdef01234567" || v.CommitTime != "2026-01-02T03:04:05Z" ||
		!v.Modified || v.Go != "go1.99.1" {
		t.Errorf("readVersion()=%+v", v)
	}
	if v := readVersion(nil); v.Version != "unknown" || v.Commit != "" || !strings.HasPrefix(v.Go, "go1.") {
		t.Errorf("readVersion(nil)=%+v", v)
	}
}
