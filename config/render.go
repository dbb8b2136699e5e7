package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
)

// redactedMark replaces a secret's value when a config is printed.
const redactedMark = "********"

// Redacted returns a copy of c whose secrets (API keys, the sync token) are
// replaced by a mask when set, safe to print or log.
func (c *Config) Redacted() *Config {
	out := *c
	out.sources = maps.Clone(c.sources)
	for _, f := range Fields() {
		if f.Secret {
			if v := f.value(&out); v.String() != "" {
				v.SetString(redactedMark)
			}
		}
	}
	return &out
}

// String renders the effective configuration as TOML with secrets masked,
// so printing a Config by accident never leaks a key.
func (c *Config) String() string {
	var b strings.Builder
	writeTOML(&b, c.Redacted(), false)
	return b.String()
}

// DefaultFile returns the commented default config file: every key with its
// description, environment variable and default, commented out so later
// releases can change defaults for people who never set them.
func DefaultFile() string {
	var b strings.Builder
	b.WriteString(`# credence configuration.
#
# Every setting is listed below, commented out, with its default. Settings
# are applied in this order, later ones winning: built-in defaults,
# OPENAI_API_KEY / OPENAI_BASE_URL, this file, CREDENCE_* environment
# variables, then command-line overrides (--set key=value).
# Durations are strings such as "150ms", "10s", "4h". docs/CONFIG.md has the
# full reference.
`)
	def := Default()
	writeTOML(&b, &def, true)
	return b.String()
}

// WriteDefault writes DefaultFile to path with mode 0600, creating its
// directory. It never overwrites an existing file: written is false and err
// nil when path already exists.
func WriteDefault(path string) (written bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("write default config: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("write default config: %w", err)
	}
	_, werr := f.WriteString(DefaultFile())
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		// A half-written file would be read as the user's config; remove it.
		_ = os.Remove(path)
		return false, fmt.Errorf("write default config %s: %w", path, werr)
	}
	return true, nil
}

// writeTOML renders c. With commented set, every key line is commented out
// and preceded by its description and environment variable; derived
// defaults are shown as the path they resolve to.
func writeTOML(b *strings.Builder, c *Config, commented bool) {
	section := ""
	for _, f := range Fields() {
		if f.Section != section {
			section = f.Section
			fmt.Fprintf(b, "\n[%s]\n", section)
		}
		value := f.tomlValue(c)
		if commented {
			fmt.Fprintf(b, "\n# %s\n# Environment: %s\n", f.Doc, envNames(&f))
			if f.OneOf != nil {
				fmt.Fprintf(b, "# One of: %s.\n", strings.Join(f.OneOf, ", "))
			}
			if f.Derived != "" && f.value(c).String() == "" {
				value = fmt.Sprintf("%q", f.Derived)
			}
			fmt.Fprintf(b, "# %s = %s\n", f.Name, value)
			continue
		}
		fmt.Fprintf(b, "%s = %s\n", f.Name, value)
	}
}

// envNames lists the variables that set f, strongest first.
func envNames(f *Field) string {
	if f.Fallback != "" {
		return f.Env + " (or " + f.Fallback + ", which this file overrides)"
	}
	return f.Env
}
