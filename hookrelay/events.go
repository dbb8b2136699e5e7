package hookrelay

// The events credence-hook handles; the name is its first argument.
const (
	EventUserPromptSubmit = "UserPromptSubmit"
	EventStop             = "Stop"
	EventSessionStart     = "SessionStart"
	EventSessionEnd       = "SessionEnd"
	EventPreCompact       = "PreCompact"
)

// Usage is what the log says about an unknown event.
const Usage = "usage: credence-hook <UserPromptSubmit|Stop|SessionStart|SessionEnd|PreCompact>"

// KnownEvent reports whether credence-hook handles event.
func KnownEvent(event string) bool {
	switch event {
	case EventUserPromptSubmit, EventStop, EventSessionStart, EventSessionEnd, EventPreCompact:
		return true
	}
	return false
}

// DeadlineEnv carries the front's deadline (Unix nanoseconds) to the
// in-process handler it execs, so the whole hook keeps one time budget.
const DeadlineEnv = "CREDENCE_RELAYED_DEADLINE"
