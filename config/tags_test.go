package config

import (
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// tagKeys are the keys parseFieldTags reads, with where each lands.
var tagKeys = []struct {
	key string
	get func(fieldTags) string
}{
	{"toml", func(t fieldTags) string { return t.toml }},
	{"doc", func(t fieldTags) string { return t.doc }},
	{"oneof", func(t fieldTags) string { return t.oneof }},
	{"secret", func(t fieldTags) string { return t.secret }},
	{"fallback", func(t fieldTags) string { return t.fallback }},
	{"path", func(t fieldTags) string { return t.path }},
	{"def", func(t fieldTags) string { return t.def }},
}

// checkTagsMatchGet fails unless parseFieldTags(tag) reads every key as
// reflect.StructTag.Get does.
func checkTagsMatchGet(t *testing.T, tag reflect.StructTag) {
	t.Helper()
	got := parseFieldTags(tag)
	for _, k := range tagKeys {
		if g, want := k.get(got), tag.Get(k.key); g != want {
			t.Errorf("parseFieldTags(%q).%s=%q, want %q", tag, k.key, g, want)
		}
	}
}

func TestParseFieldTagsMatchesGet(t *testing.T) {
	tests := []struct {
		name string
		tag  reflect.StructTag
	}{
		{"empty", ``},
		{"all keys", `toml:"model" doc:"The model." oneof:"a,b" secret:"true" fallback:"OPENAI_MODEL" path:"true" def:"derived"`},
		{"first of a repeated key wins", `toml:"first" toml:"second" doc:"" doc:"later"`},
		{"escaped quote in a value", `doc:"say \"hi\" twice" toml:"x"`},
		{"value that does not unquote", `doc:"bad \q escape" toml:"after"`},
		{"malformed stops parsing", `toml:"x" doc:unquoted path:"true"`},
		{"unterminated value", `toml:"x" doc:"never closed`},
		{"extra spaces", `   toml:"x"    doc:"spaced"  `},
		{"unknown keys skipped", `json:"j" toml:"x" yaml:"y" doc:"d"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkTagsMatchGet(t, tt.tag)
		})
	}
}

func TestParseFieldTagsMatchesGetOnConfig(t *testing.T) {
	root := reflect.TypeFor[Config]()
	for i := range root.NumField() {
		sf := root.Field(i)
		t.Run(sf.Name, func(t *testing.T) {
			checkTagsMatchGet(t, sf.Tag)
			if sf.Type.Kind() == reflect.Struct && sf.Type != durationType {
				for j := range sf.Type.NumField() {
					checkTagsMatchGet(t, sf.Type.Field(j).Tag)
				}
			}
		})
	}
}

func TestFieldEnvNames(t *testing.T) {
	tests := []struct {
		key, env string
	}{
		{"data_dir", "CREDENCE_DATA_DIR"},
		{"log_level", "CREDENCE_LOG_LEVEL"},
		{"llm.model", "CREDENCE_LLM_MODEL"},
		{"belief.learning_rate", "CREDENCE_BELIEF_LEARNING_RATE"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			f, ok := lookupField(tt.key)
			if !ok {
				t.Fatalf("lookupField(%q) found nothing", tt.key)
			}
			if f.Env != tt.env {
				t.Errorf("lookupField(%q).Env=%q, want %q", tt.key, f.Env, tt.env)
			}
		})
	}
}

// freshProcessEnv marks the child process TestConcurrentFirstUse starts, in
// which the field table has not been built yet.
const freshProcessEnv = "CREDENCE_CONFIG_FRESH_PROCESS"

// TestConcurrentFirstUse reads the field table from several goroutines at
// once in a fresh test process, so the first calls race to build it; under
// -race any unsafe first use fails the child.
func TestConcurrentFirstUse(t *testing.T) {
	if os.Getenv(freshProcessEnv) == "1" {
		const workers = 8
		got := make([][]Field, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				if _, ok := lookupField("llm.model"); !ok {
					t.Error(`lookupField("llm.model") found nothing`)
				}
				got[w] = Fields()
			})
		}
		wg.Wait()
		for w := range workers {
			if len(got[w]) == 0 || &got[w][0] != &Fields()[0] {
				t.Fatalf("worker %d saw a different field table", w)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentFirstUse$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), freshProcessEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fresh process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestConcurrentFirstUse") {
		t.Fatalf("fresh process did not run the test:\n%s", out)
	}
}

// BenchmarkBuildFields measures what the first Load or Fields call in a
// process pays to read Config's struct tags.
func BenchmarkBuildFields(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		buildFields()
	}
}
