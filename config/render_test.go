package config

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate the reference in docs/CONFIG.md")

func TestSecretsAreNeverPrinted(t *testing.T) {
	env := map[string]string{
		"CREDENCE_LLM_API_KEY":      "sk-llm-secret-1",
		"CREDENCE_EMBEDDER_API_KEY": "sk-emb-secret-2",
		"CREDENCE_SYNC_URL":         "libsql://db.example.turso.io",
		"CREDENCE_SYNC_TOKEN":       "sync-secret-3",
	}
	cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(env)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	red := cfg.Redacted()
	outputs := map[string]string{
		"String()":            cfg.String(),
		"Redacted().String()": red.String(),
		"%v of Redacted()":    strings.Join([]string{red.LLM.APIKey, red.Embedder.APIKey, red.Sync.Token}, " "),
	}
	for name, out := range outputs {
		for _, secret := range []string{"sk-llm-secret-1", "sk-emb-secret-2", "sync-secret-3"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s contains the secret %q", name, secret)
			}
		}
		if !strings.Contains(out, redactedMark) {
			t.Errorf("%s = %q, want the mask %q", name, out, redactedMark)
		}
	}
	if cfg.LLM.APIKey != "sk-llm-secret-1" {
		t.Errorf("Redacted changed the original: LLM.APIKey = %q", cfg.LLM.APIKey)
	}
	if !strings.Contains(cfg.String(), `url = "libsql://db.example.turso.io"`) {
		t.Errorf("String() masks a non-secret value:\n%s", cfg.String())
	}
}

func TestRedactedLeavesEmptySecretsEmpty(t *testing.T) {
	cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got := cfg.Redacted().LLM.APIKey; got != "" {
		t.Errorf("Redacted().LLM.APIKey = %q, want empty (nothing to hide)", got)
	}
}

func TestStringRoundTrips(t *testing.T) {
	home := t.TempDir()
	cfg, err := Load(LoadOptions{Home: home, Env: EnvMap(nil), Overrides: map[string]string{
		"llm.model": "llama3.1", "consolidation.interval": "90m", "belief.learning_rate": "0.3",
	}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	path := filepath.Join(home, "printed.toml")
	writeFile(t, path, cfg.String())
	again, err := Load(LoadOptions{Home: home, Env: EnvMap(nil), ConfigPath: path})
	if err != nil {
		t.Fatalf("Load of String() output: %v", err)
	}
	if again.String() != cfg.String() {
		t.Errorf("String() does not round-trip:\n%s\nwant\n%s", again.String(), cfg.String())
	}
}

func TestWriteDefault(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".config/credence/config.toml")
	written, err := WriteDefault(path)
	if err != nil || !written {
		t.Fatalf("WriteDefault = %v, %v; want true, nil", written, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("mode = %o, want 600", mode)
	}
	for _, f := range Fields() {
		if !strings.Contains(DefaultFile(), "# "+f.Name+" = ") || !strings.Contains(DefaultFile(), f.Env) {
			t.Errorf("default file lacks %s or %s", f.Key, f.Env)
		}
	}

	cfg, err := Load(LoadOptions{Home: home, Env: EnvMap(nil)})
	if err != nil {
		t.Fatalf("Load of the default file: %v", err)
	}
	if got := cfg.Source("llm.model"); got != "default" {
		t.Errorf("Source(llm.model) = %q after loading the commented file, want default", got)
	}

	writeFile(t, path, "log_level = \"debug\"\n")
	written, err = WriteDefault(path)
	if err != nil || written {
		t.Errorf("WriteDefault over an existing file = %v, %v; want false, nil", written, err)
	}
	if data, _ := os.ReadFile(path); string(data) != "log_level = \"debug\"\n" {
		t.Errorf("WriteDefault overwrote the existing file: %q", data)
	}
}

// TestDefaultFileUncommentedEqualsDefaults uncomments every key of the
// default file: the values shown must be the real defaults.
func TestDefaultFileUncommentedEqualsDefaults(t *testing.T) {
	home := t.TempDir()
	keyLine := regexp.MustCompile(`(?m)^# ([a-z0-9_]+ = .*)$`)
	uncommented := keyLine.ReplaceAllString(DefaultFile(), "$1")
	path := filepath.Join(home, "config.toml")
	writeFile(t, path, uncommented)
	cfg, err := Load(LoadOptions{Home: home, Env: EnvMap(nil), ConfigPath: path})
	if err != nil {
		t.Fatalf("Load of the uncommented default file: %v\n%s", err, uncommented)
	}
	base, err := Load(LoadOptions{Home: home, Env: EnvMap(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.String() != base.String() {
		t.Errorf("uncommented default file gives\n%s\nwant\n%s", cfg.String(), base.String())
	}
	if got := cfg.Source("belief.learning_rate"); got != path {
		t.Errorf("Source(belief.learning_rate) = %q, want the file (the key was not uncommented?)", got)
	}
}

func TestConfigDocIsUpToDate(t *testing.T) {
	path := filepath.Join("..", "docs", "CONFIG.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	doc := string(data)
	begin := strings.Index(doc, ReferenceBegin)
	end := strings.Index(doc, ReferenceEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s lacks the markers %q and %q", path, ReferenceBegin, ReferenceEnd)
	}
	want := doc[:begin+len(ReferenceBegin)] + "\n" + ReferenceMarkdown() + "\n" + doc[end:]
	if doc == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the Config struct; run `go test ./config -update`", path)
}

func TestFieldsAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Fields() {
		if f.Doc == "" {
			t.Errorf("%s has no doc tag", f.Key)
		}
		if seen[f.Env] {
			t.Errorf("environment name %s is used twice", f.Env)
		}
		seen[f.Env] = true
		if !strings.HasPrefix(f.Env, "CREDENCE_") || strings.ToUpper(f.Env) != f.Env {
			t.Errorf("%s has environment name %q", f.Key, f.Env)
		}
	}
	for _, want := range []string{"CREDENCE_LLM_MODEL", "CREDENCE_EMBEDDER_KIND", "CREDENCE_DATA_DIR", "CREDENCE_SYNC_URL", "CREDENCE_SYNC_TOKEN", "CREDENCE_RECALL_WEIGHT_BM25"} {
		if !seen[want] {
			t.Errorf("no field reads %s", want)
		}
	}
}
