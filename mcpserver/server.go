package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// Name and Version identify the server to clients.
const (
	Name    = "credence"
	Version = "0.1.0"
)

// instructions tell the model when to use the tools.
const instructions = `credence is this user's long-term memory across Claude Code sessions. ` +
	`Relevant beliefs are already added to each prompt; use memory_recall to search further, ` +
	`memory_why or memory_expand to see the evidence behind a belief, memory_save when the user ` +
	`states a preference, an instruction or a fact worth keeping, and memory_forget when the user ` +
	`asks you to forget something. Confidence is a probability from evidence; contested beliefs are uncertain.`

// Options configure a Server.
type Options struct {
	// Project is the project the session works in (its git root); recall and
	// saved notes default to it. Empty means the working directory's.
	Project string
	// Embedder embeds recall queries; nil uses lexical search only.
	Embedder embed.Embedder
	// Now is the clock; nil means the database's.
	Now func() time.Time
}

// Server holds what the tools need.
type Server struct {
	db       *store.DB
	cfg      *config.Config
	recaller *recall.Recaller
	project  string
	now      func() time.Time
}

// New builds the MCP server with its six tools over db.
func New(cfg *config.Config, db *store.DB, opts Options) *mcp.Server {
	s := &Server{db: db, cfg: cfg, project: opts.Project, now: opts.Now}
	if s.project == "" {
		if wd, err := os.Getwd(); err == nil {
			s.project = recall.ProjectRoot(wd)
		}
	}
	if s.now == nil {
		s.now = db.Now
	}
	embedderID := ""
	if opts.Embedder != nil {
		embedderID = opts.Embedder.ID()
	}
	s.recaller = &recall.Recaller{DB: db, Embedder: opts.Embedder, Opts: recall.FromConfig(cfg, embedderID), Now: s.now}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "credence memory", Version: Version},
		&mcp.ServerOptions{Instructions: instructions})
	s.addTools(srv)
	return srv
}

// Run serves MCP over in and out (stdin and stdout of `credence mcp`) until
// the client disconnects or ctx ends. When in ends, every request read
// before the end is answered first.
func Run(ctx context.Context, srv *mcp.Server, in io.ReadCloser, out io.WriteCloser) error {
	t := drainingTransport{inner: &mcp.IOTransport{Reader: in, Writer: out}}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("serve mcp: %w", err)
	}
	return nil
}
