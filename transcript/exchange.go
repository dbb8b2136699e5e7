package transcript

import (
	"fmt"
	"strings"
	"time"
)

// maxResponseBytes caps Exchange.Response; a longer reply keeps its start.
const maxResponseBytes = 1 << 20

// truncatedMark ends a response cut at maxResponseBytes.
const truncatedMark = "\n[…response truncated]"

// Exchange is one user prompt with the assistant's reply to it.
type Exchange struct {
	SessionID string
	Cwd       string
	GitBranch string
	// Prompt is the user's text as written in the transcript.
	Prompt string
	// Response joins the assistant's text blocks of the turn with blank
	// lines; thinking, tool input and tool output are left out.
	Response string
	// Tools lists the tools the assistant called, in order, summarised.
	Tools []ToolUse
	// UserUUID is the uuid of the prompt line.
	UserUUID string
	// Timestamp is when the prompt was written, EndTimestamp when the last
	// assistant line of the turn was.
	Timestamp    time.Time
	EndTimestamp time.Time
	// Occurrence counts prompts with the same normalised text in the
	// session up to and including this one (see KeyForOccurrence).
	Occurrence int
	// StartOffset is where the prompt line starts. EndOffset is where the
	// next prompt line starts, or the end of the file: storing the exchange
	// and then the offset EndOffset never skips or repeats a turn.
	StartOffset int64
	EndOffset   int64
}

// ToolUse is a short account of one tool call.
type ToolUse struct {
	ID   string
	Name string
	// Input is the call's main argument (a command, a path, a pattern, a
	// URL), shortened; the full input is not kept.
	Input string
	// IsError is set when the tool result was an error; Error holds its
	// first line, shortened.
	IsError bool
	Error   string
}

// Key returns the exchange's stable key, KeyForOccurrence(SessionID, Prompt,
// Occurrence): the same key the Stop hook computes for the same turn.
func (e Exchange) Key() string {
	return KeyForOccurrence(e.SessionID, e.Prompt, e.Occurrence)
}

// Text renders the exchange as one readable episode text:
//
//	User: <prompt>
//
//	Assistant: <response>
//
//	Tools: Bash go test ./... (error: exit status 1); Read main.go
func (e Exchange) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "User: %s\n\nAssistant: %s", e.Prompt, e.Response)
	if len(e.Tools) > 0 {
		b.WriteString("\n\nTools: ")
		for i, t := range e.Tools {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(t.String())
		}
	}
	return b.String()
}

// String renders the call as "Name input", with "(error: …)" after a failed
// call.
func (t ToolUse) String() string {
	s := t.Name
	if t.Input != "" {
		s += " " + t.Input
	}
	if t.IsError {
		s += " (error"
		if t.Error != "" {
			s += ": " + t.Error
		}
		s += ")"
	}
	return s
}

// builder collects one exchange while its lines are read.
type builder struct {
	ex       Exchange
	texts    []string
	size     int
	lastMsg  string // message ID of the last assistant line, for dedupe
	lastText string
	tools    map[string]int // tool_use ID → index in ex.Tools, until answered
	// endsInText is set when the last assistant block was text, so the
	// turn may be over; a trailing tool call means more is coming. Text
	// after a tool call implies its result came back, even when the result
	// line itself was skipped (over MaxLineBytes).
	endsInText bool
}

func newBuilder(l Line, prompt string, start int64, occurrence int) *builder {
	return &builder{ex: Exchange{
		SessionID: l.SessionID, Cwd: l.Cwd, GitBranch: l.GitBranch, Prompt: prompt,
		UserUUID: l.UUID, Timestamp: l.Timestamp, Occurrence: occurrence, StartOffset: start,
	}}
}

// hasReply reports whether the assistant has said anything in this turn.
func (b *builder) hasReply() bool { return len(b.texts) > 0 }

// completeAtEOF reports whether the exchange can be taken as finished when
// the file ends here: it has a reply and its last block is text, not a tool
// call waiting for its result.
func (b *builder) completeAtEOF() bool { return b.hasReply() && b.endsInText }

func (b *builder) addAssistant(l Line) {
	if !l.Timestamp.IsZero() {
		b.ex.EndTimestamp = l.Timestamp
	}
	for _, blk := range l.Message.Content {
		switch blk.Type {
		case BlockText:
			text := strings.TrimSpace(blk.Text)
			if text == "" || text == noContent {
				continue
			}
			if l.Message.ID != "" && l.Message.ID == b.lastMsg && text == b.lastText {
				continue // the same block written twice for one message
			}
			b.lastMsg, b.lastText = l.Message.ID, text
			b.addText(text)
			b.endsInText = true
		case BlockToolUse:
			if b.tools == nil {
				b.tools = make(map[string]int)
			}
			b.tools[blk.ID] = len(b.ex.Tools)
			b.ex.Tools = append(b.ex.Tools, ToolUse{ID: blk.ID, Name: blk.Name, Input: summarizeInput(blk.Input)})
			b.endsInText = false
		}
	}
}

func (b *builder) addText(text string) {
	if b.size >= maxResponseBytes {
		return
	}
	if b.size+len(text) > maxResponseBytes {
		text = cutUTF8(text, maxResponseBytes-b.size) + truncatedMark
	}
	b.texts = append(b.texts, text)
	b.size += len(text) + 2
}

func (b *builder) addResults(l Line) {
	for _, blk := range l.Message.Content {
		if blk.Type != BlockToolResult {
			continue
		}
		i, ok := b.tools[blk.ToolUseID]
		if !ok {
			continue
		}
		delete(b.tools, blk.ToolUseID)
		if blk.IsError {
			b.ex.Tools[i].IsError = true
			b.ex.Tools[i].Error = firstLine(blk.ResultText(), maxErrorLen)
		}
	}
}

// finish returns the exchange, ending at end.
func (b *builder) finish(end int64) Exchange {
	b.ex.Response = strings.Join(b.texts, "\n\n")
	b.ex.EndOffset = end
	return b.ex
}
