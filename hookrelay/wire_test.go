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
	req := func(version, size string) string {
		return "credence-hook/" + version + " Stop 42 " + size + ` "/d/credence.db"` + "\n"
	}
	tests := []struct {
		name, data string
		read       func(*bufio.Reader) error
	}{
		{"request over the stdin cap", req("2", "11") + "hello world",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"request of another version", req("2", "0"),
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"request of version 1 (JSON)", `{"v":1,"event":"Stop","size":0}` + "\n",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"request shorter than its size", req("3", "5") + "abc",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"negative size", req("3", "-1"),
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"unquoted database", "credence-hook/3 Stop 42 0 /d/credence.db\n",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"missing fields", "credence-hook/3 Stop 42\n",
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"line without an end", strings.Repeat("x", 10000),
			func(r *bufio.Reader) error { _, _, err := ReadRequest(r, 10); return err }},
		{"reply over the output cap", "ok 2000000\n",
			func(r *bufio.Reader) error { _, _, err := ReadReply(r); return err }},
		{"reply shorter than its size", "ok 10\nabc",
			func(r *bufio.Reader) error { _, _, err := ReadReply(r); return err }},
		{"reply of version 1 (JSON)", `{"status":"ready"}` + "\n",
			func(r *bufio.Reader) error { _, _, err := ReadReply(r); return err }},
		{"ok without a size", "ok\n",
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

// TestWireQuotes: a database path or a reason with spaces, quotes,
// newlines or bytes that are not UTF-8 survives the line framing.
func TestWireQuotes(t *testing.T) {
	odd := "/home/a b/\"q\"\n/\xff/credence.db"
	var buf bytes.Buffer
	if err := WriteRequest(&buf, Request{Event: EventUserPromptSubmit, Database: odd, Deadline: -1}, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if req, stdin, err := ReadRequest(bufio.NewReader(&buf), 10); err != nil || req.Database != odd || req.Deadline != -1 || string(stdin) != "x" {
		t.Fatalf("ReadRequest()=%+v, %q, %v", req, stdin, err)
	}
	buf.Reset()
	WriteReply(&buf, Reply{Status: StatusDeclined, Reason: odd}, []byte("ignored"))
	if rep, out, err := ReadReply(bufio.NewReader(&buf)); err != nil || rep.Status != StatusDeclined || rep.Reason != odd || len(out) != 0 {
		t.Fatalf("ReadReply()=%+v, %q, %v", rep, out, err)
	}
}
