package hranatest

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	_ "github.com/tursodatabase/go-libsql" // the engine behind the server
)

// Options configure a Server.
type Options struct {
	// Token, when set, is the bearer token every request must carry.
	Token string
	// StreamTimeout is how long an idle stream lives; its open transaction
	// is rolled back when it expires. Zero means 10 s.
	StreamTimeout time.Duration
	// MaxRequestBytes refuses larger request bodies with 413. Zero means
	// 8 MiB.
	MaxRequestBytes int64
	// BusyTimeout is how long a statement waits for another stream's write
	// lock. Zero means 5 s.
	BusyTimeout time.Duration
	// Logf, when set, receives one line per request.
	Logf func(format string, args ...any)
}

// Server is a Hrana 3 over HTTP server backed by a libSQL file.
type Server struct {
	opts Options
	path string
	db   *sql.DB
	url  string

	mu       sync.Mutex
	token    string
	streams  map[string]*stream
	queue    []Fault
	policy   Policy
	stats    Stats
	listener net.Listener
	conns    map[net.Conn]bool
	down     bool
	closed   bool
	http     *http.Server
	done     chan struct{}
	wg       sync.WaitGroup

	shapeMu sync.Mutex
	shapes  map[string][]string
}

// Stats counts what the server saw.
type Stats struct {
	Requests   int            // HTTP requests, of any kind
	Pipelines  int            // pipeline requests served
	Statements int            // statements run
	Streams    int            // streams opened
	Expired    int            // streams expired (idle or on command)
	Refused    int            // requests refused for their token
	Faults     map[string]int // faults applied, by Fault.String
	MaxBody    int            // largest request body read, in bytes
	Busy       time.Duration  // time spent serving pipelines, summed over requests
	Paths      map[string]int // requests by method and path
}

// New serves the libSQL database file at path (created when missing) on a
// free port of 127.0.0.1.
func New(path string, opts Options) (*Server, error) {
	if opts.StreamTimeout <= 0 {
		opts.StreamTimeout = 10 * time.Second
	}
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = 8 << 20
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("libsql", (&url.URL{Scheme: "file", Path: abs}).String())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	rows, err := db.Query("PRAGMA journal_mode = WAL")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	rows.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		db.Close()
		return nil, err
	}
	srv := &Server{opts: opts, path: abs, db: db, token: opts.Token, streams: map[string]*stream{},
		stats: Stats{Faults: map[string]int{}, Paths: map[string]int{}}, conns: map[net.Conn]bool{},
		done: make(chan struct{}), shapes: map[string][]string{}, listener: ln, url: "http://" + ln.Addr().String()}
	srv.http = &http.Server{Handler: srv, ConnState: srv.track, ReadHeaderTimeout: 10 * time.Second}
	srv.serve(ln)
	srv.wg.Add(1)
	go srv.reap()
	return srv, nil
}

// URL is the server's address, http://127.0.0.1:port.
func (srv *Server) URL() string { return srv.url }

// Path is the database file the server serves.
func (srv *Server) Path() string { return srv.path }

// Stats returns a copy of the counters.
func (srv *Server) Stats() Stats {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	st := srv.stats
	st.Faults, st.Paths = maps.Clone(st.Faults), maps.Clone(st.Paths)
	return st
}

// OpenStreams returns how many streams are open.
func (srv *Server) OpenStreams() int {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return len(srv.streams)
}

// SetDown takes the server off the network (connections are refused and
// open ones cut, as when a laptop loses its network) or puts it back on
// the same address. Streams stay on the server and expire as usual.
func (srv *Server) SetDown(down bool) error {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.closed || down == srv.down {
		return nil
	}
	srv.down = down
	if down {
		err := srv.listener.Close()
		for c := range srv.conns {
			c.Close()
		}
		return err
	}
	ln, err := net.Listen("tcp", srv.listener.Addr().String())
	if err != nil {
		return fmt.Errorf("listen again on %s: %w", srv.listener.Addr(), err)
	}
	srv.listener = ln
	srv.serve(ln)
	return nil
}

func (srv *Server) serve(ln net.Listener) {
	srv.wg.Add(1)
	go func() {
		defer srv.wg.Done()
		_ = srv.http.Serve(ln)
	}()
}

func (srv *Server) track(c net.Conn, state http.ConnState) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	switch state {
	case http.StateNew:
		if srv.down {
			c.Close()
			return
		}
		srv.conns[c] = true
	case http.StateClosed, http.StateHijacked:
		delete(srv.conns, c)
	}
}

// Close stops serving, closes every stream and the database.
func (srv *Server) Close() error {
	srv.mu.Lock()
	if srv.closed {
		srv.mu.Unlock()
		return nil
	}
	srv.closed = true
	close(srv.done)
	srv.mu.Unlock()
	err := srv.http.Close()
	srv.wg.Wait()
	srv.mu.Lock()
	streams := srv.streams
	srv.streams = map[string]*stream{}
	srv.mu.Unlock()
	for _, s := range streams {
		s.mu.Lock()
		s.close()
		s.mu.Unlock()
	}
	return errors.Join(err, srv.db.Close())
}

// reap expires streams idle for longer than the stream timeout.
func (srv *Server) reap() {
	defer srv.wg.Done()
	tick := time.NewTicker(max(srv.opts.StreamTimeout/4, 5*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-srv.done:
			return
		case <-tick.C:
		}
		var idle []*stream
		srv.mu.Lock()
		for baton, s := range srv.streams {
			if time.Since(s.lastUsed) > srv.opts.StreamTimeout {
				delete(srv.streams, baton)
				idle = append(idle, s)
				srv.stats.Expired++
			}
		}
		srv.mu.Unlock()
		for _, s := range idle {
			s.mu.Lock()
			s.close()
			s.mu.Unlock()
		}
	}
}

func (srv *Server) logf(format string, args ...any) {
	if srv.opts.Logf != nil {
		srv.opts.Logf(format, args...)
	}
}

func (srv *Server) observe(string) {
	srv.mu.Lock()
	srv.stats.Statements++
	srv.mu.Unlock()
}

func (srv *Server) count(f func(*Stats)) {
	srv.mu.Lock()
	f(&srv.stats)
	srv.mu.Unlock()
}

// ServeHTTP answers the version checks and the pipeline endpoints.
func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv.count(func(st *Stats) { st.Requests++; st.Paths[r.Method+" "+r.URL.Path]++ })
	if !srv.authorized(r) {
		srv.count(func(st *Stats) { st.Refused++ })
		srv.logf("hrana: %s %s: refused token", r.Method, r.URL.Path)
		writeError(w, http.StatusUnauthorized, &protoError{Message: "Authentication failed: the token is missing or not valid",
			Code: "AUTH_TOKEN_INVALID"})
		return
	}
	switch {
	case r.Method == http.MethodGet && (r.URL.Path == "/v3" || r.URL.Path == "/v2" || r.URL.Path == "/health"):
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && (r.URL.Path == "/v3/pipeline" || r.URL.Path == "/v2/pipeline"):
		srv.serveStream(w, r, false)
	case r.Method == http.MethodPost && r.URL.Path == "/v3/cursor":
		srv.serveStream(w, r, true)
	default:
		writeError(w, http.StatusNotFound, &protoError{Message: "not found: " + r.Method + " " + r.URL.Path})
	}
}

func (srv *Server) authorized(r *http.Request) bool {
	srv.mu.Lock()
	token := srv.token
	srv.mu.Unlock()
	if token == "" {
		return true
	}
	got := r.Header.Get("Authorization")
	want := "Bearer " + token
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// serveStream runs a pipeline request, or a cursor request (a batch whose
// results stream back as lines), on the stream its baton names.
func (srv *Server) serveStream(w http.ResponseWriter, r *http.Request, cursor bool) {
	began := time.Now()
	defer func() { srv.count(func(st *Stats) { st.Busy += time.Since(began) }) }()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, srv.opts.MaxRequestBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		srv.logf("hrana: request over %d bytes refused", srv.opts.MaxRequestBytes)
		writeError(w, http.StatusRequestEntityTooLarge, &protoError{
			Message: fmt.Sprintf("request body is larger than %d bytes", srv.opts.MaxRequestBytes), Code: "REQUEST_TOO_LARGE"})
		return
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, &protoError{Message: "read request: " + err.Error()})
		return
	}
	srv.count(func(st *Stats) { st.Pipelines++; st.MaxBody = max(st.MaxBody, len(body)) })
	if srv.opts.Logf != nil {
		srv.logf("hrana: %s %.300s", r.URL.Path, body)
	}
	var req pipelineReq
	if cursor {
		var c cursorReq
		err = json.Unmarshal(body, &c)
		req = pipelineReq{Baton: c.Baton, Requests: []streamReq{{Type: "batch", Batch: &c.Batch}}}
	} else {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, &protoError{Message: "request is not valid: " + err.Error(), Code: "PROTOCOL"})
		return
	}
	info := describeRequest(r.URL.Path, req)
	f := srv.faultFor(info)
	if f.Kind != NoFault {
		srv.count(func(st *Stats) { st.Faults[f.String()]++ })
		srv.logf("hrana: fault %v on %s %q", f, r.URL.Path, info.SQL)
	}
	switch f.Kind {
	case DropBefore:
		hangUp(w, nil)
		return
	case Status:
		srv.endStream(req.Baton)
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(f.RetryAfter.Seconds())))
		}
		writeError(w, f.Code, &protoError{Message: http.StatusText(f.Code) + " (injected)", Code: "INJECTED"})
		return
	case TooLarge:
		writeError(w, http.StatusRequestEntityTooLarge, &protoError{Message: "request body is too large (injected)",
			Code: "REQUEST_TOO_LARGE"})
		return
	case ExpireStream:
		srv.endStream(req.Baton)
	case Slow:
		select {
		case <-time.After(f.Delay):
		case <-srv.done:
		case <-r.Context().Done():
			return
		}
	}
	resp, perr := srv.run(r.Context(), req)
	if perr != nil {
		writeError(w, http.StatusBadRequest, perr)
		return
	}
	var out []byte
	if cursor {
		out, err = cursorBody(resp)
	} else {
		out, err = json.Marshal(resp)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, &protoError{Message: err.Error()})
		return
	}
	switch f.Kind {
	case DropAfter:
		hangUp(w, nil)
		return
	case Truncate:
		hangUp(w, out[:len(out)/2])
		return
	}
	if cursor {
		w.Header().Set("Content-Type", "text/plain")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Write(out)
}

// run executes the pipeline's requests on the stream its baton names, or
// on a new one.
func (srv *Server) run(ctx context.Context, req pipelineReq) (*pipelineResp, *protoError) {
	s, perr := srv.stream(ctx, req.Baton)
	if perr != nil {
		return nil, perr
	}
	defer s.mu.Unlock()
	resp := &pipelineResp{Results: make([]streamResult, 0, len(req.Requests))}
	closing := false
	for _, sr := range req.Requests {
		if closing {
			resp.Results = append(resp.Results, streamResult{Type: "error",
				Error: &protoError{Message: "the stream is closed", Code: "STREAM_CLOSED"}})
			continue
		}
		out, perr := s.run(ctx, srv, sr)
		if perr != nil {
			resp.Results = append(resp.Results, streamResult{Type: "error", Error: perr})
		} else {
			resp.Results = append(resp.Results, streamResult{Type: "ok", Response: out})
		}
		closing = closing || sr.Type == "close"
	}
	if closing {
		s.close()
		return resp, nil
	}
	baton := newBaton()
	s.baton, s.lastUsed = baton, time.Now()
	srv.mu.Lock()
	srv.streams[baton] = s
	srv.mu.Unlock()
	resp.Baton = &baton
	return resp, nil
}

// stream returns the stream a baton names, locked and taken out of the
// table (run puts it back under a new baton), or opens one for a nil
// baton.
func (srv *Server) stream(ctx context.Context, baton *string) (*stream, *protoError) {
	if baton == nil {
		conn, err := srv.db.Conn(ctx)
		if err != nil {
			return nil, sqlError(err)
		}
		rows, err := conn.QueryContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", srv.opts.BusyTimeout.Milliseconds()))
		if err != nil {
			conn.Close()
			return nil, sqlError(err)
		}
		rows.Close()
		srv.count(func(st *Stats) { st.Streams++ })
		s := &stream{conn: conn, sqls: map[int32]string{}, lastUsed: time.Now()}
		s.mu.Lock()
		return s, nil
	}
	srv.mu.Lock()
	s, ok := srv.streams[*baton]
	delete(srv.streams, *baton)
	srv.mu.Unlock()
	if !ok {
		return nil, &protoError{Message: "the stream has expired or its baton is not valid", Code: "STREAM_EXPIRED"}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, &protoError{Message: "the stream has expired", Code: "STREAM_EXPIRED"}
	}
	return s, nil
}

// endStream closes the stream a baton names, if any.
func (srv *Server) endStream(baton *string) {
	if baton == nil {
		return
	}
	srv.mu.Lock()
	s, ok := srv.streams[*baton]
	delete(srv.streams, *baton)
	if ok {
		srv.stats.Expired++
	}
	srv.mu.Unlock()
	if ok {
		s.mu.Lock()
		s.close()
		s.mu.Unlock()
	}
}

// describeRequest lists what a fault policy may match on.
func describeRequest(path string, req pipelineReq) Request {
	info := Request{Path: path, Baton: req.Baton != nil}
	add := func(st *stmt) {
		if st != nil && st.SQL != nil {
			info.SQL = append(info.SQL, *st.SQL)
		}
	}
	for _, r := range req.Requests {
		add(r.Stmt)
		if r.Batch != nil {
			for i := range r.Batch.Steps {
				add(&r.Batch.Steps[i].Stmt)
			}
		}
		if r.SQL != nil {
			info.SQL = append(info.SQL, *r.SQL)
		}
	}
	return info
}

// hangUp closes the client's connection, after sending partial (an HTTP
// response that promises more than it holds) when given.
func hangUp(w http.ResponseWriter, partial []byte) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("hranatest: the connection cannot be hijacked")
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	if partial != nil {
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2*len(partial)+1)
		buf.Write(partial)
		buf.Flush()
	}
	conn.Close()
}

func writeError(w http.ResponseWriter, status int, e *protoError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	out, _ := json.Marshal(e)
	w.Write(out)
}

func newBaton() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
