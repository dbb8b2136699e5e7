package store

import (
	"fmt"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
)

// beliefCols reads every text column as a BLOB with a one-byte prefix
// (see rawCols): the driver tries ten date layouts on each TEXT value it
// returns, handing back a time.Time when one fits (so a statement
// "2026-01-02" would come back rewritten) and spending most of a bulk read
// on it; and it returns an empty BLOB with Rust's dangling pointer 0x1,
// which makes the Go garbage collector abort the process. scanBelief strips
// the prefix.
var beliefCols = rawCols(`seq`, `#id`, `#statement`, `#subject`, `#predicate`, `#object`, `#context`,
	`#timeframe`, `#kind`, `#scope`, `#project_path`, `#source`, `#status`, `alpha`, `beta`, `counts_at`,
	`counts_turn`, `peak_confidence`, `evidence_count`, `supports`, `contradictions`, `partials`,
	`coalesce(last_reinforced_at, 0)`, `valid_at`, `coalesce(invalid_at, 0)`, `#coalesce(parent_belief_id, '')`,
	`#coalesce(merged_into, '')`, `pinned`, `created_at`, `updated_at`, `last_hlc`, `#origin`, `stability`,
	`coalesce(last_accessed_at, 0)`, `coalesce(promoted_at, 0)`, `coalesce(demoted_at, 0)`)

// episodeCols reads episodes the same way.
var episodeCols = rawCols(`seq`, `#id`, `#session_id`, `#project_path`, `#scope`, `#kind`, `#content`,
	`#summary`, `coalesce(surprise, 0)`, `#coalesce(surprise_explanation, '')`, `#coalesce(dedup_key, '')`,
	`turn`, `created_at`, `hlc`, `#origin`, `forgotten_at IS NOT NULL`)

// rawCols joins column expressions; those marked '#' are read as a BLOB
// with a one-byte prefix.
func rawCols(cols ...string) string {
	for i, c := range cols {
		if rest, ok := strings.CutPrefix(c, "#"); ok {
			cols[i] = "CAST('.' || " + rest + " AS BLOB)"
		}
	}
	return strings.Join(cols, ", ")
}

// rawText is a destination for a prefixed BLOB column.
type rawText struct{ dst *string }

// Scan stores the column without its prefix byte.
func (r rawText) Scan(v any) error {
	b, ok := v.([]byte)
	if !ok || len(b) == 0 {
		return fmt.Errorf("raw text column: got %T", v)
	}
	*r.dst = string(b[1:])
	return nil
}

// rawNullText is rawText for a column that may be NULL ('.' || NULL is
// NULL): valid reports whether it was not.
type rawNullText struct {
	dst   *string
	valid *bool
}

// Scan stores the column without its prefix byte, or notes a NULL.
func (r rawNullText) Scan(v any) error {
	if v == nil {
		*r.dst, *r.valid = "", false
		return nil
	}
	*r.valid = true
	return rawText{r.dst}.Scan(v)
}

func scanBelief(sc rowScanner) (Belief, error) {
	var b Belief
	var status string
	err := sc.Scan(&b.Seq, rawText{&b.ID}, rawText{&b.Statement}, rawText{&b.Subject}, rawText{&b.Predicate},
		rawText{&b.Object}, rawText{&b.Context}, rawText{&b.Timeframe}, rawText{&b.Kind}, rawText{&b.Scope},
		rawText{&b.ProjectPath}, rawText{&b.Source}, rawText{&status}, &b.Alpha, &b.Beta, &b.CountsAt.Millis,
		&b.CountsAt.Turn, &b.Peak, &b.EvidenceCount, &b.Supports, &b.Contradictions, &b.Partials,
		&b.LastReinforced, &b.ValidAt, &b.InvalidAt, rawText{&b.ParentID}, rawText{&b.MergedInto}, &b.Pinned,
		&b.CreatedAt, &b.UpdatedAt, &b.LastHLC, rawText{&b.Origin}, &b.Stability, &b.LastAccessedAt,
		&b.PromotedAt, &b.DemotedAt)
	b.Status = belief.Status(status)
	return b, err
}

func scanEpisode(sc rowScanner) (Episode, error) {
	var e Episode
	var created int64
	err := sc.Scan(&e.Seq, rawText{&e.ID}, rawText{&e.SessionID}, rawText{&e.ProjectPath}, rawText{&e.Scope},
		rawText{&e.Kind}, rawText{&e.Content}, rawText{&e.Summary}, &e.Surprise, rawText{&e.SurpriseExplanation},
		rawText{&e.DedupKey}, &e.Turn, &created, &e.HLC, rawText{&e.Origin}, &e.Forgotten)
	e.CreatedAt = time.UnixMilli(created)
	return e, err
}
