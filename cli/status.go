package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/credence-mem/credence/agent"
	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/hooks"
	"github.com/credence-mem/credence/internal/plural"
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
	// Endpoints are the remote embedding and LLM endpoints configured, as
	// the running agent last found them (or, with no agent running, as
	// the last cycle left them when one was down).
	Endpoints []store.EndpointHealth `json:"endpoints,omitempty"`
	// Sync is whether sync is configured and what its rounds recorded.
	Sync SyncStatus `json:"sync"`
}

// EpisodeCounts counts episodes.
type EpisodeCounts struct {
	Total int `json:"total"`
	// Waiting are this machine's episodes not yet consolidated, counted
	// now (the one count status shows).
	Waiting int `json:"waiting"`
	// Spooled are events the hooks could not store while the database was
	// busy; the agent (or the next hook) stores them as soon as it can.
	// SpoolFailed were set aside in spool/failed: they can never be stored.
	Spooled     int `json:"spooled"`
	SpoolFailed int `json:"spool_failed,omitempty"`
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

// SyncStatus is whether sync is configured and what its last rounds
// recorded (syncer.Recorded), read without contacting the remote.
type SyncStatus struct {
	Enabled   bool      `json:"enabled"`
	Remote    string    `json:"remote,omitempty"`
	LastPush  time.Time `json:"last_push,omitzero"`
	LastPull  time.Time `json:"last_pull,omitzero"`
	LastRound time.Time `json:"last_round,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	// PendingPush is the rows waiting to push, counted now.
	PendingPush int `json:"pending_push,omitempty"`
	// What the last round found of the remote (at CheckedAt): whether it
	// answered, what it said of the token, its sync schema and the rows
	// left to pull (-1: not known).
	CheckedAt    time.Time `json:"checked_at,omitzero"`
	Reachable    bool      `json:"reachable"`
	Token        string    `json:"token,omitempty"`
	RemoteSchema string    `json:"remote_schema,omitempty"`
	PendingPull  int       `json:"pending_pull"`
	RemoteError  string    `json:"remote_error,omitempty"`
	// Agent is the running agent's sync loop: whether its rounds fail,
	// since when, why, and when it tries next.
	Agent *store.EndpointHealth `json:"agent,omitempty"`
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
	if rep.Episodes.Spooled, rep.Episodes.SpoolFailed, err = hooks.SpoolCounts(cfg.Paths.Database); err != nil {
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
	var syncView *store.EndpointHealth
	if health.Running {
		for _, e := range hb.Endpoints {
			if e.Name == syncer.EndpointSync {
				syncView = &e
				continue // shown on the sync line
			}
			rep.Endpoints = append(rep.Endpoints, e)
		}
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
				if !health.Running {
					rep.Endpoints = st.Endpoints
				}
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
	rec, err := syncer.Recorded(ctx, db)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return rep, err
	}
	rep.Sync = SyncStatus{Enabled: cfg.SyncEnabled(), Remote: rec.Remote, LastPush: rec.LastPush, LastPull: rec.LastPull,
		LastRound: rec.LastRound, LastError: rec.LastError, PendingPush: rec.PendingPush, CheckedAt: rec.CheckedAt,
		Reachable: rec.Reachable, Token: rec.Token, RemoteSchema: rec.RemoteSchema, PendingPull: rec.PendingPull,
		RemoteError: rec.RemoteError, Agent: syncView}
	if rep.Sync.Enabled {
		rep.Sync.Remote = syncer.RedactURL(cfg.Sync.URL)
	} else if rec.Remote == "" {
		rep.Sync.PendingPush = 0 // never synced and not configured: nothing waits for a remote
	}
	return rep, nil
}

func printStatus(env *Env, r StatusReport) {
	now := time.Now()
	env.Printf("database   %s (machine %s, %s mode)\n", r.Database, r.MachineID, r.Mode)
	env.Printf("episodes   %d stored, %d waiting for consolidation", r.Episodes.Total, r.Episodes.Waiting)
	if n := r.Episodes.Spooled; n > 0 {
		env.Printf("; %s spooled by hooks while the database was busy, stored as soon as it is free", plural.Count(n, "event"))
	}
	env.Printf("\n")
	if n := r.Episodes.SpoolFailed; n > 0 {
		env.Printf("           %s could not be stored and %s kept in %s\n", plural.Count(n, "spooled event"),
			isAre(n), filepath.Join(filepath.Dir(r.Database), "spool", "failed"))
	}
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
		env.Printf("agent      running (pid %d on %s, %s, last beat %s ago; since %s: %d vectors embedded, %d exchanges tailed)\n",
			hb.PID, hb.Host, hb.State, a.Age, when(hb.StartedAt, now), hb.Embedded, hb.Tailed)
		if hb.Hooks {
			env.Printf("hooks      answered by the agent (%d events by its last heartbeat)\n", hb.HooksServed)
		} else {
			env.Printf("hooks      handled in-process: the agent is not serving them (see agent.log)\n")
		}
	default:
		env.Printf("agent      %s (pid %d on %s, last beat %s ago)\n", a.Status, hb.PID, hb.Host, a.Age)
	}
	for _, e := range r.Endpoints {
		env.Printf("%-10s %s\n", e.Name, describeEndpoint(e, now))
	}
	if c := r.LastCycle; c != nil {
		env.Printf("last cycle %s %s (%s, %s mode) at %s, %.1fs, %d episodes", c.ID, c.Status, c.Trigger, c.Mode,
			c.StartedAt.Format(time.DateTime), c.Seconds, c.Episodes)
		if st := c.Stats; st != nil {
			env.Printf(": %d beliefs created, %d reinforced, %d contradicted, %d superseded, %d clusters",
				st.BeliefsCreated, st.Reinforced, st.Contradicted, st.Superseded, st.Clusters)
		}
		env.Printf("\n")
		if st := c.Stats; st != nil && st.EmbedderFallback {
			env.Printf("           compared texts with %s: the configured embedder did not answer\n", st.Embedder)
		}
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
	for i, l := range describeSync(r.Sync, now) {
		if i == 0 {
			env.Printf("sync       %s\n", l)
		} else {
			env.Printf("           %s\n", l)
		}
	}
}

// describeEndpoint says in one line how a remote endpoint is doing.
func describeEndpoint(e store.EndpointHealth, now time.Time) string {
	where := e.Remote
	if e.URL != "" {
		where += " at " + e.URL
	}
	switch {
	case !e.Down && e.LastOK.IsZero():
		return where + ": not called yet"
	case !e.Down:
		return where + " answers (last answer " + when(e.LastOK, now) + ")"
	}
	stand := "using the offline embedder"
	if e.Name == consolidate.EndpointLLM {
		stand = "consolidating offline"
	}
	next := "next try now"
	if d := e.NextTry.Sub(now); d > 0 {
		next = "next try in " + d.Round(time.Second).String()
	}
	return fmt.Sprintf("%s unreachable since %s, %s; %s (%s)", where, when(e.Since, now), stand, next, e.Error)
}

// describeSync says whether sync is on, when it last did what, what the
// last round found of the remote, and what the agent's loop is waiting
// for: one line, then one for the remote and one for the agent when there
// is something to say.
func describeSync(s SyncStatus, now time.Time) []string {
	var b strings.Builder
	if s.Enabled {
		b.WriteString(s.Remote)
	} else {
		b.WriteString("off")
	}
	var parts []string
	for _, t := range []struct {
		what string
		at   time.Time
	}{{"pushed", s.LastPush}, {"pulled", s.LastPull}} {
		if !t.at.IsZero() {
			parts = append(parts, "last "+t.what+" "+when(t.at, now))
		}
	}
	if len(parts) > 0 {
		if !s.Enabled {
			b.WriteString(" (synced by hand")
			if s.Remote != "" {
				b.WriteString(" with " + s.Remote)
			}
			b.WriteString(")")
		}
		b.WriteString("; " + strings.Join(parts, ", "))
	}
	if s.PendingPush > 0 {
		fmt.Fprintf(&b, "; %s waiting to push", plural.Count(s.PendingPush, "row"))
	}
	remoteSaysWhy := !s.CheckedAt.IsZero() && (!s.Reachable || s.Token == syncer.TokenRefused)
	if s.LastError != "" && !remoteSaysWhy {
		b.WriteString("; last round failed: " + s.LastError)
	}
	lines := []string{b.String()}
	if !s.CheckedAt.IsZero() {
		lines = append(lines, describeRemote(s, now))
	}
	if a := s.Agent; a != nil {
		switch next := "next round now"; {
		case a.Down:
			if d := a.NextTry.Sub(now); d > 0 {
				next = "next try in " + d.Round(time.Second).String()
			}
			lines = append(lines, fmt.Sprintf("the agent: rounds failing since %s, %s; %s; rows wait here meanwhile",
				when(a.Since, now), plural.Count(a.Failures, "failure"), next))
		default:
			if d := a.NextTry.Sub(now); d >= time.Minute {
				next = "next round in " + roughly(d)
			} else if d > 0 {
				next = "next round in " + d.Round(time.Second).String()
			}
			lines = append(lines, "the agent: syncing, "+next)
		}
	}
	return lines
}

// describeRemote says what the last round found of the remote.
func describeRemote(s SyncStatus, now time.Time) string {
	at := "at the last round, " + when(s.CheckedAt, now)
	switch {
	case !s.Reachable:
		return "remote not reached " + at + ": " + s.RemoteError
	case s.Token == syncer.TokenRefused:
		return "remote refused the token " + at + ": set sync.token in the config file (or CREDENCE_SYNC_TOKEN)"
	}
	var parts []string
	if s.Token == syncer.TokenAccepted {
		parts = append(parts, "token accepted")
	}
	if s.RemoteSchema != "" {
		parts = append(parts, "sync schema "+s.RemoteSchema)
	}
	if s.PendingPull >= 0 {
		parts = append(parts, plural.Count(s.PendingPull, "row")+" left to pull")
	}
	line := "remote answered " + at
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	return line
}

// when renders a moment as its local date and time and how long ago it was.
func when(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0:
		return t.Format(time.DateTime)
	case d < time.Minute:
		return fmt.Sprintf("%s (%ds ago)", t.Format(time.DateTime), int(d.Seconds()))
	}
	return fmt.Sprintf("%s (%s ago)", t.Format(time.DateTime), roughly(d))
}

// roughly renders a duration in its largest unit or two: "3m", "2h5m",
// "4d3h".
func roughly(d time.Duration) string {
	m := int(d / time.Minute)
	switch {
	case m < 60:
		return fmt.Sprintf("%dm", m)
	case m < 24*60:
		return fmt.Sprintf("%dh%dm", m/60, m%60)
	}
	return fmt.Sprintf("%dd%dh", m/(24*60), m/60%24)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
