package llm

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// Surprise levels at which extraction goes deeper (DESIGN §5, seed 001).
const (
	DeepSurprise    = 0.85
	ExplainSurprise = 0.90
)

// Actions of an extracted fact after predict-calibrate.
const (
	ActionNew        = "new"
	ActionReinforce  = "reinforce"
	ActionInvalidate = "invalidate"
)

// Classification labels.
const (
	LabelSupports    = "SUPPORTS"
	LabelContradicts = "CONTRADICTS"
	LabelPartial     = "PARTIAL"
	LabelIrrelevant  = "IRRELEVANT"
)

// KnownBelief is an existing belief shown to the model as context.
type KnownBelief struct {
	ID         string
	Statement  string
	Subject    string
	Predicate  string
	Object     string
	Confidence float64
}

// ExtractRequest is one episode to extract facts from, with the beliefs
// that are expected to predict it.
type ExtractRequest struct {
	Episode  string
	Surprise float64
	Related  []KnownBelief
}

// Fact is one extracted triple with its sentence and its relation to the
// known beliefs.
type Fact struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	Fact      string `json:"fact"`
	Kind      string `json:"kind"`
	Negated   bool   `json:"negated"`
	Action    string `json:"action"`
	BeliefID  string `json:"belief_id"`
}

// Extraction is the model's reading of an episode.
type Extraction struct {
	Facts               []Fact `json:"facts"`
	SurpriseExplanation string `json:"surprise_explanation"`
}

func (x *Extraction) validate() error {
	for i := range x.Facts {
		f := &x.Facts[i]
		f.Subject, f.Predicate, f.Object = clean(f.Subject), snake(f.Predicate), clean(f.Object)
		f.Fact = strings.TrimSpace(f.Fact)
		if f.Subject == "" || f.Predicate == "" || f.Object == "" || f.Fact == "" {
			return fmt.Errorf("fact %d has an empty field", i+1)
		}
		if f.Kind != "fact" && f.Kind != "guideline" {
			return fmt.Errorf("fact %d: kind %q", i+1, f.Kind)
		}
		switch f.Action {
		case ActionNew:
			f.BeliefID = ""
		case ActionReinforce, ActionInvalidate:
			if f.BeliefID == "" {
				return fmt.Errorf("fact %d: %s without a belief_id", i+1, f.Action)
			}
		default:
			return fmt.Errorf("fact %d: action %q", i+1, f.Action)
		}
	}
	return nil
}

// Extract asks the model for the lasting facts and guidelines in an
// episode, each marked new, reinforce or invalidate against req.Related. A
// belief ID the model names that is not among req.Related makes the reply
// malformed.
func (c *Client) Extract(ctx context.Context, req ExtractRequest) (Extraction, Usage, error) {
	var out Extraction
	u, err := c.complete(ctx, extractionPrompt(req.Surprise), extractionInput(req), extractionSchema, &out)
	if err != nil {
		return Extraction{}, u, fmt.Errorf("extract facts: %w", err)
	}
	known := make(map[string]bool, len(req.Related))
	for _, b := range req.Related {
		known[b.ID] = true
	}
	for _, f := range out.Facts {
		if f.BeliefID != "" && !known[f.BeliefID] {
			return Extraction{}, u, fmt.Errorf("extract facts: %w: unknown belief_id %q", ErrMalformed, f.BeliefID)
		}
	}
	if req.Surprise < ExplainSurprise {
		out.SurpriseExplanation = ""
	}
	return out, u, nil
}

// Candidate is a synthesized belief: one statement and its fields.
type Candidate struct {
	Coherent  bool    `json:"coherent"`
	Statement string  `json:"statement"`
	Subject   string  `json:"subject"`
	Predicate string  `json:"predicate"`
	Object    string  `json:"object"`
	Context   string  `json:"context"`
	Timeframe string  `json:"timeframe"`
	Kind      string  `json:"kind"`
	Share     float64 `json:"share,omitempty"`
}

func (c *Candidate) validate() error {
	c.Statement = strings.TrimSpace(c.Statement)
	c.Subject, c.Predicate, c.Object = clean(c.Subject), snake(c.Predicate), clean(c.Object)
	c.Context, c.Timeframe = strings.TrimSpace(c.Context), strings.TrimSpace(c.Timeframe)
	if !c.Coherent {
		return nil
	}
	if c.Statement == "" {
		return fmt.Errorf("coherent candidate without a statement")
	}
	if c.Kind != "fact" && c.Kind != "guideline" {
		return fmt.Errorf("kind %q", c.Kind)
	}
	return nil
}

// Synthesize asks for the one generalization a cluster of episodes
// supports. Coherent is false when there is none.
func (c *Client) Synthesize(ctx context.Context, episodes []string) (Candidate, Usage, error) {
	var out Candidate
	u, err := c.complete(ctx, synthesisPrompt, numbered("Episode", episodes), synthesisSchema, &out)
	if err != nil {
		return Candidate{}, u, fmt.Errorf("synthesize belief: %w", err)
	}
	return out, u, nil
}

// Revise re-synthesizes a belief that evidence has turned against, from the
// evidence: the statement that the episodes now support.
func (c *Client) Revise(ctx context.Context, statement string, evidence []string) (Candidate, Usage, error) {
	var out Candidate
	in := "Current belief: " + statement + "\n\n" + numbered("Evidence", evidence)
	u, err := c.complete(ctx, revisionPrompt, in, synthesisSchema, &out)
	if err != nil {
		return Candidate{}, u, fmt.Errorf("revise belief: %w", err)
	}
	if !out.Coherent {
		return Candidate{}, u, fmt.Errorf("revise belief: %w: no revised statement", ErrMalformed)
	}
	return out, u, nil
}

type splitReply struct {
	Children []Candidate `json:"children"`
}

func (s *splitReply) validate() error {
	if len(s.Children) < 2 {
		return fmt.Errorf("split into %d children, need at least 2", len(s.Children))
	}
	for i := range s.Children {
		ch := &s.Children[i]
		ch.Coherent = true
		if err := ch.validate(); err != nil {
			return fmt.Errorf("child %d: %w", i+1, err)
		}
		if !(ch.Share > 0) || ch.Share > 1 {
			return fmt.Errorf("child %d: share %v outside (0, 1]", i+1, ch.Share)
		}
	}
	return nil
}

// Split breaks a belief that holds in some contexts and not others into
// context-specific beliefs, each with the share of evidence it inherits.
func (c *Client) Split(ctx context.Context, statement string, evidence []string) ([]Candidate, Usage, error) {
	var out splitReply
	in := "Belief: " + statement + "\n\n" + numbered("Evidence", evidence)
	u, err := c.complete(ctx, splitPrompt, in, splitSchema, &out)
	if err != nil {
		return nil, u, fmt.Errorf("split belief: %w", err)
	}
	return out.Children, u, nil
}

// Judgement is the four-way classification of evidence against a belief,
// with the graded support s and reliability ρ of DESIGN §3.
type Judgement struct {
	Label       string  `json:"label"`
	Support     float64 `json:"support"`
	Reliability float64 `json:"reliability"`
	Reason      string  `json:"reason"`
}

func (j *Judgement) validate() error {
	if math.IsNaN(j.Support) || math.IsNaN(j.Reliability) || j.Reliability < 0 || j.Reliability > 1 ||
		j.Support < -1 || j.Support > 1 {
		return fmt.Errorf("support %v or reliability %v out of range", j.Support, j.Reliability)
	}
	switch j.Label {
	case LabelSupports:
		if j.Support <= 0 {
			j.Support = 1
		}
	case LabelContradicts:
		if j.Support >= 0 {
			j.Support = -1
		}
	case LabelPartial, LabelIrrelevant:
		j.Support = 0
	default:
		return fmt.Errorf("label %q", j.Label)
	}
	if j.Reliability == 0 && j.Label != LabelIrrelevant {
		j.Reliability = 1
	}
	return nil
}

// Classify judges how a candidate belief bears on an existing one.
func (c *Client) Classify(ctx context.Context, candidate, existing string) (Judgement, Usage, error) {
	var out Judgement
	in := "Existing belief: " + existing + "\n\nNew evidence: " + candidate
	u, err := c.complete(ctx, classificationPrompt, in, classificationSchema, &out)
	if err != nil {
		return Judgement{}, u, fmt.Errorf("classify evidence: %w", err)
	}
	return out, u, nil
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func snake(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "-", " "))), "_")
}

func numbered(label string, items []string) string {
	var b strings.Builder
	for i, it := range items {
		fmt.Fprintf(&b, "%s %d:\n%s\n\n", label, i+1, cut(it, 4000))
	}
	return b.String()
}

// cut keeps at most n bytes of s, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + " […]"
}
