package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Line types written by Claude Code. Other types exist (file-history-snapshot,
// queue-operation, …) and more may appear; ParseLine returns them with Type
// set so callers can skip them.
const (
	TypeUser      = "user"
	TypeAssistant = "assistant"
	TypeSummary   = "summary"
	TypeSystem    = "system"
)

// Content block types inside Message.Content.
const (
	BlockText       = "text"
	BlockThinking   = "thinking"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	BlockImage      = "image"
)

// ErrNoType is returned by ParseLine for a JSON object without a "type".
var ErrNoType = errors.New("transcript line has no type")

// Line is one line of a transcript. Fields absent from the line are zero.
type Line struct {
	Type       string
	Subtype    string // system lines: compact_boundary, …
	UUID       string
	ParentUUID string
	SessionID  string
	Cwd        string
	GitBranch  string
	Version    string
	Timestamp  time.Time // zero when missing or unparsable
	// IsSidechain marks subagent traffic, IsMeta text Claude Code injected
	// (caveats, hook feedback), IsCompactSummary the summary that opens a
	// compacted conversation, IsAPIError an error shown as an assistant turn.
	IsSidechain      bool
	IsMeta           bool
	IsCompactSummary bool
	IsAPIError       bool
	Summary          string // summary lines
	Content          string // system lines' text
	Message          Message
}

// Message is the API message of a user or assistant line. A string content
// is returned as one text block.
type Message struct {
	ID         string
	Role       string
	Model      string
	StopReason string
	Content    []Block
}

// Block is one content block. Thinking blocks keep only their type: their
// text is not needed and should not travel further. Image data is dropped.
type Block struct {
	Type string
	Text string // text blocks
	// ID, Name and Input describe a tool_use block.
	ID    string
	Name  string
	Input json.RawMessage
	// ToolUseID, Content and IsError describe a tool_result block; a string
	// result is returned as one text block.
	ToolUseID string
	Content   []Block
	IsError   bool
}

type rawLine struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	ParentUUID       string          `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	Cwd              string          `json:"cwd"`
	GitBranch        string          `json:"gitBranch"`
	Version          string          `json:"version"`
	Timestamp        string          `json:"timestamp"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	IsAPIError       bool            `json:"isApiErrorMessage"`
	Summary          string          `json:"summary"`
	Content          json.RawMessage `json:"content"`
	Message          *struct {
		ID         string          `json:"id"`
		Role       string          `json:"role"`
		Model      string          `json:"model"`
		StopReason string          `json:"stop_reason"`
		Content    json.RawMessage `json:"content"`
	} `json:"message"`
}

type rawBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ParseLine decodes one transcript line (without its line break). It fails
// only when the line is not a JSON object or has no type; a field of an
// unexpected JSON type is left zero, and an unknown line type is returned
// with Type set and no error, for the caller to skip.
func ParseLine(b []byte) (Line, error) {
	var raw rawLine
	if err := json.Unmarshal(b, &raw); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) || !isObject(b) {
			return Line{}, fmt.Errorf("parse transcript line: %w", err)
		}
	}
	if raw.Type == "" {
		return Line{}, ErrNoType
	}
	l := Line{
		Type: raw.Type, Subtype: raw.Subtype, UUID: raw.UUID, ParentUUID: raw.ParentUUID,
		SessionID: raw.SessionID, Cwd: raw.Cwd, GitBranch: raw.GitBranch, Version: raw.Version,
		IsSidechain: raw.IsSidechain, IsMeta: raw.IsMeta, IsCompactSummary: raw.IsCompactSummary,
		IsAPIError: raw.IsAPIError, Summary: raw.Summary,
	}
	if raw.Timestamp != "" {
		if ts, err := time.Parse(time.RFC3339Nano, raw.Timestamp); err == nil {
			l.Timestamp = ts
		}
	}
	if s, ok := decodeString(raw.Content); ok {
		l.Content = s
	}
	if m := raw.Message; m != nil {
		l.Message = Message{ID: m.ID, Role: m.Role, Model: m.Model, StopReason: m.StopReason,
			Content: decodeBlocks(m.Content, 0)}
	}
	return l, nil
}

// maxBlockDepth bounds tool results nested inside tool results.
const maxBlockDepth = 4

// decodeBlocks decodes a content value: a string becomes one text block, an
// array its blocks; anything else, or an element that is not a block, is
// dropped.
func decodeBlocks(raw json.RawMessage, depth int) []Block {
	if s, ok := decodeString(raw); ok {
		return []Block{{Type: BlockText, Text: s}}
	}
	var elems []json.RawMessage
	if depth >= maxBlockDepth || json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	blocks := make([]Block, 0, len(elems))
	for _, e := range elems {
		var rb rawBlock
		if err := json.Unmarshal(e, &rb); err != nil && !isObject(e) {
			continue
		}
		b := Block{Type: rb.Type, ID: rb.ID, Name: rb.Name, ToolUseID: rb.ToolUseID, IsError: rb.IsError}
		switch rb.Type {
		case BlockText:
			b.Text = rb.Text
		case BlockToolUse:
			b.Input = rb.Input
		case BlockToolResult:
			b.Content = decodeBlocks(rb.Content, depth+1)
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// decodeString decodes raw when it is a JSON string.
func decodeString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// isObject reports whether b starts like a JSON object; ParseLine only
// tolerates field type errors inside objects.
func isObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// Text joins the message's text blocks with blank lines.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == BlockText && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// ResultText joins a tool result's text blocks with line breaks.
func (b Block) ResultText() string {
	var parts []string
	for _, c := range b.Content {
		if c.Type == BlockText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}
