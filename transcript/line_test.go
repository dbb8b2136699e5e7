package transcript

import (
	"errors"
	"testing"
	"time"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, l Line)
	}{
		{"user string content", `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","cwd":"/w",` +
			`"timestamp":"2025-06-01T10:00:03.250Z","message":{"role":"user","content":"hello"}}`,
			func(t *testing.T, l Line) {
				want := time.Date(2025, 6, 1, 10, 0, 3, 250e6, time.UTC)
				if l.Type != TypeUser || l.UUID != "u1" || l.SessionID != "s1" || l.Cwd != "/w" || !l.Timestamp.Equal(want) {
					t.Errorf("header fields=%+v", l)
				}
				if got := l.Message.Text(); got != "hello" {
					t.Errorf("Message.Text()=%q, want %q", got, "hello")
				}
			}},
		{"assistant blocks", `{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude",` +
			`"content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"a"},` +
			`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`,
			func(t *testing.T, l Line) {
				c := l.Message.Content
				if len(c) != 3 || c[0].Type != BlockThinking || c[0].Text != "" || c[1].Text != "a" {
					t.Fatalf("content=%+v", c)
				}
				if c[2].ID != "t1" || c[2].Name != "Bash" || string(c[2].Input) != `{"command":"ls"}` {
					t.Errorf("tool_use=%+v", c[2])
				}
			}},
		{"tool result string and blocks", `{"type":"user","message":{"role":"user","content":[` +
			`{"type":"tool_result","tool_use_id":"t1","content":"out","is_error":true},` +
			`{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"x"},{"type":"text","text":"y"}]}]}}`,
			func(t *testing.T, l Line) {
				c := l.Message.Content
				if len(c) != 2 || !c[0].IsError || c[0].ResultText() != "out" || c[1].ResultText() != "x\ny" {
					t.Errorf("results=%+v", c)
				}
			}},
		{"summary", `{"type":"summary","summary":"Fix tests","leafUuid":"x"}`,
			func(t *testing.T, l Line) {
				if l.Type != TypeSummary || l.Summary != "Fix tests" {
					t.Errorf("line=%+v", l)
				}
			}},
		{"system", `{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}`,
			func(t *testing.T, l Line) {
				if l.Subtype != "compact_boundary" || l.Content != "Conversation compacted" {
					t.Errorf("line=%+v", l)
				}
			}},
		{"unknown type", `{"type":"x-future","payload":[1,2]}`,
			func(t *testing.T, l Line) {
				if l.Type != "x-future" {
					t.Errorf("Type=%q, want x-future", l.Type)
				}
			}},
		{"field of the wrong type is tolerated", `{"type":"user","isMeta":"yes","sessionId":"s","message":{"content":"hi"}}`,
			func(t *testing.T, l Line) {
				if l.IsMeta || l.SessionID != "s" || l.Message.Text() != "hi" {
					t.Errorf("line=%+v", l)
				}
			}},
		{"bad timestamp is zero", `{"type":"user","timestamp":"yesterday"}`,
			func(t *testing.T, l Line) {
				if !l.Timestamp.IsZero() {
					t.Errorf("Timestamp=%v, want zero", l.Timestamp)
				}
			}},
		{"content of an odd shape is dropped", `{"type":"user","message":{"content":42}}`,
			func(t *testing.T, l Line) {
				if len(l.Message.Content) != 0 {
					t.Errorf("Content=%+v, want none", l.Message.Content)
				}
			}},
		{"flags", `{"type":"assistant","isSidechain":true,"isApiErrorMessage":true,"isCompactSummary":true}`,
			func(t *testing.T, l Line) {
				if !l.IsSidechain || !l.IsAPIError || !l.IsCompactSummary {
					t.Errorf("flags=%+v", l)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLine([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseLine() error: %v", err)
			}
			tt.check(t, l)
		})
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		noType bool
	}{
		{"not json", `{"type":"user",`, false},
		{"array", `[1,2]`, false},
		{"string", `"user"`, false},
		{"empty", ``, false},
		{"no type", `{"uuid":"x"}`, true},
		{"type of wrong kind", `{"type":5}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLine([]byte(tt.in))
			if err == nil {
				t.Fatalf("ParseLine(%q) error=nil, want an error", tt.in)
			}
			if got := errors.Is(err, ErrNoType); got != tt.noType {
				t.Errorf("errors.Is(err, ErrNoType)=%v, want %v (err %v)", got, tt.noType, err)
			}
		})
	}
}

func TestPromptText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		ok   bool
	}{
		{"plain", `{"type":"user","message":{"role":"user","content":"fix it"}}`, "fix it", true},
		{"blocks with image", `{"type":"user","message":{"content":[{"type":"text","text":"what is this"},{"type":"image"}]}}`,
			"what is this", true},
		{"reminder block dropped", `{"type":"user","message":{"content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},` +
			`{"type":"text","text":"real"}]}}`, "real", true},
		{"meta", `{"type":"user","isMeta":true,"message":{"content":"Caveat"}}`, "", false},
		{"sidechain", `{"type":"user","isSidechain":true,"message":{"content":"task"}}`, "", false},
		{"compact summary", `{"type":"user","isCompactSummary":true,"message":{"content":"summary"}}`, "", false},
		{"slash command", `{"type":"user","message":{"content":"<command-name>/clear</command-name>"}}`, "", false},
		{"command output", `{"type":"user","message":{"content":"<local-command-stdout>ok</local-command-stdout>"}}`, "", false},
		{"interrupt", `{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}}`, "", false},
		{"tool result", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}}`, "", false},
		{"blank", `{"type":"user","message":{"content":"  \n "}}`, "", false},
		{"assistant", `{"type":"assistant","message":{"role":"assistant","content":"hi"}}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLine([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseLine() error: %v", err)
			}
			got, ok := PromptText(l)
			if got != tt.want || ok != tt.ok {
				t.Errorf("PromptText()=(%q, %v), want (%q, %v)", got, ok, tt.want, tt.ok)
			}
		})
	}
}
