package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/credence-mem/credence/store"
)

// Agent states in the heartbeat.
const (
	StateIdle          = "idle"
	StateConsolidating = "consolidating"
	StateStopped       = "stopped"
)

// Heartbeat is what a running agent writes to meta (store.MetaAgentHeartbeat)
// every CheckEvery, and what `credence status` reads to judge its health.
type Heartbeat struct {
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

// ReadHeartbeat returns the last heartbeat, or store.ErrNotFound when no
// agent ever ran on this database.
func ReadHeartbeat(ctx context.Context, db *store.DB) (Heartbeat, error) {
	var hb Heartbeat
	v, err := db.Meta(ctx, store.MetaAgentHeartbeat)
	if err != nil {
		return hb, err
	}
	if err := json.Unmarshal([]byte(v), &hb); err != nil {
		return hb, fmt.Errorf("read agent heartbeat: %w", err)
	}
	return hb, nil
}

// Health is a heartbeat judged at a moment.
type Health struct {
	Running bool   `json:"running"`
	Status  string `json:"status"` // "running", "stopped", "stale" or "never ran"
	Age     string `json:"age,omitempty"`
}

// Judge says whether the agent that wrote hb is alive at now: it beat within
// three intervals and did not say it stopped.
func Judge(hb Heartbeat, found bool, now time.Time) Health {
	if !found {
		return Health{Status: "never ran"}
	}
	age := now.Sub(hb.BeatAt)
	h := Health{Age: age.Round(time.Second).String()}
	every := hb.Every
	if every <= 0 {
		every = DefaultCheckEvery
	}
	switch {
	case hb.State == StateStopped:
		h.Status = "stopped"
	case age > 3*every:
		h.Status = "stale" // it died without saying so
	default:
		h.Status, h.Running = "running", true
	}
	return h
}

// ReadHealth reads and judges the heartbeat.
func ReadHealth(ctx context.Context, db *store.DB, now time.Time) (Heartbeat, Health, error) {
	hb, err := ReadHeartbeat(ctx, db)
	if errors.Is(err, store.ErrNotFound) {
		return hb, Judge(hb, false, now), nil
	}
	if err != nil {
		return hb, Health{}, err
	}
	return hb, Judge(hb, true, now), nil
}

func (a *Agent) beat(ctx context.Context, state string) {
	a.mu.Lock()
	a.hb.State, a.hb.BeatAt = state, a.now()
	a.hb.Hooks, a.hb.HooksServed = a.hooks != nil, a.hooks.served()
	b, err := json.Marshal(a.hb)
	a.mu.Unlock()
	if err == nil {
		err = a.db.SetMeta(context.WithoutCancel(ctx), store.MetaAgentHeartbeat, string(b))
	}
	if err != nil {
		a.log.Warn("heartbeat not written", "err", err.Error())
	}
}
