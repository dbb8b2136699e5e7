package hookrelay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Version is the wire format's version; a request of another version is
// declined, and the front falls back to handling the event in-process.
// Version 1 framed its lines as JSON; 2 frames them as plain text, so the
// front links no JSON encoder; 3 lets the agent answer a go-ahead it
// stopped waiting for with "declined", so a go that crosses the agent's
// time-out never loses the event.
const Version = 3

// The exchange on one connection, in order:
//
//	front → agent  request line, then Request.Size bytes of Claude Code's stdin:
//	               credence-hook/3 <event> <deadline, Unix ns> <size> <database, Go-quoted>
//	agent → front  "ready" (or "declined <reason, Go-quoted>", and close)
//	front → agent  "go"
//	agent → front  "ok <size>", then that many bytes for stdout; or
//	               "declined <reason>" when the agent stopped waiting for
//	               the go before it came, and close
//
// Every line ends in "\n". The "ready"/"go" step makes the hand-over
// explicit: until the agent has read "go" it has done nothing, so a front
// that hears no "ready" in time, cannot send its "go", or hears "declined"
// after it, handles the event itself without storing anything twice; a
// front that sent "go" and hears nothing at all leaves the event to the
// agent.

// Reply statuses.
const (
	StatusReady    = "ready"
	StatusDeclined = "declined"
	StatusOK       = "ok"
)

// magic starts a request line; its version follows.
const magic = "credence-hook/"

// goLine is the front's go-ahead.
const goLine = "go"

// maxLine bounds a request or reply line.
const maxLine = 4 << 10

// MaxOutput bounds what the agent may send for stdout: additionalContext is
// capped at 10,000 characters, so a megabyte is far beyond any real reply.
const MaxOutput = 1 << 20

// Request is what the front's first line says.
type Request struct {
	V     int
	Event string
	// Database is the database the front's config names; an agent serving
	// another one declines.
	Database string
	// Deadline (Unix nanoseconds) is when the front gives up.
	Deadline int64
	// Size is the length of the stdin bytes that follow.
	Size int64
}

// DeadlineTime returns Deadline as a time.
func (r Request) DeadlineTime() time.Time { return time.Unix(0, r.Deadline) }

// Reply is a line the agent sends.
type Reply struct {
	Status string
	// Reason says why a request was declined.
	Reason string
	// Size is the length of the stdout bytes that follow an ok reply.
	Size int64
}

// WriteRequest writes req's line and the stdin bytes, in one write.
func WriteRequest(w io.Writer, req Request, stdin []byte) error {
	b := make([]byte, 0, 128+len(req.Database)+len(stdin))
	b = append(b, magic...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, ' ')
	b = append(b, req.Event...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, req.Deadline, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(stdin)), 10)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, req.Database)
	b = append(b, '\n')
	_, err := w.Write(append(b, stdin...))
	return err
}

// ReadRequest reads a request line and its stdin bytes, refusing more than
// maxStdin of them.
func ReadRequest(r *bufio.Reader, maxStdin int64) (Request, []byte, error) {
	req, err := readRequestLine(r)
	if err != nil {
		return req, nil, fmt.Errorf("read request: %w", err)
	}
	if req.Size > maxStdin {
		return req, nil, fmt.Errorf("read request: %d bytes of stdin, at most %d accepted", req.Size, maxStdin)
	}
	stdin := make([]byte, req.Size)
	if _, err := io.ReadFull(r, stdin); err != nil {
		return req, nil, fmt.Errorf("read request stdin: %w", err)
	}
	return req, stdin, nil
}

func readRequestLine(r *bufio.Reader) (Request, error) {
	var req Request
	line, err := readLine(r)
	if err != nil {
		return req, err
	}
	rest, ok := strings.CutPrefix(line, magic)
	if !ok {
		return req, errors.New("not a credence-hook request")
	}
	f := strings.SplitN(rest, " ", 5)
	if req.V, err = strconv.Atoi(f[0]); err != nil {
		return req, errors.New("not a credence-hook request")
	}
	if req.V != Version {
		return req, fmt.Errorf("wire version %d, want %d", req.V, Version)
	}
	if len(f) != 5 {
		return req, errors.New("request line has too few fields")
	}
	req.Event = f[1]
	if req.Deadline, err = strconv.ParseInt(f[2], 10, 64); err != nil {
		return req, fmt.Errorf("request deadline: %w", err)
	}
	if req.Size, err = strconv.ParseInt(f[3], 10, 64); err != nil || req.Size < 0 {
		return req, fmt.Errorf("request size %q", f[3])
	}
	if req.Database, err = strconv.Unquote(f[4]); err != nil {
		return req, fmt.Errorf("request database: %w", err)
	}
	return req, nil
}

// WriteReply writes a reply line and, for StatusOK, the stdout bytes, in one
// write, so the front wakes once.
func WriteReply(w io.Writer, rep Reply, stdout []byte) error {
	b := make([]byte, 0, 32+len(rep.Reason)+len(stdout))
	b = append(b, rep.Status...)
	switch rep.Status {
	case StatusOK:
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(stdout)), 10)
	case StatusDeclined:
		b = append(b, ' ')
		b = strconv.AppendQuote(b, rep.Reason)
	}
	b = append(b, '\n')
	if rep.Status == StatusOK {
		b = append(b, stdout...)
	}
	_, err := w.Write(b)
	return err
}

// ReadReply reads a reply line and the stdout bytes that follow it.
func ReadReply(r *bufio.Reader) (Reply, []byte, error) {
	var rep Reply
	line, err := readLine(r)
	if err != nil {
		return rep, nil, fmt.Errorf("read reply: %w", err)
	}
	status, arg, _ := strings.Cut(line, " ")
	rep.Status = status
	switch status {
	case StatusReady:
		if arg != "" {
			return rep, nil, fmt.Errorf("read reply: unexpected %q", line)
		}
		return rep, nil, nil
	case StatusDeclined:
		if rep.Reason, err = strconv.Unquote(arg); err != nil {
			rep.Reason = arg
		}
		return rep, nil, nil
	case StatusOK:
	default:
		return rep, nil, fmt.Errorf("read reply: unexpected %.40q", line)
	}
	if rep.Size, err = strconv.ParseInt(arg, 10, 64); err != nil || rep.Size < 0 || rep.Size > MaxOutput {
		return rep, nil, fmt.Errorf("read reply: output size %.20q, at most %d accepted", arg, MaxOutput)
	}
	out := make([]byte, rep.Size)
	if _, err := io.ReadFull(r, out); err != nil {
		return rep, nil, fmt.Errorf("read reply output: %w", err)
	}
	return rep, out, nil
}

// WriteGo sends the front's go-ahead.
func WriteGo(w io.Writer) error {
	_, err := io.WriteString(w, goLine+"\n")
	return err
}

// ReadGo waits for the front's go-ahead.
func ReadGo(r *bufio.Reader) error {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("read go-ahead: %w", err)
	}
	if string(line) != goLine+"\n" {
		return errors.New("read go-ahead: unexpected line")
	}
	return nil
}

// readLine reads one line of at most maxLine bytes, without its "\n".
func readLine(r *bufio.Reader) (string, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLine {
			return "", fmt.Errorf("line longer than %d bytes", maxLine)
		}
		if err == nil {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return "", err
		}
	}
	return string(line[:len(line)-1]), nil
}
