// Command credence-hook is the executable Claude Code runs on
// UserPromptSubmit, Stop, SessionStart, SessionEnd and PreCompact: it hands
// the event to the running agent, or handles it in-process through
// `credence hook`; see package hookrelay.
package main

import (
	"os"

	"github.com/credence-mem/credence/hookrelay"
)

func main() {
	os.Exit(hookrelay.Main(os.Args[1:], os.Stdin, os.Stdout))
}
