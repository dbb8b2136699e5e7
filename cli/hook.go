package cli

import (
	"github.com/credence-mem/credence/hooks"
)

func init() {
	Register(Command{
		Name:    "hook",
		Usage:   "<UserPromptSubmit|Stop|SessionStart|SessionEnd|PreCompact|PostToolUse>",
		Summary: "handle one hook event in this process (what credence-hook does when no agent is running); Claude Code's JSON on stdin",
		Run:     runHook,
	})
}

// runHook handles a hook event in-process. Like credence-hook it always
// exits 0 and reports failures only in the hook log: it is what
// credence-hook execs, so Claude Code sees its output and exit code.
func runHook(env *Env, args []string) int {
	getenv := env.Getenv
	if env.Home != "" {
		getenv = func(k string) string {
			if k == "HOME" {
				return env.Home
			}
			return env.Getenv(k)
		}
	}
	return hooks.Run(env.Ctx, getenv, args, env.Stdin, env.Stdout)
}
