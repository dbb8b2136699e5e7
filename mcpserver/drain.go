package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long the end of input waits for replies still
// being computed: a request the server never answers (one the client
// cancelled) must not keep `credence mcp` alive for ever.
const drainTimeout = 30 * time.Second

// drainingTransport answers every request it read before the connection
// ends. The SDK's JSON-RPC layer stops writing as soon as a read fails: a
// client that pipes its requests in and closes stdin (EOF) would get only
// the replies that happened to be written before the EOF was read. Holding
// the read error back until each request read so far has had its reply
// written keeps those replies.
type drainingTransport struct{ inner mcp.Transport }

// Connect implements mcp.Transport.
func (t drainingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainingConn{Connection: c, owed: map[jsonrpc.ID]bool{}}
	d.answered = sync.NewCond(&d.mu)
	return d, nil
}

// drainingConn counts the requests read and the replies written.
type drainingConn struct {
	mcp.Connection

	mu       sync.Mutex
	answered *sync.Cond // signalled when owed shrinks or the connection closes
	owed     map[jsonrpc.ID]bool
	isClosed bool
}

// Read returns the next message; when the input has ended, it first waits
// until every request already read has been answered (or ctx ends, the
// connection is closed, or drainTimeout passes).
func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.waitAnswered(ctx)
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.owed[req.ID] = true
		c.mu.Unlock()
	}
	return msg, nil
}

// Write sends a message and, for a reply, marks its request answered.
func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.owed, resp.ID)
		c.mu.Unlock()
		c.answered.Broadcast()
	}
	return err
}

// Close closes the connection and releases a Read waiting to drain.
func (c *drainingConn) Close() error {
	c.mu.Lock()
	c.isClosed = true
	c.mu.Unlock()
	c.answered.Broadcast()
	return c.Connection.Close()
}

// waitAnswered blocks until nothing is owed, the connection is closed, ctx
// ends or drainTimeout passes.
func (c *drainingConn) waitAnswered(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, drainTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.answered.Broadcast()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.owed) > 0 && !c.isClosed && ctx.Err() == nil {
		c.answered.Wait()
	}
}
