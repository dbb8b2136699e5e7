package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
	"github.com/credence-mem/credence/store"
)

// maxBusy bounds how long a hook waits for another writer's lock: a locked
// database costs a prompt at most this, then the hook gives up on the write.
const maxBusy = 200 * time.Millisecond

// servedBusy is how long the agent's hook connections wait for the write
// lock.
const servedBusy = time.Second

// maxStoredBytes caps what one hook stores as an episode. A pasted log or
// file is kept by its start; memory is not a paste bin, and FTS and
// embedding costs grow with the text.
const maxStoredBytes = 64 << 10

// truncatedMark ends an episode cut at maxStoredBytes.
const truncatedMark = "\n[…truncated by credence]"

// database returns the database for one event and the func that releases
// it: the agent's open one when the event is served there, else a fresh
// connection (openDB) closed on release.
func (h *handler) database(ctx context.Context) (*store.DB, func(), error) {
	if h.shared != nil {
		return h.shared.db, func() {}, nil
	}
	db, err := h.openDB(ctx, false)
	if err != nil {
		return nil, nil, fmt.Errorf("open database: %w", err)
	}
	return db, func() { db.Close() }, nil
}

// queryEmbedder returns the embedder recall uses for queries: the agent's,
// built once, when the event is served there.
func (h *handler) queryEmbedder() (embed.Embedder, error) {
	if h.shared != nil {
		return h.shared.emb, h.shared.embErr
	}
	return recall.NewQueryEmbedder(h.cfg)
}

// errSchemaBehind reports that a one-shot hook found the database at an
// older schema and left the upgrade to the agent.
var errSchemaBehind = errors.New("the database awaits an upgrade")

// oneShotCacheKiB is the page cache of a one-shot hook process's
// connection. SQLite's default, 2,000 KiB, fills during one recall on a
// long history, each page of it memory the process faults in anew; with a
// small cache the same pages are reused and a page read again comes from
// the kernel's file cache. On the 100k-episode bench database a
// UserPromptSubmit took about 2,300 page faults with the default and
// 1,850 with this (`perf stat -e page-faults`), and less CPU.
const oneShotCacheKiB = 256

// openDB opens the database. An existing database at the current schema is
// opened without the migration pass, whose per-migration write
// transactions would queue behind another writer before the hook's own.
// A new database is created with migrations (they take milliseconds on
// empty tables). An existing database at an older schema is upgraded by
// the agent (served) but never by a one-shot hook process: a migration
// may rebuild a table of 100,000 episodes, which takes longer than a
// hook's budget, so every hook would start it, be cancelled, roll back and
// inject nothing (1.3 s and 105 MiB per prompt, measured). The hook fails
// with errSchemaBehind at once instead; the event is spooled (salvage) and
// stored by whoever upgrades the database.
//
// Neither maps the file (store.Options.MmapBytes). The agent did, until
// the bench showed what it cost: every served prompt writes, a write from
// another connection makes the next read transaction of each connection
// start over, and through the map SQLite re-reads every b-tree page
// header on every fetch of the page (a mapped page is not kept in the
// page cache between fetches), where the page cache re-reads a page once
// per transaction. `bench-recall stages -mode served -touch` (a write
// before each recall, as in the agent), 100k episodes: whole recall CPU
// roughly halved without the map (docs/BENCHMARKS.md, fourth pass).
func (h *handler) openDB(ctx context.Context, served bool) (*store.DB, error) {
	p := h.cfg.BeliefParams()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	busy := min(maxBusy, time.Until(h.deadline)/4)
	if served {
		// The agent stores a served event after its reply: its writes may
		// wait their turn behind consolidation, at the process's write
		// gate, holding no connection while they wait.
		busy = servedBusy
	}
	opts := store.Options{BusyTimeout: busy, Params: p, Now: h.now, ReadOnly: true}
	if !served {
		opts.CacheKiB = oneShotCacheKiB
	}
	path := h.cfg.Paths.Database
	if _, err := os.Stat(path); err == nil {
		if db, err := store.Open(ctx, path, opts); err == nil {
			latest, lerr := store.LatestSchemaVersion()
			v, verr := db.SchemaVersion(ctx)
			if verr == nil && lerr == nil && v == latest {
				return oneConnection(db), nil
			}
			db.Close()
			if !served && verr == nil && lerr == nil && v > 0 && v < latest {
				return nil, fmt.Errorf("%w: its schema is at version %d, this credence's at %d; the agent "+
					"(`credence agent`) or `credence consolidate` upgrades it and then stores what the hooks spooled",
					errSchemaBehind, v, latest)
			}
		}
	}
	opts.ReadOnly = false
	db, err := store.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return oneConnection(db), nil
}

// oneConnection limits a hook's pool to one connection. Every connection
// SQLite opens parses the whole schema (FTS and vector tables included) and
// starts with a cold page cache; a hook runs its statements one after
// another, so a second connection only costs. Nothing in the hooks reads
// through the pool while a write transaction holds the connection.
func oneConnection(db *store.DB) *store.DB {
	db.SQL().SetMaxOpenConns(1)
	return db
}

// redactMargin is how far past maxStoredBytes text is redacted before the
// final cut, so a secret that straddles the first cut is still recognised
// whole or falls entirely beyond the kept part.
const redactMargin = 64 << 10

// Storable prepares text for storage as an episode, by a hook or the
// agent's transcript tailer: secrets redacted (over the kept part
// and a margin beyond it, so a 10 MB paste costs milliseconds, not a
// budget), then cut to maxStoredBytes.
func Storable(text string) string {
	text = redact.String(cutBytes(text, maxStoredBytes+redactMargin))
	if len(text) <= maxStoredBytes {
		return text
	}
	return cutBytes(text, maxStoredBytes-len(truncatedMark)) + truncatedMark
}

// cutBytes returns at most n bytes of s without splitting a UTF-8 sequence.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// hookOutput is the JSON Claude Code reads from a hook's stdout.
type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// emit prints context for Claude Code, unless the budget is already spent.
func (h *handler) emit(ctx context.Context, text string) error {
	if text == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var o hookOutput
	o.HookSpecificOutput.HookEventName = h.event
	o.HookSpecificOutput.AdditionalContext = text
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		return err
	}
	_, err := h.out.Write(buf.Bytes())
	return err
}
