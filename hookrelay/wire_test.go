package hookrelay

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

func TestWireRoundTrip(t *testing.T) {
	stdin := []byte("{\"prompt\":\"line one\\nline two\"}\n")
	var buf bytes.Buffer
	if err := WriteRequest(&buf, Request{Event: EventStop, Database: "/d/credence.db", Deadline: 42}, stdin); err != nil {
		t.Fatal(err)
	}
	if err := WriteGo(&buf); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(&buf)
	req, got, err := ReadRequest(r, 1<<20)
	if err != nil || req.Event != EventStop || req.Database != "/d/credence.db" || req.Deadline != 42 || !bytes.Equal(got, stdin) {
		t.Fatalf("ReadRequest()=%+v, %q, %v", req, got, err)
	}
	if err := ReadGo(r); err != nil {
		t.Fatalf("ReadGo: %v", err)
	}

	buf.Reset()
	out := []byte(`{"hookSpecificOutput":{}}` + "\n")
	WriteReply(&buf, Reply{Status: StatusReady}, nil)
	WriteReply(&buf, Reply{Status: StatusOK}, out)
	r = bufio.NewReader(&buf)
	if rep, b, err := ReadReply(r); err != nil || rep.Status != StatusReady || len(b) != 0 {
		t.Fatalf("first ReadReply()=%+v, %q, %v", rep, b, err)
	}
	if rep, b, err := ReadReply(r); err != nil || rep.Status != StatusOK || !bytes.Equal(b, out) {
		t.Fatalf("second ReadReply()=%+v, %q, %v", rep, b, err)
	}
}

func TestWireRefuses(t *testing.T) {
	tests := []struct {
		name, data string
		read       func(*bufio.Reader) error
	}{
		{"request over the stdin cap", `{"v":1,"event":"Stop","size":11}` + "\n" + "hello world",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"request of another version", `{"v":2,"event":"Stop","size":0}` + "\n",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"request shorter than its size", `{"v":1,"event":"Stop","size":5}` + "\n" + "abc",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"negative size", `{"v":1,"event":"Stop","size":-1}` + "\n",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"line without an end", strings.Repeat("x", 10000),
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"reply over the output cap", `{"status":"ok","size":2000000}` + "\n",
			func(r *bufio.Reader) error { _, _, err := ReadReply(r); return err }},
		{"reply that is not JSON", "ok\n",
			func(r *bufio.Reader) error { _, _, err := ReadReply(r); return err }},
		{"go-ahead that is something else", "stop\n",
			func(r *bufio.Reader) error { return ReadGo(r) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.read(bufio.NewReader(strings.NewReader(tc.data))); err == nil {
				t.Error("accepted")
			}
		})
	}
}
