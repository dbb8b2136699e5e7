// Command credence-hook is the executable Claude Code runs on
// UserPromptSubmit, Stop, SessionStart, SessionEnd and PreCompact; see
// package hooks.
package main

import (
	"context"
	"os"

	"github.com/credence-mem/credence/hooks"
)

func main() {
	os.Exit(hooks.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
