package defaults

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHookUntouched(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	tests := []struct {
		name string
		toml string // "" for no file
		env  []string
		want bool
	}{
		{"no file", "", nil, true},
		{"an LLM endpoint and key", "[llm]\nbase_url = \"http://localhost:11434/v1\"\napi_key = \"sk-x\"\n", []string{"OPENAI_API_KEY=sk-y", "CREDENCE_LLM_MODEL=m"}, true},
		{"a [hook] header with only comments, then another table", "[hook]\n# budget = \"2s\"\n\n[recall]\nbudget_chars = 1500\n", nil, true},
		{"a [hook] key", "[hook]\nbudget = \"2s\"\n", nil, false},
		{"a [hook] key after comments", "[hook]\n# longer\n  budget = \"2s\" # why\n", nil, false},
		{"a dotted hook key", "hook.budget = \"2s\"\n", nil, false},
		{"a quoted hook table", "[ \"hook\" ]\nbudget = \"2s\"\n", nil, false},
		{"an escaped hook table", "[\"\\u0068ook\"]\nbudget = \"2s\"\n", nil, false},
		{"an escaped key", "\"\\u0064ata_dir\" = \"/x\"\n", nil, false},
		{"data_dir", "data_dir = \"/elsewhere\"\n", nil, false},
		{"a literal-quoted log_level", "'log_level' = \"debug\"\n", nil, false},
		{"an inline hook table", "hook = { budget = \"2s\" }\n", nil, false},
		{"the word in a multi-line string (over-approximated)", "[llm]\nmodel = \"\"\"\nhook\n\"\"\"\n", nil, false},
		{"CREDENCE_DATA_DIR", "", []string{"CREDENCE_DATA_DIR=/x"}, false},
		{"CREDENCE_LOG_LEVEL", "", []string{"CREDENCE_LOG_LEVEL=debug"}, false},
		{"CREDENCE_HOOK_BUDGET", "", []string{"CREDENCE_HOOK_BUDGET=2s"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(file)
			if tc.toml != "" {
				if err := os.WriteFile(file, []byte(tc.toml), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got := HookUntouched(tc.env, file, false); got != tc.want {
				t.Errorf("HookUntouched() = %v, want %v", got, tc.want)
			}
		})
	}
	if HookUntouched(nil, filepath.Join(dir, "missing.toml"), true) {
		t.Error("a missing file named explicitly must take the slower way (and its error)")
	}
}
