//go:build !mcpsdk

package cli

import "errors"

// Until the MCP SDK's dependencies are in go.sum, mcpserver builds only with
// -tags mcpsdk (see mcpserver/doc.go). A build without the tag still knows
// the command, so Claude Code and doctor get a clear error rather than
// "unknown command".
// mcpAvailable reports that this build lacks the MCP server; doctor says so.
const mcpAvailable = false

func init() {
	Register(Command{
		Name:    "mcp",
		Usage:   "",
		Summary: "serve credence's memory to Claude Code over MCP (stdio); this build lacks it, see docs/CLI.md",
		Run: func(env *Env, args []string) int {
			return env.Fail("mcp", errors.New("this binary was built without the MCP server; rebuild with `go build -tags mcpsdk ./cmd/credence` once go.sum lists the MCP SDK's dependencies"))
		},
	})
}
