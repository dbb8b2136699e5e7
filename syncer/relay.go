package syncer

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultRequestTimeout bounds one HTTP request to the remote, from
// sending it to the last byte of the answer.
const DefaultRequestTimeout = time.Minute

// relay stands between go-libsql and an HTTP remote, on a loopback port
// that lives as long as one connection to the remote. go-libsql sets no
// timeout and ignores contexts: a request on a connection that died while
// the laptop slept would wait for ever. Through the relay every request
// has a deadline, the round's context cancels it, and credence sees each
// answer's HTTP status, so a refused token or a rate limit is reported as
// what it is. The relay adds no credentials: go-libsql sends the token in
// its Authorization header, and the relay forwards it. Its path starts
// with a random element, so another process on the machine cannot use it
// to reach the remote.
type relay struct {
	base    *url.URL // the remote, with https for libsql://
	prefix  string   // "/<random>"
	own     string   // the relay's URL, with the prefix
	ln      net.Listener
	srv     *http.Server
	client  *http.Client
	life    context.Context // ends at close
	cancel  context.CancelFunc
	timeout time.Duration
	done    chan struct{}

	mu       sync.Mutex
	op       context.Context // the operation the requests belong to (bind)
	override string          // base_url the remote named for the stream in use
	failure  *wireError
	requests int
}

// startRelay listens on 127.0.0.1 and forwards to the remote at base.
func startRelay(base *url.URL, timeout time.Duration) (*relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start sync relay: %w", err)
	}
	secret := make([]byte, 16)
	rand.Read(secret)
	prefix := "/" + base64.RawURLEncoding.EncodeToString(secret)
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	life, cancel := context.WithCancel(context.Background())
	r := &relay{base: base, prefix: prefix, own: "http://" + ln.Addr().String() + prefix, ln: ln,
		life: life, cancel: cancel, timeout: timeout, done: make(chan struct{}), op: context.Background()}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.ResponseHeaderTimeout = timeout
	r.client = &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // a redirect would carry the token elsewhere
	}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: timeout}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(ln)
	}()
	return r, nil
}

// bind makes ctx end the requests that follow, until the next bind: a
// round cancelled half way ends at once rather than when its next request
// times out.
func (r *relay) bind(ctx context.Context) {
	r.mu.Lock()
	r.op = ctx
	r.mu.Unlock()
}

// URL is what go-libsql connects to.
func (r *relay) URL() string { return r.own }

// close cancels what is in flight and stops listening.
func (r *relay) close() error {
	r.cancel()
	err := r.srv.Close()
	<-r.done
	r.client.CloseIdleConnections()
	return err
}

// take returns, and forgets, how the last failed request failed.
func (r *relay) take() *wireError {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.failure
	r.failure = nil
	return f
}

// count returns how many requests went to the remote.
func (r *relay) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

func (r *relay) fail(f *wireError) {
	r.mu.Lock()
	r.failure = f
	r.mu.Unlock()
}

// ServeHTTP forwards one request and its answer.
func (r *relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	rest, ok := strings.CutPrefix(req.URL.Path, r.prefix)
	if !ok {
		http.NotFound(w, req)
		return
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "read request: "+err.Error(), http.StatusBadRequest)
		return
	}
	target := r.target(body) + rest
	ctx, cancel := context.WithTimeout(r.life, r.timeout)
	defer cancel()
	r.mu.Lock()
	op := r.op
	r.mu.Unlock()
	stop := context.AfterFunc(op, cancel)
	defer stop()
	out, err := http.NewRequestWithContext(ctx, req.Method, target, bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	for _, h := range []string{"Authorization", "Content-Type", "X-Libsql-Client-Version"} {
		if v := req.Header.Get(h); v != "" {
			out.Header.Set(h, v)
		}
	}
	r.mu.Lock()
	r.requests++
	r.mu.Unlock()
	resp, err := r.client.Do(out)
	if err != nil {
		r.answerFailure(w, r.unreachable(ctx, err))
		return
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		r.answerFailure(w, &wireError{kind: ErrUnreachable, host: r.base.Host,
			msg: fmt.Sprintf("the answer from %s was cut off: %v", r.base.Host, cause(ctx, err))})
		return
	}
	if resp.StatusCode != http.StatusOK {
		r.fail(statusError(r.base.Host, resp, answer))
	} else {
		answer = r.rewriteBase(answer)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(answer)
}

// answerFailure records f and tells go-libsql the request failed.
func (r *relay) answerFailure(w http.ResponseWriter, f *wireError) {
	r.fail(f)
	http.Error(w, f.msg, http.StatusBadGateway)
}

func (r *relay) unreachable(ctx context.Context, err error) *wireError {
	return &wireError{kind: ErrUnreachable, host: r.base.Host,
		msg: fmt.Sprintf("cannot reach %s: %v", r.base.Host, cause(ctx, err))}
}

// cause names why a request ended: the deadline, a cancelled round, or
// the network's own error.
func cause(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return errors.New("no answer before the request timeout")
	case errors.Is(ctx.Err(), context.Canceled):
		return context.Canceled
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err // the URL is the remote's, shown elsewhere
	}
	return err
}

// target is where a request goes: the remote, or the URL it named for
// the stream the request continues (Hrana's base_url).
func (r *relay) target(body []byte) string {
	r.mu.Lock()
	override := r.override
	r.mu.Unlock()
	if override != "" {
		var head struct {
			Baton *string `json:"baton"`
		}
		if json.Unmarshal(body, &head) == nil && head.Baton != nil {
			return override
		}
	}
	return strings.TrimSuffix(r.base.String(), "/")
}

// rewriteBase keeps go-libsql talking to the relay when the remote names
// another URL for a stream: the relay remembers it and names itself. The
// JSON of a cursor answer is its first line.
func (r *relay) rewriteBase(answer []byte) []byte {
	if !bytes.Contains(answer, []byte(`"base_url":"`)) {
		r.mu.Lock()
		if bytes.Contains(answer, []byte(`"baton":null`)) {
			r.override = "" // the stream ended
		}
		r.mu.Unlock()
		return answer
	}
	first, rest, _ := bytes.Cut(answer, []byte("\n"))
	var head map[string]json.RawMessage
	if json.Unmarshal(first, &head) != nil {
		return answer
	}
	var base string
	if json.Unmarshal(head["base_url"], &base) != nil || base == "" {
		return answer
	}
	r.mu.Lock()
	r.override = strings.TrimSuffix(base, "/")
	r.mu.Unlock()
	head["base_url"], _ = json.Marshal(r.own)
	out, err := json.Marshal(head)
	if err != nil {
		return answer
	}
	if len(rest) > 0 || bytes.Contains(answer, []byte("\n")) {
		out = append(append(out, '\n'), rest...)
	}
	return out
}

// Errors a remote reached over HTTP fails with, for callers that branch:
// the agent's loop waits longer after ErrRateLimited, status and doctor
// tell a refused token from an unreachable remote.
var (
	ErrUnreachable  = errors.New("remote unreachable")
	ErrTokenRefused = errors.New("remote refused the token")
	ErrRateLimited  = errors.New("remote is rate limiting")
	ErrTooLarge     = errors.New("remote refused a request as too large")
	ErrRemoteFailed = errors.New("remote failed")
)

// wireError is how one HTTP request to the remote failed.
type wireError struct {
	kind       error // one of the Err* above
	host       string
	status     int
	retryAfter time.Duration
	msg        string
}

func (e *wireError) Error() string             { return e.msg }
func (e *wireError) Is(target error) bool      { return target == e.kind }
func (e *wireError) RetryAfter() time.Duration { return e.retryAfter }

// unreachableError marks an error that kept the remote from being asked
// at all (it could not be opened), so status does not call it reachable.
type unreachableError struct{ err error }

func (e unreachableError) Error() string        { return e.err.Error() }
func (e unreachableError) Unwrap() error        { return e.err }
func (e unreachableError) Is(target error) bool { return target == ErrUnreachable }

// statusError describes an answer other than 200.
func statusError(host string, resp *http.Response, body []byte) *wireError {
	e := &wireError{host: host, status: resp.StatusCode}
	detail := remoteMessage(body)
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.kind = ErrTokenRefused
		e.msg = fmt.Sprintf("%s refused the token (HTTP %d%s): set sync.token in the config file, or "+
			"CREDENCE_SYNC_TOKEN, to a token for this database", host, code, detail)
	case code == http.StatusTooManyRequests:
		e.kind = ErrRateLimited
		e.retryAfter = retryAfter(resp.Header.Get("Retry-After"))
		e.msg = fmt.Sprintf("%s is rate limiting (HTTP 429%s)", host, detail)
	case code == http.StatusRequestEntityTooLarge:
		e.kind = ErrTooLarge
		e.msg = fmt.Sprintf("%s refused a request as too large (HTTP 413%s)", host, detail)
	case code >= 500:
		e.kind = ErrRemoteFailed
		e.retryAfter = retryAfter(resp.Header.Get("Retry-After"))
		e.msg = fmt.Sprintf("%s failed (HTTP %d%s)", host, code, detail)
	default:
		e.kind = ErrRemoteFailed
		e.msg = fmt.Sprintf("%s answered HTTP %d%s", host, code, detail)
	}
	return e
}

// remoteMessage is the Hrana error message of an answer, if it has one,
// short and prefixed for a parenthesis.
func remoteMessage(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil || e.Message == "" {
		return ""
	}
	msg := e.Message
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return ": " + msg
}

// retryAfter reads a Retry-After header in seconds; dates are ignored.
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return min(time.Duration(n)*time.Second, BackoffMax)
}

// RetryAfter returns how long the remote asked to be left alone, found in
// err (0 when it did not ask).
func RetryAfter(err error) time.Duration {
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		return ra.RetryAfter()
	}
	return 0
}
