package store

import (
	"context"

	"github.com/credence-mem/credence/belief"
)

// Counts is the part of a belief that its confidence depends on.
type Counts struct {
	ID          string
	Alpha, Beta float64
	At          belief.Moment
}

// Confidence is the decayed confidence at moment now.
func (c Counts) Confidence(p belief.Params, now belief.Moment) float64 {
	a, b := p.Decay(c.Alpha, c.Beta, c.At, now)
	return belief.Confidence(a, b)
}

// BeliefCounts reads just the counts of every belief with one of the given
// statuses (all when none are given). Reading five columns instead of a
// whole row matters: the driver pays a cgo round trip per value.
func (db *DB) BeliefCounts(ctx context.Context, statuses ...belief.Status) ([]Counts, error) {
	where, args := Filter{Statuses: statuses}.where()
	// IDs are never empty; nullif keeps the rule of rawCols anyway: an
	// empty BLOB from the driver carries a pointer the GC rejects.
	rows, err := db.sql.QueryContext(ctx, `SELECT nullif(CAST(id AS BLOB), x''), alpha, beta, counts_at, counts_turn FROM beliefs`+where, args...)
	if err != nil {
		return nil, wrap("read belief counts", err)
	}
	defer rows.Close()
	var out []Counts
	for rows.Next() {
		var c Counts
		if err := rows.Scan(&c.ID, &c.Alpha, &c.Beta, &c.At.Millis, &c.At.Turn); err != nil {
			return nil, wrap("read belief counts", err)
		}
		out = append(out, c)
	}
	return out, wrap("read belief counts", rows.Err())
}
