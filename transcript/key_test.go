package transcript

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestKeyForOccurrence(t *testing.T) {
	base := KeyForOccurrence("s1", "run the tests", 1)
	tests := []struct {
		name string
		key  string
		same bool
	}{
		{"KeyFor is the first occurrence", KeyFor("s1", "run the tests"), true},
		{"occurrence below one counts as one", KeyForOccurrence("s1", "run the tests", 0), true},
		{"white space and line endings do not matter", KeyForOccurrence("s1", "  run\r\nthe\ttests \n", 1), true},
		{"second occurrence differs", KeyForOccurrence("s1", "run the tests", 2), false},
		{"other session differs", KeyForOccurrence("s2", "run the tests", 1), false},
		{"other prompt differs", KeyForOccurrence("s1", "run the test", 1), false},
		{"case matters", KeyForOccurrence("s1", "Run the tests", 1), false},
		{"session and prompt cannot trade bytes", KeyForOccurrence("s1 run", "the tests", 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if (tt.key == base) != tt.same {
				t.Errorf("key %s vs %s: same=%v, want %v", tt.key, base, tt.key == base, tt.same)
			}
		})
	}
	if !strings.HasPrefix(base, KeyPrefix) || len(base) != len(KeyPrefix)+32 {
		t.Errorf("key %q, want %q and 32 hex digits", base, KeyPrefix)
	}
}

func TestCountPrompts(t *testing.T) {
	data, err := os.ReadFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const session = "95e6f011-ec33-4b37-91ad-5d242b40ae3d"
	tests := []struct {
		name, session, prompt string
		want                  int
	}{
		{"repeated prompt", session, "Please pin it to UTC and run the tests again", 2},
		{"white space differs", session, "Please pin it to UTC\nand run the tests again ", 2},
		{"once", session, "What is in this screenshot?", 1},
		{"other session", "other", "What is in this screenshot?", 0},
		{"interrupted prompt still counts", session, "Also refactor the whole renderer", 1},
		{"sidechain prompt does not count", session, "Search the repo for time.Local", 0},
		{"slash command does not count", session, "/clear", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CountPrompts(bytes.NewReader(data), tt.session, tt.prompt)
			if err != nil {
				t.Fatalf("CountPrompts() error: %v", err)
			}
			if got != tt.want {
				t.Errorf("CountPrompts()=%d, want %d", got, tt.want)
			}
		})
	}
}

// TestStopHookKeyMatchesTailer plays the Stop hook: when each exchange
// ends, the transcript holds everything up to its end, the hook knows the
// session and the prompt, and counts the prompt's occurrences in the file.
// The key it computes must be the key the tailer gives the same exchange.
func TestStopHookKeyMatchesTailer(t *testing.T) {
	for _, name := range []string{"session.jsonl", "crlf.jsonl", "compact.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			exs, _, err := ReadExchanges(bytes.NewReader(data), 0)
			if err != nil || len(exs) == 0 {
				t.Fatalf("ReadExchanges()=%d exchanges, %v", len(exs), err)
			}
			for _, e := range exs {
				atStop := bytes.NewReader(data[:e.EndOffset])
				n, err := CountPrompts(atStop, e.SessionID, e.Prompt)
				if err != nil {
					t.Fatalf("CountPrompts() error: %v", err)
				}
				if hook := KeyForOccurrence(e.SessionID, e.Prompt, n); hook != e.Key() {
					t.Errorf("prompt %q: hook key %s, tailer key %s", e.Prompt, hook, e.Key())
				}
			}
		})
	}
}

func TestLastPrompt(t *testing.T) {
	tests := []struct {
		name, file, text string
		occurrence       int
		found            bool
	}{
		{"repeated prompt last", "session.jsonl", "Please pin it to UTC and run the tests again", 2, true},
		{"torn reply after the prompt", "torn.jsonl", "What does credence-hook do?", 1, true},
		{"pending tool call", "pending.jsonl", "Check the disk usage", 1, true},
		{"empty", "empty.jsonl", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := readFixture(t, tt.file)
			p, found, err := LastPrompt(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if found != tt.found || p.Text != tt.text || p.Occurrence != tt.occurrence {
				t.Errorf("LastPrompt()=(%q, occurrence %d, %v), want (%q, %d, %v)",
					p.Text, p.Occurrence, found, tt.text, tt.occurrence, tt.found)
			}
			if found && !bytes.HasPrefix(data[p.Offset:], []byte(`{"parentUuid"`)) {
				t.Errorf("Offset=%d is not the start of a line", p.Offset)
			}
		})
	}
	// The key the Stop hook derives must be the tailer's key for that turn.
	data := readFixture(t, "session.jsonl")
	p, _, _ := LastPrompt(bytes.NewReader(data))
	exs, _, err := ReadExchanges(bytes.NewReader(data), 0)
	if err != nil || len(exs) == 0 {
		t.Fatalf("ReadExchanges()=%d, %v", len(exs), err)
	}
	if last := exs[len(exs)-1]; p.Key() != last.Key() || p.UUID != last.UserUUID || p.Offset != last.StartOffset {
		t.Errorf("LastPrompt key %s uuid %s offset %d, exchange key %s uuid %s offset %d",
			p.Key(), p.UUID, p.Offset, last.Key(), last.UserUUID, last.StartOffset)
	}
}

// TestPromptScannerIncremental grows each fixture a byte range at a time,
// cutting lines anywhere, and checks that a scanner reading only what was
// appended finds, after every step, what LastPrompt finds in the whole of
// what is there so far.
func TestPromptScannerIncremental(t *testing.T) {
	for _, file := range []string{"session.jsonl", "torn.jsonl", "pending.jsonl", "empty.jsonl"} {
		t.Run(file, func(t *testing.T) {
			data := readFixture(t, file)
			for _, step := range []int{1, 7, 97, 1000, len(data) + 1} {
				var s PromptScanner
				for end := 0; ; end = min(end+step, len(data)) {
					got, gotOK, err := s.Scan(bytes.NewReader(data[:end]))
					if err != nil {
						t.Fatal(err)
					}
					want, wantOK, err := LastPrompt(bytes.NewReader(data[:end]))
					if err != nil {
						t.Fatal(err)
					}
					if got != want || gotOK != wantOK {
						t.Fatalf("step %d, %d bytes: Scan()=(%+v, %v), LastPrompt()=(%+v, %v)", step, end, got, gotOK, want, wantOK)
					}
					if s.Offset() > int64(end) || s.Offset() > 0 && data[s.Offset()-1] != '\n' {
						t.Fatalf("step %d, %d bytes: Offset()=%d is not the end of a complete line", step, end, s.Offset())
					}
					if end == len(data) {
						break
					}
				}
			}
		})
	}
}
