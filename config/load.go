package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/credence-mem/credence/config/defaults"
)

// LoadOptions says where Load looks. The zero value loads the real user's
// configuration.
type LoadOptions struct {
	// Home is the user's home directory. Empty means $HOME from Env, then
	// os.UserHomeDir. Tests point it at a temporary directory.
	Home string
	// Env looks up environment variables; empty values count as unset.
	// Nil means os.Getenv. EnvMap adapts a map.
	Env func(string) string
	// ConfigPath names the config file. Empty means $CREDENCE_CONFIG, then
	// $XDG_CONFIG_HOME/credence/config.toml, then
	// ~/.config/credence/config.toml. A missing default file is fine; a
	// missing file named here or in CREDENCE_CONFIG is an error.
	ConfigPath string
	// Overrides are dotted keys set by flags ("llm.model" → "gpt-4.1"); they
	// win over everything else.
	Overrides map[string]string
}

// EnvMap returns an Env function that reads from m, for tests and for
// callers that build an environment by hand.
func EnvMap(m map[string]string) func(string) string {
	return func(name string) string { return m[name] }
}

// Load builds the configuration in layers: defaults, generic fallbacks
// (OPENAI_API_KEY, OPENAI_BASE_URL), the config file, CREDENCE_* environment
// variables, then opts.Overrides; it resolves paths and validates the result.
//
// It reads at most one small file and touches no network, so the hook can
// call it on every prompt. When only validation fails, Load returns the
// loaded config together with a *ValidationError, so doctor can show both.
func Load(opts LoadOptions) (*Config, error) {
	getenv := opts.Env
	if getenv == nil {
		getenv = os.Getenv
	}
	home := opts.Home
	if home == "" {
		h, err := defaults.Home(getenv)
		if err != nil {
			return nil, fmt.Errorf("load config: %w", err)
		}
		home = h
	}
	home = expandHome(home, home)

	path, explicit := opts.ConfigPath, opts.ConfigPath != ""
	if explicit {
		path = expandHome(path, home)
	} else {
		path, explicit = defaults.ConfigFile(getenv, home)
	}
	if cfg, ok := defaultsOnly(opts, getenv, home, path, explicit); ok {
		return cfg, nil
	}

	cfg := Default()
	cfg.sources = make(map[string]string)

	for _, f := range Fields() {
		if f.Fallback == "" {
			continue
		}
		if v := getenv(f.Fallback); v != "" {
			if err := f.set(&cfg, v); err != nil {
				return nil, fmt.Errorf("load config: %s: %w", f.Fallback, err)
			}
			cfg.sources[f.Key] = "env " + f.Fallback
		}
	}

	if err := cfg.loadFile(path, explicit); err != nil {
		return nil, err
	}

	for _, f := range Fields() {
		if v := getenv(f.Env); v != "" {
			if err := f.set(&cfg, v); err != nil {
				return nil, fmt.Errorf("load config: %s: %w", f.Env, err)
			}
			cfg.sources[f.Key] = "env " + f.Env
		}
	}

	if err := cfg.applyOverrides(opts.Overrides); err != nil {
		return nil, err
	}

	cfg.resolvePaths(getenv, home, path)
	if err := cfg.Validate(); err != nil {
		return &cfg, err
	}
	return &cfg, nil
}

// defaultsOnly returns the configuration when nothing can change the
// defaults: the real environment (opts.Env nil) holds no CREDENCE_ and no
// fallback variable, there are no overrides, and the config file is
// missing or inert (defaults.Untouched). That is every hook's case on a
// default install, and building the field table by reflection, which the
// layered load needs, costs about 0.2 ms of a hook's few milliseconds.
// TestDefaultsOnlyMatchesLayeredLoad checks it gives what Load would.
func defaultsOnly(opts LoadOptions, getenv func(string) string, home, path string, explicit bool) (*Config, bool) {
	if opts.Env != nil || len(opts.Overrides) > 0 || !defaults.Untouched(os.Environ(), path, explicit) {
		return nil, false
	}
	cfg := Default()
	cfg.sources = make(map[string]string)
	cfg.resolveDefaultPaths(getenv, home, path)
	return &cfg, true
}

// loadFile decodes the TOML file at path over c. Keys the file sets that
// Config does not know are an error naming them, so a typo never silently
// leaves a default in place.
func (c *Config) loadFile(path string, mustExist bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !mustExist {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load config: read %s: %w", path, err)
	}
	md, err := toml.Decode(blankComments(data), c)
	if err != nil {
		return fmt.Errorf("load config: parse %s: %w", path, err)
	}
	if keys := unknownKeys(md); len(keys) > 0 {
		return fmt.Errorf("load config: %s: unknown key %s (see docs/CONFIG.md for the valid keys)",
			path, strings.Join(quoteAll(keys), ", "))
	}
	for _, f := range Fields() {
		key := []string{f.Name}
		if f.Section != "" {
			key = []string{f.Section, f.Name}
		}
		if md.IsDefined(key...) {
			c.sources[f.Key] = path
		}
	}
	return nil
}

// applyOverrides sets dotted keys from flags, in sorted order so errors are
// deterministic.
func (c *Config) applyOverrides(overrides map[string]string) error {
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f, ok := lookupField(k)
		if !ok {
			return fmt.Errorf("load config: override %q: unknown key (see docs/CONFIG.md for the valid keys)", k)
		}
		if err := f.set(c, overrides[k]); err != nil {
			return fmt.Errorf("load config: override %s: %w", k, err)
		}
		c.sources[k] = "override"
	}
	return nil
}

// blankComments empties whole-line comments, keeping every newline so parse
// errors still point at the right line. The TOML lexer walks comments one
// rune at a time through a channel, and the commented default file is mostly
// comments: this makes loading it several times cheaper on the hook's path.
// Files with multi-line strings are left alone, since a line starting with #
// may be part of one.
func blankComments(data []byte) string {
	if bytes.Contains(data, []byte(`"""`)) || bytes.Contains(data, []byte("'''")) {
		return string(data)
	}
	out := make([]byte, 0, len(data)/4)
	for line := range bytes.Lines(data) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && trimmed[0] == '#' {
			if bytes.HasSuffix(line, []byte("\n")) {
				out = append(out, '\n')
			}
			continue
		}
		out = append(out, line...)
	}
	return string(out)
}

// unknownKeys lists the keys the file sets that Config lacks, leaving out a
// table whose keys are listed themselves ("paths" when "paths.home" is).
func unknownKeys(md toml.MetaData) []string {
	undecoded := md.Undecoded()
	var keys []string
	for _, k := range undecoded {
		name := k.String()
		isParent := false
		for _, other := range undecoded {
			if strings.HasPrefix(other.String(), name+".") {
				isParent = true
				break
			}
		}
		if !isParent {
			keys = append(keys, name)
		}
	}
	return keys
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// ParseOverrides turns "key=value" strings, as repeated --set flags give
// them, into LoadOptions.Overrides, rejecting a malformed or unknown key
// before anything is loaded.
func ParseOverrides(assignments []string) (map[string]string, error) {
	out := make(map[string]string, len(assignments))
	for _, a := range assignments {
		key, value, ok := strings.Cut(a, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("parse override %q: want key=value, e.g. llm.model=gpt-4.1", a)
		}
		if _, known := lookupField(key); !known {
			return nil, fmt.Errorf("parse override %q: unknown key %q (see docs/CONFIG.md for the valid keys)", a, key)
		}
		out[key] = value
	}
	return out, nil
}
