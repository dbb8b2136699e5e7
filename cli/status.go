package cli

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer"
)

func init() {
	Register(Command{
		Name:    "status",
		Usage:   "[--json] [--cycles=N]",
		Summary: "episodes and beliefs by status, agent health, the last consolidation cycles and their tokens, sync state",
		Run:     runStatus,
	})
}

// StatusReport is what `credence status` shows.
type StatusReport struct {
	Database  string         `json:"database"`
	MachineID string         `json:"machine_id"`
	Mode      string         `json:"mode"` // "offline" or "llm"
	Episodes  EpisodeCounts  `json:"episodes"`
	Beliefs   map[string]int `json:"beliefs"` // by status
	Agent     AgentStatus    `json:"agent"`
	LastCycle *CycleStatus   `json:"last_cycle,omitempty"`
	// Cycles are the newest cycles, newest first, with the tokens each used.
	Cycles []CycleStatus `json:"cycles"`
	Tokens TokenTotals   `json:"tokens"`
	// Sync is the sync engineer's section: whether sync is configured, the
	// remote (redacted), and every meta key starting with "sync_".
	Sync SyncStatus `json:"sync"`
}

// EpisodeCounts counts episodes.
type EpisodeCounts struct {
	Total int `json:"total"`
	// Waiting are this machine's episodes not yet consolidated.
	Waiting int `json:"waiting"`
}

// AgentStatus is the agent's heartbeat, judged now.
type AgentStatus struct {
	store.AgentHealth
	Heartbeat *agent.Heartbeat `json:"heartbeat,omitempty"`
}

// CycleStatus is one consolidation cycle.
type CycleStatus struct {
	ID               string             `json:"id"`
	Trigger          string             `json:"trigger"`
	Mode             string             `json:"mode"`
	Status           string             `json:"status"`
	StartedAt        time.Time          `json:"started_at"`
	Seconds          float64            `json:"seconds"`
	Episodes         int                `json:"episodes"`
	PromptTokens     int64              `json:"prompt_tokens"`
	CompletionTokens int64              `json:"completion_tokens"`
	Error            string             `json:"error,omitempty"`
	Stats            *consolidate.Stats `json:"stats,omitempty"`
}

// TokenTotals sums the tokens of the cycles shown.
type TokenTotals struct {
	Cycles           int   `json:"cycles"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// SyncStatus is the hook the sync engineer fills: state lives in meta keys
// with the prefix "sync_", read without contacting the remote.
type SyncStatus struct {
	Enabled bool              `json:"enabled"`
	Remote  string            `json:"remote,omitempty"`
	Meta    map[string]string `json:"meta,omitempty"`
}

func runStatus(env *Env, args []string) int {
	fs := env.Flags("status")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	cycles := fs.Int("cycles", 10, "how many recent cycles to list")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("status", err)
	}
	defer db.Close()
	rep, err := buildStatus(env.Ctx, cfg, db, *cycles)
	if err != nil {
		return env.Fail("status", err)
	}
	if *asJSON {
		return env.JSON(rep)
	}
	printStatus(env, rep)
	return 0
}

func buildStatus(ctx context.Context, cfg *config.Config, db *store.DB, n int) (StatusReport, error) {
	rep := StatusReport{Database: cfg.Paths.Database, MachineID: db.MachineID(), Mode: consolidate.ModeOffline,
		Beliefs: map[string]int{}}
	if cfg.LLMEnabled() {
		rep.Mode = consolidate.ModeLLM
	}
	var err error
	if rep.Episodes.Total, err = db.CountEpisodes(ctx); err != nil {
		return rep, err
	}
	if rep.Episodes.Waiting, err = consolidate.PendingEpisodes(ctx, db); err != nil {
		return rep, err
	}
	counts, err := db.CountBeliefs(ctx)
	if err != nil {
		return rep, err
	}
	for _, s := range []belief.Status{belief.Active, belief.Superseded, belief.Archived, belief.Revised,
		belief.SplitUp, belief.Merged, belief.Rejected, belief.Forgotten} {
		rep.Beliefs[string(s)] = counts[s]
	}
	hb, health, err := db.ReadAgentHealth(ctx, db.Now())
	if err != nil {
		return rep, err
	}
	rep.Agent.AgentHealth = health
	if health.Status != "never ran" {
		rep.Agent.Heartbeat = &hb
	}
	cs, err := db.Cycles(ctx, max(n, 1))
	if err != nil {
		return rep, err
	}
	for i, c := range cs {
		cy := CycleStatus{ID: c.ID, Trigger: c.Trigger, Mode: c.Mode, Status: c.Status,
			StartedAt: time.UnixMilli(c.StartedAt), Episodes: c.Episodes, PromptTokens: c.PromptTokens,
			CompletionTokens: c.CompletionTokens, Error: c.Error}
		if c.FinishedAt > 0 {
			cy.Seconds = float64(c.FinishedAt-c.StartedAt) / 1000
		}
		if i == 0 {
			var st consolidate.Stats
			if json.Unmarshal([]byte(c.Stats), &st) == nil {
				cy.Stats = &st
			}
			last := cy
			rep.LastCycle = &last
			cy.Stats = nil
		}
		if i < n {
			rep.Cycles = append(rep.Cycles, cy)
			rep.Tokens.Cycles++
			rep.Tokens.PromptTokens += c.PromptTokens
			rep.Tokens.CompletionTokens += c.CompletionTokens
		}
	}
	rep.Sync.Enabled = cfg.SyncEnabled()
	if rep.Sync.Enabled {
		rep.Sync.Remote = syncer.RedactURL(cfg.Sync.URL)
	}
	meta, err := db.MetaPrefix(ctx, "sync_")
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return rep, err
	}
	if len(meta) > 0 {
		rep.Sync.Meta = meta
	}
	return rep, nil
}

func printStatus(env *Env, r StatusReport) {
	env.Printf("database   %s (machine %s, %s mode)\n", r.Database, r.MachineID, r.Mode)
	env.Printf("episodes   %d stored, %d waiting for consolidation\n", r.Episodes.Total, r.Episodes.Waiting)
	env.Printf("beliefs   ")
	for _, s := range []string{"active", "superseded", "archived", "revised", "split", "merged", "rejected", "forgotten"} {
		if r.Beliefs[s] > 0 || s == "active" {
			env.Printf(" %s %d", s, r.Beliefs[s])
		}
	}
	env.Printf("\n")
	a := r.Agent
	switch hb := a.Heartbeat; {
	case hb == nil:
		env.Printf("agent      never ran (start it with: credence agent)\n")
	case a.Running:
		env.Printf("agent      running (pid %d on %s, %s, last beat %s ago; %d episodes waiting; %d embedded, %d tailed since %s)\n",
			hb.PID, hb.Host, hb.State, a.Age, hb.Pending, hb.Embedded, hb.Tailed, hb.StartedAt.Format(time.DateTime))
		if hb.Hooks {
			env.Printf("hooks      answered by the agent (%d events by its last heartbeat)\n", hb.HooksServed)
		} else {
			env.Printf("hooks      handled in-process: the agent is not serving them (see agent.log)\n")
		}
	default:
		env.Printf("agent      %s (pid %d on %s, last beat %s ago)\n", a.Status, hb.PID, hb.Host, a.Age)
	}
	if c := r.LastCycle; c != nil {
		env.Printf("last cycle %s %s (%s, %s mode) at %s, %.1fs, %d episodes", c.ID, c.Status, c.Trigger, c.Mode,
			c.StartedAt.Format(time.DateTime), c.Seconds, c.Episodes)
		if st := c.Stats; st != nil {
			env.Printf(": %d beliefs created, %d reinforced, %d contradicted, %d superseded, %d clusters",
				st.BeliefsCreated, st.Reinforced, st.Contradicted, st.Superseded, st.Clusters)
		}
		env.Printf("\n")
		if c.Error != "" {
			env.Printf("           error: %s\n", c.Error)
		}
	} else {
		env.Printf("last cycle none yet\n")
	}
	if len(r.Cycles) > 0 {
		env.Printf("tokens     %d prompt + %d completion over the last %d cycles\n", r.Tokens.PromptTokens, r.Tokens.CompletionTokens, r.Tokens.Cycles)
		for _, c := range r.Cycles {
			if c.PromptTokens+c.CompletionTokens > 0 {
				env.Printf("           %s %s: %d + %d\n", c.StartedAt.Format(time.DateTime), c.ID, c.PromptTokens, c.CompletionTokens)
			}
		}
	}
	switch {
	case r.Sync.Enabled:
		env.Printf("sync       %s\n", r.Sync.Remote)
	default:
		env.Printf("sync       off\n")
	}
	keys := make([]string, 0, len(r.Sync.Meta))
	for k := range r.Sync.Meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env.Printf("           %s = %s\n", k, r.Sync.Meta[k])
	}
}
