package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credence-mem/credence/config/defaults"
)

// TestFallbackEnvMatchesFields: the static lists the defaults-only load
// relies on (fallback variables, table names) are the ones the fields use.
func TestFallbackEnvMatchesFields(t *testing.T) {
	tests := []struct {
		name  string
		of    func(Field) string
		lists []string
	}{
		{"defaults.FallbackEnv", func(f Field) string { return f.Fallback }, defaults.FallbackEnv},
		{"defaults.Sections", func(f Field) string { return f.Section }, defaults.Sections},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Fields() {
				if v := tt.of(f); v != "" && !slices.Contains(got, v) {
					got = append(got, v)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tt.lists))
			if !slices.Equal(got, want) {
				t.Errorf("the fields use %v; %s lists %v", got, tt.name, want)
			}
		})
	}
}

// clearCredenceEnv unsets every CREDENCE_ variable for the test.
func clearCredenceEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, envPrefix) {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	for _, name := range defaults.FallbackEnv {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
}

// TestDefaultsOnlyMatchesLayeredLoad: when nothing can change the defaults
// (no config file or the one `credence config init` writes, no CREDENCE_
// or fallback variable, no overrides) Load skips the layered load, and
// what it returns is exactly what the layered load gives; anything that
// sets a value takes the layered load.
func TestDefaultsOnlyMatchesLayeredLoad(t *testing.T) {
	clearCredenceEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	file := filepath.Join(home, ".config", "credence", "config.toml")
	check := func(name string, wantFast bool) {
		t.Helper()
		_, fast := defaultsOnly(LoadOptions{}, os.Getenv, home, file, false)
		if fast != wantFast {
			t.Errorf("%s: defaults only %v, want %v", name, fast, wantFast)
		}
		got, err := Load(LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := Load(LoadOptions{Env: os.Getenv}) // an Env func always takes the layered load
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Load gave\n%+v\nthe layered load\n%+v", name, got, want)
		}
	}
	check("no file", true)
	if _, err := WriteDefault(file); err != nil {
		t.Fatal(err)
	}
	check("default file", true)

	t.Setenv("CREDENCE_HOOK_BUDGET", "3s")
	check("a CREDENCE_ variable", false)
	if c, _ := Load(LoadOptions{}); c.Hook.Budget != 3*time.Second {
		t.Errorf("CREDENCE_HOOK_BUDGET ignored: %v", c.Hook.Budget)
	}
	os.Unsetenv("CREDENCE_HOOK_BUDGET")

	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	check("a fallback variable", false)
	os.Unsetenv("OPENAI_BASE_URL")

	if err := os.WriteFile(file, []byte("# tuned\n[hook]\nbudget = \"2s\" # longer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check("a file that sets a key", false)
	if err := os.WriteFile(file, []byte("[hook]\n[typo]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, fast := defaultsOnly(LoadOptions{}, os.Getenv, home, file, false); fast {
		t.Error("an unknown table must take the layered load")
	}
	if _, err := Load(LoadOptions{}); err == nil || !strings.Contains(err.Error(), "typo") {
		t.Errorf("Load with an unknown table: %v, want it named", err)
	}
	if err := os.WriteFile(file, []byte("# tuned\n[hook]\nbudget = \"2s\" # longer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, _ := Load(LoadOptions{}); c.Hook.Budget != 2*time.Second {
		t.Errorf("the file's hook.budget ignored: %v", c.Hook.Budget)
	}
	if _, fast := defaultsOnly(LoadOptions{Overrides: map[string]string{"hook.budget": "1s"}}, os.Getenv, home, file, false); fast {
		t.Error("overrides must take the layered load")
	}
	if _, fast := defaultsOnly(LoadOptions{}, os.Getenv, home, filepath.Join(home, "missing.toml"), true); fast {
		t.Error("a missing file named explicitly must take the layered load (and its error)")
	}
}

// TestHookSettingsCovered: the settings credence-hook's front reads itself
// (data_dir, log_level, [hook]) are exactly those whose variable
// defaults.HookEnv flags, and a config file setting any of them, in
// either TOML form, is never taken for one that leaves them alone; a file
// setting any other key is.
func TestHookSettingsCovered(t *testing.T) {
	clearCredenceEnv(t)
	file := filepath.Join(t.TempDir(), "config.toml")
	def := Default()
	def.DataDir = "/data"
	for _, f := range Fields() {
		front := f.Key == "data_dir" || f.Key == "log_level" || f.Section == "hook"
		if got := defaults.HookEnv(f.Env); got != front {
			t.Errorf("%s: defaults.HookEnv(%s) = %v, want %v", f.Key, f.Env, got, front)
		}
		value := f.tomlValue(&def)
		forms := []string{f.Key + " = " + value + "\n"}
		if f.Section != "" {
			forms = append(forms, "[ "+f.Section+" ]\n# a comment\n"+f.Name+" = "+value+"\n")
		}
		for _, form := range forms {
			if err := os.WriteFile(file, []byte(form), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := defaults.HookUntouched(nil, file, false); got == front {
				t.Errorf("%q: defaults.HookUntouched = %v, want %v", form, got, !front)
			}
		}
	}
	os.Remove(file)
	if written, err := WriteDefault(file); err != nil || !written {
		t.Fatal(written, err)
	}
	if !defaults.HookUntouched(nil, file, false) {
		t.Error("the file `config init` writes sends the hooks the slower way")
	}
}
