package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Turn is one exchange of a synthetic Claude Code transcript. With Command
// set, the assistant first runs it through the Bash tool and the tool
// result (Output) comes back before the reply.
type Turn struct {
	Prompt  string
	Reply   string
	Command string
	Output  string
}

type line struct {
	ParentUUID  *string `json:"parentUuid"`
	IsSidechain bool    `json:"isSidechain"`
	UserType    string  `json:"userType"`
	Cwd         string  `json:"cwd"`
	SessionID   string  `json:"sessionId"`
	Version     string  `json:"version"`
	GitBranch   string  `json:"gitBranch"`
	Type        string  `json:"type"`
	Message     message `json:"message"`
	UUID        string  `json:"uuid"`
	Timestamp   string  `json:"timestamp"`
}

type message struct {
	ID         string `json:"id,omitempty"`
	Role       string `json:"role"`
	Model      string `json:"model,omitempty"`
	Content    any    `json:"content"`
	StopReason string `json:"stop_reason,omitempty"`
}

type block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Content   string         `json:"content,omitempty"`
}

// WriteTranscript writes turns as the JSON Lines Claude Code keeps in
// ~/.claude/projects/<key>/<session>.jsonl: a user line per prompt, then
// assistant lines (a tool call and its result when the turn has a command)
// ending in the reply's text.
func WriteTranscript(w io.Writer, sessionID, cwd string, start time.Time, turns []Turn) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	n := 0
	var parent *string
	at := start
	emit := func(typ string, m message) error {
		n++
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		at = at.Add(2 * time.Second)
		l := line{ParentUUID: parent, UserType: "external", Cwd: cwd, SessionID: sessionID, Version: "2.0.14",
			GitBranch: "main", Type: typ, Message: m, UUID: id, Timestamp: at.UTC().Format("2006-01-02T15:04:05.000Z")}
		parent = &id
		return enc.Encode(l)
	}
	for i, t := range turns {
		if err := emit("user", message{Role: "user", Content: t.Prompt}); err != nil {
			return err
		}
		msgID := fmt.Sprintf("msg_%024d", i)
		if t.Command != "" {
			toolID := fmt.Sprintf("toolu_%020d", i)
			call := []block{{Type: "tool_use", ID: toolID, Name: "Bash", Input: map[string]any{"command": t.Command}}}
			if err := emit("assistant", message{ID: msgID, Role: "assistant", Model: "claude-sonnet-4-5", Content: call}); err != nil {
				return err
			}
			res := []block{{Type: "tool_result", ToolUseID: toolID, Content: t.Output}}
			if err := emit("user", message{Role: "user", Content: res}); err != nil {
				return err
			}
			msgID += "b"
		}
		reply := []block{{Type: "text", Text: t.Reply}}
		if err := emit("assistant", message{ID: msgID, Role: "assistant", Model: "claude-sonnet-4-5", Content: reply, StopReason: "end_turn"}); err != nil {
			return err
		}
	}
	return bw.Flush()
}
