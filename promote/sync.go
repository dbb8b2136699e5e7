package promote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// maxSyncAttempts bounds how often one file is re-read because a person
// changed its section while credence was about to write it.
const maxSyncAttempts = 5

// errSectionKeptChanging is returned when the section changed under every
// attempt; the next cycle or edit event tries again.
var errSectionKeptChanging = errors.New("the section kept changing while it was being written")

// syncTarget brings one file in step: read it, take in what a person
// changed in the section since credence wrote it, apply the promotion rule,
// write the section if it differs (recording the intent first, so a crash
// cannot turn a bullet into a false deletion), keep the line budget, and
// confirm the record and the marks. The write only goes through if the
// section still holds what was read; otherwise it starts over, so a person's
// edit made in that window is read back rather than overwritten.
func (p *Promoter) syncTarget(ctx context.Context, t *target, rec record, a *assessment) (Stats, error) {
	st := Stats{Files: 1}
	for attempt := 1; attempt <= maxSyncAttempts; attempt++ {
		doc, err := readMemoryFile(t.path)
		if err != nil {
			return st, err
		}
		current, hasSection := markdown.ParseSection(doc)
		seen := fingerprint(current, hasSection)
		if e := findEdits(rec.onDisk(), current, hasSection); !e.empty() {
			out, err := p.applyEdits(ctx, t, e, &rec)
			if err != nil {
				return st, err
			}
			st.UserDeleted += out.rejected + out.cleared
			st.UserAdded += out.created + out.attached
			p.logEdits(t.path, e)
			t.loaded = false
			if a.rejected, err = p.db.RejectedSinceSupport(ctx); err != nil {
				return st, err
			}
		}
		if err := p.loadBeliefs(ctx, t); err != nil {
			return st, err
		}
		pl := p.rules.makePlan(a.assess(t.beliefs), rec.onDisk(), a.now)
		if doc == nil && !rec.found && !t.global && emptySection(pl.section) {
			return st, nil // nothing to show and no file to keep in step: do not create one
		}
		text := p.rules.limits.Render(pl.section)
		spliced, err := markdown.Splice(doc, text)
		if err != nil {
			return st, fmt.Errorf("splice %s: %w", t.path, err)
		}
		hash := markdown.ContentHash(doc)
		written := doc != nil && bytes.Equal(spliced, doc)
		if !written {
			rec.pending = &pl.section
			if err := p.putRecord(ctx, rec, nil); err != nil {
				return st, err
			}
			stale := false
			res, err := markdown.WriteSection(ctx, t.path, func(now markdown.ParsedSection, ok bool) string {
				if fingerprint(now, ok) != seen {
					stale = true
					return "" // not a section: WriteSection stops without writing
				}
				return text
			}, markdown.WriteOptions{CreateDir: t.createDir})
			switch {
			case stale:
				continue
			case errors.Is(err, markdown.ErrNoDirectory):
				st.Skipped++
				return st, nil
			case err != nil:
				return st, err
			}
			if res.Changed {
				st.Written++
			}
			hash = res.Hash
		}
		if over(spliced, p.cfg.Memory.MaxLines, p.cfg.Memory.MaxBytes) {
			n, err := markdown.EnforceBudget(ctx, t.path, p.cfg.Memory.MaxLines, p.cfg.Memory.MaxBytes)
			if err != nil {
				return st, err
			}
			if n > 0 {
				st.Archived += n
				after, err := readMemoryFile(t.path)
				if err != nil {
					return st, err
				}
				hash = markdown.ContentHash(after)
				p.log.Info("dated sections archived to keep MEMORY.md within what Claude Code loads",
					"path", t.path, "sections", n, "archive", markdown.ArchivePath(t.path))
			}
		}
		rec.written, rec.pending, rec.hash = pl.section, nil, hash
		if !written {
			rec.writtenAt = a.now.UnixMilli()
		}
		if err := p.putRecord(ctx, rec, pl.marks); err != nil {
			return st, err
		}
		p.logPlan(t.path, pl)
		st.Promoted += len(pl.promoted)
		st.Repromoted += len(pl.repromoted)
		st.Demoted += len(pl.demoted)
		st.Removed += len(pl.removed)
		return st, nil
	}
	return st, fmt.Errorf("sync %s: %w", t.path, errSectionKeptChanging)
}

// loadBeliefs reads the target's candidates unless they are current.
func (p *Promoter) loadBeliefs(ctx context.Context, t *target) error {
	if t.loaded {
		return nil
	}
	t.beliefs = nil
	if t.global || len(t.projects) > 0 {
		bs, err := p.db.PromotionCandidates(ctx, t.selector())
		if err != nil {
			return err
		}
		t.beliefs = bs
	}
	t.loaded = true
	return nil
}

// putRecord stores rec and, in the same transaction, the marks.
func (p *Promoter) putRecord(ctx context.Context, rec record, marks []store.PromotionMark) error {
	row, err := rec.row(rec.writtenAt)
	if err != nil {
		return err
	}
	err = p.db.Write(ctx, func(tx *store.Tx) error {
		if err := tx.PutMemorySection(ctx, row); err != nil {
			return err
		}
		for _, m := range marks {
			if err := tx.SetPromotion(ctx, m.ID, m.PromotedAt, m.DemotedAt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record section of %s: %w", rec.path, err)
	}
	return nil
}

// readMemoryFile returns the file's bytes, or nil when it does not exist.
func readMemoryFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// fingerprint identifies what a section holds, bullet by bullet, so a
// change made between reading the file and writing it is noticed.
func fingerprint(s markdown.ParsedSection, ok bool) string {
	if !ok {
		return "\x00none"
	}
	var b strings.Builder
	for _, g := range s.Groups {
		b.WriteString(g.Heading)
		b.WriteByte(0)
		for _, bl := range g.Bullets {
			b.WriteString(bl.Raw)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	return b.String()
}

// over reports whether a document is longer than Claude Code loads.
func over(doc []byte, maxLines, maxBytes int) bool {
	if maxLines <= 0 {
		maxLines = markdown.DefaultMaxLines
	}
	if maxBytes <= 0 {
		maxBytes = markdown.DefaultMaxBytes
	}
	lines := bytes.Count(doc, []byte("\n"))
	if len(doc) > 0 && doc[len(doc)-1] != '\n' {
		lines++
	}
	return lines > maxLines || len(doc) > maxBytes
}

// logPlan writes one line per belief whose place in the file changed.
func (p *Promoter) logPlan(path string, pl plan) {
	for _, c := range pl.promoted {
		p.log.Info("belief promoted to MEMORY.md", "belief", c.id, "path", path)
	}
	for _, c := range pl.repromoted {
		p.log.Info("belief promoted again after recovering", "belief", c.id, "path", path)
	}
	for _, c := range pl.demoted {
		p.log.Info("belief moved to Former Beliefs", "belief", c.id, "path", path, "reason", c.reason)
	}
	for _, c := range pl.removed {
		p.log.Info("belief removed from MEMORY.md", "belief", c.id, "path", path, "reason", c.reason)
	}
}

// logEdits writes one line per edit a person made.
func (p *Promoter) logEdits(path string, e edits) {
	for _, d := range e.deleted {
		p.log.Info("promoted bullet deleted by a person; belief rejected", "belief", d.ID, "path", path)
	}
	for _, f := range e.deletedFormer {
		p.log.Info("former bullet deleted by a person", "belief", f.ID, "path", path)
	}
	for range e.added {
		p.log.Info("bullet added by a person; recorded as a pinned belief", "path", path)
	}
}
