package agent

import (
	"context"
	"encoding/json"

	"github.com/credence-mem/credence/store"
)

// Agent states in the heartbeat.
const (
	StateIdle          = store.AgentIdle
	StateConsolidating = store.AgentConsolidating
	StateStopped       = store.AgentStopped
)

// Heartbeat is what the agent writes to meta every CheckEvery
// (store.AgentHeartbeat, where its readers find it).
type Heartbeat = store.AgentHeartbeat

func (a *Agent) beat(ctx context.Context, state string) {
	a.mu.Lock()
	a.hb.State, a.hb.BeatAt = state, a.now()
	a.hb.Hooks, a.hb.HooksServed = a.hooks != nil, a.hooks.served()
	a.hb.Endpoints = a.cons.Endpoints()
	if a.sync != nil {
		// The remote's health as the sync loop last saw it: status and
		// doctor tell from it whether rows are stuck here and why.
		a.hb.Endpoints = append(a.hb.Endpoints, a.sync.Health())
	}
	b, err := json.Marshal(a.hb)
	a.mu.Unlock()
	if err == nil {
		err = a.db.SetMeta(context.WithoutCancel(ctx), store.MetaAgentHeartbeat, string(b))
	}
	if err != nil {
		a.log.Warn("heartbeat not written", "err", err.Error())
	}
}
