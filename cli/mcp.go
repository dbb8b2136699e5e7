package cli

import (
	"io"

	"github.com/credence-mem/credence/mcpserver"
	"github.com/credence-mem/credence/recall"
)

func init() {
	Register(Command{
		Name:    "mcp",
		Usage:   "",
		Summary: "serve credence's memory to Claude Code over MCP (stdio): memory_recall, memory_expand, memory_why, memory_forget, memory_status, memory_save",
		Run:     runMCP,
	})
}

func runMCP(env *Env, args []string) int {
	fs := env.Flags("mcp")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("mcp", err)
	}
	defer db.Close()
	emb, err := recall.NewQueryEmbedder(cfg)
	if err != nil {
		return env.Fail("mcp", err)
	}
	srv := mcpserver.New(cfg, db, mcpserver.Options{Project: workingProject(env), Embedder: emb})
	// stdout carries the protocol and nothing else.
	if err := mcpserver.Run(env.Ctx, srv, io.NopCloser(env.Stdin), nopWriteCloser{env.Stdout}); err != nil {
		return env.Fail("mcp", err)
	}
	return 0
}

// nopWriteCloser lets the server close its writer without closing stdout
// under the command.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
