package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile creates path with content, making its directory.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadPrecedence(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		env       map[string]string
		overrides map[string]string
		get       func(*Config) any
		key       string
		want      any
		source    string // "" means the config file's path
	}{
		{
			name: "default", key: "llm.model",
			get: func(c *Config) any { return c.LLM.Model }, want: "gpt-4.1-mini", source: "default",
		},
		{
			name: "file beats default", key: "llm.model",
			file: "[llm]\nmodel = \"llama3.1\"\n",
			get:  func(c *Config) any { return c.LLM.Model }, want: "llama3.1",
		},
		{
			name: "env beats file", key: "llm.model",
			file: "[llm]\nmodel = \"llama3.1\"\n",
			env:  map[string]string{"CREDENCE_LLM_MODEL": "qwen2.5"},
			get:  func(c *Config) any { return c.LLM.Model }, want: "qwen2.5", source: "env CREDENCE_LLM_MODEL",
		},
		{
			name: "override beats env", key: "llm.model",
			file:      "[llm]\nmodel = \"llama3.1\"\n",
			env:       map[string]string{"CREDENCE_LLM_MODEL": "qwen2.5"},
			overrides: map[string]string{"llm.model": "gpt-4.1"},
			get:       func(c *Config) any { return c.LLM.Model }, want: "gpt-4.1", source: "override",
		},
		{
			name: "top-level env name", key: "log_level",
			env: map[string]string{"CREDENCE_LOG_LEVEL": "debug"},
			get: func(c *Config) any { return c.LogLevel }, want: "debug", source: "env CREDENCE_LOG_LEVEL",
		},
		{
			name: "OPENAI_API_KEY fills the llm key", key: "llm.api_key",
			env: map[string]string{"OPENAI_API_KEY": "sk-generic"},
			get: func(c *Config) any { return c.LLM.APIKey }, want: "sk-generic", source: "env OPENAI_API_KEY",
		},
		{
			name: "OPENAI_API_KEY fills the embedder key", key: "embedder.api_key",
			env: map[string]string{"OPENAI_API_KEY": "sk-generic"},
			get: func(c *Config) any { return c.Embedder.APIKey }, want: "sk-generic", source: "env OPENAI_API_KEY",
		},
		{
			name: "file beats OPENAI_BASE_URL", key: "llm.base_url",
			file: "[llm]\nbase_url = \"http://localhost:11434/v1\"\n",
			env:  map[string]string{"OPENAI_BASE_URL": "https://proxy.example/v1"},
			get:  func(c *Config) any { return c.LLM.BaseURL }, want: "http://localhost:11434/v1",
		},
		{
			name: "CREDENCE key beats OPENAI_API_KEY", key: "llm.api_key",
			env: map[string]string{"OPENAI_API_KEY": "sk-generic", "CREDENCE_LLM_API_KEY": "sk-credence"},
			get: func(c *Config) any { return c.LLM.APIKey }, want: "sk-credence", source: "env CREDENCE_LLM_API_KEY",
		},
		{
			name: "duration from file", key: "consolidation.interval",
			file: "[consolidation]\ninterval = \"90m\"\n",
			get:  func(c *Config) any { return c.Consolidation.Interval }, want: 90 * time.Minute,
		},
		{
			name: "duration from env", key: "hook.budget",
			env: map[string]string{"CREDENCE_HOOK_BUDGET": "750ms"},
			get: func(c *Config) any { return c.Hook.Budget }, want: 750 * time.Millisecond, source: "env CREDENCE_HOOK_BUDGET",
		},
		{
			name: "integer float in file", key: "belief.learning_rate",
			file: "[belief]\nlearning_rate = 2\n",
			get:  func(c *Config) any { return c.Belief.LearningRate }, want: 2.0,
		},
		{
			name: "float from override", key: "recall.min_confidence",
			overrides: map[string]string{"recall.min_confidence": "0.65"},
			get:       func(c *Config) any { return c.Recall.MinConfidence }, want: 0.65, source: "override",
		},
		{
			name: "sync url and token from env", key: "sync.token",
			env: map[string]string{"CREDENCE_SYNC_URL": "libsql://db.example.turso.io", "CREDENCE_SYNC_TOKEN": "tok"},
			get: func(c *Config) any { return c.Sync.Token }, want: "tok", source: "env CREDENCE_SYNC_TOKEN",
		},
		{
			name: "empty env value counts as unset", key: "llm.model",
			file: "[llm]\nmodel = \"llama3.1\"\n",
			env:  map[string]string{"CREDENCE_LLM_MODEL": ""},
			get:  func(c *Config) any { return c.LLM.Model }, want: "llama3.1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			configFile := filepath.Join(home, ".config", "credence", "config.toml")
			if tt.file != "" {
				writeFile(t, configFile, tt.file)
			}
			cfg, err := Load(LoadOptions{Home: home, Env: EnvMap(tt.env), Overrides: tt.overrides})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := tt.get(cfg); got != tt.want {
				t.Errorf("%s = %v, want %v", tt.key, got, tt.want)
			}
			wantSource := tt.source
			if wantSource == "" {
				wantSource = configFile
			}
			if got := cfg.Source(tt.key); got != wantSource {
				t.Errorf("Source(%q) = %q, want %q", tt.key, got, wantSource)
			}
		})
	}
}

func TestLoadPaths(t *testing.T) {
	home := t.TempDir()
	other := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		file string // written at the path the test expects Load to read
		at   string // where file is written, relative to home unless absolute
		want Paths
	}{
		{
			name: "defaults under HOME",
			want: Paths{
				ConfigFile:     filepath.Join(home, ".config/credence/config.toml"),
				DataDir:        filepath.Join(home, ".local/share/credence"),
				Database:       filepath.Join(home, ".local/share/credence/credence.db"),
				LogDir:         filepath.Join(home, ".local/share/credence/logs"),
				ClaudeDir:      filepath.Join(home, ".claude"),
				ClaudeSettings: filepath.Join(home, ".claude/settings.json"),
				ClaudeJSON:     filepath.Join(home, ".claude.json"),
				ClaudeMD:       filepath.Join(home, ".claude/CLAUDE.md"),
				ClaudeProjects: filepath.Join(home, ".claude/projects"),
				GlobalMemory:   filepath.Join(home, ".claude-memory/MEMORY.md"),
			},
		},
		{
			name: "XDG variables",
			env:  map[string]string{"XDG_CONFIG_HOME": filepath.Join(other, "cfg"), "XDG_DATA_HOME": filepath.Join(other, "data")},
			file: "log_level = \"warn\"\n", at: filepath.Join(other, "cfg/credence/config.toml"),
			want: Paths{
				ConfigFile: filepath.Join(other, "cfg/credence/config.toml"),
				DataDir:    filepath.Join(other, "data/credence"),
				Database:   filepath.Join(other, "data/credence/credence.db"),
				LogDir:     filepath.Join(other, "data/credence/logs"),
			},
		},
		{
			name: "relative XDG values are ignored",
			env:  map[string]string{"XDG_CONFIG_HOME": "cfg", "XDG_DATA_HOME": "data"},
			want: Paths{
				ConfigFile: filepath.Join(home, ".config/credence/config.toml"),
				DataDir:    filepath.Join(home, ".local/share/credence"),
			},
		},
		{
			name: "data_dir in the file beats XDG_DATA_HOME and expands ~",
			env:  map[string]string{"XDG_DATA_HOME": filepath.Join(other, "data")},
			file: "data_dir = \"~/mem\"\n", at: ".config/credence/config.toml",
			want: Paths{
				DataDir:  filepath.Join(home, "mem"),
				Database: filepath.Join(home, "mem/credence.db"),
			},
		},
		{
			name: "CREDENCE_DATA_DIR",
			env:  map[string]string{"CREDENCE_DATA_DIR": filepath.Join(other, "d")},
			want: Paths{DataDir: filepath.Join(other, "d"), LogDir: filepath.Join(other, "d/logs")},
		},
		{
			name: "CLAUDE_CONFIG_DIR moves settings and .claude.json",
			env:  map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(other, "claude")},
			want: Paths{
				ClaudeDir:      filepath.Join(other, "claude"),
				ClaudeSettings: filepath.Join(other, "claude/settings.json"),
				ClaudeJSON:     filepath.Join(other, "claude/.claude.json"),
				ClaudeMD:       filepath.Join(other, "claude/CLAUDE.md"),
				GlobalMemory:   filepath.Join(home, ".claude-memory/MEMORY.md"),
			},
		},
		{
			name: "CREDENCE_CONFIG names the file",
			env:  map[string]string{"CREDENCE_CONFIG": filepath.Join(other, "elsewhere.toml")},
			file: "[memory]\nglobal_path = \"~/notes/MEMORY.md\"\n", at: filepath.Join(other, "elsewhere.toml"),
			want: Paths{
				ConfigFile:   filepath.Join(other, "elsewhere.toml"),
				GlobalMemory: filepath.Join(home, "notes/MEMORY.md"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.file != "" {
				at := tt.at
				if !filepath.IsAbs(at) {
					at = filepath.Join(home, at)
				}
				writeFile(t, at, tt.file)
				t.Cleanup(func() { os.Remove(at) })
			}
			env := map[string]string{"HOME": home}
			for k, v := range tt.env {
				env[k] = v
			}
			cfg, err := Load(LoadOptions{Env: EnvMap(env)})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got := cfg.Paths
			if got.Home != home {
				t.Errorf("Home = %q, want %q", got.Home, home)
			}
			check := func(name, got, want string) {
				if want != "" && got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			check("ConfigFile", got.ConfigFile, tt.want.ConfigFile)
			check("DataDir", got.DataDir, tt.want.DataDir)
			check("Database", got.Database, tt.want.Database)
			check("LogDir", got.LogDir, tt.want.LogDir)
			check("ClaudeDir", got.ClaudeDir, tt.want.ClaudeDir)
			check("ClaudeSettings", got.ClaudeSettings, tt.want.ClaudeSettings)
			check("ClaudeJSON", got.ClaudeJSON, tt.want.ClaudeJSON)
			check("ClaudeMD", got.ClaudeMD, tt.want.ClaudeMD)
			check("ClaudeProjects", got.ClaudeProjects, tt.want.ClaudeProjects)
			check("GlobalMemory", got.GlobalMemory, tt.want.GlobalMemory)
			if got.DataDir != cfg.DataDir {
				t.Errorf("Paths.DataDir = %q, DataDir = %q; want them equal", got.DataDir, cfg.DataDir)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		env       map[string]string
		overrides map[string]string
		explicit  string // LoadOptions.ConfigPath, relative to home
		want      []string
	}{
		{
			name: "unknown top-level key", file: "log_levle = \"info\"\n",
			want: []string{"config.toml", `unknown key "log_levle"`},
		},
		{
			name: "unknown key in a section", file: "[belief]\nlearning_rat = 0.5\n",
			want: []string{`unknown key "belief.learning_rat"`},
		},
		{
			name: "unknown section", file: "[beliefs]\nlearning_rate = 0.5\n",
			want: []string{`"beliefs.learning_rate"`},
		},
		{
			name: "derived paths are not a section", file: "[paths]\nhome = \"/x\"\n",
			want: []string{`unknown key "paths.home"`},
		},
		{
			name: "wrong type in file", file: "[recall]\nbudget_chars = \"lots\"\n",
			want: []string{"parse", "config.toml", "budget_chars"},
		},
		{
			name: "line numbers survive comment blanking", file: "# one\n  # two\n[recall]\nbudget_chars = \"x\"\n",
			want: []string{"line 4"},
		},
		{
			name: "malformed toml", file: "[llm\nmodel = 1\n",
			want: []string{"parse", "config.toml"},
		},
		{
			name: "bad duration in file", file: "[hook]\nbudget = \"soon\"\n",
			want: []string{"parse", "soon"},
		},
		{
			name: "bad integer in env", env: map[string]string{"CREDENCE_RECALL_BUDGET_CHARS": "lots"},
			want: []string{"CREDENCE_RECALL_BUDGET_CHARS", `"lots" is not a whole number`},
		},
		{
			name: "bad duration in env", env: map[string]string{"CREDENCE_CONSOLIDATION_INTERVAL": "4"},
			want: []string{"CREDENCE_CONSOLIDATION_INTERVAL", "not a duration"},
		},
		{
			name: "bad float in override", overrides: map[string]string{"belief.learning_rate": "fast"},
			want: []string{"override belief.learning_rate", "not a number"},
		},
		{
			name: "unknown override key", overrides: map[string]string{"llm.modle": "x"},
			want: []string{`override "llm.modle": unknown key`},
		},
		{
			name: "explicit config path missing", explicit: "nope.toml",
			want: []string{"read", "nope.toml"},
		},
		{
			name: "CREDENCE_CONFIG missing", env: map[string]string{"CREDENCE_CONFIG": "~/gone.toml"},
			want: []string{"read", "gone.toml"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.file != "" {
				writeFile(t, filepath.Join(home, ".config/credence/config.toml"), tt.file)
			}
			opts := LoadOptions{Home: home, Env: EnvMap(tt.env), Overrides: tt.overrides}
			if tt.explicit != "" {
				opts.ConfigPath = filepath.Join(home, tt.explicit)
			}
			cfg, err := Load(opts)
			if err == nil {
				t.Fatalf("Load succeeded with %+v, want an error", cfg)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Load error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadMissingDefaultFileIsFine(t *testing.T) {
	cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	def := Default()
	if cfg.Belief != def.Belief || cfg.Recall != def.Recall || cfg.Hook != def.Hook {
		t.Errorf("Load without a file differs from Default():\n%+v\nwant\n%+v", cfg, def)
	}
}

func TestLLMEnabled(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"nothing configured", nil, false},
		{"OpenAI key", map[string]string{"OPENAI_API_KEY": "sk-x"}, true},
		{"Ollama base URL without a key", map[string]string{"CREDENCE_LLM_BASE_URL": "http://localhost:11434/v1"}, true},
		{"only the embedder key", map[string]string{"CREDENCE_EMBEDDER_API_KEY": "sk-x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(tt.env)})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := cfg.LLMEnabled(); got != tt.want {
				t.Errorf("LLMEnabled() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGlobalMemoryImportLine(t *testing.T) {
	tests := []struct {
		name string
		path string
		want string
	}{
		{"default", "", "@~/.claude-memory/MEMORY.md"},
		{"elsewhere under home", "~/notes/MEMORY.md", "@~/notes/MEMORY.md"},
		{"outside home", "/srv/memory/MEMORY.md", "@/srv/memory/MEMORY.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			overrides := map[string]string{}
			if tt.path != "" {
				overrides["memory.global_path"] = tt.path
			}
			cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil), Overrides: overrides})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := cfg.GlobalMemoryImportLine(); got != tt.want {
				t.Errorf("GlobalMemoryImportLine() = %q, want %q", got, tt.want)
			}
		})
	}
}

// BenchmarkLoad measures what the hook pays on every prompt: a config file
// with a few settings, a dozen environment lookups and validation.
func BenchmarkLoad(b *testing.B) {
	home := b.TempDir()
	path := filepath.Join(home, ".config/credence/config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	content := "log_level = \"debug\"\n[llm]\nbase_url = \"http://localhost:11434/v1\"\nmodel = \"llama3.1\"\n" +
		"[recall]\nbudget_chars = 3000\n[hook]\nbudget = \"800ms\"\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		b.Fatal(err)
	}
	env := EnvMap(map[string]string{"CREDENCE_LLM_MODEL": "qwen2.5"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(LoadOptions{Home: home, Env: env}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadDefaultFile measures Load over the full commented default
// file that install writes.
func BenchmarkLoadDefaultFile(b *testing.B) {
	home := b.TempDir()
	if _, err := WriteDefault(filepath.Join(home, ".config/credence/config.toml")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(LoadOptions{Home: home, Env: EnvMap(nil)}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseOverrides(t *testing.T) {
	tests := []struct {
		name    string
		in      []string
		want    map[string]string
		wantErr string
	}{
		{name: "none", in: nil, want: map[string]string{}},
		{name: "several", in: []string{"llm.model=gpt-4.1", " recall.budget_chars =3000"},
			want: map[string]string{"llm.model": "gpt-4.1", "recall.budget_chars": "3000"}},
		{name: "value with equals", in: []string{"sync.url=libsql://x?a=b"}, want: map[string]string{"sync.url": "libsql://x?a=b"}},
		{name: "empty value", in: []string{"llm.base_url="}, want: map[string]string{"llm.base_url": ""}},
		{name: "no equals", in: []string{"llm.model"}, wantErr: "want key=value"},
		{name: "empty key", in: []string{"=x"}, wantErr: "want key=value"},
		{name: "unknown key", in: []string{"llm.modle=x"}, wantErr: `unknown key "llm.modle"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseOverrides(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseOverrides error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("ParseOverrides = %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("ParseOverrides[%q] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
