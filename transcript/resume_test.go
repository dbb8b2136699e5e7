package transcript

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// readGrowing simulates a transcript written a few bytes at a time: after
// each write it reads from the offset the previous read returned, as the
// tailer does. It returns every exchange reported, in order.
func readGrowing(t *testing.T, data []byte, step int) []Exchange {
	t.Helper()
	var all []Exchange
	var next int64
	for n := 0; ; n = min(len(data), n+step) {
		exs, nx, err := ReadExchanges(bytes.NewReader(data[:n]), next)
		if err != nil {
			t.Fatalf("ReadExchanges(%d bytes, from %d) error: %v", n, next, err)
		}
		if nx < next || nx > int64(n) {
			t.Fatalf("next=%d, want in [%d,%d]", nx, next, n)
		}
		checkOffsets(t, exs, next, nx)
		all, next = append(all, exs...), nx
		if n == len(data) {
			return all
		}
	}
}

func TestResumeReportsEachExchangeOnce(t *testing.T) {
	for _, file := range []string{"session.jsonl", "torn.jsonl", "crlf.jsonl", "compact.jsonl", "pending.jsonl"} {
		data := readFixture(t, file)
		full, _, err := ReadExchanges(bytes.NewReader(data), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []int{13, 64, 1000} {
			t.Run(fmt.Sprintf("%s/step%d", file, step), func(t *testing.T) {
				got := readGrowing(t, data, step)
				seen := map[string]bool{}
				for _, e := range got {
					if seen[e.Key()] {
						t.Errorf("exchange %q reported twice", e.Prompt)
					}
					seen[e.Key()] = true
				}
				for _, e := range full {
					if !seen[e.Key()] {
						t.Errorf("exchange %q (occurrence %d) never reported", e.Prompt, e.Occurrence)
					}
				}
			})
		}
	}
}

func TestTornLineCompletedLater(t *testing.T) {
	data := readFixture(t, "torn.jsonl")
	exs, next, err := ReadExchanges(bytes.NewReader(data), 0)
	if err != nil || len(exs) != 1 {
		t.Fatalf("first read: %d exchanges, %v", len(exs), err)
	}
	// The writer finishes the torn assistant line.
	cut := bytes.LastIndexByte(data, '\n') + 1
	rest := `{"parentUuid":"p","isSidechain":false,"type":"assistant","sessionId":"1c0d2b8e-8f3e-4c55-9a61-0d7f3e2a9b10",` +
		`"message":{"id":"msg_torn","role":"assistant","model":"claude","content":[{"type":"text","text":"It handles hook events."}]},` +
		`"uuid":"a9","timestamp":"2025-06-01T10:00:18.000Z"}` + "\n"
	grown := append(append([]byte{}, data[:cut]...), rest...)
	exs2, next2, err := ReadExchanges(bytes.NewReader(grown), next)
	if err != nil {
		t.Fatal(err)
	}
	if got := prompts(exs2); len(got) != 1 || got[0] != "What does credence-hook do?" {
		t.Fatalf("second read prompts=%q, want the torn turn once", got)
	}
	if exs2[0].Response != "It handles hook events." || next2 != int64(len(grown)) {
		t.Errorf("Response=%q next=%d, want the completed line and %d", exs2[0].Response, next2, len(grown))
	}
}

func TestBrokenLines(t *testing.T) {
	const (
		prompt = `{"type":"user","sessionId":"s","message":{"role":"user","content":"q"}}` + "\n"
		reply  = `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}` + "\n"
		broken = `{"type":"assistant","message":` + "\n"
	)
	tests := []struct {
		name    string
		data    string
		prompts int
		next    int
	}{
		{"broken line in the middle is skipped", prompt + broken + reply, 1, len(prompt + broken + reply)},
		{"broken last line is a write in progress", prompt + reply + broken, 0, 0},
		{"broken last line after a finished turn", prompt + reply + prompt + reply + broken, 1, len(prompt + reply)},
		{"only a broken line", broken, 0, 0},
		{"reply without prompt is consumed", reply + reply, 0, len(reply + reply)},
		{"blank lines", "\n\n" + prompt + reply, 1, len("\n\n" + prompt + reply)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exs, next, err := ReadExchanges(strings.NewReader(tt.data), 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(exs) != tt.prompts || next != int64(tt.next) {
				t.Errorf("got %d exchanges, next %d; want %d, %d", len(exs), next, tt.prompts, tt.next)
			}
		})
	}
}

func TestOversizedLineIsSkipped(t *testing.T) {
	const (
		prompt = `{"type":"user","sessionId":"s","message":{"role":"user","content":"read the big file"}}` + "\n"
		tool   = `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/big"}}]}}` + "\n"
		reply  = `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"It is big."}]}}` + "\n"
	)
	huge := `{"type":"user","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` +
		strings.Repeat("x", MaxLineBytes) + `"}]}}` + "\n"
	data := prompt + tool + huge + reply
	exs, next, err := ReadExchanges(strings.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 1 || exs[0].Response != "It is big." || next != int64(len(data)) {
		t.Fatalf("got %d exchanges, next %d of %d", len(exs), next, len(data))
	}
	// Without the reply, the oversized line ends the file and the turn waits.
	exs, next, err = ReadExchanges(strings.NewReader(prompt+tool+huge), 0)
	if err != nil || len(exs) != 0 || next != 0 {
		t.Errorf("pending turn: %d exchanges, next %d, err %v; want 0, 0, nil", len(exs), next, err)
	}
}

func TestLineReaderCap(t *testing.T) {
	lr := newLineReader(strings.NewReader("short\n"+strings.Repeat("y", 100)+"\nend\ntorn"), 0, math.MaxInt64)
	lr.max = 10
	want := []struct {
		line string
		st   lineStatus
	}{{"short", lineOK}, {"", lineTooLong}, {"end", lineOK}, {"", lineTorn}}
	for i, w := range want {
		line, _, _, st, err := lr.next()
		if err != nil || st != w.st || string(line) != w.line {
			t.Errorf("line %d: (%q, %v, %v), want (%q, %v)", i, line, st, err, w.line, w.st)
		}
	}
}
