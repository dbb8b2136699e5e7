package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Input is the JSON object Claude Code sends on stdin. Fields that are
// absent, or present with another JSON type, are left empty.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// Prompt is set for UserPromptSubmit.
	Prompt string `json:"prompt"`
	// LastAssistantMessage and StopHookActive are set for Stop.
	LastAssistantMessage string `json:"last_assistant_message"`
	StopHookActive       bool   `json:"stop_hook_active"`
	// Source is set for SessionStart (startup, resume, clear, compact),
	// Reason for SessionEnd, Trigger for PreCompact (manual, auto).
	Source  string `json:"source"`
	Reason  string `json:"reason"`
	Trigger string `json:"trigger"`
}

// Errors of reading and parsing the input.
var (
	ErrEmptyInput = errors.New("empty input")
	// ErrFieldType accompanies a usable Input when some field had an
	// unexpected JSON type and was ignored.
	ErrFieldType = errors.New("hook input field of an unexpected type ignored")
)

// ParseInput decodes a hook's stdin. It accepts any JSON object. A field of
// an unexpected type is left empty rather than failing the whole input,
// since Claude Code adds and changes fields between versions: the Input is
// then returned with an error wrapping ErrFieldType. Anything that is not a
// JSON object (truncated, malformed, an array, nested past the decoder's
// depth limit) is an error with a zero Input. Invalid UTF-8 in strings
// becomes U+FFFD.
func ParseInput(data []byte) (Input, error) {
	data = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\xef\xbb\xbf")))
	if len(data) == 0 {
		return Input{}, ErrEmptyInput
	}
	if data[0] != '{' {
		return Input{}, fmt.Errorf("parse hook input: not a JSON object")
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return Input{}, fmt.Errorf("parse hook input: %w", err)
		}
		// encoding/json skips a field of the wrong type and decodes the
		// rest, so the input is still usable.
		return in, fmt.Errorf("%w: %s", ErrFieldType, typeErr.Field)
	}
	return in, nil
}
