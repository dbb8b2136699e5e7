package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name: "beliefs",
		Usage: "[--status s,…|all] [--kind fact|guideline] [--scope global|project] [--project dir | --here] " +
			"[--min-confidence x] [--promoted] [--contested] [--sort by] [--limit n] [--json] [text]",
		Summary: "list beliefs with their confidence, strongest first; filter by status, kind, scope, confidence or text",
		Run:     runBeliefs,
	})
}

// allStatuses are the belief statuses in lifecycle order; --status all
// selects them.
var allStatuses = []belief.Status{belief.Active, belief.Revised, belief.SplitUp, belief.Merged, belief.Archived,
	belief.Superseded, belief.Rejected, belief.Forgotten}

// beliefOrders are the orders --sort accepts, each from the first shown.
var beliefOrders = map[string]func(a, b beliefRow) int{
	"confidence": func(a, b beliefRow) int { return cmp.Compare(b.Normalized, a.Normalized) },
	"evidence":   func(a, b beliefRow) int { return cmp.Compare(b.EvidenceCount, a.EvidenceCount) },
	"created":    func(a, b beliefRow) int { return cmp.Compare(b.createdMs, a.createdMs) },
	"updated":    func(a, b beliefRow) int { return cmp.Compare(b.updatedMs, a.updatedMs) },
}

// beliefQuery is what `credence beliefs` selects, beyond what the store's
// Filter does: the filters that need the confidence view or the text.
type beliefQuery struct {
	filter        store.Filter
	minConfidence float64
	contested     bool
	words         []string // each must appear in the statement or the triple
	order         string
	limit         int // 0: all
}

// beliefRow is one belief in `credence beliefs`, and its --json shape.
type beliefRow struct {
	ID             string  `json:"id"`
	Statement      string  `json:"statement"`
	Subject        string  `json:"subject,omitempty"`
	Predicate      string  `json:"predicate,omitempty"`
	Object         string  `json:"object,omitempty"`
	Kind           string  `json:"kind"`
	Scope          string  `json:"scope"`
	Project        string  `json:"project,omitempty"`
	Status         string  `json:"status"`
	Confidence     float64 `json:"confidence"`            // decayed to now
	Normalized     float64 `json:"normalized_confidence"` // after exclusivity, as recall ranks it
	EvidenceCount  int     `json:"evidence_count"`
	Supports       int     `json:"supports"`
	Contradictions int     `json:"contradictions"`
	Partials       int     `json:"partials"`
	Pinned         bool    `json:"pinned"`
	Promoted       bool    `json:"promoted"`
	Contested      bool    `json:"contested"`
	CreatedAt      string  `json:"created_at"`
	UpdatedAt      string  `json:"updated_at"`

	createdMs, updatedMs int64
}

func runBeliefs(env *Env, args []string) int {
	fs := env.Flags("beliefs")
	statuses := fs.String("status", "active", "comma-separated statuses to list, or all ("+joinStatuses(allStatuses)+")")
	kind := fs.String("kind", "", "only facts or only guidelines: fact | guideline")
	scope := fs.String("scope", "", "only global or only project beliefs: global | project")
	projectDir := fs.String("project", "", "only this project's beliefs and global ones (with --scope project: the project's alone)")
	here := fs.Bool("here", false, "only the current project's beliefs and global ones")
	minConf := fs.Float64("min-confidence", 0, "only beliefs at least this confident (0-1), after exclusivity")
	promoted := fs.Bool("promoted", false, "only beliefs promoted into a MEMORY.md file")
	contested := fs.Bool("contested", false, "only beliefs in a contested exclusive slot")
	order := fs.String("sort", "confidence", "order: confidence | evidence | created | updated (highest or newest first)")
	limit := fs.Int("limit", 50, "list at most this many (0: all)")
	asJSON := fs.Bool("json", false, "print the beliefs as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	q := beliefQuery{minConfidence: *minConf, contested: *contested, words: strings.Fields(strings.ToLower(strings.Join(fs.Args(), " "))),
		order: *order, limit: *limit, filter: store.Filter{Kind: *kind, Scope: *scope, Promoted: *promoted}}
	var err error
	if q.filter.Statuses, err = parseStatuses(*statuses); err == nil {
		err = q.validate()
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "credence beliefs: %v\n", err)
		return 2
	}
	q.filter.Project = chosenProject(env, *projectDir, *here)
	db, _, view, err := openActiveView(env, q.filter.Project)
	if err != nil {
		return env.Fail("beliefs", err)
	}
	defer db.Close()
	bs, err := db.Beliefs(env.Ctx, q.filter)
	if err != nil {
		return env.Fail("beliefs", err)
	}
	rows, total := q.apply(bs, view, db.Params(), db.Now())
	if *asJSON {
		return env.JSON(rows)
	}
	printBeliefs(env, rows, total)
	return 0
}

// validate checks the values the flags were given.
func (q beliefQuery) validate() error {
	switch {
	case q.filter.Kind != "" && q.filter.Kind != belief.KindFact && q.filter.Kind != belief.KindGuideline:
		return fmt.Errorf("--kind %q: want fact or guideline", q.filter.Kind)
	case q.filter.Scope != "" && q.filter.Scope != belief.ScopeGlobal && q.filter.Scope != belief.ScopeProject:
		return fmt.Errorf("--scope %q: want global or project", q.filter.Scope)
	case q.minConfidence < 0 || q.minConfidence > 1:
		return fmt.Errorf("--min-confidence %v: want a number from 0 to 1", q.minConfidence)
	case q.limit < 0:
		return fmt.Errorf("--limit %d: want 0 (all) or more", q.limit)
	case beliefOrders[q.order] == nil:
		return fmt.Errorf("--sort %q: want confidence, evidence, created or updated", q.order)
	}
	return nil
}

// parseStatuses reads --status: a comma-separated list of statuses, or all.
func parseStatuses(s string) ([]belief.Status, error) {
	if strings.TrimSpace(s) == "all" {
		return allStatuses, nil
	}
	var out []belief.Status
	for part := range strings.SplitSeq(s, ",") {
		st := belief.Status(strings.TrimSpace(part))
		if !slices.Contains(allStatuses, st) {
			return nil, fmt.Errorf("--status %q: want all or any of %s", part, joinStatuses(allStatuses))
		}
		out = append(out, st)
	}
	return out, nil
}

func joinStatuses(ss []belief.Status) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// apply turns the beliefs the store's filter let through into rows, keeps
// those that pass the other filters, orders them and applies the limit. It
// also returns how many passed before the limit.
func (q beliefQuery) apply(bs []store.Belief, view *confidenceView, p belief.Params, now time.Time) ([]beliefRow, int) {
	rows := []beliefRow{}
	for _, b := range bs {
		r := newBeliefRow(b, view, p, now)
		if r.Normalized < q.minConfidence || (q.contested && !r.Contested) || !matchesWords(b, q.words) {
			continue
		}
		rows = append(rows, r)
	}
	by := beliefOrders[q.order]
	slices.SortStableFunc(rows, func(a, b beliefRow) int {
		return cmp.Or(by(a, b), cmp.Compare(b.Normalized, a.Normalized), cmp.Compare(a.ID, b.ID))
	})
	total := len(rows)
	if q.limit > 0 && len(rows) > q.limit {
		rows = rows[:q.limit]
	}
	return rows, total
}

// newBeliefRow describes b with its confidence as of now: an active
// belief's from the view (normalized within its exclusive slot), any
// other's decayed alone.
func newBeliefRow(b store.Belief, view *confidenceView, p belief.Params, now time.Time) beliefRow {
	r := beliefRow{ID: b.ID, Statement: b.Statement, Subject: b.Subject, Predicate: b.Predicate, Object: b.Object,
		Kind: b.Kind, Scope: b.Scope, Project: b.ProjectPath, Status: string(b.Status), EvidenceCount: b.EvidenceCount,
		Supports: b.Supports, Contradictions: b.Contradictions, Partials: b.Partials, Pinned: b.Pinned,
		Promoted: b.PromotedAt != 0, CreatedAt: rfc3339Millis(b.CreatedAt), UpdatedAt: rfc3339Millis(b.UpdatedAt),
		createdMs: b.CreatedAt, updatedMs: b.UpdatedAt}
	raw, inView := view.Raw[b.ID]
	if !inView {
		raw = b.Confidence(p, now, view.Turn)
	}
	r.Confidence, r.Normalized = roundTo(raw, 4), roundTo(raw, 4)
	if eff, ok := view.Effective[b.ID]; ok {
		r.Normalized = roundTo(eff, 4)
	}
	r.Contested = view.contested(b.ID)
	return r
}

// matchesWords reports whether every word appears in the belief's
// statement or triple, ignoring case.
func matchesWords(b store.Belief, words []string) bool {
	if len(words) == 0 {
		return true
	}
	text := strings.ToLower(strings.Join([]string{b.Statement, b.Subject, b.Predicate, b.Object, b.Context}, " "))
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// printBeliefs writes rows as a table, saying how many more the limit hid.
func printBeliefs(env *Env, rows []beliefRow, total int) {
	if len(rows) == 0 {
		env.Printf("no beliefs match (--status all includes archived, superseded and the rest)\n")
		return
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONF\tSTATUS\tID\tSOURCES\tSTATEMENT")
	for _, r := range rows {
		status := r.Status
		if r.Contested {
			status += ", contested"
		}
		statement := squeezeText(r.Statement, 80)
		if statement == "" {
			statement = "—"
		}
		fmt.Fprintf(tw, "%.2f\t%s\t%s\t%d\t%s\n", r.Normalized, status, ids.Short(r.ID), r.EvidenceCount, statement)
	}
	tw.Flush()
	if total > len(rows) {
		env.Printf("\nshowing %d of %s; --limit 0 lists them all\n", len(rows), plural.Count(total, "belief"))
	}
}

// rfc3339Millis formats Unix milliseconds for JSON ("" for 0).
func rfc3339Millis(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}
