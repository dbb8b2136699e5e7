package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// OriginDerived is the origin of rows that sync derives from other rows (the
// merge of beliefs created independently on two machines). Their IDs and
// contents are pure functions of the rows they come from, so every machine
// that derives one writes the same row, and pushing it twice is harmless.
const OriginDerived = "derived"

// SyncCursor holds one position per replicated table: a local seq when
// pushing, the remote's sequence when pulling.
type SyncCursor struct {
	Episodes   int64 `json:"episodes"`
	Evidence   int64 `json:"evidence"`
	Events     int64 `json:"events"`
	Tombstones int64 `json:"tombstones"`
}

// SyncEpisode is an episode as it crosses machines. Surprise, its
// explanation, the dedup key and forgotten_at stay local.
type SyncEpisode struct {
	Seq         int64
	ID          string
	SessionID   string
	ProjectPath string
	Scope       string
	Kind        string
	Content     string
	Summary     string
	Turn        int64
	CreatedAt   int64
	HLC         int64
	Origin      string
}

// SyncEvidence is an evidence row as it crosses machines.
type SyncEvidence struct {
	Seq         int64
	ID          string
	BeliefID    string
	EpisodeID   string
	Source      string
	Label       string
	Support     float64
	Reliability float64
	Note        string
	Turn        int64
	CreatedAt   int64
	HLC         int64
	Origin      string
}

// SyncEvent is a belief event as it crosses machines.
type SyncEvent struct {
	Seq        int64
	ID         string
	BeliefID   string
	Kind       string
	EvidenceID string
	Payload    string
	Turn       int64
	CreatedAt  int64
	HLC        int64
	Origin     string
}

// SyncTombstone records that a belief or an episode was forgotten.
type SyncTombstone struct {
	Seq       int64
	TargetID  string
	Kind      string
	CreatedAt int64
	HLC       int64
	Origin    string
}

// SyncBatch is a set of replicated rows, each table in sequence order.
type SyncBatch struct {
	Episodes   []SyncEpisode
	Evidence   []SyncEvidence
	Events     []SyncEvent
	Tombstones []SyncTombstone
	// More says a table was cut short by the size of its rows rather than
	// their number: more rows may wait past the batch.
	More bool
}

// Len returns the number of rows in the batch.
func (b SyncBatch) Len() int {
	return len(b.Episodes) + len(b.Evidence) + len(b.Events) + len(b.Tombstones)
}

// Advance returns c moved past every row of the batch. It never moves a
// position back, so a batch delivered twice or out of order is harmless.
func (b SyncBatch) Advance(c SyncCursor) SyncCursor {
	for _, r := range b.Episodes {
		c.Episodes = max(c.Episodes, r.Seq)
	}
	for _, r := range b.Evidence {
		c.Evidence = max(c.Evidence, r.Seq)
	}
	for _, r := range b.Events {
		c.Events = max(c.Events, r.Seq)
	}
	for _, r := range b.Tombstones {
		c.Tombstones = max(c.Tombstones, r.Seq)
	}
	return c
}

// Max returns the larger position of each table.
func (c SyncCursor) Max(o SyncCursor) SyncCursor {
	return SyncCursor{max(c.Episodes, o.Episodes), max(c.Evidence, o.Evidence), max(c.Events, o.Events),
		max(c.Tombstones, o.Tombstones)}
}

// String encodes the cursor for the meta table.
func (c SyncCursor) String() string {
	b, _ := json.Marshal(c)
	return string(b)
}

// ParseSyncCursor decodes a cursor written by String; "" is the zero cursor.
func ParseSyncCursor(s string) (SyncCursor, error) {
	var c SyncCursor
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return c, fmt.Errorf("parse sync cursor: %w", err)
	}
	return c, nil
}

// SyncSelect says which local rows a push sends: rows of the given origins,
// plus every row at or below AllThrough (a machine meeting a new remote sends
// everything it holds, so a replaced remote ends up complete).
type SyncSelect struct {
	Origins    []string
	AllThrough SyncCursor
}

// where selects one table's rows past seq: those at or below all, and
// those of the selected origins.
func (s SyncSelect) where(seq, all int64) (string, []any) {
	cond := "seq > ? AND (seq <= ?"
	args := []any{seq, all}
	if len(s.Origins) > 0 {
		cond += " OR origin IN (" + placeholders(len(s.Origins)) + ")"
		args = append(args, anySlice(s.Origins)...)
	}
	return cond + ")", args
}

// The columns of each replicated table as a sync batch reads them, text
// read raw (see rawCols): a date-like episode must not come back
// rewritten. The first column is the table's sequence, seq here and rseq on
// a remote (SyncColumns).
var (
	syncEpisodeCols = SyncColumns("seq", "#id", "#session_id", "#project_path", "#scope", "#kind", "#content",
		"#summary", "turn", "created_at", "hlc", "#origin")
	syncEvidenceCols = SyncColumns("seq", "#id", "#belief_id", "#coalesce(episode_id, '')", "#source", "#label",
		"support", "reliability", "#note", "turn", "created_at", "hlc", "#origin")
	syncEventCols = SyncColumns("seq", "#id", "#belief_id", "#kind", "#coalesce(evidence_id, '')", "#payload",
		"turn", "created_at", "hlc", "#origin")
	syncTombstoneCols = SyncColumns("seq", "#target_id", "#kind", "created_at", "hlc", "#origin")
)

// SyncColumns joins column expressions for a query whose text columns,
// marked '#', are scanned with RawText: go-libsql returns TEXT that looks
// like a date as a time.Time (a local file and a remote alike), so text
// scanned straight into a string can come back in another layout.
func SyncColumns(cols ...string) string { return rawCols(cols...) }

// RawText returns a Scan destination for a column SyncColumns marked:
// the text exactly as stored.
func RawText(dst *string) sql.Scanner { return rawText{dst} }

// SyncHead returns the highest local seq of each replicated table.
func (db *DB) SyncHead(ctx context.Context) (SyncCursor, error) {
	var c SyncCursor
	err := db.sql.QueryRowContext(ctx, `SELECT
		(SELECT coalesce(max(seq), 0) FROM episodes), (SELECT coalesce(max(seq), 0) FROM evidence),
		(SELECT coalesce(max(seq), 0) FROM belief_events), (SELECT coalesce(max(seq), 0) FROM tombstones)`).
		Scan(&c.Episodes, &c.Evidence, &c.Events, &c.Tombstones)
	return c, wrap("read sync head", err)
}

// SyncRows returns up to limit rows of each replicated table past the cursor
// that sel selects, in seq order.
func (db *DB) SyncRows(ctx context.Context, after SyncCursor, sel SyncSelect, limit int) (SyncBatch, error) {
	var b SyncBatch
	cond, args := sel.where(after.Episodes, sel.AllThrough.Episodes)
	rows, err := db.sql.QueryContext(ctx, `SELECT `+syncEpisodeCols+` FROM episodes WHERE `+cond+
		` ORDER BY seq LIMIT ?`, append(args, limit)...)
	if err != nil {
		return b, wrap("read episodes to sync", err)
	}
	for rows.Next() {
		var r SyncEpisode
		if err := rows.Scan(&r.Seq, rawText{&r.ID}, rawText{&r.SessionID}, rawText{&r.ProjectPath}, rawText{&r.Scope},
			rawText{&r.Kind}, rawText{&r.Content}, rawText{&r.Summary}, &r.Turn, &r.CreatedAt, &r.HLC,
			rawText{&r.Origin}); err != nil {
			rows.Close()
			return b, wrap("read episodes to sync", err)
		}
		b.Episodes = append(b.Episodes, r)
	}
	if err := closeRows(rows, "read episodes to sync"); err != nil {
		return b, err
	}

	cond, args = sel.where(after.Evidence, sel.AllThrough.Evidence)
	rows, err = db.sql.QueryContext(ctx, `SELECT `+syncEvidenceCols+` FROM evidence WHERE `+cond+
		` ORDER BY seq LIMIT ?`, append(args, limit)...)
	if err != nil {
		return b, wrap("read evidence to sync", err)
	}
	for rows.Next() {
		var r SyncEvidence
		if err := rows.Scan(&r.Seq, rawText{&r.ID}, rawText{&r.BeliefID}, rawText{&r.EpisodeID}, rawText{&r.Source},
			rawText{&r.Label}, &r.Support, &r.Reliability, rawText{&r.Note}, &r.Turn, &r.CreatedAt, &r.HLC,
			rawText{&r.Origin}); err != nil {
			rows.Close()
			return b, wrap("read evidence to sync", err)
		}
		b.Evidence = append(b.Evidence, r)
	}
	if err := closeRows(rows, "read evidence to sync"); err != nil {
		return b, err
	}

	cond, args = sel.where(after.Events, sel.AllThrough.Events)
	rows, err = db.sql.QueryContext(ctx, `SELECT `+syncEventCols+` FROM belief_events WHERE `+cond+
		` ORDER BY seq LIMIT ?`, append(args, limit)...)
	if err != nil {
		return b, wrap("read belief events to sync", err)
	}
	for rows.Next() {
		var r SyncEvent
		if err := rows.Scan(&r.Seq, rawText{&r.ID}, rawText{&r.BeliefID}, rawText{&r.Kind}, rawText{&r.EvidenceID},
			rawText{&r.Payload}, &r.Turn, &r.CreatedAt, &r.HLC, rawText{&r.Origin}); err != nil {
			rows.Close()
			return b, wrap("read belief events to sync", err)
		}
		b.Events = append(b.Events, r)
	}
	if err := closeRows(rows, "read belief events to sync"); err != nil {
		return b, err
	}

	cond, args = sel.where(after.Tombstones, sel.AllThrough.Tombstones)
	rows, err = db.sql.QueryContext(ctx, `SELECT `+syncTombstoneCols+` FROM tombstones WHERE `+cond+
		` ORDER BY seq LIMIT ?`, append(args, limit)...)
	if err != nil {
		return b, wrap("read tombstones to sync", err)
	}
	for rows.Next() {
		var r SyncTombstone
		if err := rows.Scan(&r.Seq, rawText{&r.TargetID}, rawText{&r.Kind}, &r.CreatedAt, &r.HLC,
			rawText{&r.Origin}); err != nil {
			rows.Close()
			return b, wrap("read tombstones to sync", err)
		}
		b.Tombstones = append(b.Tombstones, r)
	}
	return b, closeRows(rows, "read tombstones to sync")
}

// CountSyncRows returns how many rows past the cursor sel selects: what a
// push would send.
func (db *DB) CountSyncRows(ctx context.Context, after SyncCursor, sel SyncSelect) (int, error) {
	total := 0
	for _, t := range []struct {
		table    string
		seq, all int64
	}{
		{"episodes", after.Episodes, sel.AllThrough.Episodes},
		{"evidence", after.Evidence, sel.AllThrough.Evidence},
		{"belief_events", after.Events, sel.AllThrough.Events},
		{"tombstones", after.Tombstones, sel.AllThrough.Tombstones},
	} {
		cond, args := sel.where(t.seq, t.all)
		var n int
		if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM `+t.table+` WHERE `+cond, args...).Scan(&n); err != nil {
			return 0, wrap("count rows to sync", err)
		}
		total += n
	}
	return total, nil
}

func closeRows(rows interface {
	Err() error
	Close() error
}, op string) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return wrap(op, err)
}

// BlankCreatePayload returns a create event's payload with the text a forget
// purges removed, exactly as forgetting does locally, so a remote database
// and every machine hold byte-identical rows after a forget.
func BlankCreatePayload(payload string) string {
	var p eventPayload
	if err := json.Unmarshal([]byte(payload), &p); err != nil || p.Spec == nil {
		return "{}"
	}
	s := p.Spec
	s.Statement, s.Subject, s.Object, s.Context, s.Timeframe = "[forgotten]", "", "", "", ""
	b, _ := json.Marshal(p)
	return string(b)
}
