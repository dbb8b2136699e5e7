package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/card"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
	"github.com/credence-mem/credence/store"
)

// RecallInput is memory_recall's input.
type RecallInput struct {
	Query   string `json:"query" jsonschema:"what to look for, in plain words"`
	Project string `json:"project,omitempty" jsonschema:"project root to search (its memories and global ones); default: the current project; '*' for every project"`
	AsOf    string `json:"as_of,omitempty" jsonschema:"RFC 3339 date or time: recall beliefs as they were then"`
}

// RecallOutput is memory_recall's result.
type RecallOutput struct {
	Context  string         `json:"context"`
	Beliefs  []RecallBelief `json:"beliefs"`
	Episodes []RecallEpisod `json:"episodes"`
	Lexical  string         `json:"lexical_only,omitempty"`
}

// RecallBelief is one recalled belief.
type RecallBelief struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Kind       string  `json:"kind"`
	Scope      string  `json:"scope"`
	Confidence float64 `json:"confidence"`
	Sources    int     `json:"sources"`
	Contested  bool    `json:"contested"`
	// Rivals are the other members of a contested group.
	Rivals []RecallRival `json:"rivals,omitempty"`
	// Earlier is the value the belief replaced in its slot; SupersededBy,
	// set only when the query asks about the past, the value that
	// replaced it. The context text says the same.
	Earlier      string `json:"earlier,omitempty"`
	SupersededBy string `json:"superseded_by,omitempty"`
	// Doubted says a newer message speaks of changing its value.
	Doubted bool `json:"doubted,omitempty"`
}

// RecallRival is a belief competing with a recalled one for the same slot.
type RecallRival struct {
	ID         string  `json:"id"`
	Statement  string  `json:"statement"`
	Confidence float64 `json:"confidence"`
}

// RecallEpisod is one recalled episode.
type RecallEpisod struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
	// SupersededBy is the current value when the episode states an
	// earlier one (kept only when the query asks about the past); Note
	// says which value holds when it names both.
	SupersededBy string `json:"superseded_by,omitempty"`
	Note         string `json:"note,omitempty"`
}

// IDInput names a belief or an episode.
type IDInput struct {
	ID string `json:"id" jsonschema:"a belief ID (bl_…) or episode ID (ep_…); the short form shown in recall output works"`
}

// ExpandOutput is a belief's card or an episode.
type ExpandOutput struct {
	Belief  *card.Belief  `json:"belief,omitempty"`
	Episode *card.Episode `json:"episode,omitempty"`
	// Beliefs lists, for an episode, the beliefs it is evidence for.
	Beliefs []card.Related `json:"beliefs,omitempty"`
}

// ForgetInput is memory_forget's input.
type ForgetInput struct {
	ID           string `json:"id" jsonschema:"the belief (bl_…) or episode (ep_…) to forget"`
	WithEvidence bool   `json:"with_evidence,omitempty" jsonschema:"for a belief: also forget every episode it was learned from, even those other beliefs rest on"`
	KeepEpisodes bool   `json:"keep_episodes,omitempty" jsonschema:"for a belief: forget the belief alone and keep the episodes that say it"`
}

// ForgetOutput says what was forgotten.
type ForgetOutput struct {
	Beliefs []string `json:"beliefs"`
	// Episodes lists the episodes forgotten: the one named, or those the
	// belief took with it.
	Episodes []string `json:"episodes"`
	// EpisodesKept lists episodes the belief was learned from that were
	// left in place.
	EpisodesKept     []string `json:"episodes_kept"`
	AlreadyForgotten []string `json:"already_forgotten,omitempty"`
}

// StatusOutput is memory_status's result.
type StatusOutput struct {
	Episodes      int            `json:"episodes"`
	Beliefs       map[string]int `json:"beliefs"`
	Mode          string         `json:"mode"`
	Embedder      string         `json:"embedder"`
	Project       string         `json:"project,omitempty"`
	AgentAlive    bool           `json:"agent_alive"`
	LastHeartbeat string         `json:"last_heartbeat,omitempty"`
	LastCycle     *CycleStatus   `json:"last_cycle,omitempty"`
	Sync          bool           `json:"sync_configured"`
}

// CycleStatus summarises the last consolidation cycle.
type CycleStatus struct {
	Status           string `json:"status"`
	Trigger          string `json:"trigger"`
	Mode             string `json:"mode"`
	StartedAt        string `json:"started_at"`
	Episodes         int    `json:"episodes"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
	Error            string `json:"error,omitempty"`
}

// SaveInput is memory_save's input.
type SaveInput struct {
	Text     string `json:"text" jsonschema:"what to remember, in the user's words or a faithful summary"`
	Remember bool   `json:"remember,omitempty" jsonschema:"also record it as a belief the user stated (full confidence weight); use for explicit preferences, instructions and facts"`
	Scope    string `json:"scope,omitempty" jsonschema:"'project' (default for statements about this project) or 'global' (about the user, everywhere)"`
	Project  string `json:"project,omitempty" jsonschema:"project root the note belongs to; default: the current project"`
}

// SaveOutput says what memory_save stored.
type SaveOutput struct {
	EpisodeID string            `json:"episode_id"`
	Redacted  bool              `json:"redacted"`
	Beliefs   []card.Remembered `json:"beliefs,omitempty"`
}

func (s *Server) addTools(srv *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	yes := true
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_recall", Annotations: readOnly,
		Description: "Search credence's memory: beliefs (with confidence and source counts) and past episodes relevant to a query, for the current project and global memory."}, s.recall)
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_expand", Annotations: readOnly,
		Description: "Show everything about one belief (triple, confidence with its alpha/beta breakdown, status, evidence with the episodes behind it, history) or one episode."}, s.expand)
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_why", Annotations: readOnly,
		Description: "Explain why credence believes something: the evidence chain down to the episodes and the confidence over time."}, s.why)
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_forget", Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true},
		Description: "Forget a belief or an episode for good: its text is purged from the database (and from other machines at their next sync). " +
			"Forgetting a belief also forgets the episodes that are its only source or that state it. Only when the user asks."}, s.forget)
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_status", Annotations: readOnly,
		Description: "How much credence remembers, whether its background agent is alive and how its last consolidation went."}, s.status)
	mcp.AddTool(srv, &mcp.Tool{Name: "memory_save",
		Description: "Save a note to memory (secrets are removed first). With remember=true it also records the statement as a belief the user stated."}, s.save)
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, RecallOutput, error) {
	q := recall.Query{Text: in.Query, Project: s.project}
	switch in.Project {
	case "":
	case "*":
		q.Project = ""
	default:
		q.Project = recall.ProjectRoot(in.Project)
	}
	if in.AsOf != "" {
		t, err := parseTime(in.AsOf)
		if err != nil {
			return nil, RecallOutput{}, err
		}
		q.AsOf = t
	}
	res, err := s.recaller.Recall(ctx, q)
	if err != nil {
		return nil, RecallOutput{}, fmt.Errorf("recall: %w", err)
	}
	if q.AsOf.IsZero() {
		// Surfacing a belief strengthens its retrieval (DESIGN §6); a failure
		// here costs nothing the answer needs.
		_ = s.db.Touch(ctx, s.now(), res.BeliefIDs()...)
	}
	out := RecallOutput{Context: recall.Render(res, s.cfg.Recall.MaxChars, s.cfg.Recall.MaxChars),
		Beliefs: []RecallBelief{}, Episodes: []RecallEpisod{}, Lexical: res.Lexical}
	for _, b := range res.Beliefs {
		rb := RecallBelief{ID: b.ID, Statement: b.Statement, Kind: b.Kind, Scope: b.Scope,
			Confidence: b.Confidence, Sources: b.Sources, Contested: b.Contested, Earlier: b.Earlier, SupersededBy: b.SupersededBy, Doubted: b.Doubted}
		for _, r := range b.Rivals {
			rb.Rivals = append(rb.Rivals, RecallRival{ID: r.ID, Statement: r.Statement, Confidence: r.Confidence})
		}
		out.Beliefs = append(out.Beliefs, rb)
	}
	for _, e := range res.Episodes {
		out.Episodes = append(out.Episodes, RecallEpisod{ID: e.ID, Kind: e.Kind, Text: e.Text,
			CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), SupersededBy: e.SupersededBy, Note: e.Note})
	}
	text := out.Context
	if text == "" {
		text = "Nothing in memory bears on that."
	}
	return textResult(text), out, nil
}

func (s *Server) expand(ctx context.Context, _ *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, ExpandOutput, error) {
	id := strings.TrimSpace(in.ID)
	if strings.HasPrefix(id, "ep_") {
		e, err := s.db.EpisodeByPrefix(ctx, id)
		if err != nil {
			return nil, ExpandOutput{}, err
		}
		derived, err := s.db.BeliefsFromEpisode(ctx, e.ID)
		if err != nil {
			return nil, ExpandOutput{}, err
		}
		ej := card.EpisodeOf(e)
		out := ExpandOutput{Episode: &ej}
		for _, b := range derived {
			out.Beliefs = append(out.Beliefs, card.RelatedOf(b))
		}
		return textResult(episodeText(e, derived)), out, nil
	}
	c, err := s.db.Card(ctx, id)
	if err != nil {
		return nil, ExpandOutput{}, err
	}
	cj := card.Of(c)
	return textResult(cardText(c, nil)), ExpandOutput{Belief: &cj}, nil
}

func (s *Server) why(ctx context.Context, _ *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, card.Belief, error) {
	c, err := s.db.Card(ctx, strings.TrimSpace(in.ID))
	if err != nil {
		return nil, card.Belief{}, err
	}
	tl, err := s.db.Timeline(ctx, c.Belief.ID, 24)
	if err != nil {
		return nil, card.Belief{}, err
	}
	out := card.Of(c)
	out.Timeline = card.TimelineOf(tl)
	return textResult(cardText(c, tl)), out, nil
}

func (s *Server) forget(ctx context.Context, _ *mcp.CallToolRequest, in ForgetInput) (*mcp.CallToolResult, ForgetOutput, error) {
	out := ForgetOutput{Beliefs: []string{}, Episodes: []string{}, EpisodesKept: []string{}}
	scope := store.ForgetSources
	switch {
	case in.WithEvidence && in.KeepEpisodes:
		return nil, out, fmt.Errorf("with_evidence and keep_episodes contradict each other; pick one")
	case in.WithEvidence:
		scope = store.ForgetEvidence
	case in.KeepEpisodes:
		scope = store.KeepEpisodes
	}
	done, err := s.db.Forget(ctx, []string{in.ID}, scope)
	if err != nil {
		return nil, out, err
	}
	out.Beliefs = append(out.Beliefs, done.Beliefs...)
	out.Episodes = append(out.Episodes, done.Episodes...)
	out.EpisodesKept = append(out.EpisodesKept, done.Kept...)
	out.AlreadyForgotten = done.AlreadyForgotten
	if len(out.Beliefs) > 0 {
		// Out of MEMORY.md now, not at the agent's next cycle; a file that
		// cannot be written is retried by the agent.
		_, _ = promote.New(s.db, s.cfg, promote.Options{}).Promote(ctx)
	}
	return textResult(forgetText(out)), out, nil
}

func (s *Server) status(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, StatusOutput, error) {
	out := StatusOutput{Beliefs: map[string]int{}, Mode: "offline", Embedder: s.cfg.Embedder.Kind, Project: s.project,
		Sync: s.cfg.SyncEnabled()}
	if s.cfg.LLMEnabled() {
		out.Mode = "llm (" + s.cfg.LLM.Model + ")"
	}
	var err error
	if out.Episodes, err = s.db.CountEpisodes(ctx); err != nil {
		return nil, out, err
	}
	counts, err := s.db.CountBeliefs(ctx)
	if err != nil {
		return nil, out, err
	}
	for st, n := range counts {
		out.Beliefs[string(st)] = n
	}
	// The heartbeat is the agent's JSON (store.AgentHeartbeat), judged as
	// credence status judges it.
	hb, health, err := s.db.ReadAgentHealth(ctx, s.now())
	if err != nil {
		return nil, out, err
	}
	if !hb.BeatAt.IsZero() {
		out.LastHeartbeat = hb.BeatAt.UTC().Format(time.RFC3339)
	}
	out.AgentAlive = health.Running
	cycles, err := s.db.Cycles(ctx, 1)
	if err != nil {
		return nil, out, err
	}
	if len(cycles) == 1 {
		c := cycles[0]
		out.LastCycle = &CycleStatus{Status: c.Status, Trigger: c.Trigger, Mode: c.Mode,
			StartedAt: time.UnixMilli(c.StartedAt).UTC().Format(time.RFC3339), Episodes: c.Episodes,
			PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens, Error: c.Error}
	}
	return textResult(statusText(out)), out, nil
}

func (s *Server) save(ctx context.Context, _ *mcp.CallToolRequest, in SaveInput) (*mcp.CallToolResult, SaveOutput, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return nil, SaveOutput{}, errors.New("text is empty")
	}
	clean := redact.String(text)
	out := SaveOutput{Redacted: clean != text}
	project := s.project
	if in.Project != "" {
		project = recall.ProjectRoot(in.Project)
	}
	facts := extract.Extract(clean)
	scope := in.Scope
	if scope == "" {
		scope = belief.ScopeGlobal
		for _, f := range facts {
			if f.Subject == extract.SubjectProject {
				scope = belief.ScopeProject
			}
		}
		if !in.Remember && project != "" {
			scope = belief.ScopeProject // a plain note belongs to the session's project
		}
	}
	if scope != belief.ScopeGlobal && scope != belief.ScopeProject {
		return nil, out, fmt.Errorf("scope %q: use \"project\" or \"global\"", scope)
	}
	if scope == belief.ScopeGlobal {
		project = ""
	}
	if !in.Remember {
		e := store.Episode{Kind: store.EpisodeNote, Content: clean, ProjectPath: project, Scope: scope, SessionID: "mcp"}
		if _, err := s.db.AddEpisode(ctx, &e); err != nil {
			return nil, out, err
		}
		out.EpisodeID = e.ID
		return textResult(saveText(out)), out, nil
	}
	var sts []store.Statement
	for _, f := range facts {
		sts = append(sts, store.Statement{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
			Statement: f.Statement, Kind: f.Kind, Negated: f.Negated, Replaces: f.Replaces, Exclusive: f.Exclusive})
	}
	if len(sts) == 0 {
		sts = []store.Statement{{Subject: extract.SubjectUser, Statement: clean, Kind: belief.KindFact}}
	}
	res, err := s.db.Remember(ctx, store.RememberInput{Text: clean, Statements: sts, Scope: scope, Project: project,
		SessionID: "mcp", Source: "mcp"})
	if err != nil {
		return nil, out, err
	}
	out.EpisodeID, out.Beliefs = res.EpisodeID, card.RememberedOf(res.Beliefs)
	return textResult(saveText(out)), out, nil
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// parseTime reads an RFC 3339 time or a bare date.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("as_of %q: use a date (2025-03-01) or an RFC 3339 time", s)
}
