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
const Usage = "usage: credence-hook <UserPromptSubmit|Stop|SessionStart|SessionEnd|PreCompact|PostToolUse>"

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

// StartEnv carries the front's start time (Unix nanoseconds) to `credence
// hook` when the front hands the event over without trying the agent, as it
// does when the configuration may change what the front reads: credence, which
// reads the configuration, tries the agent first, and the hook's budget
// counts from when the front started.
const StartEnv = "CREDENCE_HOOK_STARTED"
