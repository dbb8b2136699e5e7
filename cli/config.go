package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/credence-mem/credence/config"
)

func init() {
	Register(Command{
		Name:    "config",
		Usage:   "[show [--json] | path | init | reference]",
		Summary: "print the effective configuration (secrets masked), its file's path, or write the default file",
		Run:     runConfig,
	})
}

func runConfig(env *Env, args []string) int {
	sub := "show"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := env.Flags("config")
	asJSON := fs.Bool("json", false, "print the effective configuration as JSON (with show)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	cfg, err := env.Config()
	var invalid *config.ValidationError
	if err != nil && !(errors.As(err, &invalid) && cfg != nil) {
		return env.Fail("config", err)
	}
	switch sub {
	case "show":
		if *asJSON {
			return printConfigJSON(env, cfg, invalid)
		}
		env.Printf("# effective configuration; file: %s\n", cfg.Paths.ConfigFile)
		env.Printf("%s", annotateSources(cfg))
		env.Printf("\n# paths\n# database  %s\n# logs      %s\n# settings  %s\n# mcp       %s\n# CLAUDE.md %s\n# global memory %s\n",
			cfg.Paths.Database, cfg.Paths.LogDir, cfg.Paths.ClaudeSettings, cfg.Paths.ClaudeJSON, cfg.Paths.ClaudeMD, cfg.Paths.GlobalMemory)
		if invalid != nil {
			fmt.Fprintln(env.Stderr, invalid.Error())
			return 1
		}
		return 0
	case "path":
		env.Printf("%s\n", cfg.Paths.ConfigFile)
		return 0
	case "init":
		written, err := config.WriteDefault(cfg.Paths.ConfigFile)
		if err != nil {
			return env.Fail("config", err)
		}
		if !written {
			env.Printf("%s already exists; left as it is\n", cfg.Paths.ConfigFile)
			return 0
		}
		env.Printf("wrote %s (every setting listed, commented out, with its default)\n", cfg.Paths.ConfigFile)
		return 0
	case "reference":
		env.Printf("%s", config.ReferenceMarkdown())
		return 0
	}
	fmt.Fprintf(env.Stderr, "credence config: unknown subcommand %q\n", sub)
	fs.Usage()
	return 2
}

// annotateSources renders the effective configuration as TOML with a
// comment after every value that does not come from the defaults, naming
// where it was set.
func annotateSources(cfg *config.Config) string {
	var b strings.Builder
	section := ""
	for _, line := range strings.Split(cfg.String(), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") {
			section = strings.Trim(trimmed, "[]")
		}
		if name, _, ok := strings.Cut(trimmed, " = "); ok && !strings.HasPrefix(trimmed, "#") {
			key := name
			if section != "" {
				key = section + "." + name
			}
			if src := cfg.Source(key); src != "default" {
				line += "  # " + src
			}
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// printConfigJSON prints the masked configuration as JSON with each
// non-default key's source, the derived paths and any validation problems.
func printConfigJSON(env *Env, cfg *config.Config, invalid *config.ValidationError) int {
	values := map[string]any{}
	if _, err := toml.Decode(cfg.String(), &values); err != nil {
		return env.Fail("config", fmt.Errorf("render config: %w", err))
	}
	sources := map[string]string{}
	for _, f := range config.Fields() {
		if src := cfg.Source(f.Key); src != "default" {
			sources[f.Key] = src
		}
	}
	out := map[string]any{"config_file": cfg.Paths.ConfigFile, "values": values, "sources": sources, "paths": cfg.Paths}
	if invalid != nil {
		out["problems"] = invalid.Problems
	}
	code := env.JSON(out)
	if invalid != nil && code == 0 {
		return 1
	}
	return code
}
