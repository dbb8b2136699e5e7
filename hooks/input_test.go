package hooks

import (
	"errors"
	"testing"
	"unicode/utf8"
)

func TestParseInput(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Input
		wantErr error // nil: no error; errAny: some error
	}{
		{"prompt", `{"session_id":"s","cwd":"/p","prompt":"hi","hook_event_name":"UserPromptSubmit"}`,
			Input{SessionID: "s", Cwd: "/p", Prompt: "hi", HookEventName: "UserPromptSubmit"}, nil},
		{"stop", `{"session_id":"s","last_assistant_message":"done","stop_hook_active":true}`,
			Input{SessionID: "s", LastAssistantMessage: "done", StopHookActive: true}, nil},
		{"unknown fields ignored", `{"session_id":"s","permission_mode":"default","extra":{"a":[1,2]}}`, Input{SessionID: "s"}, nil},
		{"byte order mark and spaces", "\xef\xbb\xbf  {\"prompt\":\"x\"}\n", Input{Prompt: "x"}, nil},
		{"wrong type kept out", `{"session_id":7,"prompt":"still here"}`, Input{Prompt: "still here"}, ErrFieldType},
		{"empty", "  \n", Input{}, ErrEmptyInput},
		{"array", `[1]`, Input{}, errAny},
		{"truncated", `{"prompt":"abc`, Input{}, errAny},
		{"trailing garbage", `{"prompt":"a"} {"prompt":"b"}`, Input{}, errAny},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseInput([]byte(tc.in))
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("ParseInput() error %v", err)
			case tc.wantErr == errAny && err == nil, tc.wantErr != nil && tc.wantErr != errAny && !errors.Is(err, tc.wantErr):
				t.Fatalf("ParseInput() error %v, want %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("ParseInput()=%+v, want %+v", got, tc.want)
			}
		})
	}
}

var errAny = errors.New("any error")

// FuzzParseInput feeds arbitrary bytes to the hook's input parser: it must
// never panic, must return a zero Input with any error but ErrFieldType,
// and its strings must be valid UTF-8 for the store.
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s","cwd":"/p","prompt":"hi"}`,
		`{"session_id":1,"prompt":["x"],"cwd":{}}`,
		`{"last_assistant_message":"a\u0000b","stop_hook_active":"yes"}`,
		"{\"prompt\":\"caf\xff\"}",
		`[[[[[[[[[[`,
		`{"prompt":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil && !errors.Is(err, ErrFieldType) && in != (Input{}) {
			t.Fatalf("ParseInput(%q) returned %+v with error %v", data, in, err)
		}
		for _, s := range []string{in.SessionID, in.Cwd, in.Prompt, in.LastAssistantMessage, in.TranscriptPath} {
			if !utf8.ValidString(s) {
				t.Fatalf("ParseInput(%q) gave invalid UTF-8 %q", data, s)
			}
		}
	})
}
