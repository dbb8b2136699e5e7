package hookrelay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Version is the wire format's version; a request of another version is
// declined, and the front falls back to handling the event in-process.
const Version = 1

// The exchange on one connection, in order:
//
//	front → agent  Request line, then Request.Size bytes of Claude Code's stdin
//	agent → front  Reply line with StatusReady (or StatusDeclined, and close)
//	front → agent  the line "go"
//	agent → front  Reply line with StatusOK, then Reply.Size bytes for stdout
//
// The "ready"/"go" step makes the hand-over explicit: until the front has
// sent "go" the agent has done nothing, so a front that hears no "ready"
// in time can handle the event itself without storing anything twice; once
// it has sent "go" it never does.

// Reply statuses.
const (
	StatusReady    = "ready"
	StatusDeclined = "declined"
	StatusOK       = "ok"
)

// goLine is the front's go-ahead.
const goLine = "go"

// maxLine bounds a request or reply line.
const maxLine = 4 << 10

// MaxOutput bounds what the agent may send for stdout: additionalContext is
// capped at 10,000 characters, so a megabyte is far beyond any real reply.
const MaxOutput = 1 << 20

// Request is the front's first line.
type Request struct {
	V     int    `json:"v"`
	Event string `json:"event"`
	// Database is the database the front's config names; an agent serving
	// another one declines.
	Database string `json:"database"`
	// Deadline (Unix nanoseconds) is when the front gives up.
	Deadline int64 `json:"deadline"`
	// Size is the length of the stdin bytes that follow.
	Size int64 `json:"size"`
}

// DeadlineTime returns Deadline as a time.
func (r Request) DeadlineTime() time.Time { return time.Unix(0, r.Deadline) }

// Reply is a line the agent sends.
type Reply struct {
	Status string `json:"status"`
	// Reason says why a request was declined or failed.
	Reason string `json:"reason,omitempty"`
	// Size is the length of the stdout bytes that follow an ok reply.
	Size int64 `json:"size,omitempty"`
}

// WriteRequest writes req's line and the stdin bytes, in one write.
func WriteRequest(w io.Writer, req Request, stdin []byte) error {
	req.V, req.Size = Version, int64(len(stdin))
	return writeFramed(w, req, stdin)
}

// ReadRequest reads a request line and its stdin bytes, refusing more than
// maxStdin of them.
func ReadRequest(r *bufio.Reader, maxStdin int64) (Request, []byte, error) {
	var req Request
	if err := readLine(r, &req); err != nil {
		return req, nil, fmt.Errorf("read request: %w", err)
	}
	if req.V != Version {
		return req, nil, fmt.Errorf("read request: wire version %d, want %d", req.V, Version)
	}
	if req.Size < 0 || req.Size > maxStdin {
		return req, nil, fmt.Errorf("read request: %d bytes of stdin, at most %d accepted", req.Size, maxStdin)
	}
	stdin := make([]byte, req.Size)
	if _, err := io.ReadFull(r, stdin); err != nil {
		return req, nil, fmt.Errorf("read request stdin: %w", err)
	}
	return req, stdin, nil
}

// WriteReply writes a reply line and, for StatusOK, the stdout bytes, in one
// write, so the front wakes once.
func WriteReply(w io.Writer, rep Reply, stdout []byte) error {
	rep.Size = int64(len(stdout))
	return writeFramed(w, rep, stdout)
}

// writeFramed writes v as a JSON line followed by payload, in one write.
func writeFramed(w io.Writer, v any, payload []byte) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(line)+1+len(payload))
	_, err = w.Write(append(append(append(buf, line...), '\n'), payload...))
	return err
}

// ReadReply reads a reply line and the stdout bytes that follow it.
func ReadReply(r *bufio.Reader) (Reply, []byte, error) {
	var rep Reply
	if err := readLine(r, &rep); err != nil {
		return rep, nil, fmt.Errorf("read reply: %w", err)
	}
	if rep.Size < 0 || rep.Size > MaxOutput {
		return rep, nil, fmt.Errorf("read reply: %d bytes of output, at most %d accepted", rep.Size, MaxOutput)
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

// readLine decodes one JSON line of at most maxLine bytes.
func readLine(r *bufio.Reader, v any) error {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLine {
			return fmt.Errorf("line longer than %d bytes", maxLine)
		}
		if err == nil {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
	return json.Unmarshal(line, v)
}
