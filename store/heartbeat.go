package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Agent states in its heartbeat.
const (
	AgentIdle          = "idle"
	AgentConsolidating = "consolidating"
	AgentStopped       = "stopped"
)

// DefaultBeatEvery is how often the agent beats unless told otherwise.
const DefaultBeatEvery = 30 * time.Second

// AgentHeartbeat is what a running agent writes to meta
// (MetaAgentHeartbeat) every beat, as JSON, and what status, doctor and the
// MCP server read to judge its health. It lives here, beside the meta key,
// so that readers need not import the agent.
type AgentHeartbeat struct {
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	State     string    `json:"state"`
	Mode      string    `json:"mode"` // "offline" or "llm"
	StartedAt time.Time `json:"started_at"`
	BeatAt    time.Time `json:"beat_at"`
	// Every is the interval between beats; a heartbeat older than a few of
	// them means the agent is gone.
	Every     time.Duration `json:"every"`
	LastCycle string        `json:"last_cycle,omitempty"`
	Embedded  int           `json:"embedded"` // vectors stored since start
	Tailed    int           `json:"tailed"`   // exchanges the tailer stored since start
	Pending   int           `json:"pending"`  // episodes waiting at the last beat
	Watching  int           `json:"watching"` // transcript directories watched
	// Hooks says whether the agent answers credence-hook over its socket,
	// and HooksServed how many events it has answered since start.
	Hooks       bool  `json:"hooks"`
	HooksServed int64 `json:"hooks_served"`
}

// ReadAgentHeartbeat returns the last heartbeat, or ErrNotFound when no
// agent ever ran on this database.
func (db *DB) ReadAgentHeartbeat(ctx context.Context) (AgentHeartbeat, error) {
	var hb AgentHeartbeat
	v, err := db.Meta(ctx, MetaAgentHeartbeat)
	if err != nil {
		return hb, err
	}
	if err := json.Unmarshal([]byte(v), &hb); err != nil {
		return hb, fmt.Errorf("read agent heartbeat: %w", err)
	}
	return hb, nil
}

// AgentHealth is a heartbeat judged at a moment.
type AgentHealth struct {
	Running bool   `json:"running"`
	Status  string `json:"status"` // "running", "stopped", "stale" or "never ran"
	Age     string `json:"age,omitempty"`
}

// JudgeAgent says whether the agent that wrote hb is alive at now: it beat
// within three intervals and did not say it stopped.
func JudgeAgent(hb AgentHeartbeat, found bool, now time.Time) AgentHealth {
	if !found {
		return AgentHealth{Status: "never ran"}
	}
	age := now.Sub(hb.BeatAt)
	h := AgentHealth{Age: age.Round(time.Second).String()}
	every := hb.Every
	if every <= 0 {
		every = DefaultBeatEvery
	}
	switch {
	case hb.State == AgentStopped:
		h.Status = "stopped"
	case age > 3*every:
		h.Status = "stale" // it died without saying so
	default:
		h.Status, h.Running = "running", true
	}
	return h
}

// ReadAgentHealth reads and judges the heartbeat.
func (db *DB) ReadAgentHealth(ctx context.Context, now time.Time) (AgentHeartbeat, AgentHealth, error) {
	hb, err := db.ReadAgentHeartbeat(ctx)
	if errors.Is(err, ErrNotFound) {
		return hb, JudgeAgent(hb, false, now), nil
	}
	if err != nil {
		return hb, AgentHealth{}, err
	}
	return hb, JudgeAgent(hb, true, now), nil
}
