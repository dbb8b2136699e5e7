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
	Watching  int           `json:"watching"` // transcript directories watched
	// Hooks says whether the agent answers credence-hook over its socket,
	// and HooksServed how many events it has answered since start.
	Hooks       bool  `json:"hooks"`
	HooksServed int64 `json:"hooks_served"`
	// Endpoints are the remote endpoints the agent uses (the embedding
	// API, the LLM), each with whether it answers.
	Endpoints []EndpointHealth `json:"endpoints,omitempty"`
}

// EndpointHealth is what the agent knows of one remote endpoint it uses:
// whether it answered lately, and, while it does not, since when, why, what
// stands in for it and when it is tried again.
type EndpointHealth struct {
	// Name is "embedder" or "llm"; Remote names what was configured (the
	// embedder's ID, the LLM's model), URL where it is.
	Name   string `json:"name"`
	Remote string `json:"remote"`
	URL    string `json:"url,omitempty"`
	// Down is set from a failed call until one succeeds; LastOK is when a
	// call last got an answer (zero: none yet).
	Down   bool      `json:"down"`
	LastOK time.Time `json:"last_ok,omitzero"`
	// Since is the first failure of the current outage, NextTry when the
	// endpoint is asked again, Failures how many calls failed since Since.
	Since    time.Time `json:"since,omitzero"`
	NextTry  time.Time `json:"next_try,omitzero"`
	Failures int       `json:"failures,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Fallback is what is used meanwhile: "offline".
	Fallback string `json:"fallback,omitempty"`
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
