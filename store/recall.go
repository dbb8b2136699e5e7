package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/belief"
)

// The queries below serve recall on the hook path. They read text columns
// as BLOBs: go-libsql tries ten date layouts on every TEXT value it returns
// (to hand back time.Time), which made loading a few dozen candidate rows
// cost milliseconds. A unary + keeps a column from being used as an index
// where, without ANALYZE statistics, SQLite would otherwise pick a
// low-selectivity index (status, scope) and scan thousands of beliefs.

// The candidate rows themselves (RecallBeliefs, RecallEpisodes and the
// other belief reads below) come back packed into one value (packed.go).
// Other text columns here are read as nullif(CAST(x AS BLOB), x''): a BLOB skips
// the driver's date parsing (see beliefCols), and an empty one would come
// back with a pointer the Go GC rejects, so it is turned into NULL, which
// scans into []byte as nil.

// VectorsByID returns the stored embeddings of the given episodes (kind
// "episodes") or beliefs (kind "beliefs") in the space, keyed by ID. IDs
// without a vector are absent from the map.
func (db *DB) VectorsByID(ctx context.Context, sp Space, kind string, idList []string) (map[string][]float32, error) {
	if kind != "episodes" && kind != "beliefs" {
		return nil, fmt.Errorf("vectors by id: unknown kind %q", kind)
	}
	out := make(map[string][]float32, len(idList))
	for _, chunk := range chunks(idList, 200) {
		rows, err := db.sql.QueryContext(ctx, `SELECT nullif(CAST(id AS BLOB), x''), embedding FROM vec_`+sp.Name+`_`+kind+
			` WHERE id IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
		if err != nil {
			return nil, wrap("read vectors", err)
		}
		for rows.Next() {
			var idb, blob []byte
			if err := rows.Scan(&idb, &blob); err != nil {
				rows.Close()
				return nil, wrap("read vectors", err)
			}
			id := string(idb)
			v, err := DecodeVector(blob)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("read vector %s: %w", id, err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, wrap("read vectors", err)
		}
	}
	return out, nil
}

// BeliefsChangedSince returns up to limit beliefs visible from project (its
// own and global ones) whose row changed after sinceMs, newest first, with
// the fields RecallBeliefs fills.
func (db *DB) BeliefsChangedSince(ctx context.Context, sinceMs int64, project string, limit int) ([]Belief, error) {
	bs, err := db.recallBeliefs(ctx, `WHERE updated_at > ? AND (+scope = 'global' OR +project_path = ?) AND +status <> 'forgotten'
		ORDER BY updated_at DESC LIMIT ?`, sinceMs, validUTF8(project), limit)
	slices.SortStableFunc(bs, func(a, b Belief) int { return cmp.Or(cmp.Compare(b.UpdatedAt, a.UpdatedAt), cmp.Compare(b.Seq, a.Seq)) })
	return bs, err
}

// ExclusiveBeliefs returns the active beliefs visible from project whose
// predicate is exclusive: the members of every group that can be
// contested. Fields are filled as by RecallBeliefs.
func (db *DB) ExclusiveBeliefs(ctx context.Context, project string) ([]Belief, error) {
	bs, err := db.recallBeliefs(ctx, `WHERE predicate IN (SELECT predicate FROM relations WHERE exclusive = 1) AND status = 'active'
		AND (+scope = 'global' OR +project_path = ?)`, validUTF8(project))
	slices.SortFunc(bs, func(a, b Belief) int {
		return cmp.Or(strings.Compare(a.Subject, b.Subject), strings.Compare(a.Predicate, b.Predicate), cmp.Compare(a.Seq, b.Seq))
	})
	return bs, err
}

// CurrentTurn returns the turn counter (0 before the first prompt).
func (db *DB) CurrentTurn(ctx context.Context) (int64, error) {
	v, err := db.Meta(ctx, MetaTurn)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read turn: %w", err)
	}
	return n, nil
}

// ScopedVector is a stored vector with its row number in its vector table
// and the project of the episode or belief it embeds ("" for global rows
// and for rows whose item no longer exists).
type ScopedVector struct {
	RowID   int64
	ID      string
	Project string
	Vec     []float32
}

// VectorsAfter returns, inside the transaction, up to limit vectors of the
// space's episodes or beliefs table whose row number is above after, in row
// order. Vectors are appended with growing row numbers, so a caller that
// remembers the last one it saw reads each new vector once.
func (tx *Tx) VectorsAfter(ctx context.Context, sp Space, kind string, after int64, limit int) ([]ScopedVector, error) {
	var join string
	switch kind {
	case "episodes":
		join = `LEFT JOIN episodes x ON x.id = v.id`
	case "beliefs":
		join = `LEFT JOIN beliefs x ON x.id = v.id`
	default:
		return nil, fmt.Errorf("vectors after: unknown kind %q", kind)
	}
	rows, err := tx.Query(ctx, `SELECT v.rowid, v.id, v.embedding,
		coalesce(CASE WHEN x.scope = 'global' THEN '' ELSE x.project_path END, '')
		FROM vec_`+sp.Name+`_`+kind+` v `+join+` WHERE v.rowid > ? ORDER BY v.rowid LIMIT ?`, after, limit)
	if err != nil {
		return nil, wrap("read new vectors", err)
	}
	defer rows.Close()
	var out []ScopedVector
	for rows.Next() {
		var sv ScopedVector
		var blob []byte
		if err := rows.Scan(&sv.RowID, &sv.ID, &blob, &sv.Project); err != nil {
			return nil, wrap("read new vectors", err)
		}
		if sv.Vec, err = DecodeVector(blob); err != nil {
			return nil, fmt.Errorf("read vector %s: %w", sv.ID, err)
		}
		out = append(out, sv)
	}
	return out, wrap("read new vectors", rows.Err())
}

// SketchChunk is one row of recall_sketches: up to a few thousand vectors of
// one space, kind and project, as newline-separated IDs and packed sign
// bits (Dim/8 bytes per vector, in ID order).
type SketchChunk struct {
	Space   string
	Kind    string
	Project string
	Chunk   int
	Count   int
	IDs     []byte
	Signs   []byte
}

// SketchChunks returns the sketch chunks of a space and kind for the given
// projects ("" is global), or for every project when projects is nil.
func (db *DB) SketchChunks(ctx context.Context, space, kind string, projects []string) ([]SketchChunk, error) {
	q := `SELECT nullif(CAST(project AS BLOB), x''), chunk, count, ids, signs FROM recall_sketches WHERE space = ? AND kind = ?`
	args := []any{space, kind}
	if projects != nil {
		q += ` AND project IN (` + placeholders(len(projects)) + `)`
		for _, p := range projects {
			args = append(args, validUTF8(p))
		}
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("read sketches", err)
	}
	defer rows.Close()
	var out []SketchChunk
	for rows.Next() {
		c := SketchChunk{Space: space, Kind: kind}
		var project []byte
		if err := rows.Scan(&project, &c.Chunk, &c.Count, &c.IDs, &c.Signs); err != nil {
			return nil, wrap("read sketches", err)
		}
		c.Project = string(project)
		out = append(out, c)
	}
	return out, wrap("read sketches", rows.Err())
}

// LastSketchChunk returns the highest-numbered chunk of a space, kind and
// project inside the transaction, or ErrNotFound.
func (tx *Tx) LastSketchChunk(ctx context.Context, space, kind, project string) (SketchChunk, error) {
	c := SketchChunk{Space: space, Kind: kind, Project: project}
	err := tx.QueryRow(ctx, `SELECT chunk, count, ids, signs FROM recall_sketches
		WHERE space = ? AND kind = ? AND project = ? ORDER BY chunk DESC LIMIT 1`, space, kind, validUTF8(project)).
		Scan(&c.Chunk, &c.Count, &c.IDs, &c.Signs)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	return c, wrap("read sketch chunk", err)
}

// PutSketchChunk writes a chunk, replacing the stored one with the same key.
func (tx *Tx) PutSketchChunk(ctx context.Context, c SketchChunk) error {
	_, err := tx.Exec(ctx, `INSERT INTO recall_sketches(space, kind, project, chunk, count, ids, signs)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(space, kind, project, chunk) DO UPDATE SET
		count = excluded.count, ids = excluded.ids, signs = excluded.signs`,
		c.Space, c.Kind, validUTF8(c.Project), c.Chunk, c.Count, c.IDs, c.Signs)
	return wrap("write sketch chunk", err)
}

// DeleteSketches removes every sketch chunk of a space (before a rebuild).
func (tx *Tx) DeleteSketches(ctx context.Context, space string) error {
	_, err := tx.Exec(ctx, `DELETE FROM recall_sketches WHERE space = ?`, space)
	return wrap("delete sketches", err)
}

// ChangeSearch returns the newest live episodes visible from project that
// were recorded after the given time (Unix milliseconds), share a word of
// text and hold one of the words in must ("moved", "switched"), newest
// first, at most k. It looks for the messages that could replace a value
// recall is about to show. The full-text index walks its lists newest
// first and stops at the limit, so the cost does not grow with how many
// messages share a common word, as a BM25 ranking of them all did.
func (db *DB) ChangeSearch(ctx context.Context, text, project string, must []string, after int64, k int) ([]TextHit, error) {
	q := MatchQuery(text, 32)
	m := MatchQuery(strings.Join(must, " "), 64)
	if q == "" || m == "" || k <= 0 {
		return nil, nil
	}
	q = "(" + q + ") AND (" + m + ")"
	project = validUTF8(project)
	// The inner limit leaves room for the rows the outer filters drop.
	return db.blobHits(ctx, "change search", `SELECT nullif(CAST(e.id AS BLOB), x''), 0 FROM
		(SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ?) f
		JOIN episodes e ON e.seq = f.rowid
		WHERE e.forgotten_at IS NULL AND e.created_at > ? AND (? = '' OR e.scope = 'global' OR e.project_path = ?)
		ORDER BY e.seq DESC LIMIT ?`, q, 4*k, after, project, project, k)
}

// TextSearch runs BM25 over the live episodes (kind "episodes") or active
// beliefs (kind "beliefs") visible from project (its own and global rows;
// all when project is ""), like SearchEpisodes and SearchBeliefs but
// reading IDs as BLOBs. Rows of equal score come in the order they were
// recorded.
//
// It ranks in the full-text index alone first and reads the rows of only
// the best textSearchOverfetch×k to keep the live, visible ones: a word
// such as "before" is in thousands of rows, and the one query that joined
// every matching row to its table to filter it before ranking read most of
// the table's pages (after another connection's write, each a read call)
// for a result of 32. When fewer than k of those pass and the index had
// more, the joined query runs after all, so the result is the same.
func (db *DB) TextSearch(ctx context.Context, kind, text, project string, k int) ([]TextHit, error) {
	q := MatchQuery(text, 32)
	if q == "" {
		return nil, nil
	}
	var fts, table, live string
	switch kind {
	case "episodes":
		fts, table, live = "episodes_fts", "episodes", "forgotten_at IS NULL"
	case "beliefs":
		fts, table, live = "beliefs_fts", "beliefs", "status = 'active'"
	default:
		return nil, fmt.Errorf("text search: unknown kind %q", kind)
	}
	project = validUTF8(project)
	if k > 0 {
		hits, done, err := db.rankThenFilter(ctx, fts, table, live, q, project, k)
		if err != nil || done {
			return hits, err
		}
	}
	query := `SELECT nullif(CAST(t.id AS BLOB), x''), -bm25(` + fts + `) FROM ` + fts + ` JOIN ` + table + ` t ON t.seq = ` + fts + `.rowid
		WHERE ` + fts + ` MATCH ? AND t.` + live + ` AND (? = '' OR t.scope = 'global' OR t.project_path = ?)
		ORDER BY bm25(` + fts + `), ` + fts + `.rowid LIMIT ?`
	return db.blobHits(ctx, "text search", query, q, project, project, k)
}

// textSearchOverfetch is how many of the index's best rows per result
// TextSearch reads before filtering: with a dozen projects, about one row
// in twelve is visible from one of them.
const textSearchOverfetch = 16

// rankThenFilter is TextSearch's first try: the index's best
// textSearchOverfetch×k rows by BM25, then the live, visible ones among
// them, in that order, at most k. done is false when fewer than k passed
// and the index had more rows, which may hold the rest.
func (db *DB) rankThenFilter(ctx context.Context, fts, table, live, q, project string, k int) (hits []TextHit, done bool, err error) {
	n := k * textSearchOverfetch
	rows, err := db.sql.QueryContext(ctx, `SELECT rowid, -bm25(`+fts+`) FROM `+fts+` WHERE `+fts+` MATCH ?
		ORDER BY bm25(`+fts+`), rowid LIMIT ?`, q, n)
	if err != nil {
		return nil, false, wrap("text search", err)
	}
	type ranked struct {
		seq   int64
		score float64
	}
	var best []ranked
	seqs := make([]int64, 0, n)
	for rows.Next() {
		var r ranked
		if err := rows.Scan(&r.seq, &r.score); err != nil {
			rows.Close()
			return nil, false, wrap("text search", err)
		}
		best = append(best, r)
		seqs = append(seqs, r.seq)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, wrap("text search", err)
	}
	if len(best) == 0 {
		return nil, true, nil
	}
	list, _ := json.Marshal(seqs)
	rows, err = db.sql.QueryContext(ctx, `SELECT seq, nullif(CAST(id AS BLOB), x'') FROM `+table+`
		WHERE seq IN (SELECT value FROM json_each(?)) AND `+live+` AND (? = '' OR scope = 'global' OR project_path = ?)`,
		string(list), project, project)
	if err != nil {
		return nil, false, wrap("text search", err)
	}
	defer rows.Close()
	ids := make(map[int64]string, len(best))
	for rows.Next() {
		var seq int64
		var id []byte
		if err := rows.Scan(&seq, &id); err != nil {
			return nil, false, wrap("text search", err)
		}
		ids[seq] = string(id)
	}
	if err := rows.Err(); err != nil {
		return nil, false, wrap("text search", err)
	}
	for _, r := range best {
		if id, ok := ids[r.seq]; ok {
			hits = append(hits, TextHit{ID: id, Score: r.score})
			if len(hits) == k {
				return hits, true, nil
			}
		}
	}
	return hits, len(best) < n, nil
}

// blobHits runs a query whose rows are an ID read as a BLOB and a score.
func (db *DB) blobHits(ctx context.Context, what, query string, args ...any) ([]TextHit, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(what, err)
	}
	defer rows.Close()
	var out []TextHit
	for rows.Next() {
		var id []byte
		var h TextHit
		if err := rows.Scan(&id, &h.Score); err != nil {
			return nil, wrap(what, err)
		}
		h.ID = string(id)
		out = append(out, h)
	}
	return out, wrap(what, rows.Err())
}

// RecallEpisodes returns the live episodes among idList that are visible
// from project ("" for all), with at most maxChars characters of content
// each. Only the fields recall shows are filled.
func (db *DB) RecallEpisodes(ctx context.Context, idList []string, project string, maxChars int) ([]Episode, error) {
	if len(idList) == 0 {
		return nil, nil
	}
	project = validUTF8(project)
	var packed []byte
	err := db.sql.QueryRowContext(ctx, packedQuery(`SELECT `+recallEpisodePack+` AS p
		FROM episodes WHERE id IN (SELECT value FROM json_each(?2)) AND forgotten_at IS NULL
		AND (?3 = '' OR scope = 'global' OR project_path = ?3)`), maxChars, idsJSON(idList), project, db.machineID).Scan(&packed)
	if err != nil {
		return nil, wrap("read episodes", err)
	}
	var out []Episode
	u := unpacker{b: packed}
	for u.more() {
		e := Episode{ID: u.text(), SessionID: u.text(), ProjectPath: u.text(), Scope: u.text(), Kind: u.text(), Content: u.text()}
		e.CreatedAt = time.UnixMilli(u.int())
		e.Turn = u.int()
		e.Consolidated = u.int() != 0
		out = append(out, e)
	}
	return out, wrap("read episodes", u.err)
}

// recallEpisodePack packs the episode fields recall shows; parameter ?1 is
// the most characters of content to read (it appears twice), ?4 this
// machine's ID: an episode of another machine was consolidated there.
var recallEpisodePack = packExpr(packField{packText, "id"}, packField{packText, "session_id"}, packField{packText, "project_path"},
	packField{packText, "scope"}, packField{packText, "kind"}, packField{packText, "substr(content, 1, ?1)"},
	packField{packInt, "created_at"}, packField{packInt, "turn"},
	packField{packInt, "(origin <> ?4 OR EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episode_id = episodes.id))"})

// recallBeliefPack packs the belief fields recall needs: enough to compute
// decayed confidence, retrieval strength and exclusive groups.
var recallBeliefPack = packExpr(packField{packText, "id"}, packField{packText, "statement"}, packField{packText, "subject"},
	packField{packText, "predicate"}, packField{packText, "kind"}, packField{packText, "scope"}, packField{packText, "project_path"},
	packField{packText, "status"}, packField{packReal, "alpha"}, packField{packReal, "beta"}, packField{packInt, "counts_at"},
	packField{packInt, "counts_turn"}, packField{packInt, "evidence_count"}, packField{packInt, "created_at"},
	packField{packInt, "updated_at"}, packField{packReal, "stability"}, packField{packInt, "last_accessed_at"}, packField{packInt, "seq"},
	packField{packText, "object"})

// RecallBeliefs returns the beliefs among idList with the fields recall
// uses filled (statement, triple, kind, scope, project,
// status, counts, evidence count, creation and update, stability, last
// access, seq).
func (db *DB) RecallBeliefs(ctx context.Context, idList []string) ([]Belief, error) {
	if len(idList) == 0 {
		return nil, nil
	}
	return db.recallBeliefs(ctx, `WHERE id IN (SELECT value FROM json_each(?))`, idsJSON(idList))
}

// ExclusiveGroup returns the active beliefs sharing b's slot: the same
// scope, subject and predicate, and for project beliefs the same project.
// Fields are filled as by RecallBeliefs.
func (db *DB) ExclusiveGroup(ctx context.Context, b Belief) ([]Belief, error) {
	q := `WHERE subject = ? AND predicate = ? AND +status = 'active' AND +scope = ?`
	args := []any{b.Subject, b.Predicate, b.Scope}
	if b.Scope == "project" {
		q += ` AND +project_path = ?`
		args = append(args, b.ProjectPath)
	}
	return db.recallBeliefs(ctx, q, args...)
}

// LastSeq returns the highest local sequence number of a kind's rows
// ("episodes" or "beliefs"): it moves whenever a row is added.
func (db *DB) LastSeq(ctx context.Context, kind string) (int64, error) {
	var q string
	switch kind {
	case "episodes":
		q = `SELECT coalesce(max(seq), 0) FROM episodes`
	case "beliefs":
		q = `SELECT coalesce(max(seq), 0) FROM beliefs`
	default:
		return 0, fmt.Errorf("last seq: unknown kind %q", kind)
	}
	var n int64
	err := db.sql.QueryRowContext(ctx, q).Scan(&n)
	return n, wrap("read last seq", err)
}

// BeliefsVersion returns a value that changes whenever a belief is added
// (its seq) or updated (its updated_at); each half is read from an index.
// A belief deleted since leaves it as it was: whoever keeps search results
// by it reads the rows again by ID.
func (db *DB) BeliefsVersion(ctx context.Context) (string, error) {
	var seq, at int64
	err := db.sql.QueryRowContext(ctx, `SELECT (SELECT coalesce(max(seq), 0) FROM beliefs), (SELECT coalesce(max(updated_at), 0) FROM beliefs)`).Scan(&seq, &at)
	return fmt.Sprintf("%d/%d", seq, at), wrap("read beliefs version", err)
}

// RecallSlot returns the beliefs of a slot as a query from project sees
// it: predicate, one of subjects, global or of that project (every project
// when project is ""), active ones unless statuses says otherwise. Fields are filled as by RecallBeliefs.
// Recall reads the current value of a slot a prompt needs with it.
func (db *DB) RecallSlot(ctx context.Context, predicate string, subjects []string, project string, statuses ...belief.Status) ([]Belief, error) {
	if len(subjects) == 0 {
		return nil, nil
	}
	if len(statuses) == 0 {
		statuses = []belief.Status{belief.Active}
	}
	st := make([]string, len(statuses))
	for i, x := range statuses {
		st[i] = string(x)
	}
	q := `WHERE subject IN (SELECT value FROM json_each(?)) AND predicate = ? AND +status IN (SELECT value FROM json_each(?))`
	args := []any{idsJSON(subjects), predicate, idsJSON(st)}
	if project != "" {
		q += ` AND (+scope = 'global' OR +project_path = ?)`
		args = append(args, project)
	}
	return db.recallBeliefs(ctx, q, args...)
}

// recallBeliefs reads the beliefs `SELECT … FROM beliefs <where>` finds,
// packed, in no particular order.
func (db *DB) recallBeliefs(ctx context.Context, where string, args ...any) ([]Belief, error) {
	var packed []byte
	if err := db.sql.QueryRowContext(ctx, packedQuery(`SELECT `+recallBeliefPack+` AS p FROM beliefs `+where), args...).Scan(&packed); err != nil {
		return nil, wrap("read beliefs", err)
	}
	var out []Belief
	u := unpacker{b: packed}
	for u.more() {
		var b Belief
		b.ID, b.Statement, b.Subject, b.Predicate, b.Kind, b.Scope, b.ProjectPath = u.text(), u.text(), u.text(), u.text(), u.text(), u.text(), u.text()
		b.Status = belief.Status(u.text())
		b.Alpha, b.Beta = u.real(), u.real()
		b.CountsAt.Millis, b.CountsAt.Turn, b.EvidenceCount, b.CreatedAt, b.UpdatedAt = u.int(), u.int(), int(u.int()), u.int(), u.int()
		b.Stability, b.LastAccessedAt, b.Seq = u.real(), u.int(), u.int()
		b.Object = u.text()
		out = append(out, b)
	}
	return out, wrap("read beliefs", u.err)
}

// DocFrequencies returns, for each word, how many episodes (kind
// "episodes") or beliefs (kind "beliefs") hold it, counting at most upTo:
// a word at upTo is at least that common. Words no row holds map to 0.
// Each count reads the word's FTS posting list only as far as upTo, so
// telling a rare word from a common one costs little even when the word
// is in most of the history (fts5vocab, by contrast, reads whole lists).
// Words are matched as FTS phrases, stemmed as the index stems them.
func (db *DB) DocFrequencies(ctx context.Context, kind string, words []string, upTo int) (map[string]int, error) {
	if kind != "episodes" && kind != "beliefs" {
		return nil, fmt.Errorf("doc frequencies: unknown kind %q", kind)
	}
	out := make(map[string]int, len(words))
	// One statement for all the words (a column each): preparing and
	// stepping a statement through the driver costs about as much as a
	// short count, and a prompt looks up ten words per kind.
	for _, chunk := range chunks(words, 32) {
		cols := make([]string, len(chunk))
		args := make([]any, 0, 2*len(chunk))
		for i, w := range chunk {
			cols[i] = `(SELECT count(*) FROM (SELECT 1 FROM ` + kind + `_fts WHERE ` + kind + `_fts MATCH ? LIMIT ?))`
			args = append(args, `"`+strings.ReplaceAll(validUTF8(w), `"`, `""`)+`"`, upTo)
		}
		counts := make([]int, len(chunk))
		dest := make([]any, len(chunk))
		for i := range counts {
			dest[i] = &counts[i]
		}
		if err := db.sql.QueryRowContext(ctx, `SELECT `+strings.Join(cols, ", "), args...).Scan(dest...); err != nil {
			return nil, wrap("count terms", err)
		}
		for i, w := range chunk {
			out[w] = counts[i]
		}
	}
	return out, nil
}

// MaxVectorRow returns the highest row number of the space's episodes or
// beliefs vector table (0 when empty): a sketch checkpoint at it means
// nothing is new.
func (db *DB) MaxVectorRow(ctx context.Context, sp Space, kind string) (int64, error) {
	if kind != "episodes" && kind != "beliefs" {
		return 0, fmt.Errorf("max vector row: unknown kind %q", kind)
	}
	var n int64
	err := db.sql.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM vec_`+sp.Name+`_`+kind).Scan(&n)
	return n, wrap("read max vector row", err)
}

// NextPrompt returns the ID of the first prompt of a session stored after
// the episode after, or "" when there is none: the message that followed
// one, where a correction of it is said ("hmm no, it's America/Chicago, my
// bad"). It seeks by row order in the (session_id, kind) index, whose
// entries for one key are in rowid order, so a session of thousands of
// prompts costs one seek, not a scan and a sort.
func (db *DB) NextPrompt(ctx context.Context, sessionID, after string) (string, error) {
	if sessionID == "" || after == "" {
		return "", nil
	}
	var id string
	err := db.sql.QueryRowContext(ctx, `SELECT id FROM episodes WHERE session_id = ? AND kind = 'prompt'
		AND seq > (SELECT seq FROM episodes WHERE id = ?) AND forgotten_at IS NULL ORDER BY seq LIMIT 1`, sessionID, after).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, wrap("read next prompt", err)
}

// OpeningPromptAfter returns the ID of the first prompt of another session
// in the same project after the episode after, or "" when there is none:
// what the person said first when they came back ("sorry, 10:30, I keep
// getting that wrong" opening the next session corrects the last one).
func (db *DB) OpeningPromptAfter(ctx context.Context, sessionID, after string) (string, error) {
	if sessionID == "" || after == "" {
		return "", nil
	}
	var id string
	err := db.sql.QueryRowContext(ctx, `SELECT e.id FROM episodes e, (SELECT project_path AS p, created_at AS c FROM episodes WHERE id = ?) a
		WHERE e.project_path = a.p AND e.created_at > a.c AND e.kind = 'prompt' AND e.session_id != ? AND e.forgotten_at IS NULL
		ORDER BY e.created_at LIMIT 1`, after, sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, wrap("read the next session's first prompt", err)
}
