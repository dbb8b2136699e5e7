package hranatest

import (
	"fmt"
	"strings"
	"time"
)

// Kind is a way the server misbehaves on command.
type Kind int

const (
	// NoFault serves the request normally.
	NoFault Kind = iota
	// DropBefore closes the connection without an answer before anything
	// runs: the client cannot tell whether its statements ran.
	DropBefore
	// DropAfter runs the pipeline (a COMMIT in it commits), then closes the
	// connection without an answer: the acknowledgement is lost.
	DropAfter
	// Status answers with Fault.Code (401, 403, 429, 500, 502, 503 …)
	// before anything runs; the stream named by the baton is closed, as
	// any HTTP error ends a stream.
	Status
	// Slow waits Fault.Delay before running the pipeline.
	Slow
	// Truncate runs the pipeline, then sends a response cut off half way
	// and closes the connection.
	Truncate
	// ExpireStream expires the stream the request's baton names, rolling
	// back its transaction, as an idle stream expires on a real server.
	ExpireStream
	// TooLarge refuses the request as too large (413) before anything
	// runs, as a body past Options.MaxRequestBytes always is.
	TooLarge
)

var kindNames = map[Kind]string{NoFault: "none", DropBefore: "drop before", DropAfter: "drop after",
	Status: "status", Slow: "slow", Truncate: "truncate", ExpireStream: "expire stream", TooLarge: "too large"}

func (k Kind) String() string { return kindNames[k] }

// Fault is one misbehaviour.
type Fault struct {
	Kind  Kind
	Code  int           // HTTP status, for Status
	Delay time.Duration // for Slow
	// Match, when set, makes a queued fault wait for a request holding a
	// statement that contains it (case-insensitive): "COMMIT", "INSERT INTO
	// episodes". Empty matches the next request.
	Match string
	// RetryAfter, for Status 429 and 503, is sent as a Retry-After header
	// in whole seconds.
	RetryAfter time.Duration
}

func (f Fault) String() string {
	switch f.Kind {
	case Status:
		return fmt.Sprintf("status %d", f.Code)
	case Slow:
		return fmt.Sprintf("slow %v", f.Delay)
	}
	return f.Kind.String()
}

// Request is what a fault policy sees of a pipeline request before it
// runs.
type Request struct {
	Path  string   // /v3/pipeline, /v2/pipeline
	Baton bool     // continues a stream
	SQL   []string // the statements it holds, in order
}

// Has reports whether any statement contains s, case-insensitively.
func (r Request) Has(s string) bool {
	s = strings.ToUpper(s)
	for _, q := range r.SQL {
		if strings.Contains(strings.ToUpper(q), s) {
			return true
		}
	}
	return false
}

// Policy chooses a fault for each request that no queued fault matched.
type Policy func(Request) Fault

// Inject queues a fault for the next request it matches. Queued faults
// apply in order, each once.
func (srv *Server) Inject(f Fault) {
	srv.mu.Lock()
	srv.queue = append(srv.queue, f)
	srv.mu.Unlock()
}

// SetPolicy sets the policy that chooses faults for requests no queued
// fault matched; nil serves them normally.
func (srv *Server) SetPolicy(p Policy) {
	srv.mu.Lock()
	srv.policy = p
	srv.mu.Unlock()
}

// Pending returns how many queued faults have not yet applied.
func (srv *Server) Pending() int {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return len(srv.queue)
}

// faultFor takes the first queued fault req matches, or asks the policy.
func (srv *Server) faultFor(req Request) Fault {
	srv.mu.Lock()
	for i, f := range srv.queue {
		if f.Match == "" || req.Has(f.Match) {
			srv.queue = append(srv.queue[:i:i], srv.queue[i+1:]...)
			srv.mu.Unlock()
			return f
		}
	}
	p := srv.policy
	srv.mu.Unlock()
	if p == nil {
		return Fault{}
	}
	return p(req)
}
