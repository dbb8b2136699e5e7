package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
)

// Env is what a command runs with: its streams and environment. Tests build
// one with a temporary HOME instead of touching the real one.
type Env struct {
	Ctx    context.Context
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; Home overrides $HOME when set.
	Getenv func(string) string
	Home   string
	// Overrides are the --set key=value flags given before the command.
	Overrides map[string]string
}

// Command is one credence subcommand.
type Command struct {
	Name    string
	Usage   string // arguments after the name, e.g. "<belief-id>"
	Summary string
	// Run executes the command with its arguments (the name removed) and
	// returns the exit code.
	Run func(env *Env, args []string) int
}

var commands = map[string]Command{}

// Register adds a command. It panics on a duplicate name, which is a
// programming error caught by any test.
func Register(c Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// Run runs credence with args (without the program name) and returns the
// exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	return env.Run(args)
}

// Run dispatches args to a command.
func (env *Env) Run(args []string) int {
	var sets []string
	for len(args) >= 2 && (args[0] == "--set" || args[0] == "-set") {
		sets, args = append(sets, args[1]), args[2:]
	}
	if len(sets) > 0 {
		o, err := config.ParseOverrides(sets)
		if err != nil {
			fmt.Fprintln(env.Stderr, "credence:", err)
			return 2
		}
		env.Overrides = o
	}
	switch {
	case len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help":
		env.usage(env.Stdout)
		return 0
	case args[0] == "--version" || args[0] == "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := commands[args[0]]
	if !ok {
		// A short error, not the whole help: the mistake stays on screen.
		msg := fmt.Sprintf("credence: unknown command %q", args[0])
		if s := suggestCommand(args[0]); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		fmt.Fprintf(env.Stderr, "%s\nRun 'credence help' for the list of commands.\n", msg)
		return 2
	}
	return c.Run(env, args[1:])
}

func (env *Env) usage(w io.Writer) {
	fmt.Fprintln(w, "credence: a memory for Claude Code that knows what it believes and how sure it is.")
	fmt.Fprintln(w, "\nUsage: credence [--set key=value]... <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(tw, "  %s\t%s\n", n, commands[n].Summary)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nRun 'credence <command> -h' for a command's flags.")
}

// Flags returns a flag set for a command whose errors and usage go to the
// command's stderr.
func (env *Env) Flags(c string) *flag.FlagSet {
	fs := flag.NewFlagSet("credence "+c, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	if cmd, ok := commands[c]; ok {
		fs.Usage = func() {
			fmt.Fprintf(env.Stderr, "Usage: credence %s [flags] %s\n\n%s\n\n", c, cmd.Usage, cmd.Summary)
			fs.PrintDefaults()
		}
	}
	return fs
}

// Config loads the configuration for this environment.
func (env *Env) Config() (*config.Config, error) {
	return app.LoadConfig(app.Options{Home: env.Home, Env: env.Getenv, Overrides: env.Overrides})
}

// Fail prints an error for command c and returns exit code 1.
func (env *Env) Fail(c string, err error) int {
	fmt.Fprintf(env.Stderr, "credence %s: %v\n", c, err)
	return 1
}

// JSON writes v as indented JSON to stdout.
func (env *Env) JSON(v any) int {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(env.Stderr, "credence: write json:", err)
		return 1
	}
	return 0
}

// Printf writes to stdout.
func (env *Env) Printf(format string, a ...any) { fmt.Fprintf(env.Stdout, format, a...) }

// Getenv reads a variable through the environment's Getenv.
func (env *Env) getenv(k string) string {
	if env.Getenv == nil {
		return os.Getenv(k)
	}
	return env.Getenv(k)
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix) + "\n"
}
