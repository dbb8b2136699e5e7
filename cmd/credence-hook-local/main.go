// Command credence-hook-local handles one hook event in this process:
// credence-hook execs it when no agent takes the event (`credence-hook-local
// hook <event>`, the arguments of `credence hook`). It is `credence hook`
// without the rest of the command line linked in (the MCP server, the
// installer, the Markdown parser, sync), whose package set-up and larger
// binary every in-process prompt paid for: its start-up costs less. When it
// is not installed next to credence-hook, credence-hook execs `credence
// hook` instead.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/credence-mem/credence/hooks"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "hook" {
		fmt.Fprintln(os.Stderr, "usage: credence-hook-local hook <event> (credence-hook runs it; see credence hook)")
		os.Exit(2)
	}
	os.Exit(hooks.Run(context.Background(), os.Getenv, args[1:], os.Stdin, os.Stdout))
}
